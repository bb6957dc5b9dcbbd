//! The network of [`crate::net`] in candle, with its training step: the
//! part of `pahtum train` that needs gradients.
//!
//! The layers, names and shapes are those `crate::net` reads, so a saved
//! `VarMap` is a network file as it stands.

use candle_core::{D, DType, Device, Module, Tensor};
use candle_nn::{Conv2d, Conv2dConfig, Linear, Optimizer, ParamsAdamW, VarBuilder, VarMap};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::Sample;
use crate::net::{PLANES, PvNet, swap_index};

/// A weight decay small enough not to fight the policy's cross-entropy,
/// the order AlphaZero used (1e-4).
const WEIGHT_DECAY: f64 = 1e-4;

/// The margin loss's weight beside the policy's and the value's, with
/// margins in units of `POINTS_UNIT` points (squared errors of a few
/// units): small, so that the head shapes the shared layers without
/// outweighing the targets the search uses (KataGo weighs its score
/// target about as low).
const MARGIN_WEIGHT: f64 = 0.05;

/// A batch's targets, under each sample's symmetry.
struct Targets {
    /// Policy targets `[batch, width]`.
    policy: Tensor,
    /// 1 on the legal moves, 0 elsewhere, `[batch, width]`.
    legal: Tensor,
    /// Value targets `[batch]`.
    z: Tensor,
    /// Margin targets `[batch]` in units of `POINTS_UNIT` points (0 where
    /// the sample has none).
    margin: Tensor,
    /// 1 where the sample has a margin target, `[batch]`.
    has_margin: Tensor,
}

impl Targets {
    fn of(picked: &[(Sample, u8)], size: u8, dev: &Device) -> Result<Targets, LearnError> {
        let (batch, width) = (picked.len(), swap_index(size) + 1);
        let mut policy = vec![0f32; batch * width];
        let mut legal = vec![0f32; batch * width];
        let (mut z, mut margin, mut has_margin) =
            (vec![0f32; batch], vec![0f32; batch], vec![0f32; batch]);
        for (b, (s, sym)) in picked.iter().enumerate() {
            policy[b * width..(b + 1) * width].copy_from_slice(&s.transformed_policy(*sym));
            let f = s.features.transform(*sym);
            let free = !(f.mine | f.theirs | f.holes) & crate::game::bitboard::Bitboard::full(size);
            for sq in free {
                legal[b * width + crate::net::square_index(sq, size)] = 1.0;
            }
            if f.swap {
                legal[b * width + width - 1] = 1.0;
            }
            z[b] = s.z;
            if let Some(m) = margin_target(s) {
                margin[b] = m / crate::net::POINTS_UNIT;
                has_margin[b] = 1.0;
            }
        }
        let t = |v: Vec<f32>, shape: (usize, usize)| Tensor::from_vec(v, shape, dev).map_err(err);
        let flat = |v: Vec<f32>| Tensor::from_vec(v, batch, dev).map_err(err);
        Ok(Targets {
            policy: t(policy, (batch, width))?,
            legal: t(legal, (batch, width))?,
            z: flat(z)?,
            margin: flat(margin)?,
            has_margin: flat(has_margin)?,
        })
    }
}

/// The sample's final margin for the side to move, in points, when it
/// has one.
fn margin_target(_s: &Sample) -> Option<f32> {
    None
}

/// Why training failed: a candle error, or a network file it cannot read.
#[derive(Debug, thiserror::Error)]
#[error("training: {0}")]
pub struct LearnError(pub String);

fn err<E: std::fmt::Display>(e: E) -> LearnError {
    LearnError(e.to_string())
}

/// The network as candle layers.
pub struct Layers {
    stem: Conv2d,
    blocks: Vec<(Conv2d, Conv2d)>,
    /// Global pooling, one per block or none (`crate::net` says what it
    /// computes).
    pools: Vec<Linear>,
    policy: Conv2d,
    swap: Linear,
    value1: Linear,
    value2: Linear,
    /// The auxiliary margin head, when the network has one.
    margin: Option<Linear>,
}

/// What the network says of a batch: logits `[batch, size * size + 1]`,
/// values `[batch]`, and the margins `[batch]` when it has the head.
pub struct Outputs {
    /// The policy's logits.
    pub logits: Tensor,
    /// The values, in `[-1, 1]`.
    pub values: Tensor,
    /// The predicted final margins in units of `POINTS_UNIT` points.
    pub margins: Option<Tensor>,
}

/// The shape of a network, as [`PvNet`] reads it off its file.
#[derive(Clone, Copy, Debug)]
struct Shape {
    channels: usize,
    blocks: usize,
    hidden: usize,
    pooled: bool,
    margin: bool,
}

