//! Move values as table lookups: [`MoveTable`], the per-line tables of one
//! weight set and board size, and [`LineValues`], which keeps a playout's
//! line indices up to date move by move. Both give exactly the integers
//! of the sweep in `eval.rs`.

use super::{EvalWeights, MoveValuer, col_byte, row_byte};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::scoring::WINDOW_WEIGHT;
use crate::game::square::Square;

/// The move values of one position kept up to date move by move, for a
/// heuristic playout: [`MoveValuer::value`] through the line tables, with
/// each line's table index worked out once per change of the line rather
/// than once per square asked for.
///
/// Why: a heuristic playout asks for the value of every free square at
/// every ply, and a stone changes only its own row and column. Each line
/// keeps its pattern index (`BASE3` digits of one colour's stones plus
/// twice the free squares) for both colours; a move recomputes two lines,
/// and a value is then four table loads and the rounding of
/// [`MoveValuer::value`], with the same integers.
#[derive(Clone, Debug)]
pub struct LineValues<'v> {
    valuer: &'v MoveValuer,
    table: &'static MoveTable,
    /// `[colour][row]` and `[colour][column]`: the line's pattern times
    /// the board size (the table index of its first place).
    rows: [[u32; 8]; 2],
    cols: [[u32; 8]; 2],
}

impl<'v> LineValues<'v> {
    /// The values of `pos` by `valuer`; `None` when `valuer` has no line
    /// tables for `pos`'s size.
    pub fn new(valuer: &'v MoveValuer, pos: &Position) -> Option<LineValues<'v>> {
        let table = valuer.table.filter(|t| t.size == pos.size())?;
        let mut v = LineValues {
            valuer,
            table,
            rows: [[0; 8]; 2],
            cols: [[0; 8]; 2],
        };
        for line in 0..pos.size() as u32 {
            v.update(pos, line, line);
        }
        Some(v)
    }

    /// Takes the stone just placed on `sq` in `pos` into account.
    #[inline]
    pub fn played(&mut self, pos: &Position, sq: Square) {
        self.update(pos, sq.row() as u32, sq.col() as u32);
    }

    #[inline(always)]
    fn update(&mut self, pos: &Position, row: u32, col: u32) {
        let n = self.table.size as u32;
        let free = pos.empty().0;
        let (rf, cf) = (
            2 * BASE3[row_byte(free, row) as usize] as u32,
            2 * BASE3[col_byte(free, col) as usize] as u32,
        );
        for p in [Player::White, Player::Black] {
            let bits = pos.stones(p).0;
            let i = p as usize;
            self.rows[i][row as usize] = (BASE3[row_byte(bits, row) as usize] as u32 + rf) * n;
            self.cols[i][col as usize] = (BASE3[col_byte(bits, col) as usize] as u32 + cf) * n;
        }
    }

    /// [`MoveValuer::value`] of the free square `sq` for `mover`, the
    /// side to move in the position last passed to [`LineValues::played`].
    #[inline]
    pub fn value(&self, mover: Player, sq: Square) -> i32 {
        let (r, c) = (sq.row() as usize, sq.col() as usize);
        let (me, them) = (mover as usize, !mover as usize);
        let t = self.table;
        let gain =
            t.gained[self.rows[me][r] as usize + c] + t.gained[self.cols[me][c] as usize + r];
        let spoil =
            t.spoiled[self.rows[them][r] as usize + c] + t.spoiled[self.cols[them][c] as usize + r];
        self.valuer.units(gain, spoil)
    }
}

/// `3^i` summed over the set bits `i` of a byte: the base-3 digits of a
/// line whose squares are 0 (blocked) or 1 (own stone); adding twice the
/// free squares' value makes them 2.
const BASE3: [u16; 256] = digit_table(3);

/// `base^i` summed over the set bits `i` of a byte: a line's squares of
/// one kind as digit 1 of a base-`base` pattern index (a caller multiplies
/// by the kind's digit). Fits `u16` for bases up to 4.
pub(crate) const fn digit_table(base: u16) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if m >> i & 1 == 1 {
                v += p;
            }
            if i < 7 {
                p *= base;
            }
            i += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
}

/// [`move_value`](super::move_value) for one board size as table lookups: a move changes
/// only the windows of its row and column, and what it gains (or spoils)
/// on one line depends only on that line's squares (blocked, own stone or
/// free: `3^size` patterns) and its place in the line. So each line's
/// share is precomputed for every pattern and place, and a value is four
/// lookups (gain and spoil, row and column) instead of two sweeps. The
/// sums are the same fixed-point integers the sweep adds, so the values
/// are identical.
pub struct MoveTable {
    pub(super) size: u8,
    /// Credits gained by the mover: `[pattern * size + place]`, the
    /// pattern's stones being the mover's.
    gained: Box<[i64]>,
    /// Credits spoiled for the opponent, the pattern's stones being the
    /// opponent's.
    spoiled: Box<[i64]>,
}

/// Only the size: the tables are tens of thousands of numbers.
impl std::fmt::Debug for MoveTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveTable")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// Tables kept for the life of the process (distinct weights and sizes);
/// beyond this, valuers fall back to the sweep instead of growing memory.
const MAX_TABLES: usize = 16;

