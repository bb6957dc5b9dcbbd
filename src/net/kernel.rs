//! The convolutions' inner loops, specialised by channel count so that a
//! square's outputs stay in vector registers.
//!
//! # Why specialised
//! A 3x3 convolution of the residual tower is, for each square, a sum over
//! its on-board taps and input channels of an input value times a row of
//! `cout` weights. Written over slices of a length known only at run time,
//! the compiler loads and stores the square's outputs at every step of
//! that sum. With the channel counts as constants ([`conv_batch`] dispatches on
//! the usual widths), the outputs are an array the compiler keeps in
//! registers for the whole square and the row is a fused multiply-add of
//! whole vectors: with the project's `x86-64-v3` target (`.cargo/config.toml`)
//! 16 channels are two 8-lane AVX2 registers, on stable Rust and without a
//! line of platform code. Other widths take the same arithmetic through
//! slices ([`conv_any`]), so every width computes the same numbers to the
//! bit, only slower.
//!
//! The multiply-adds are fused (`f32::mul_add`, one rounding): exact in
//! IEEE 754 on every machine, so an evaluation is the same everywhere.
//! Zero inputs are not skipped: the branch on each input cost more than
//! the multiply-adds it saved once they are whole vectors
//! (`experiments/learned-search/`).
//!
//! A batch ([`conv_batch`]) takes a square of several positions at once,
//! so each row of weights, read once, serves them all.

/// A 3x3 or 1x1 convolution's weights, stored `[tap][in][out]`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Conv {
    pub(super) cin: usize,
    pub(super) cout: usize,
    pub(super) weight: Vec<f32>,
    pub(super) bias: Vec<f32>,
}

/// The on-board neighbours of every square, by 3x3 tap: for square `sq`,
/// `list[ends[sq - 1]..ends[sq]]` as `(tap, neighbour)`.
#[derive(Clone, Debug, Default)]
pub(super) struct Taps {
    pub(super) list: Vec<(u8, u8)>,
    pub(super) ends: Vec<usize>,
}

impl Taps {
    /// The taps of a `size x size` board.
    pub(super) fn of(size: u8) -> Taps {
        let s = size as i32;
        let mut taps = Taps::default();
        for sq in 0..s * s {
            let (r, c) = (sq / s, sq % s);
            for ky in 0..3 {
                for kx in 0..3 {
                    let (nr, nc) = (r + ky - 1, c + kx - 1);
                    if (0..s).contains(&nr) && (0..s).contains(&nc) {
                        taps.list.push(((ky * 3 + kx) as u8, (nr * s + nc) as u8));
                    }
                }
            }
            taps.ends.push(taps.list.len());
        }
        taps
    }

    /// Square `sq`'s taps.
    #[inline]
    fn of_square(&self, sq: usize) -> &[(u8, u8)] {
        let start = if sq == 0 { 0 } else { self.ends[sq - 1] };
        &self.list[start..self.ends[sq]]
    }
}

/// `outputs[b] = layer(inputs[b])` on `n` squares, channels contiguous
/// per square, for several positions at once; each position's numbers
/// are those it gets alone.
pub(super) fn conv_batch(
    layer: &Conv,
    inputs: &[&[f32]],
    outputs: &mut [&mut [f32]],
    taps: &Taps,
    n: usize,
) {
    macro_rules! widths {
        ($($c:literal),*) => {
            match (layer.cin, layer.cout) {
                $(
                    (super::planes::PLANES, $c) => {
                        return fixed::<{ super::planes::PLANES }, $c>(layer, inputs, outputs, taps, n)
                    }
                    ($c, $c) => return fixed::<$c, $c>(layer, inputs, outputs, taps, n),
                )*
                _ => {}
            }
        };
    }
    widths!(8, 16, 24, 32, 48, 64);
    for (x, y) in inputs.iter().zip(outputs.iter_mut()) {
        conv_any(layer, x, y, taps, n);
    }
}

/// Positions taken together by [`fixed`]: their outputs of one square
/// fill 8 AVX2 registers at 16 channels, half the register file.
pub(super) const LANES: usize = 4;

/// The convolution for `CIN` inputs and `COUT` outputs, up to [`LANES`]
/// positions at a time.
fn fixed<const CIN: usize, const COUT: usize>(
    layer: &Conv,
    inputs: &[&[f32]],
    outputs: &mut [&mut [f32]],
    taps: &Taps,
    n: usize,
) {
    let (rows, _) = layer.weight.as_chunks::<COUT>();
    let bias: [f32; COUT] = layer.bias[..COUT]
        .try_into()
        .unwrap_or_else(|_| unreachable!("a layer's bias has cout entries"));
    let mut at = 0;
    while at < inputs.len() {
        let k = (inputs.len() - at).min(LANES);
        match k {
            4 => squares::<CIN, COUT, 4>(rows, bias, &inputs[at..], &mut outputs[at..], taps, n),
            3 => squares::<CIN, COUT, 3>(rows, bias, &inputs[at..], &mut outputs[at..], taps, n),
            2 => squares::<CIN, COUT, 2>(rows, bias, &inputs[at..], &mut outputs[at..], taps, n),
            _ => squares::<CIN, COUT, 1>(rows, bias, &inputs[at..], &mut outputs[at..], taps, n),
        }
        at += k;
    }
}

