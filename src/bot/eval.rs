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
//! About 160 ns for `evaluate` and 220 ns for `move_value` on 7x7
//! middle-game positions (tests/strength.rs `eval_speed`, release build, a
//! loaded 2-core machine).
//!
//! Callers that value many squares with the same weights (heuristic
//! playouts, move ordering, the one-ply bots) use
//! [`MoveValuer::with_table`]: what a move gains or spoils on one line
//! depends only on that line's `3^7` patterns and the move's place in it,
//! so it is looked up in a table built once per process for each weight
//! set and board size. The values are the same integers; the default
//! `mcts` engine, which spends most of its time valuing squares in
//! heuristic playouts, runs about five times as many iterations a second
//! with it (`mcts_default_iters_per_s_t1` of `pahtum bench`: 21,156
//! before, 106,716 after, idle machine). A playout goes further with
//! [`LineValues`]: each line's table index is kept for both colours and
//! recomputed only for the two lines a stone changes, which more than
//! doubled that figure again (about 108,000 to about 242,000).

use super::spec::{KeyInfo, Params, SpecError};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::scoring::WINDOW_WEIGHT;
use crate::game::square::Square;

/// Units of [`move_value`] per point: it is finer than a point so that
/// close moves are not tied by rounding.
pub const MOVE_VALUE_SCALE: i32 = 100;

/// Fixed-point scale of the window credits: `decay^f` as a multiple of
/// `2^-FRAC` (exact for `f = 0`, so finished boards stay exact).
const FRAC: u32 = 20;
const ONE: i64 = 1 << FRAC;

/// Weights of the line-potential heuristic; each is a bot key (heuristic,
/// alphabeta, mcts priors).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// Credit per free square of an alive window: a window with `f` free
    /// squares counts `decay^f` of its weight. 0.5 is a random fill.
    pub decay: f64,
    /// Windows with more free squares than this count nothing (0 credits
    /// only finished windows, i.e. the score as it stands).
    pub reach: u32,
    /// Weight, in [`move_value`], of the opponent's potential spoiled
    /// relative to the mover's own potential gained.
    pub defence: f64,
}

impl Default for EvalWeights {
    /// The tuned defaults. Chosen by paired games of `heuristic` on random
    /// 7x7 5-hole layouts (tests/strength.rs): a grid over decay 0.15..0.65,
    /// defence 0.7..2 and reach 2..8 against `greedy` and against
    /// `heuristic:decay=0.35`, then a round robin of the six best. These
    /// won or tied every pairing (0.40/1.3/3 against the first draft
    /// 0.5/1/8 score 0.886 over 2000 games); against `greedy` 0.998 over
    /// 2000 games. `decay = 0.5` (a random fill) over-credits long windows
    /// and loses to greedy blocking more often.
    fn default() -> EvalWeights {
        EvalWeights {
            decay: 0.4,
            reach: 3,
            defence: 1.3,
        }
    }
}

impl EvalWeights {
    /// The keys, for `BotKind.keys` of every bot that uses the heuristic.
    pub const KEYS: &'static [KeyInfo] = &[
        KeyInfo {
            key: "decay",
            default: "0.4",
            accepts: "a number 0..=1",
            help: "credit per free square of a window still open to a player (0.5 = random fill)",
            research: true,
        },
        KeyInfo {
            key: "reach",
            default: "3",
            accepts: "an integer 0..=8",
            help: "windows with more free squares than this count nothing",
            research: true,
        },
        KeyInfo {
            key: "defence",
            default: "1.3",
            accepts: "a number 0..=4",
            help: "weight of the opponent's potential a move spoils, relative to its own gain",
            research: true,
        },
    ];

    /// Reads the keys from a spec (defaults when absent).
    ///
    /// # Errors
    /// A value that is not a number or out of range; the message names the
    /// key and its range.
    pub fn from_params(p: &Params) -> Result<EvalWeights, SpecError> {
        let d = EvalWeights::default();
        Ok(EvalWeights {
            decay: p.float("decay", d.decay, 0.0, 1.0)?,
            reach: p.int("reach", d.reach as u64, 0, 8)? as u32,
            defence: p.float("defence", d.defence, 0.0, 4.0)?,
        })
    }

    /// `decay^f` in fixed point for `f = 0..=8`, zero beyond `reach`.
    #[inline]
    fn credits(&self) -> [i64; 9] {
        let mut c = [0i64; 9];
        let mut x = 1.0f64;
        for (f, slot) in c.iter_mut().enumerate() {
            if f as u32 > self.reach {
                break;
            }
            *slot = if f == 0 {
                ONE
            } else {
                (x * ONE as f64).round() as i64
            };
            x *= self.decay;
        }
        c
    }
}

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

/// [`move_value`] for one board size as table lookups: a move changes
/// only the windows of its row and column, and what it gains (or spoils)
/// on one line depends only on that line's squares (blocked, own stone or
/// free: `3^size` patterns) and its place in the line. So each line's
/// share is precomputed for every pattern and place, and a value is four
/// lookups (gain and spoil, row and column) instead of two sweeps. The
/// sums are the same fixed-point integers the sweep adds, so the values
/// are identical.
pub struct MoveTable {
    size: u8,
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
    fn gain(&self, mine: u64, free: u64, place: usize) -> i64 {
        self.gained[self.index(mine, free, place)]
    }

    #[inline(always)]
    fn spoil(&self, theirs: u64, free: u64, place: usize) -> i64 {
        self.spoiled[self.index(theirs, free, place)]
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

    fn random_positions(count: usize, seed: u64) -> Vec<Position> {
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

    fn weight_sets() -> Vec<EvalWeights> {
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

    #[test]
    fn keys_match_defaults() {
        let d = EvalWeights::default();
        for k in EvalWeights::KEYS {
            let v: f64 = k.default.parse().expect("numeric default");
            let field = match k.key {
                "decay" => d.decay,
                "reach" => d.reach as f64,
                "defence" => d.defence,
                other => panic!("unknown key {other}"),
            };
            assert_eq!(v, field, "{}", k.key);
        }
        let spec = "heuristic:decay=0.25,reach=3".parse().expect("spec");
        let w = EvalWeights::from_params(&Params::new(&spec)).expect("weights");
        assert_eq!((w.decay, w.reach, w.defence), (0.25, 3, 1.3));
        let spec = "heuristic:decay=2".parse().expect("spec");
        let e = EvalWeights::from_params(&Params::new(&spec)).expect_err("range");
        assert!(e.0.contains("decay") && e.0.contains("0..=1"), "{e}");
    }
}
