//! A policy and value network of positions, and its inference: the
//! learned part of the `zero` bot.
//!
//! # The network
//! A small residual convolutional network in the style of AlphaZero (Silver
//! et al. 2018), fully convolutional so that one network plays every board
//! size:
//!
//! - input: [`PLANES`] planes of the `size x size` board, from the side to
//!   move's view ([`encode`]): its stones, the opponent's, the holes, the
//!   empty squares, a plane of ones (which, with the zero padding of the
//!   convolutions, marks the edge), whether the side to move is White,
//!   whether the pie swap is offered, the komi for the side to move, and
//!   three planes of the score: what each side would add to its line
//!   score by a stone on each empty square, and the side to move's lead
//!   as the lines stand. The score is a sum over runs that a small
//!   network would need many layers to count; given, it is what the
//!   network learns from first;
//! - a 3x3 convolution to `channels` planes, then `blocks` residual blocks
//!   of two 3x3 convolutions (ReLU after each, the block's input added
//!   before the second ReLU);
//! - the policy: a 1x1 convolution gives one logit per square, and a
//!   linear map of the planes' means gives the swap's logit;
//! - the value: the planes' means through a hidden layer of `hidden` units
//!   (ReLU) to one number, squashed by `tanh`: the expected result for the
//!   side to move, 1 a win, 0 a draw, -1 a loss.
//!
//! There is no batch normalisation: at this size the network trains
//! without it, and inference is then the same arithmetic in training and
//! play.
//!
//! # The file
//! A `safetensors` file of `f32` tensors with the names and shapes the
//! trainer gives them (`pahtum train`, `src/learn/train`): `stem.weight`
//! `[channels, PLANES, 3, 3]` and `stem.bias`, `block{i}.conv{1,2}.weight`
//! `[channels, channels, 3, 3]` and their biases, `policy.weight`
//! `[1, channels, 1, 1]`, `swap.weight` `[1, channels]`, `value1.weight`
//! `[hidden, channels]`, `value2.weight` `[1, hidden]`, each with a bias.
//! The sizes are read off the shapes, so the file is all there is.
//!
//! # Speed
//! Activations are kept square by square with the channels contiguous, and
//! each 3x3 weight is stored `[tap][in][out]`, so the innermost loop runs
//! over output channels and vectorises. An input that is zero (most of the
//! input planes, and about half of every layer after its ReLU) is skipped.
//! Each position is computed alone, so a batch is the same numbers as its
//! positions one at a time, whatever the threads; a batch only shares the
//! scratch memory and spreads positions over threads
//! ([`PvNet::evaluate_batch`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use rayon::prelude::*;

use crate::game::bitboard::Bitboard;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::scoring::{gain, score};
use crate::game::square::Square;

/// Input planes per square ([`encode`]).
pub const PLANES: usize = 11;

/// The policy's index of the swap: after the `size * size` squares.
pub fn swap_index(size: u8) -> usize {
    size as usize * size as usize
}

/// The policy's index of `sq` on a board of side `size`: `row * size +
/// col`, the layout of the planes.
#[inline]
pub fn square_index(sq: Square, size: u8) -> usize {
    sq.row() as usize * size as usize + sq.col() as usize
}

/// The square of policy index `i` (below `size * size`).
#[inline]
pub fn index_square(i: usize, size: u8) -> Square {
    let s = size as usize;
    Square::new((i % s) as u8, (i / s) as u8)
}

/// Komi, scores and gains are given to the network in units of this many
/// points, so that usual values are inputs of the order of one.
const POINTS_UNIT: f32 = 10.0;

/// What the input planes are made of: a position from the side to move's
/// view, small enough to keep by the hundred thousand (`pahtum train`'s
/// replay buffer) and turned into planes by [`Features::write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    /// The side to move's stones.
    pub mine: Bitboard,
    /// The other side's stones.
    pub theirs: Bitboard,
    /// The holes.
    pub holes: Bitboard,
    /// Board side.
    pub size: u8,
    /// Whether the side to move is White.
    pub white: bool,
    /// Whether the pie swap is offered.
    pub swap: bool,
    /// Komi for the side to move, in half points (positive: in its favour).
    pub komi_halves: i32,
}

