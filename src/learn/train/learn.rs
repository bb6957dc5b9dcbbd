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
    policy: Conv2d,
    swap: Linear,
    value1: Linear,
    value2: Linear,
}

impl Layers {
    fn new(
        vb: &VarBuilder<'_>,
        channels: usize,
        blocks: usize,
        hidden: usize,
    ) -> candle_core::Result<Layers> {
        let pad = Conv2dConfig {
            padding: 1,
            ..Default::default()
        };
        let stem = candle_nn::conv2d(PLANES, channels, 3, pad, vb.pp("stem"))?;
        let blocks = (0..blocks)
            .map(|i| {
                let b = vb.pp(format!("block{i}"));
                Ok((
                    candle_nn::conv2d(channels, channels, 3, pad, b.pp("conv1"))?,
                    candle_nn::conv2d(channels, channels, 3, pad, b.pp("conv2"))?,
                ))
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        let policy = candle_nn::conv2d(channels, 1, 1, Conv2dConfig::default(), vb.pp("policy"))?;
        let swap = candle_nn::linear(channels, 1, vb.pp("swap"))?;
        let value1 = candle_nn::linear(channels, hidden, vb.pp("value1"))?;
        let value2 = candle_nn::linear(hidden, 1, vb.pp("value2"))?;
        Ok(Layers {
            stem,
            blocks,
            policy,
            swap,
            value1,
            value2,
        })
    }

    /// Logits `[batch, size * size + 1]` and values `[batch]` of input
    /// planes `[batch, PLANES, size, size]`.
    pub fn forward(&self, x: &Tensor) -> candle_core::Result<(Tensor, Tensor)> {
        let (b, _, s, _) = x.dims4()?;
        let mut h = self.stem.forward(x)?.relu()?;
        for (c1, c2) in &self.blocks {
            let y = c2.forward(&c1.forward(&h)?.relu()?)?;
            h = (y + h)?.relu()?;
        }
        let p = self.policy.forward(&h)?.reshape((b, s * s))?;
        let mean = h.mean(D::Minus1)?.mean(D::Minus1)?;
        let swap = self.swap.forward(&mean)?;
        let logits = Tensor::cat(&[&p, &swap], 1)?;
        let v = self
            .value2
            .forward(&self.value1.forward(&mean)?.relu()?)?
            .tanh()?
            .reshape(b)?;
        Ok((logits, v))
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
        let model = Layers::new(&vb, net.channels(), net.blocks(), net.hidden()).map_err(err)?;
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
        let (l, v) = self.model.forward(&x).map_err(err)?;
        Ok((l.to_vec2().map_err(err)?, v.to_vec1().map_err(err)?))
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
        let width = swap_index(size) + 1;
        let (mut pl, mut vl) = (0.0, 0.0);
        for _ in 0..steps {
            let picked: Vec<(Sample, u8)> = (0..batch)
                .map(|_| {
                    let s = &buffer[rng.random_range(0..buffer.len())];
                    (s.clone(), rng.random_range(0..8u8))
                })
                .collect();
            let x = self.inputs(&picked)?;
            let mut target = vec![0f32; batch * width];
            let mut mask = vec![0f32; batch * width];
            let mut z = vec![0f32; batch];
            for (b, (s, sym)) in picked.iter().enumerate() {
                let row = s.transformed_policy(*sym);
                target[b * width..(b + 1) * width].copy_from_slice(&row);
                let f = s.features.transform(*sym);
                let free =
                    !(f.mine | f.theirs | f.holes) & crate::game::bitboard::Bitboard::full(size);
                for sq in free {
                    mask[b * width + crate::net::square_index(sq, size)] = 1.0;
                }
                if f.swap {
                    mask[b * width + width - 1] = 1.0;
                }
                z[b] = s.z;
            }
            let dev = &self.device;
            let target = Tensor::from_vec(target, (batch, width), dev).map_err(err)?;
            // Illegal moves get a logit far below any legal one.
            let mask = Tensor::from_vec(mask, (batch, width), dev).map_err(err)?;
            let z = Tensor::from_vec(z, batch, dev).map_err(err)?;
            let (logits, v) = self.model.forward(&x).map_err(err)?;
            let masked =
                (logits + ((mask - 1.0).map_err(err)? * 1e4).map_err(err)?).map_err(err)?;
            let logp = candle_nn::ops::log_softmax(&masked, 1).map_err(err)?;
            let policy = (target * logp)
                .and_then(|t| t.sum(1))
                .and_then(|t| t.mean_all())
                .and_then(|t| t.neg())
                .map_err(err)?;
            let value = (v - z)
                .and_then(|d| d.sqr())
                .and_then(|d| d.mean_all())
                .map_err(err)?;
            let loss = (&policy + &value).map_err(err)?;
            opt.backward_step(&loss).map_err(err)?;
            pl += f64::from(policy.to_scalar::<f32>().map_err(err)?);
            vl += f64::from(value.to_scalar::<f32>().map_err(err)?);
        }
        Ok((pl / f64::from(steps), vl / f64::from(steps)))
    }
}
