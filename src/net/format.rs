//! The policy-value network's file (`safetensors`, the names and shapes
//! the module documentation lists): reading, writing, the built-in network
//! and a random start.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use safetensors::SafeTensors;

use super::files::{NetError, NetFiles};
use super::kernel::Conv;
use super::planes::PLANES;
use super::pv::{Linear, PvNet};

/// The built-in network, trained for 7x7 by the command in
/// `experiments/learned-search/README.md`.
const BUILTIN: &[u8] = include_bytes!("../../data/zero-7.safetensors");

impl PvNet {
    /// The built-in network, read once per process and shared by every
    /// bot that plays it.
    pub fn builtin() -> Arc<PvNet> {
        static NET: OnceLock<Arc<PvNet>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(
                PvNet::from_bytes(BUILTIN).unwrap_or_else(|e| {
                    unreachable!("the built-in network is checked by a test: {e}")
                }),
            )
        })
        .clone()
    }

    /// The network in `path`, read once per process and path and shared
    /// by every bot that names it.
    ///
    /// # Errors
    /// The file cannot be read or is not a network.
    pub fn load(path: &Path) -> Result<Arc<PvNet>, NetError> {
        static FILES: NetFiles<Arc<PvNet>> = NetFiles::new("policy-value network");
        FILES
            .get(path, |bytes| PvNet::from_bytes(bytes).map(Arc::new))
            .map(Arc::clone)
    }

    /// Reads a network from the bytes of a `safetensors` file.
    ///
    /// # Errors
    /// A missing tensor, a wrong dtype or shape, named in the message.
    pub fn from_bytes(bytes: &[u8]) -> Result<PvNet, String> {
        let st = SafeTensors::deserialize(bytes).map_err(|e| e.to_string())?;
        let stem = read_conv(&st, "stem", Some(PLANES))?;
        let channels = stem.cout;
        let mut blocks = Vec::new();
        while st
            .tensor(&format!("block{}.conv1.weight", blocks.len()))
            .is_ok()
        {
            let i = blocks.len();
            let a = read_conv(&st, &format!("block{i}.conv1"), Some(channels))?;
            let b = read_conv(&st, &format!("block{i}.conv2"), Some(channels))?;
            if a.cout != channels || b.cout != channels {
                return Err(format!("block{i} does not keep {channels} channels"));
            }
            blocks.push((a, b));
        }
        let (pshape, policy) = read_f32(&st, "policy.weight")?;
        if pshape != [1, channels, 1, 1] {
            return Err(shape_err("policy.weight", &[1, channels, 1, 1], &pshape));
        }
        let (bshape, pbias) = read_f32(&st, "policy.bias")?;
        if bshape != [1] {
            return Err(shape_err("policy.bias", &[1], &bshape));
        }
        let swap = read_linear(&st, "swap", channels, Some(1))?;
        let value1 = read_linear(&st, "value1", channels, None)?;
        let value2 = read_linear(&st, "value2", value1.cout, Some(1))?;
        let pools = (0..blocks.len())
            .filter(|i| st.tensor(&format!("block{i}.pool.weight")).is_ok())
            .map(|i| read_linear(&st, &format!("block{i}.pool"), 2 * channels, Some(channels)))
            .collect::<Result<Vec<_>, _>>()?;
        if !pools.is_empty() && pools.len() != blocks.len() {
            return Err(format!(
                "{} of {} blocks have global pooling: all or none",
                pools.len(),
                blocks.len()
            ));
        }
        let margin = if st.tensor("margin.weight").is_ok() {
            Some(read_linear(&st, "margin", value1.cout, Some(1))?)
        } else {
            None
        };
        Ok(PvNet {
            channels,
            stem,
            blocks,
            policy,
            policy_bias: pbias[0],
            swap,
            value1,
            value2,
            pools,
            margin,
        })
    }

    /// The network with global pooling in every block, its maps drawn
    /// at random from `seed` (a new network of `pahtum train
    /// --global-pool`).
    pub fn with_pooling(mut self, seed: u64) -> PvNet {
        let c = self.channels;
        let mut rng = crate::game::rng::FastRng::new(seed);
        self.pools = (0..self.blocks.len())
            .map(|_| random_linear(2 * c, c, &mut rng))
            .collect();
        self
    }

    /// The network with the auxiliary margin head, drawn at random from
    /// `seed` (a new network of `pahtum train --margin-head`).
    pub fn with_margin_head(mut self, seed: u64) -> PvNet {
        let mut rng = crate::game::rng::FastRng::new(seed);
        self.margin = Some(random_linear(self.value1.cout, 1, &mut rng));
        self
    }

    /// A network of the given shape with random weights (He's scaling,
    /// from `seed`), the untrained start of `pahtum train` and of tests.
    pub fn random(channels: usize, blocks: usize, hidden: usize, seed: u64) -> PvNet {
        let mut rng = crate::game::rng::FastRng::new(seed);
        let mut uniform = |fan_in: usize, len: usize| -> Vec<f32> {
            let bound = (6.0 / fan_in as f64).sqrt();
            (0..len)
                .map(|_| ((rng.unit() * 2.0 - 1.0) * bound) as f32)
                .collect()
        };
        let mut conv = |cin: usize, cout: usize| Conv {
            cin,
            cout,
            weight: uniform(9 * cin, 9 * cin * cout),
            bias: vec![0.0; cout],
        };
        let stem = conv(PLANES, channels);
        let blocks = (0..blocks)
            .map(|_| (conv(channels, channels), conv(channels, channels)))
            .collect();
        let mut linear = |cin: usize, cout: usize| Linear {
            cin,
            cout,
            weight: uniform(cin, cin * cout),
            bias: vec![0.0; cout],
        };
        let swap = linear(channels, 1);
        let value1 = linear(channels, hidden);
        let value2 = linear(hidden, 1);
        let policy = linear(channels, 1).weight;
        PvNet {
            channels,
            stem,
            blocks,
            policy,
            policy_bias: 0.0,
            swap,
            value1,
            value2,
            pools: Vec::new(),
            margin: None,
        }
    }

    /// The network as the bytes of a `safetensors` file, in the trainer's
    /// names and shapes (the module documentation lists them).
    pub fn to_bytes(&self) -> Vec<u8> {
        use safetensors::tensor::{Dtype, TensorView};
        let c = self.channels;
        let conv_oihw = |l: &Conv| -> Vec<f32> {
            let mut w = vec![0f32; l.weight.len()];
            for o in 0..l.cout {
                for i in 0..l.cin {
                    for k in 0..9 {
                        w[(o * l.cin + i) * 9 + k] = l.weight[(k * l.cin + i) * l.cout + o];
                    }
                }
            }
            w
        };
        let mut tensors: Vec<(String, Vec<usize>, Vec<f32>)> = Vec::new();
        let push_conv = |name: String, l: &Conv, t: &mut Vec<(String, Vec<usize>, Vec<f32>)>| {
            t.push((
                format!("{name}.weight"),
                vec![l.cout, l.cin, 3, 3],
                conv_oihw(l),
            ));
            t.push((format!("{name}.bias"), vec![l.cout], l.bias.clone()));
        };
        push_conv("stem".into(), &self.stem, &mut tensors);
        for (i, (a, b)) in self.blocks.iter().enumerate() {
            push_conv(format!("block{i}.conv1"), a, &mut tensors);
            push_conv(format!("block{i}.conv2"), b, &mut tensors);
        }
        tensors.push((
            "policy.weight".into(),
            vec![1, c, 1, 1],
            self.policy.clone(),
        ));
        tensors.push(("policy.bias".into(), vec![1], vec![self.policy_bias]));
        for (name, l) in [
            ("swap", &self.swap),
            ("value1", &self.value1),
            ("value2", &self.value2),
        ] {
            tensors.push((
                format!("{name}.weight"),
                vec![l.cout, l.cin],
                l.weight.clone(),
            ));
            tensors.push((format!("{name}.bias"), vec![l.cout], l.bias.clone()));
        }
        let pools = (self.pools.iter().enumerate()).map(|(i, l)| (format!("block{i}.pool"), l));
        for (name, l) in pools.chain(self.margin.iter().map(|l| ("margin".to_string(), l))) {
            tensors.push((
                format!("{name}.weight"),
                vec![l.cout, l.cin],
                l.weight.clone(),
            ));
            tensors.push((format!("{name}.bias"), vec![l.cout], l.bias.clone()));
        }
        let bytes: Vec<(String, Vec<usize>, Vec<u8>)> = tensors
            .into_iter()
            .map(|(n, s, d)| (n, s, d.iter().flat_map(|x| x.to_le_bytes()).collect()))
            .collect();
        let views: Vec<(String, TensorView<'_>)> = bytes
            .iter()
            .map(|(n, s, d)| {
                let view = TensorView::new(Dtype::F32, s.clone(), d)
                    .unwrap_or_else(|e| unreachable!("shapes match their data: {e}"));
                (n.clone(), view)
            })
            .collect();
        safetensors::serialize(views, None)
            .unwrap_or_else(|e| unreachable!("f32 tensors always serialise: {e}"))
    }
}