impl Features {
    /// The features of `pos`.
    pub fn of(pos: &Position) -> Features {
        let me = pos.turn();
        // Komi goes to Black.
        let k = pos.komi().halves();
        Features {
            mine: pos.stones(me),
            theirs: pos.stones(!me),
            holes: pos.holes(),
            size: pos.size(),
            white: me == Player::White,
            swap: pos.can_swap(),
            komi_halves: if me == Player::Black { k } else { -k },
        }
    }

    /// The same position under symmetry `sym` of the square (0..8, as
    /// [`Square::transform`]).
    pub fn transform(&self, sym: u8) -> Features {
        Features {
            mine: self.mine.transform(sym, self.size),
            theirs: self.theirs.transform(sym, self.size),
            holes: self.holes.transform(sym, self.size),
            ..*self
        }
    }

    /// Writes the input planes into `out` (`size * size * PLANES` numbers,
    /// square by square, the planes of a square contiguous).
    pub fn write(&self, out: &mut [f32]) {
        let n = self.size as usize * self.size as usize;
        debug_assert_eq!(out.len(), n * PLANES);
        let white = f32::from(u8::from(self.white));
        let swap = f32::from(u8::from(self.swap));
        let komi = self.komi_halves as f32 / 2.0 / POINTS_UNIT;
        let lead = (score(self.mine) as f32 - score(self.theirs) as f32) / POINTS_UNIT;
        for (i, cell) in out.chunks_exact_mut(PLANES).enumerate() {
            let sq = index_square(i, self.size);
            let (m, t, h) = (
                self.mine.contains(sq),
                self.theirs.contains(sq),
                self.holes.contains(sq),
            );
            cell[0] = f32::from(u8::from(m));
            cell[1] = f32::from(u8::from(t));
            cell[2] = f32::from(u8::from(h));
            cell[3] = f32::from(u8::from(!(m || t || h)));
            cell[4] = 1.0;
            cell[5] = white;
            cell[6] = swap;
            cell[7] = komi;
            let free = cell[3] != 0.0;
            cell[8] = if free {
                gain(self.mine, sq) as f32 / POINTS_UNIT
            } else {
                0.0
            };
            cell[9] = if free {
                gain(self.theirs, sq) as f32 / POINTS_UNIT
            } else {
                0.0
            };
            cell[10] = lead;
        }
    }
}

/// Writes the input planes of `pos` into `out` (`size * size * PLANES`
/// numbers, square by square, the planes of a square contiguous), from the
/// side to move's view.
pub fn encode(pos: &Position, out: &mut [f32]) {
    Features::of(pos).write(out);
}

/// A 3x3 or 1x1 convolution's weights, stored `[tap][in][out]`.
#[derive(Clone, Debug, PartialEq)]
struct Conv {
    cin: usize,
    cout: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// A linear map, stored `[out][in]` as in the file.
#[derive(Clone, Debug, PartialEq)]
struct Linear {
    cin: usize,
    cout: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

impl Linear {
    fn apply(&self, x: &[f32], out: &mut [f32]) {
        for (o, (row, b)) in out
            .iter_mut()
            .zip(self.weight.chunks_exact(self.cin).zip(&self.bias))
        {
            *o = b + dot(row, x);
        }
    }
}

#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A policy and value network (the module documentation says what it
/// computes).
#[derive(Clone, Debug, PartialEq)]
pub struct PvNet {
    channels: usize,
    stem: Conv,
    blocks: Vec<(Conv, Conv)>,
    /// The policy's 1x1 convolution: one weight per channel.
    policy: Vec<f32>,
    policy_bias: f32,
    swap: Linear,
    value1: Linear,
    value2: Linear,
}

/// What the network says of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Logits by policy index ([`square_index`], [`swap_index`]): `size *
    /// size + 1` numbers, for legal and illegal moves alike.
    pub logits: Vec<f32>,
    /// The expected result for the side to move, in `[-1, 1]`.
    pub value: f32,
}

/// Why a network file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read.
    #[error("cannot read {kind} '{path}': {source}")]
    Read {
        /// What the file was to hold ("line network", "policy-value
        /// network").
        kind: &'static str,
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The bytes are not a network of this kind and shape.
    #[error("'{path}' is not a {kind}: {why}")]
    Format {
        /// What the file was to hold.
        kind: &'static str,
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

/// Network files read once per process, by path, for one kind of
/// network: every bot that names a file shares one copy of its weights,
/// which lives as long as the process.
pub struct NetFiles<T: 'static> {
    /// What the files hold, for errors ("line network").
    kind: &'static str,
    read: Mutex<Vec<(PathBuf, &'static T)>>,
}

impl<T: Sync> NetFiles<T> {
    /// No file read yet; `kind` names the networks in errors.
    pub const fn new(kind: &'static str) -> NetFiles<T> {
        NetFiles {
            kind,
            read: Mutex::new(Vec::new()),
        }
    }

    /// The network that `parse` makes of the file at `path`, read at the
    /// first call for that path.
    ///
    /// # Errors
    /// The file cannot be read, or `parse` refuses its bytes (why).
    pub fn get(
        &self,
        path: &Path,
        parse: impl FnOnce(&[u8]) -> Result<T, String>,
    ) -> Result<&'static T, NetError> {
        // A poisoned lock only means another thread panicked while
        // reading; the list itself is still consistent.
        let mut read = self.read.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, net)) = read.iter().find(|(p, _)| p == path) {
            return Ok(net);
        }
        let (kind, shown) = (self.kind, path.display().to_string());
        let bytes = std::fs::read(path).map_err(|source| NetError::Read {
            kind,
            path: shown.clone(),
            source,
        })?;
        let net = parse(&bytes).map_err(|why| NetError::Format {
            kind,
            path: shown,
            why,
        })?;
        let net: &'static T = Box::leak(Box::new(net));
        read.push((path.to_path_buf(), net));
        Ok(net)
    }
}