impl Layers {
    fn new(vb: &VarBuilder<'_>, shape: Shape) -> candle_core::Result<Layers> {
        let Shape {
            channels, hidden, ..
        } = shape;
        let pad = Conv2dConfig {
            padding: 1,
            ..Default::default()
        };
        let stem = candle_nn::conv2d(PLANES, channels, 3, pad, vb.pp("stem"))?;
        let blocks = (0..shape.blocks)
            .map(|i| {
                let b = vb.pp(format!("block{i}"));
                Ok((
                    candle_nn::conv2d(channels, channels, 3, pad, b.pp("conv1"))?,
                    candle_nn::conv2d(channels, channels, 3, pad, b.pp("conv2"))?,
                ))
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        let pools = (0..shape.blocks)
            .filter(|_| shape.pooled)
            .map(|i| candle_nn::linear(2 * channels, channels, vb.pp(format!("block{i}.pool"))))
            .collect::<candle_core::Result<Vec<_>>>()?;
        let policy = candle_nn::conv2d(channels, 1, 1, Conv2dConfig::default(), vb.pp("policy"))?;
        let swap = candle_nn::linear(channels, 1, vb.pp("swap"))?;
        let value1 = candle_nn::linear(channels, hidden, vb.pp("value1"))?;
        let value2 = candle_nn::linear(hidden, 1, vb.pp("value2"))?;
        let margin = if shape.margin {
            Some(candle_nn::linear(hidden, 1, vb.pp("margin"))?)
        } else {
            None
        };
        Ok(Layers {
            stem,
            blocks,
            pools,
            policy,
            swap,
            value1,
            value2,
            margin,
        })
    }

    /// The outputs for input planes `[batch, PLANES, size, size]`.
    pub fn forward(&self, x: &Tensor) -> candle_core::Result<Outputs> {
        let (b, _, s, _) = x.dims4()?;
        let mut h = self.stem.forward(x)?.relu()?;
        for (i, (c1, c2)) in self.blocks.iter().enumerate() {
            let mut y = c1.forward(&h)?.relu()?;
            if let Some(pool) = self.pools.get(i) {
                let mean = y.mean(D::Minus1)?.mean(D::Minus1)?;
                let max = y.max(D::Minus1)?.max(D::Minus1)?;
                let bias = pool.forward(&Tensor::cat(&[&mean, &max], 1)?)?;
                let c = bias.dim(1)?;
                y = y.broadcast_add(&bias.reshape((b, c, 1, 1))?)?;
            }
            h = (c2.forward(&y)? + h)?.relu()?;
        }
        let p = self.policy.forward(&h)?.reshape((b, s * s))?;
        let mean = h.mean(D::Minus1)?.mean(D::Minus1)?;
        let swap = self.swap.forward(&mean)?;
        let logits = Tensor::cat(&[&p, &swap], 1)?;
        let hidden = self.value1.forward(&mean)?.relu()?;
        let values = self.value2.forward(&hidden)?.tanh()?.reshape(b)?;
        let margins = match &self.margin {
            Some(m) => Some(m.forward(&hidden)?.reshape(b)?),
            None => None,
        };
        Ok(Outputs {
            logits,
            values,
            margins,
        })
    }
}

/// A network being trained: its variables and layers.
pub struct Learner {
    varmap: VarMap,
    model: Layers,
    device: Device,
}

impl Learner {
    /// The network in the `safetensors` bytes `bytes` (a [`PvNet`] file),
    /// ready to train.
    ///
    /// # Errors
    /// Bytes that are not a network.
    pub fn from_bytes(bytes: &[u8]) -> Result<Learner, LearnError> {
        let net = PvNet::from_bytes(bytes).map_err(LearnError)?;
        let device = Device::Cpu;
        let varmap = VarMap::new();
        let vb = VarBuilder::from_varmap(&varmap, DType::F32, &device);
        let shape = Shape {
            channels: net.channels(),
            blocks: net.blocks(),
            hidden: net.hidden(),
            pooled: net.pooled(),
            margin: net.has_margin_head(),
        };
        let model = Layers::new(&vb, shape).map_err(err)?;
        let tensors = candle_core::safetensors::load_buffer(bytes, &device).map_err(err)?;
        for (name, var) in varmap.data().lock().map_err(err)?.iter() {
            let t = tensors
                .get(name)
                .ok_or_else(|| LearnError(format!("no tensor '{name}'")))?;
            var.set(t).map_err(err)?;
        }
        Ok(Learner {
            varmap,
            model,
            device,
        })
    }

    /// The network as the bytes of a `safetensors` file.
    ///
    /// # Errors
    /// A tensor that cannot be read back.
    pub fn to_bytes(&self) -> Result<Vec<u8>, LearnError> {
        let data = self.varmap.data().lock().map_err(err)?;
        let mut names: Vec<&String> = data.keys().collect();
        names.sort();
        let mut map = std::collections::HashMap::new();
        for n in names {
            map.insert(n.clone(), data[n].as_tensor().clone());
        }
        let dir = std::env::temp_dir().join(format!("pahtum-net-{}", std::process::id()));
        candle_core::safetensors::save(&map, &dir).map_err(err)?;
        let bytes = std::fs::read(&dir).map_err(err)?;
        let _ = std::fs::remove_file(&dir);
        // Read back through the engine's reader, then written by it, so
        // the file's bytes do not depend on candle's layout.
        let net = PvNet::from_bytes(&bytes).map_err(LearnError)?;
        Ok(net.to_bytes())
    }

    /// The input planes of `samples` (each under its symmetry) as a tensor.
    fn inputs(&self, samples: &[(Sample, u8)]) -> Result<Tensor, LearnError> {
        let size = samples.first().map_or(7, |s| s.0.features.size) as usize;
        let n = size * size;
        let mut cell = vec![0f32; n * PLANES];
        let mut x = vec![0f32; samples.len() * PLANES * n];
        for (b, (s, sym)) in samples.iter().enumerate() {
            s.features.transform(*sym).write(&mut cell);
            for i in 0..n {
                for p in 0..PLANES {
                    x[(b * PLANES + p) * n + i] = cell[i * PLANES + p];
                }
            }
        }
        Tensor::from_vec(x, (samples.len(), PLANES, size, size), &self.device).map_err(err)
    }

    /// The network's logits and values for `samples` (no symmetry), for
    /// checking it against the engine's inference.
    ///
    /// # Errors
    /// A candle error.
    pub fn evaluate(&self, samples: &[Sample]) -> Result<(Vec<Vec<f32>>, Vec<f32>), LearnError> {
        let with: Vec<(Sample, u8)> = samples.iter().map(|s| (s.clone(), 0)).collect();
        let x = self.inputs(&with)?;
        let out = self.model.forward(&x).map_err(err)?;
        Ok((
            out.logits.to_vec2().map_err(err)?,
            out.values.to_vec1().map_err(err)?,
        ))
    }

    /// `steps` steps of AdamW at learning rate `lr` on batches of `batch`
    /// samples drawn from `buffer` (each under a random symmetry of the
    /// square); returns the mean policy and value losses.
    ///
    /// # Errors
    /// A candle error.
    pub fn train(
        &mut self,
        buffer: &[Sample],
        steps: u32,
        batch: usize,
        lr: f64,
        rng: &mut ChaCha8Rng,
    ) -> Result<(f64, f64), LearnError> {
        if buffer.is_empty() || steps == 0 {
            return Ok((0.0, 0.0));
        }
        let params = ParamsAdamW {
            lr,
            weight_decay: WEIGHT_DECAY,
            ..Default::default()
        };
        let mut opt = candle_nn::AdamW::new(self.varmap.all_vars(), params).map_err(err)?;
        let size = buffer[0].features.size;
        let (mut pl, mut vl) = (0.0, 0.0);
        for _ in 0..steps {
            let picked: Vec<(Sample, u8)> = (0..batch)
                .map(|_| {
                    let s = &buffer[rng.random_range(0..buffer.len())];
                    (s.clone(), rng.random_range(0..8u8))
                })
                .collect();
            let x = self.inputs(&picked)?;
            let t = Targets::of(&picked, size, &self.device)?;
            let out = self.model.forward(&x).map_err(err)?;
            // Illegal moves get a logit far below any legal one.
            let masked =
                (out.logits + ((t.legal - 1.0).map_err(err)? * 1e4).map_err(err)?).map_err(err)?;
            let logp = candle_nn::ops::log_softmax(&masked, 1).map_err(err)?;
            let policy = (t.policy * logp)
                .and_then(|t| t.sum(1))
                .and_then(|t| t.mean_all())
                .and_then(|t| t.neg())
                .map_err(err)?;
            let value = (out.values - t.z)
                .and_then(|d| d.sqr())
                .and_then(|d| d.mean_all())
                .map_err(err)?;
            let mut loss = (&policy + &value).map_err(err)?;
            if let Some(m) = out.margins {
                let margin = ((m - t.margin)
                    .and_then(|d| d.sqr())
                    .and_then(|d| d * t.has_margin)
                    .and_then(|d| d.mean_all())
                    .map_err(err)?
                    * MARGIN_WEIGHT)
                    .map_err(err)?;
                loss = (loss + margin).map_err(err)?;
            }
            opt.backward_step(&loss).map_err(err)?;
            pl += f64::from(policy.to_scalar::<f32>().map_err(err)?);
            vl += f64::from(value.to_scalar::<f32>().map_err(err)?);
        }
        Ok((pl / f64::from(steps), vl / f64::from(steps)))
    }
}