/// A linear map with He's uniform scaling and zero bias.
fn random_linear(cin: usize, cout: usize, rng: &mut crate::game::rng::FastRng) -> Linear {
    let bound = (6.0 / cin as f64).sqrt();
    Linear {
        cin,
        cout,
        weight: (0..cin * cout)
            .map(|_| ((rng.unit() * 2.0 - 1.0) * bound) as f32)
            .collect(),
        bias: vec![0.0; cout],
    }
}

/// The shape and `f32` data of tensor `name`.
fn read_f32(st: &SafeTensors<'_>, name: &str) -> Result<(Vec<usize>, Vec<f32>), String> {
    let t = st.tensor(name).map_err(|_| format!("no tensor '{name}'"))?;
    if t.dtype() != safetensors::Dtype::F32 {
        return Err(format!("tensor '{name}' is {:?}, not F32", t.dtype()));
    }
    let data = t
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok((t.shape().to_vec(), data))
}

fn shape_err(name: &str, want: &[usize], got: &[usize]) -> String {
    format!("tensor '{name}' has shape {got:?}, expected {want:?}")
}

/// The 3x3 convolution `name` (`cin` input channels when given), turned
/// from the file's `[out][in][ky][kx]` to the engine's `[tap][in][out]`.
fn read_conv(st: &SafeTensors<'_>, name: &str, cin: Option<usize>) -> Result<Conv, String> {
    let wname = format!("{name}.weight");
    let (shape, w) = read_f32(st, &wname)?;
    let (cout, c_in) = match shape[..] {
        [o, i, 3, 3] if cin.is_none_or(|c| c == i) => (o, i),
        _ => return Err(shape_err(&wname, &[0, cin.unwrap_or(0), 3, 3], &shape)),
    };
    let bname = format!("{name}.bias");
    let (bshape, bias) = read_f32(st, &bname)?;
    if bshape != [cout] {
        return Err(shape_err(&bname, &[cout], &bshape));
    }
    let mut weight = vec![0f32; 9 * c_in * cout];
    for o in 0..cout {
        for i in 0..c_in {
            for k in 0..9 {
                weight[(k * c_in + i) * cout + o] = w[(o * c_in + i) * 9 + k];
            }
        }
    }
    Ok(Conv {
        cin: c_in,
        cout,
        weight,
        bias,
    })
}

/// The linear map `name` from `cin` inputs (to `cout` outputs when given).
fn read_linear(
    st: &SafeTensors<'_>,
    name: &str,
    cin: usize,
    cout: Option<usize>,
) -> Result<Linear, String> {
    let wname = format!("{name}.weight");
    let (shape, weight) = read_f32(st, &wname)?;
    let out = match shape[..] {
        [o, i] if i == cin && cout.is_none_or(|c| c == o) => o,
        _ => return Err(shape_err(&wname, &[cout.unwrap_or(0), cin], &shape)),
    };
    let bname = format!("{name}.bias");
    let (bshape, bias) = read_f32(st, &bname)?;
    if bshape != [out] {
        return Err(shape_err(&bname, &[out], &bshape));
    }
    Ok(Linear {
        cin,
        cout: out,
        weight,
        bias,
    })
}
