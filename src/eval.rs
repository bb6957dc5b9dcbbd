//! The line-potential heuristic shared by `heuristic`, `alphabeta` and the
//! MCTS priors.
//!
//! # The model
//! The final score is a sum over *windows*: every full window of length k
//! (a row or column segment of k own stones) is worth `WINDOW_WEIGHT[k]`
//! (see [`crate::game::scoring`]), and the windows of a run add up to its
//! points. A window can still become full for a player only if it holds no
//! opponent stone and no hole: call it *alive*. With `f` of its squares still
//! free, it is credited `WINDOW_WEIGHT[k] · decay^f` (only while `f <= reach`):
//! the expected value of the window if every free square became the player's
//! with probability `decay`. A full window has `f = 0` and counts exactly,
//! so on a finished board [`evaluate`] is exactly the score margin.
//! `decay = 0.5`, `reach = 8` would be the expectation under a random fill
//! if squares fell to each player independently (they do not: near the end
//! the split is fixed, so long windows are over-credited); a smaller decay
//! says that a competent opponent blocks.
//!
//! # Speed
//! Everything is shifts, ANDs and popcounts on the 64-bit board: for each
//! direction the alive windows of length k are the AND of k shifted copies
//! of the not-blocked mask, and the number of free squares in each window is
//! kept as a 4-plane bit-sliced counter, extended by one square per length.
//! Both colours share one count; `move_value` packs the row and the column
//! through its square into one word and sweeps only that. No allocation.
//! `eval_speed` in tests/integration/strength.rs times both (the figures
//! measured when this was written: docs/speed-history.md).
//!
//! Callers that value many squares with the same weights (heuristic
//! playouts, move ordering, the one-ply bots) use
//! [`MoveValuer::with_table`]: what a move gains or spoils on one line
//! depends only on that line's `3^7` patterns and the move's place in it,
//! so it is looked up in a table built once per process for each weight
//! set and board size. The values are the same integers, and a search
//! that values many squares (heuristic playouts) runs several times as
//! many iterations a second with them. A playout goes further with
//! [`LineValues`]: each line's table index is kept for both colours and
//! recomputed only for the two lines a stone changes (the figures:
//! docs/speed-history.md, "Line potential").
//!
//! The weights and their keys are in `eval/weights.rs`, the line tables
//! and [`LineValues`] in `eval/tables.rs`.

use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::scoring::WINDOW_WEIGHT;
use crate::game::square::Square;

mod tables;
mod weights;

pub(crate) use tables::digit_table;
pub use tables::{LineValues, MoveTable};
pub use weights::EvalWeights;

/// Units of [`move_value`] per point: it is finer than a point so that
/// close moves are not tied by rounding.
pub const MOVE_VALUE_SCALE: i32 = 100;

/// Fixed-point scale of the window credits: `decay^f` as a multiple of
/// `2^-FRAC` (exact for `f = 0`, so finished boards stay exact).
const FRAC: u32 = 20;
const ONE: i64 = 1 << FRAC;

/// Starts of the windows of length k that lie on a board of side `size`,
/// along rows (`[0]`) and columns (`[1]`): `START[size][dir][k]`.
const START: [[[u64; 9]; 2]; 9] = {
    let mut t = [[[0u64; 9]; 2]; 9];
    let mut size = 1;
    while size <= 8 {
        let mut k = 1;
        while k <= size {
            let mut row = 0;
            while row < size {
                let mut col = 0;
                while col < size {
                    let bit = 1u64 << (row * 8 + col);
                    if col + k <= size {
                        t[size][0][k] |= bit;
                    }
                    if row + k <= size {
                        t[size][1][k] |= bit;
                    }
                    col += 1;
                }
                row += 1;
            }
            k += 1;
        }
        size += 1;
    }
    t
};

/// Shift between neighbours along rows and along columns.
const STEP: [u32; 2] = [1, 8];

/// The squares of column 0.
const COL0: u64 = 0x0101_0101_0101_0101;

/// What one sweep adds up, for two colours at once: the free-square counts
/// of the windows are the same for both, only which windows are alive
/// differs.
#[derive(Copy, Clone)]
struct Sides {
    /// Stones of the first colour.
    a: u64,
    /// Stones of the second colour.
    b: u64,
    /// Free squares.
    free: u64,
}