/// The built-in network, trained for 7x7 by the command in
/// `experiments/learned-search/README.md`.
const BUILTIN: &[u8] = include_bytes!("../data/zero-7.safetensors");

impl PvNet {
    /// The built-in network, read once per process.
    pub fn builtin() -> &'static PvNet {
        static NET: OnceLock<PvNet> = OnceLock::new();
        NET.get_or_init(|| {
            PvNet::from_bytes(BUILTIN)
                .unwrap_or_else(|e| unreachable!("the built-in network is checked by a test: {e}"))
        })
    }

    /// The network in `path`, read once per process and path.
    ///
    /// # Errors
    /// The file cannot be read or is not a network.
    pub fn load(path: &Path) -> Result<&'static PvNet, NetError> {
        static FILES: NetFiles<PvNet> = NetFiles::new("policy-value network");
        FILES.get(path, PvNet::from_bytes)
    }

    /// Reads a network from the bytes of a `safetensors` file.
    ///
    /// # Errors
    /// A missing tensor, a wrong dtype or shape, named in the message.
    pub fn from_bytes(bytes: &[u8]) -> Result<PvNet, String> {
        let st = safetensors::SafeTensors::deserialize(bytes).map_err(|e| e.to_string())?;
        let get = |name: &str| -> Result<(Vec<usize>, Vec<f32>), String> {
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
        };
        let shape_err = |name: &str, want: &[usize], got: &[usize]| {
            format!("tensor '{name}' has shape {got:?}, expected {want:?}")
        };
        let conv = |name: &str, cin: Option<usize>| -> Result<Conv, String> {
            let wname = format!("{name}.weight");
            let (shape, w) = get(&wname)?;
            let (cout, c_in) = match shape[..] {
                [o, i, 3, 3] if cin.is_none_or(|c| c == i) => (o, i),
                _ => return Err(shape_err(&wname, &[0, cin.unwrap_or(0), 3, 3], &shape)),
            };
            let bname = format!("{name}.bias");
            let (bshape, bias) = get(&bname)?;
            if bshape != [cout] {
                return Err(shape_err(&bname, &[cout], &bshape));
            }
            // [out][in][ky][kx] -> [tap][in][out]
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
        };
        let linear = |name: &str, cin: usize, cout: Option<usize>| -> Result<Linear, String> {
            let wname = format!("{name}.weight");
            let (shape, weight) = get(&wname)?;
            let out = match shape[..] {
                [o, i] if i == cin && cout.is_none_or(|c| c == o) => o,
                _ => return Err(shape_err(&wname, &[cout.unwrap_or(0), cin], &shape)),
            };
            let bname = format!("{name}.bias");
            let (bshape, bias) = get(&bname)?;
            if bshape != [out] {
                return Err(shape_err(&bname, &[out], &bshape));
            }
            Ok(Linear {
                cin,
                cout: out,
                weight,
                bias,
            })
        };
        let stem = conv("stem", Some(PLANES))?;
        let channels = stem.cout;
        let mut blocks = Vec::new();
        while st
            .tensor(&format!("block{}.conv1.weight", blocks.len()))
            .is_ok()
        {
            let i = blocks.len();
            let a = conv(&format!("block{i}.conv1"), Some(channels))?;
            let b = conv(&format!("block{i}.conv2"), Some(channels))?;
            if a.cout != channels || b.cout != channels {
                return Err(format!("block{i} does not keep {channels} channels"));
            }
            blocks.push((a, b));
        }
        let (pshape, policy) = get("policy.weight")?;
        if pshape != [1, channels, 1, 1] {
            return Err(shape_err("policy.weight", &[1, channels, 1, 1], &pshape));
        }
        let (bshape, pbias) = get("policy.bias")?;
        if bshape != [1] {
            return Err(shape_err("policy.bias", &[1], &bshape));
        }
        let swap = linear("swap", channels, Some(1))?;
        let value1 = linear("value1", channels, None)?;
        let value2 = linear("value2", value1.cout, Some(1))?;
        Ok(PvNet {
            channels,
            stem,
            blocks,
            policy,
            policy_bias: pbias[0],
            swap,
            value1,
            value2,
        })
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

    /// Channels of the residual tower.
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Residual blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// Hidden units of the value head.
    pub fn hidden(&self) -> usize {
        self.value1.cout
    }

    /// Multiply-adds of one position on a board of side `size`, the
    /// network's cost (edge taps included).
    pub fn multiply_adds(&self, size: u8) -> usize {
        let n = size as usize * size as usize;
        let c = self.channels;
        let convs = 9 * n * (PLANES * c + 2 * self.blocks.len() * c * c);
        convs + n * c + c + self.value1.cout * (c + 1)
    }

    /// Evaluates one position. `scratch` is reused between calls.
    pub fn evaluate(&self, pos: &Position, scratch: &mut Scratch) -> Evaluation {
        let mut out = Evaluation {
            logits: vec![0.0; swap_index(pos.size()) + 1],
            value: 0.0,
        };
        self.evaluate_into(pos, scratch, &mut out.logits, &mut out.value);
        out
    }

    /// Evaluates `positions`, spread over the current rayon pool's threads
    /// in chunks of `chunk`, into `logits` (`size * size + 1` per position)
    /// and `values`. Every position is computed as [`PvNet::evaluate`]
    /// would, to the bit.
    pub fn evaluate_batch(
        &self,
        positions: &[Position],
        chunk: usize,
        logits: &mut [f32],
        values: &mut [f32],
    ) {
        let Some(first) = positions.first() else {
            return;
        };
        let width = swap_index(first.size()) + 1;
        let chunk = chunk.max(1);
        positions
            .par_chunks(chunk)
            .zip(logits.par_chunks_mut(chunk * width))
            .zip(values.par_chunks_mut(chunk))
            .for_each(|((ps, ls), vs)| {
                BATCH_SCRATCH.with_borrow_mut(|s| self.evaluate_slice(ps, s, ls, vs));
            });
    }

    /// Evaluates `positions` one after another on this thread, into
    /// `logits` and `values` as [`PvNet::evaluate_batch`] does.
    pub fn evaluate_slice(
        &self,
        positions: &[Position],
        scratch: &mut Scratch,
        logits: &mut [f32],
        values: &mut [f32],
    ) {
        let Some(first) = positions.first() else {
            return;
        };
        let width = swap_index(first.size()) + 1;
        for ((p, l), v) in positions
            .iter()
            .zip(logits.chunks_exact_mut(width))
            .zip(values)
        {
            self.evaluate_into(p, scratch, l, v);
        }
    }

    fn evaluate_into(&self, pos: &Position, s: &mut Scratch, logits: &mut [f32], value: &mut f32) {
        let size = pos.size();
        let n = size as usize * size as usize;
        let c = self.channels;
        s.prepare(size, c);
        if s.hidden.len() != self.value1.cout {
            s.hidden = vec![0.0; self.value1.cout];
        }
        encode(pos, &mut s.input);
        let taps = &s.taps;
        conv(&self.stem, &s.input, &mut s.a, taps, n);
        relu(&mut s.a);
        for (c1, c2) in &self.blocks {
            conv(c1, &s.a, &mut s.b, taps, n);
            relu(&mut s.b);
            conv(c2, &s.b, &mut s.c, taps, n);
            for (y, x) in s.c.iter_mut().zip(&s.a) {
                *y = (*y + x).max(0.0);
            }
            std::mem::swap(&mut s.a, &mut s.c);
        }
        let mean = &mut s.mean;
        mean.iter_mut().for_each(|m| *m = 0.0);
        for (i, cell) in s.a.chunks_exact(c).enumerate() {
            logits[i] = self.policy_bias + dot(&self.policy, cell);
            for (m, x) in mean.iter_mut().zip(cell) {
                *m += x;
            }
        }
        let inv = 1.0 / n as f32;
        mean.iter_mut().for_each(|m| *m *= inv);
        let mut swap = [0f32];
        self.swap.apply(mean, &mut swap);
        logits[n] = swap[0];
        self.value1.apply(mean, &mut s.hidden);
        relu(&mut s.hidden);
        let mut v = [0f32];
        self.value2.apply(&s.hidden, &mut v);
        *value = v[0].tanh();
    }
}

