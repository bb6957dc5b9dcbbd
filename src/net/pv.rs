//! The policy-value network's inference: its layers, one position or a
//! batch, and the priors of the legal moves.

use rayon::prelude::*;

use super::kernel::{Conv, LANES, Taps, conv_batch};
use super::planes::{PLANES, encode, square_index, swap_index};
use crate::game::position::Position;

/// A linear map, stored `[out][in]` as in the file.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Linear {
    pub(super) cin: usize,
    pub(super) cout: usize,
    pub(super) weight: Vec<f32>,
    pub(super) bias: Vec<f32>,
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
    pub(super) channels: usize,
    pub(super) stem: Conv,
    pub(super) blocks: Vec<(Conv, Conv)>,
    /// The policy's 1x1 convolution: one weight per channel.
    pub(super) policy: Vec<f32>,
    pub(super) policy_bias: f32,
    pub(super) swap: Linear,
    pub(super) value1: Linear,
    pub(super) value2: Linear,
    /// Global pooling (KataGo, Wu 2019), empty or one per block: the
    /// means and maxima over the board of the block's first convolution,
    /// mapped to a bias for each of its channels before the second. A
    /// convolution sees three squares across; the pooled bias carries the
    /// whole board's state (who leads, how full it is) to every square.
    pub(super) pools: Vec<Linear>,
    /// The auxiliary margin head, from the value's hidden units: the
    /// final margin for the side to move, in units of `POINTS_UNIT`
    /// points. Trained beside the value for its richer signal (KataGo's
    /// score target); a search uses it only through the score utility
    /// ([`PvNet::evaluate_slice`]'s `score`).
    pub(super) margin: Option<Linear>,
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
impl PvNet {
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

    /// Whether the blocks have global pooling.
    pub fn pooled(&self) -> bool {
        !self.pools.is_empty()
    }

    /// Whether the network has the auxiliary margin head.
    pub fn has_margin_head(&self) -> bool {
        self.margin.is_some()
    }

    /// Whether `score` is a score utility this network can give (the
    /// `score` of [`PvNet::evaluate_slice`]).
    ///
    /// # Errors
    /// `score` outside `0..=1` (a value would leave `[-1, 1]`, which the
    /// searches assume), or above 0 on a network without the margin head.
    pub fn check_score_utility(&self, score: f32) -> Result<(), String> {
        if !(0.0..=1.0).contains(&score) {
            return Err(format!("score {score} is not in 0..=1"));
        }
        if score > 0.0 && self.margin.is_none() {
            return Err("the network has no margin head (pahtum train --margin-head)".to_string());
        }
        Ok(())
    }

    /// Multiply-adds of one position on a board of side `size`, the
    /// network's cost (edge taps included).
    pub fn multiply_adds(&self, size: u8) -> usize {
        let n = size as usize * size as usize;
        let c = self.channels;
        let convs = 9 * n * (PLANES * c + 2 * self.blocks.len() * c * c);
        let pools = self.pools.len() * (2 * c * c + n * c);
        convs + pools + n * c + c + self.value1.cout * (c + 1)
    }

    /// Evaluates one position. `scratch` is reused between calls.
    pub fn evaluate(&self, pos: &Position, scratch: &mut Scratch) -> Evaluation {
        let mut out = Evaluation {
            logits: vec![0.0; swap_index(pos.size()) + 1],
            value: 0.0,
        };
        self.evaluate_group(
            std::slice::from_ref(pos),
            scratch,
            &mut out.logits,
            std::slice::from_mut(&mut out.value),
            0.0,
        );
        out
    }