/// Sums, along one direction (neighbours `step` bits apart), over the alive
/// windows of each colour (windows of its stones and free squares only)
/// whose start is in `restrict(k)`, of `WINDOW_WEIGHT[k] · table[f]`, `f`
/// being the window's free squares: `(colour a with table_a, colour b with
/// table_b)`, in fixed point (scaled by `ONE`). `starts[k]` are the window
/// starts that lie on the board.
#[inline(always)]
fn sweep(
    s: Sides,
    step: u32,
    size: usize,
    starts: &[u64; 9],
    table_a: &[i64; 9],
    table_b: &[i64; 9],
    restrict: impl Fn(usize) -> u64,
) -> (i64, i64) {
    let (open_a, open_b) = (s.a | s.free, s.b | s.free);
    // Credits are zero beyond the last non-zero one (`reach`).
    let last_a = table_a.iter().rposition(|&c| c != 0).unwrap_or(0);
    let last_b = table_b.iter().rposition(|&c| c != 0).unwrap_or(0);
    let last = last_a.max(last_b);
    let (mut alive_a, mut alive_b) = (open_a, open_b);
    // Bit-sliced count of free squares in the window starting at each bit.
    let (mut c0, mut c1, mut c2, mut c3) = (s.free, 0u64, 0u64, 0u64);
    let (mut total_a, mut total_b) = (0i64, 0i64);
    for k in 2..=size {
        let shift = step * (k as u32 - 1);
        alive_a &= open_a >> shift;
        alive_b &= open_b >> shift;
        let x = s.free >> shift;
        let carry0 = c0 & x;
        c0 ^= x;
        let carry1 = c1 & carry0;
        c1 ^= carry0;
        let carry2 = c2 & carry1;
        c2 ^= carry1;
        c3 ^= carry2;
        if k < 3 {
            continue;
        }
        let live = starts[k] & restrict(k);
        let (wa, wb) = (alive_a & live, alive_b & live);
        if wa | wb == 0 {
            continue;
        }
        let (mut sum_a, mut sum_b) = (0i64, 0i64);
        for f in 0..=k.min(last) {
            // Windows whose count equals f: every plane agrees with f's bit.
            let bit = |b: usize| 0u64.wrapping_sub((f as u64 >> b) & 1);
            let eq = !(c0 ^ bit(0)) & !(c1 ^ bit(1)) & !(c2 ^ bit(2)) & !(c3 ^ bit(3));
            sum_a += (wa & eq).count_ones() as i64 * table_a[f];
            sum_b += (wb & eq).count_ones() as i64 * table_b[f];
        }
        total_a += WINDOW_WEIGHT[k] as i64 * sum_a;
        total_b += WINDOW_WEIGHT[k] as i64 * sum_b;
    }
    (total_a, total_b)
}

/// Rounds a fixed-point value to the nearest integer in units of `1/scale`.
#[inline]
fn to_units(x: i64, scale: i64) -> i32 {
    let y = x * scale;
    ((y + (ONE >> 1)) >> FRAC) as i32
}

/// Static evaluation from White's point of view (positive = good for White),
/// integer units comparable to points: White's potential minus Black's.
///
/// On a finished board it is exactly White's score minus Black's (komi is
/// not included: it is the same in every line of play, so searches add it
/// once at the root or compare against it).
#[inline]
pub fn evaluate(pos: &Position, w: &EvalWeights) -> i32 {
    let credits = w.credits();
    let size = pos.size() as usize;
    let s = Sides {
        a: pos.stones(Player::White).0,
        b: pos.stones(Player::Black).0,
        free: pos.empty().0,
    };
    let mut diff = 0;
    for dir in 0..2 {
        let (white, black) = sweep(
            s,
            STEP[dir],
            size,
            &START[size][dir],
            &credits,
            &credits,
            |_| u64::MAX,
        );
        diff += white - black;
    }
    to_units(diff, 1)
}

/// Row `row` of `bits` as a byte, bit `c` = column `c`.
#[inline(always)]
pub(crate) fn row_byte(bits: u64, row: u32) -> u64 {
    (bits >> (8 * row)) & 0xff
}

/// Column `col` of `bits` as a byte, bit `r` = row `r` (the multiply packs
/// row r into bit 56 + 7 - r; the reversal puts it back in order).
#[inline(always)]
pub(crate) fn col_byte(bits: u64, col: u32) -> u64 {
    let packed = ((bits >> col) & COL0).wrapping_mul(0x8040_2010_0804_0201) >> 56;
    (packed as u8).reverse_bits() as u64
}