impl MoveTable {
    /// The tables of `w` for boards of side `size` (3 to 8).
    pub fn new(w: &EvalWeights, size: u8) -> MoveTable {
        let v = MoveValuer::new(w);
        let n = size as usize;
        let patterns = 3usize.pow(n as u32);
        let mut gained = vec![0i64; patterns * n].into_boxed_slice();
        let mut spoiled = vec![0i64; patterns * n].into_boxed_slice();
        let mut cells = [0u8; 8];
        for pat in 0..patterns {
            let mut x = pat;
            for c in cells.iter_mut().take(n) {
                *c = (x % 3) as u8;
                x /= 3;
            }
            for place in 0..n {
                if cells[place] != 2 {
                    continue;
                }
                let (mut g, mut sp) = (0i64, 0i64);
                for k in 3..=n {
                    let lo = place.saturating_sub(k - 1);
                    for start in lo..=place.min(n - k) {
                        let window = &cells[start..start + k];
                        if window.contains(&0) {
                            continue;
                        }
                        let f = window.iter().filter(|&&c| c == 2).count();
                        g += WINDOW_WEIGHT[k] as i64 * v.gained[f];
                        sp += WINDOW_WEIGHT[k] as i64 * v.credits[f];
                    }
                }
                gained[pat * n + place] = g;
                spoiled[pat * n + place] = sp;
            }
        }
        MoveTable {
            size,
            gained,
            spoiled,
        }
    }

    /// The process-wide tables of `w` and `size`, built on first use;
    /// `None` for sizes outside 3 to 8 or once 16 tables exist.
    pub fn shared(w: &EvalWeights, size: u8) -> Option<&'static MoveTable> {
        type Cache = Vec<(EvalWeights, u8, &'static MoveTable)>;
        static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
        if !(3..=8).contains(&size) {
            return None;
        }
        // A poisoned lock only means another thread panicked while
        // building; the cache itself is still consistent.
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, _, t)) = cache.iter().find(|(cw, cs, _)| cw == w && *cs == size) {
            return Some(t);
        }
        if cache.len() >= MAX_TABLES {
            return None;
        }
        let t: &'static MoveTable = Box::leak(Box::new(MoveTable::new(w, size)));
        cache.push((w.clone(), size, t));
        Some(t)
    }

    #[inline(always)]
    fn index(&self, stones: u64, free: u64, place: usize) -> usize {
        (BASE3[stones as usize] as usize + 2 * BASE3[free as usize] as usize) * self.size as usize
            + place
    }

    #[inline(always)]
    pub(super) fn gain(&self, mine: u64, free: u64, place: usize) -> i64 {
        self.gained[self.index(mine, free, place)]
    }

    #[inline(always)]
    pub(super) fn spoil(&self, theirs: u64, free: u64, place: usize) -> i64 {
        self.spoiled[self.index(theirs, free, place)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::move_value;
    use super::super::tests::{random_positions, weight_sets};
    use super::*;
    use crate::game::bitboard::Bitboard;
    use crate::game::rng::FastRng;

    #[test]
    fn table_values_equal_the_sweep() {
        for w in weight_sets() {
            let tables: Vec<&'static MoveTable> = (0..=8u8)
                .map(|n| &*Box::leak(Box::new(MoveTable::new(&w, n.max(3)))))
                .collect();
            for pos in random_positions(600, 29) {
                let sweep = MoveValuer::new(&w);
                let table = MoveValuer {
                    table: Some(tables[pos.size() as usize]),
                    ..sweep
                };
                for sq in Bitboard(u64::MAX).into_iter().filter(|s| s.row() < 8) {
                    assert_eq!(
                        table.value(&pos, sq),
                        sweep.value(&pos, sq),
                        "{w:?} {sq} {pos}"
                    );
                }
            }
        }
    }

    #[test]
    fn line_values_follow_a_playout_exactly() {
        let mut rng = FastRng::new(11);
        for w in weight_sets() {
            let tables: Vec<&'static MoveTable> = (0..=8u8)
                .map(|n| &*Box::leak(Box::new(MoveTable::new(&w, n.max(3)))))
                .collect();
            for pos in random_positions(150, 31) {
                let valuer = MoveValuer {
                    table: Some(tables[pos.size() as usize]),
                    ..MoveValuer::new(&w)
                };
                let mut lines = LineValues::new(&valuer, &pos).expect("a table of this size");
                let mut p = pos;
                // Random stones to the end, every free square compared at
                // every ply with the value worked out from scratch.
                while let Some(sq) = p.empty().nth(rng.below(p.empty().count().max(1))) {
                    for f in p.empty() {
                        assert_eq!(
                            lines.value(p.turn(), f),
                            valuer.value(&p, f),
                            "{w:?} {f} {p}"
                        );
                    }
                    p.play_unchecked(sq);
                    lines.played(&p, sq);
                }
            }
        }
        // No table for the size: no line values.
        let pos = random_positions(12, 5)
            .into_iter()
            .find(|p| p.size() == 5)
            .expect("size 5");
        let w = EvalWeights::default();
        assert!(LineValues::new(&MoveValuer::with_table(&w, 7), &pos).is_none());
        assert!(LineValues::new(&MoveValuer::new(&w), &pos).is_none());
    }

    #[test]
    fn table_of_another_size_falls_back_to_the_sweep() {
        let w = EvalWeights::default();
        let pos = random_positions(12, 5)
            .into_iter()
            .find(|p| p.size() == 5)
            .expect("size 5");
        let wrong = MoveValuer::with_table(&w, 7);
        for sq in pos.empty() {
            assert_eq!(wrong.value(&pos, sq), move_value(&pos, sq, &w));
        }
    }
}