thread_local! {
    /// Each pool thread's working memory for [`PvNet::evaluate_batch`],
    /// kept between batches: a search evaluates a batch every few
    /// descents, and a fresh `Scratch` per chunk allocated its buffers
    /// every time. What a position evaluates to does not depend on it.
    static BATCH_SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The working memory of an evaluation, kept between positions so that
/// evaluating allocates nothing once it is sized.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    size: u8,
    channels: usize,
    /// For each square, its 9 taps `(tap, neighbour)` that lie on the
    /// board, flattened; `tap_ends[sq]` ends the square's run.
    taps: Taps,
    input: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
    mean: Vec<f32>,
    hidden: Vec<f32>,
}

/// The on-board neighbours of every square, by 3x3 tap.
#[derive(Clone, Debug, Default)]
struct Taps {
    list: Vec<(u8, u8)>,
    ends: Vec<usize>,
}

impl Scratch {
    fn prepare(&mut self, size: u8, channels: usize) {
        if self.size == size && self.channels == channels {
            return;
        }
        let s = size as i32;
        let n = (s * s) as usize;
        self.taps.list.clear();
        self.taps.ends.clear();
        for sq in 0..s * s {
            let (r, c) = (sq / s, sq % s);
            for ky in 0..3 {
                for kx in 0..3 {
                    let (nr, nc) = (r + ky - 1, c + kx - 1);
                    if (0..s).contains(&nr) && (0..s).contains(&nc) {
                        self.taps
                            .list
                            .push(((ky * 3 + kx) as u8, (nr * s + nc) as u8));
                    }
                }
            }
            self.taps.ends.push(self.taps.list.len());
        }
        self.input = vec![0.0; n * PLANES];
        self.a = vec![0.0; n * channels];
        self.b = vec![0.0; n * channels];
        self.c = vec![0.0; n * channels];
        self.mean = vec![0.0; channels];
        self.size = size;
        self.channels = channels;
        // The hidden layer's width is the network's, sized on first use.
        self.hidden.clear();
    }
}