/// Bits `lo..=hi` (inclusive), `hi < 64`.
#[inline(always)]
fn span(lo: u32, hi: u32) -> u64 {
    (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
}

/// Where the column through a square goes in the packed word of
/// [`move_value`]: byte 2, so that byte 1 (always empty) separates it from
/// the row in byte 0.
const COLUMN_AT: u32 = 16;

/// The one-ply value of placing the side to move's stone on `sq` (higher is
/// better for the mover): own potential gained plus the opponent's potential
/// spoiled (times `defence`), in units of `1 / MOVE_VALUE_SCALE` points.
///
/// Only the windows through `sq` change, so only its row and column are
/// visited: both are packed into one word (the row in byte 0, the column in
/// byte 2) and swept once along that word. `sq` must be free; an occupied
/// square or hole gets `i32::MIN` so that no caller prefers it.
#[inline]
pub fn move_value(pos: &Position, sq: Square, w: &EvalWeights) -> i32 {
    MoveValuer::new(w).value(pos, sq)
}

/// [`move_value`] with the weights' window credits worked out once: a
/// heuristic playout asks for a value per free square per ply, and the
/// credits (a power series in `decay`) then cost as much as the sweep.
#[derive(Copy, Clone, Debug)]
pub struct MoveValuer {
    credits: [i64; 9],
    /// Credit change of a window when one of its `f` free squares is filled.
    gained: [i64; 9],
    defence: f64,
    /// Per-line lookup tables for one board size (see [`MoveTable`]).
    table: Option<&'static MoveTable>,
}

impl MoveValuer {
    /// The valuer of `w`.
    #[inline]
    pub fn new(w: &EvalWeights) -> MoveValuer {
        let credits = w.credits();
        // A window through the free `sq` has f >= 1; the stone moves it to f - 1.
        let mut gained = [0i64; 9];
        for f in 1..9 {
            gained[f] = credits[f - 1] - credits[f];
        }
        MoveValuer {
            credits,
            gained,
            defence: w.defence,
            table: None,
        }
    }

    /// The valuer of `w` with the line tables of boards of side `size`
    /// (built on first use, then shared by the whole process): the same
    /// values as [`MoveValuer::new`], several times faster. For callers
    /// that value many squares with the same weights, such as heuristic
    /// playouts; boards of another size fall back to the sweep.
    pub fn with_table(w: &EvalWeights, size: u8) -> MoveValuer {
        MoveValuer {
            table: MoveTable::shared(w, size),
            ..MoveValuer::new(w)
        }
    }

    /// [`move_value`] of `sq` in `pos`.
    #[inline]
    pub fn value(&self, pos: &Position, sq: Square) -> i32 {
        if !pos.empty().contains(sq) {
            return i32::MIN;
        }
        let me = pos.turn();
        let (row, col) = (sq.row() as u32, sq.col() as u32);
        if let Some(t) = self.table
            && t.size == pos.size()
        {
            let (mine, theirs, free) = (pos.stones(me).0, pos.stones(!me).0, pos.empty().0);
            let (rm, rt, rf) = (
                row_byte(mine, row),
                row_byte(theirs, row),
                row_byte(free, row),
            );
            let (cm, ct, cf) = (
                col_byte(mine, col),
                col_byte(theirs, col),
                col_byte(free, col),
            );
            let (c, r) = (col as usize, row as usize);
            let gain = t.gain(rm, rf, c) + t.gain(cm, cf, r);
            let spoil = t.spoil(rt, rf, c) + t.spoil(ct, cf, r);
            return self.units(gain, spoil);
        }
        let size = pos.size() as usize;
        let pack = |bits: u64| row_byte(bits, row) | col_byte(bits, col) << COLUMN_AT;
        let s = Sides {
            a: pack(pos.stones(me).0),
            b: pack(pos.stones(!me).0),
            free: pack(pos.empty().0),
        };
        // Windows through `sq`: in the row those starting at columns
        // col-k+1..=col, in the column those starting at rows row-k+1..=row.
        let through = |k: usize| {
            let back = k as u32 - 1;
            span(col.saturating_sub(back), col)
                | span(COLUMN_AT + row.saturating_sub(back), COLUMN_AT + row)
        };
        let (gain, spoil) = sweep(
            s,
            1,
            size,
            &START[size][0],
            &self.gained,
            &self.credits,
            through,
        );
        self.units(gain, spoil)
    }

    /// Fixed-point window credits gained and spoiled, in move-value units.
    #[inline(always)]
    fn units(&self, gain: i64, spoil: i64) -> i32 {
        let v = (gain as f64 + self.defence * spoil as f64) * MOVE_VALUE_SCALE as f64 / ONE as f64;
        v.round() as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Komi;
    use crate::game::rng::FastRng;
    use crate::game::rules::{HoleSetup, Rules};

    /// The model written out window by window, in floating point.
    fn potential_naive(pos: &Position, p: Player, w: &EvalWeights) -> f64 {
        let n = pos.size();
        let mut total = 0.0;
        for k in 3..=n {
            for line in 0..n {
                for start in 0..=(n - k) {
                    for dir in 0..2 {
                        let mut f = 0;
                        let mut alive = true;
                        for i in 0..k {
                            let (c, r) = if dir == 0 {
                                (start + i, line)
                            } else {
                                (line, start + i)
                            };
                            let sq = Square::new(c, r);
                            if pos.empty().contains(sq) {
                                f += 1;
                            } else if !pos.stones(p).contains(sq) {
                                alive = false;
                            }
                        }
                        if alive && f <= w.reach {
                            total += WINDOW_WEIGHT[k as usize] as f64 * w.decay.powi(f as i32);
                        }
                    }
                }
            }
        }
        total
    }

    pub(super) fn random_positions(count: usize, seed: u64) -> Vec<Position> {
        let mut rng = FastRng::new(seed);
        let mut out = Vec::new();
        for i in 0..count {
            let size = 3 + (i % 6) as u8;
            let holes = rng.below((size as u32 * size as u32) / 3);
            let rules = Rules {
                size,
                holes: HoleSetup::Random(holes),
                pie: false,
                komi: Komi::ZERO,
            };
            let mut pos = rules.new_game(&mut rng).expect("rules");
            let plies = rng.below(pos.empty().count() + 1);
            for _ in 0..plies {
                let e = pos.empty();
                let sq = e.nth(rng.below(e.count())).expect("free");
                pos.play(sq);
            }
            out.push(pos);
        }
        out
    }

    pub(super) fn weight_sets() -> Vec<EvalWeights> {
        vec![
            EvalWeights::default(),
            EvalWeights {
                decay: 0.5,
                reach: 8,
                defence: 1.0,
            },
            EvalWeights {
                decay: 0.3,
                reach: 3,
                defence: 0.7,
            },
            EvalWeights {
                decay: 1.0,
                reach: 0,
                defence: 2.0,
            },
        ]
    }

    #[test]
    fn evaluate_matches_naive_model() {
        for w in weight_sets() {
            for pos in random_positions(300, 11) {
                let naive = potential_naive(&pos, Player::White, &w)
                    - potential_naive(&pos, Player::Black, &w);
                let fast = evaluate(&pos, &w);
                assert!(
                    (fast as f64 - naive).abs() <= 0.51,
                    "{w:?} {pos} {fast} {naive}"
                );
            }
        }
    }

    #[test]
    fn finished_board_is_exact_margin() {
        let mut rng = FastRng::new(3);
        for w in weight_sets() {
            for pos in random_positions(120, 5) {
                let end = pos.random_fill(&mut rng);
                let s = end.scores();
                assert_eq!(
                    evaluate(&end, &w),
                    s[Player::White] as i32 - s[Player::Black] as i32
                );
            }
        }
    }

    #[test]
    fn move_value_matches_naive_difference() {
        for w in weight_sets() {
            for pos in random_positions(200, 23) {
                let me = pos.turn();
                for sq in pos.empty() {
                    let mut after = pos;
                    after.play(sq);
                    let gain = potential_naive(&after, me, &w) - potential_naive(&pos, me, &w);
                    let spoil = potential_naive(&pos, !me, &w) - potential_naive(&after, !me, &w);
                    let naive = (gain + w.defence * spoil) * MOVE_VALUE_SCALE as f64;
                    let fast = move_value(&pos, sq, &w);
                    assert!(
                        (fast as f64 - naive).abs() <= 0.51 + naive.abs() * 1e-6,
                        "{w:?} {sq} {pos} {fast} {naive}"
                    );
                }
            }
        }
    }

    #[test]
    fn occupied_square_is_worst() {
        let mut pos = Position::new(7, Bitboard::EMPTY, false, Komi::ZERO).expect("pos");
        let d4: Square = "d4".parse().expect("sq");
        pos.play(d4);
        assert_eq!(move_value(&pos, d4, &EvalWeights::default()), i32::MIN);
    }
}