    /// Evaluates `positions`, spread over the current rayon pool's threads
    /// in chunks of `chunk`, into `logits` (`size * size + 1` per position)
    /// and `values` (with the score utility `score`, as
    /// [`PvNet::evaluate_slice`] says). Every position is computed as
    /// [`PvNet::evaluate`] would, to the bit.
    pub fn evaluate_batch(
        &self,
        positions: &[Position],
        chunk: usize,
        logits: &mut [f32],
        values: &mut [f32],
        score: f32,
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
                BATCH_SCRATCH.with_borrow_mut(|s| self.evaluate_slice(ps, s, ls, vs, score));
            });
    }

    /// Evaluates `positions` on this thread, into `logits` and `values` as
    /// [`PvNet::evaluate_batch`] does: up to four of one board size
    /// at a time, each to the bit what it is alone.
    ///
    /// `score` is the margin head's share in the values (`zero`'s
    /// `score=`; 0: none, the value alone): `(1 - score) * value + score *
    /// (2 / pi) * atan(margin)`, the margin in units of `POINTS_UNIT`
    /// points. It is KataGo's score utility (Wu 2019): between moves that
    /// keep the same result it prefers the one expected to win by more,
    /// or lose by less. A setting of the player, not of the network:
    /// [`PvNet::check_score_utility`] says which it can give.
    pub fn evaluate_slice(
        &self,
        positions: &[Position],
        scratch: &mut Scratch,
        logits: &mut [f32],
        values: &mut [f32],
        score: f32,
    ) {
        let mut at = 0;
        let mut logit_at = 0;
        while at < positions.len() {
            let size = positions[at].size();
            let k = positions[at..]
                .iter()
                .take(LANES)
                .take_while(|p| p.size() == size)
                .count();
            let width = swap_index(size) + 1;
            self.evaluate_group(
                &positions[at..at + k],
                scratch,
                &mut logits[logit_at..logit_at + k * width],
                &mut values[at..at + k],
                score,
            );
            at += k;
            logit_at += k * width;
        }
    }

    /// Up to [`LANES`] positions at once: the tower's convolutions take
    /// them together ([`conv_batch`]), the heads one by one.
    fn evaluate_group(
        &self,
        positions: &[Position],
        s: &mut Scratch,
        logits: &mut [f32],
        values: &mut [f32],
        score: f32,
    ) {
        let Some(first) = positions.first() else {
            return;
        };
        let size = first.size();
        let (n, c, k) = (
            size as usize * size as usize,
            self.channels,
            positions.len(),
        );
        s.prepare(size, c, self.value1.cout);
        for (p, x) in positions.iter().zip(s.input.chunks_exact_mut(n * PLANES)) {
            encode(p, x);
        }
        let taps = &s.taps;
        let ins = lanes(&s.input, n * PLANES);
        conv_batch(
            &self.stem,
            &ins[..k],
            &mut lanes_mut(&mut s.a, n * c)[..k],
            taps,
            n,
        );
        relu(&mut s.a[..k * n * c]);
        for (i, (c1, c2)) in self.blocks.iter().enumerate() {
            conv_batch(
                c1,
                &lanes(&s.a, n * c)[..k],
                &mut lanes_mut(&mut s.b, n * c)[..k],
                taps,
                n,
            );
            relu(&mut s.b[..k * n * c]);
            if let Some(pool) = self.pools.get(i) {
                for lane in s.b.chunks_exact_mut(n * c).take(k) {
                    pool_bias(pool, lane, &mut s.pooled, &mut s.mean);
                }
            }
            conv_batch(
                c2,
                &lanes(&s.b, n * c)[..k],
                &mut lanes_mut(&mut s.c, n * c)[..k],
                taps,
                n,
            );
            for (y, x) in s.c[..k * n * c].iter_mut().zip(&s.a) {
                *y = (*y + x).max(0.0);
            }
            std::mem::swap(&mut s.a, &mut s.c);
        }
        let width = n + 1;
        for ((tower, l), v) in
            s.a.chunks_exact(n * c)
                .zip(logits.chunks_exact_mut(width))
                .zip(values.iter_mut())
                .take(k)
        {
            self.heads(tower, &mut s.mean, &mut s.hidden, l, v, score);
        }
    }

    /// The policy and value heads on one position's tower output, the
    /// value with the score utility `score`.
    fn heads(
        &self,
        tower: &[f32],
        mean: &mut [f32],
        hidden: &mut [f32],
        logits: &mut [f32],
        value: &mut f32,
        score: f32,
    ) {
        let c = self.channels;
        let n = tower.len() / c;
        mean.iter_mut().for_each(|m| *m = 0.0);
        for (i, cell) in tower.chunks_exact(c).enumerate() {
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
        self.value1.apply(mean, hidden);
        relu(hidden);
        let mut v = [0f32];
        self.value2.apply(hidden, &mut v);
        *value = v[0].tanh();
        if score > 0.0 {
            *value = self.with_margin(hidden, *value, score);
        }
    }

    /// `value` blended with the margin head's output on `hidden` with
    /// weight `score` ([`PvNet::evaluate_slice`] says how). Out of line: at
    /// the default `score=0` it is never called, and the heads stay as
    /// they were without it.
    #[cold]
    #[inline(never)]
    fn with_margin(&self, hidden: &[f32], value: f32, score: f32) -> f32 {
        let Some(head) = &self.margin else {
            return value;
        };
        // One output: its row is the whole weight.
        let m = head.bias[0] + dot(&head.weight, hidden);
        let utility = std::f32::consts::FRAC_2_PI * m.atan();
        (1.0 - score) * value + score * utility
    }
}

/// Adds to every square of `tower` (one position, channels contiguous)
/// the bias `pool` maps its channels' means and maxima to; `pooled` (2
/// per channel) and `bias` (1 per channel) are working memory.
fn pool_bias(pool: &Linear, tower: &mut [f32], pooled: &mut [f32], bias: &mut [f32]) {
    let c = bias.len();
    let n = tower.len() / c;
    let (mean, max) = pooled.split_at_mut(c);
    mean.iter_mut().for_each(|m| *m = 0.0);
    max.iter_mut().for_each(|m| *m = f32::NEG_INFINITY);
    for cell in tower.chunks_exact(c) {
        for ((m, x), v) in mean.iter_mut().zip(max.iter_mut()).zip(cell) {
            *m += v;
            *x = x.max(*v);
        }
    }
    let inv = 1.0 / n as f32;
    mean.iter_mut().for_each(|m| *m *= inv);
    pool.apply(pooled, bias);
    for cell in tower.chunks_exact_mut(c) {
        for (v, b) in cell.iter_mut().zip(bias.iter()) {
            *v += b;
        }
    }
}