fn conv(layer: &Conv, input: &[f32], output: &mut [f32], taps: &Taps, n: usize) {
    let (cin, cout) = (layer.cin, layer.cout);
    let mut start = 0;
    for sq in 0..n {
        let out = &mut output[sq * cout..(sq + 1) * cout];
        out.copy_from_slice(&layer.bias);
        let end = taps.ends[sq];
        for &(k, nb) in &taps.list[start..end] {
            let x = &input[nb as usize * cin..(nb as usize + 1) * cin];
            let wk = &layer.weight[k as usize * cin * cout..(k as usize + 1) * cin * cout];
            for (&xv, wrow) in x.iter().zip(wk.chunks_exact(cout)) {
                if xv == 0.0 {
                    continue;
                }
                for (o, w) in out.iter_mut().zip(wrow) {
                    *o += xv * w;
                }
            }
        }
        start = end;
    }
}

fn relu(x: &mut [f32]) {
    x.iter_mut().for_each(|v| *v = v.max(0.0));
}

/// The priors of the legal moves of `pos` from the network's logits: a
/// softmax over the empty squares, and the swap when it is offered,
/// written as `(policy index, probability)`.
pub fn legal_priors(pos: &Position, logits: &[f32], out: &mut Vec<(usize, f32)>) {
    out.clear();
    let size = pos.size();
    for sq in pos.empty() {
        let i = square_index(sq, size);
        out.push((i, logits[i]));
    }
    if pos.can_swap() {
        let i = swap_index(size);
        out.push((i, logits[i]));
    }
    let max = out.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for p in out.iter_mut() {
        p.1 = (p.1 - max).exp();
        sum += p.1;
    }
    for p in out.iter_mut() {
        p.1 /= sum;
    }
}