/// Every square of `B` positions: each row of weights is read once and
/// used for all of them.
#[inline(always)]
fn squares<const CIN: usize, const COUT: usize, const B: usize>(
    rows: &[[f32; COUT]],
    bias: [f32; COUT],
    inputs: &[&[f32]],
    outputs: &mut [&mut [f32]],
    taps: &Taps,
    n: usize,
) {
    let xs: [&[[f32; CIN]]; B] = std::array::from_fn(|b| inputs[b].as_chunks::<CIN>().0);
    for sq in 0..n {
        let mut acc = [bias; B];
        for &(k, nb) in taps.of_square(sq) {
            let w = &rows[k as usize * CIN..][..CIN];
            let x: [&[f32; CIN]; B] = std::array::from_fn(|b| &xs[b][nb as usize]);
            for (i, row) in w.iter().enumerate() {
                for b in 0..B {
                    let v = x[b][i];
                    for (a, wv) in acc[b].iter_mut().zip(row) {
                        *a = v.mul_add(*wv, *a);
                    }
                }
            }
        }
        for b in 0..B {
            outputs[b][sq * COUT..(sq + 1) * COUT].copy_from_slice(&acc[b]);
        }
    }
}

/// Any width, through slices: the same sums in the same order as
/// [`fixed`].
fn conv_any(layer: &Conv, input: &[f32], output: &mut [f32], taps: &Taps, n: usize) {
    let (cin, cout) = (layer.cin, layer.cout);
    for sq in 0..n {
        let out = &mut output[sq * cout..(sq + 1) * cout];
        out.copy_from_slice(&layer.bias);
        for &(k, nb) in taps.of_square(sq) {
            let x = &input[nb as usize * cin..(nb as usize + 1) * cin];
            let wk = &layer.weight[k as usize * cin * cout..(k as usize + 1) * cin * cout];
            for (&xv, wrow) in x.iter().zip(wk.chunks_exact(cout)) {
                for (o, w) in out.iter_mut().zip(wrow) {
                    *o = xv.mul_add(*w, *o);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::FastRng;

    fn layer(cin: usize, cout: usize, rng: &mut FastRng) -> Conv {
        let mut draw = |len: usize| (0..len).map(|_| rng.unit() as f32 - 0.5).collect();
        Conv {
            cin,
            cout,
            weight: draw(9 * cin * cout),
            bias: draw(cout),
        }
    }

    /// The convolution as its definition writes it: zero padding, weights
    /// `[tap][in][out]`, in `f64`.
    fn naive(l: &Conv, x: &[f32], size: usize) -> Vec<f64> {
        let mut out = vec![0f64; size * size * l.cout];
        for r in 0..size {
            for c in 0..size {
                for o in 0..l.cout {
                    let mut sum = f64::from(l.bias[o]);
                    for ky in 0..3 {
                        for kx in 0..3 {
                            let (nr, nc) = (r + ky, c + kx);
                            if nr < 1 || nc < 1 || nr > size || nc > size {
                                continue;
                            }
                            let nb = (nr - 1) * size + nc - 1;
                            for i in 0..l.cin {
                                let w = l.weight[((ky * 3 + kx) * l.cin + i) * l.cout + o];
                                sum += f64::from(w) * f64::from(x[nb * l.cin + i]);
                            }
                        }
                    }
                    out[(r * size + c) * l.cout + o] = sum;
                }
            }
        }
        out
    }

    #[test]
    fn every_width_and_batch_is_the_definition_and_each_position_alone() {
        let mut rng = FastRng::new(5);
        for (cin, cout, size) in [(11, 16, 7), (16, 16, 5), (8, 8, 6), (12, 12, 7), (11, 5, 4)] {
            let l = layer(cin, cout, &mut rng);
            let n = size * size;
            let taps = Taps::of(size as u8);
            let xs: Vec<Vec<f32>> = (0..6)
                .map(|_| (0..n * cin).map(|_| rng.unit() as f32 - 0.3).collect())
                .collect();
            let ins: Vec<&[f32]> = xs.iter().map(Vec::as_slice).collect();
            let mut ys = vec![vec![0f32; n * cout]; 6];
            let mut outs: Vec<&mut [f32]> = ys.iter_mut().map(Vec::as_mut_slice).collect();
            conv_batch(&l, &ins, &mut outs, &taps, n);
            for (x, y) in xs.iter().zip(&ys) {
                let mut alone = vec![0f32; n * cout];
                conv_batch(&l, &[x], &mut [&mut alone], &taps, n);
                assert_eq!(&alone, y, "{cin}->{cout}: a batch is each position alone");
                let mut slow = vec![0f32; n * cout];
                conv_any(&l, x, &mut slow, &taps, n);
                assert_eq!(&slow, y, "{cin}->{cout}: specialised and sliced agree");
                for (a, b) in y.iter().zip(naive(&l, x, size)) {
                    assert!(
                        (f64::from(*a) - b).abs() < 1e-4,
                        "{cin}->{cout}: {a} vs {b}"
                    );
                }
            }
        }
    }
}