/// The [`LANES`] positions' parts of a scratch buffer.
fn lanes(buf: &[f32], len: usize) -> [&[f32]; LANES] {
    let mut it = buf.chunks_exact(len);
    std::array::from_fn(|_| it.next().unwrap_or(&[]))
}

/// [`lanes`], to write.
fn lanes_mut(buf: &mut [f32], len: usize) -> [&mut [f32]; LANES] {
    let mut it = buf.chunks_exact_mut(len);
    std::array::from_fn(|_| it.next().unwrap_or_default())
}

thread_local! {
    /// Each pool thread's working memory for [`PvNet::evaluate_batch`],
    /// kept between batches: a search evaluates a batch every few
    /// descents, and a fresh `Scratch` per chunk allocated its buffers
    /// every time. What a position evaluates to does not depend on it.
    static BATCH_SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The working memory of an evaluation, kept between positions so that
/// evaluating allocates nothing once it is sized: room for four
/// positions, each position's part contiguous.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    size: u8,
    channels: usize,
    taps: Taps,
    input: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
    mean: Vec<f32>,
    /// Global pooling's means and maxima.
    pooled: Vec<f32>,
    hidden: Vec<f32>,
}

impl Scratch {
    fn prepare(&mut self, size: u8, channels: usize, hidden: usize) {
        if self.hidden.len() != hidden {
            self.hidden = vec![0.0; hidden];
        }
        if self.size == size && self.channels == channels {
            return;
        }
        let n = size as usize * size as usize;
        self.taps = Taps::of(size);
        self.input = vec![0.0; LANES * n * PLANES];
        self.a = vec![0.0; LANES * n * channels];
        self.b = vec![0.0; LANES * n * channels];
        self.c = vec![0.0; LANES * n * channels];
        self.mean = vec![0.0; channels];
        self.pooled = vec![0.0; 2 * channels];
        self.size = size;
        self.channels = channels;
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
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Komi;
    use crate::game::rng::FastRng;
    use crate::game::scoring::score;
    use crate::game::square::Square;
    use crate::net::planes::{Features, POINTS_UNIT};

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
        assert_eq!(PvNet::from_bytes(&net.to_bytes()).expect("bytes"), *net);
        assert!(PvNet::from_bytes(b"junk").is_err());
        let extras = PvNet::random(8, 2, 8, 1)
            .with_pooling(2)
            .with_margin_head(3);
        assert!(extras.pooled() && extras.has_margin_head());
        assert_eq!(
            PvNet::from_bytes(&extras.to_bytes()).expect("bytes"),
            extras
        );
        assert!(extras.multiply_adds(7) > PvNet::random(8, 2, 8, 1).multiply_adds(7));
    }

    #[test]
    fn the_score_utility_blends_the_value_with_the_margin_head() {
        let net = PvNet::random(8, 1, 8, 4).with_margin_head(5);
        let mut s = Scratch::default();
        let scored = |p: &Position, score: f32, s: &mut Scratch| {
            let (mut l, mut v) = (vec![0.0; swap_index(p.size()) + 1], [0.0]);
            net.evaluate_slice(std::slice::from_ref(p), s, &mut l, &mut v, score);
            (l, v[0])
        };
        for p in some_positions() {
            let plain = net.evaluate(&p, &mut s);
            assert_eq!(scored(&p, 0.0, &mut s), (plain.logits.clone(), plain.value));
            let (logits, m) = scored(&p, 1.0, &mut s);
            assert!(m.abs() < 1.0);
            assert_eq!(logits, plain.logits);
            let (_, h) = scored(&p, 0.5, &mut s);
            assert!(
                (h - (plain.value + m) / 2.0).abs() < 1e-6,
                "{h} {} {m}",
                plain.value
            );
        }
        let err = PvNet::random(8, 1, 8, 4).check_score_utility(0.1);
        assert!(err.expect_err("no head").contains("margin head"));
        assert!(PvNet::random(8, 1, 8, 4).check_score_utility(0.0).is_ok());
        for bad in [-0.1, 1.5, f32::NAN] {
            assert!(net.check_score_utility(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_batch_over_threads_is_each_position_alone_to_the_bit() {
        let net = PvNet::random(8, 1, 8, 2);
        let ps = some_positions();
        let w = swap_index(7) + 1;
        let (mut l, mut v) = (vec![0f32; ps.len() * w], vec![0f32; ps.len()]);
        net.evaluate_batch(&ps, 5, &mut l, &mut v, 0.0);
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