/// Test positions: every position of a game of random moves from `pos`
/// to its end, added to `out`.
#[cfg(test)]
pub(crate) fn game_positions(
    mut pos: Position,
    rng: &mut crate::game::rng::FastRng,
    out: &mut Vec<Position>,
) {
    while !pos.is_game_over() {
        out.push(pos);
        let e = pos.empty();
        pos.play(e.nth(rng.below(e.count())).expect("free"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;
    use crate::game::rng::FastRng;

    fn some_positions() -> Vec<Position> {
        let mut rng = FastRng::new(11);
        let mut out = Vec::new();
        let pos = Position::new(
            7,
            ["a1", "d4"]
                .iter()
                .map(|s| s.parse::<Square>().expect("square"))
                .collect(),
            true,
            Komi::from_halves(5),
        )
        .expect("position");
        game_positions(pos, &mut rng, &mut out);
        out
    }

    #[test]
    fn the_built_in_network_loads_and_a_file_round_trips() {
        let net = PvNet::builtin();
        assert_eq!((net.channels(), net.blocks(), net.hidden()), (16, 2, 32));
        assert_eq!(&PvNet::from_bytes(&net.to_bytes()).expect("bytes"), net);
        assert!(PvNet::from_bytes(b"junk").is_err());
    }

    #[test]
    fn a_batch_over_threads_is_each_position_alone_to_the_bit() {
        let net = PvNet::random(8, 1, 8, 2);
        let ps = some_positions();
        let w = swap_index(7) + 1;
        let (mut l, mut v) = (vec![0f32; ps.len() * w], vec![0f32; ps.len()]);
        net.evaluate_batch(&ps, 5, &mut l, &mut v);
        let mut s = Scratch::default();
        for (i, p) in ps.iter().enumerate() {
            let e = net.evaluate(p, &mut s);
            assert_eq!(e.value.to_bits(), v[i].to_bits());
            assert_eq!(e.logits, l[i * w..(i + 1) * w]);
        }
    }

    #[test]
    fn planes_follow_the_side_to_move_and_priors_cover_the_legal_moves() {
        let ps = some_positions();
        let mut cells = vec![0f32; 49 * PLANES];
        for p in &ps {
            encode(p, &mut cells);
            let me = p.turn();
            for sq in Bitboard::full(7) {
                let c = &cells[square_index(sq, 7) * PLANES..][..PLANES];
                assert_eq!(c[0] == 1.0, p.stones(me).contains(sq));
                assert_eq!(c[1] == 1.0, p.stones(!me).contains(sq));
                assert_eq!(c[3] == 1.0, p.empty().contains(sq));
                assert_eq!(
                    c[8] * POINTS_UNIT,
                    if p.empty().contains(sq) {
                        p.gain(sq) as f32
                    } else {
                        0.0
                    }
                );
            }
            let logits: Vec<f32> = (0..50).map(|i| (i % 7) as f32 * 0.3).collect();
            let mut priors = Vec::new();
            legal_priors(p, &logits, &mut priors);
            let total: f32 = priors.iter().map(|x| x.1).sum();
            assert!((total - 1.0).abs() < 1e-5);
            assert_eq!(
                priors.len() as u32,
                p.empty().count() + u32::from(p.can_swap())
            );
        }
        // A symmetry moves the planes with the squares.
        let f = Features::of(&ps[9]);
        for sym in 0..8 {
            let t = f.transform(sym);
            assert_eq!(t.mine.count(), f.mine.count());
            assert_eq!(score(t.mine), score(f.mine));
        }
    }
}
