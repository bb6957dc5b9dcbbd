//! A learned value of a position: an n-tuple network over the board's
//! lines, trained by temporal-difference self-play.
//!
//! # The model
//! Pah Tum scores row and column segments, so the natural features are the
//! lines themselves. Each row and column of side `n` is one n-tuple whose
//! squares are empty, the side to move's, the other side's or a hole
//! (`4^n` patterns). The value of a position for the side to move is the sum
//! over its `2n` lines of one shared table's entry for the line's pattern,
//! the table chosen by the number of empty squares (the phase of the game:
//! who gets the last word in a contested line depends on it). On a full
//! board the table is each line's score difference, so the value there is
//! exactly the final margin in points; elsewhere it predicts it. A line and
//! its mirror image share one weight.
//!
//! This is the n-tuple network of Lucas ("Learning to play Othello with
//! n-tuple systems", 2008) and of the strong 2048 players (Szubert and
//! Jaśkowski, "Temporal difference learning of n-tuple networks for the game
//! 2048", 2014), with the lines of the game as its tuples.
//!
//! # Training
//! `crate::learn::lines::train`: games of self-play on random hole layouts, each move
//! the best by one ply of the network (a random move with probability
//! `explore`). At each position the network's value is moved towards the
//! best one-ply value found there: TD(0) with a greedy target, so exploring
//! moves do not bias what is learned. Each step is divided by the squared
//! length of the value's gradient (normalised least mean squares), so that
//! lines sharing a weight cannot overshoot; the learning rate falls
//! linearly.
//! Training is one thread and a pure function of its settings and seed, so
//! the built-in network is reproducible to the byte
//! (`experiments/learned-lines`).
//!
//! # Speed
//! [`NetLines`] keeps every line's pattern index for both colours' points
//! of view; a stone recomputes its row and column. The value of a move is
//! then the position's sum plus four table loads, about what a heuristic
//! move value costs with `eval::LineValues`.
//!
//! This file holds the network, its file and its inference; training is in
//! `learn/lines.rs`, the `learned` bot and the `net=` key in
//! `bot/learned/`.

use std::path::Path;
use std::sync::OnceLock;

use super::files::{NetError, NetFiles};
use crate::eval::{EvalWeights, col_byte, digit_table, row_byte};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::rng::FastRng;
use crate::game::scoring::WINDOW_WEIGHT;
use crate::game::square::Square;

/// `4^i` summed over the set bits `i` of a byte: the digits of a line's
/// pattern for one kind of square.
const BASE4: [u16; 256] = digit_table(4);

/// `4^i`.
const POW4: [u32; 8] = [1, 4, 16, 64, 256, 1024, 4096, 16384];

/// Pattern digits (an empty square is 0).
const MINE: u32 = 1;
const THEIRS: u32 = 2;
const HOLE: u32 = 3;

/// Weights are stored in hundredths of a point.
const STORE_SCALE: f32 = 100.0;

/// The built-in network for 7x7 boards, embedded so that every build plays
/// the same: `examples/train_lines` with its defaults writes these bytes
/// (`experiments/learned-lines/run.sh` checks that it still does).
const BUILTIN_7: &[u8] = include_bytes!("../../data/lines-7.net");

/// A line-pattern value network for one board size.
#[derive(Clone, PartialEq)]
pub struct LineNet {
    size: u8,
    /// `4^size`.
    patterns: usize,
    /// Empty squares per table: a position with `e` empty squares uses
    /// table `ceil(e / width)`, so the full board alone has table 0, which
    /// stays the exact score.
    width: u32,
    /// `[table * patterns + pattern]`, points for the side to move.
    weights: Box<[f32]>,
}

/// Only the shape: the weights are hundreds of thousands of numbers.
impl std::fmt::Debug for LineNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineNet")
            .field("size", &self.size)
            .field("width", &self.width)
            .finish_non_exhaustive()
    }
}

impl LineNet {
    /// The untrained network: on the full board each line's score
    /// difference (exact), elsewhere the line potential of `heuristic`
    /// (`eval`, default weights: every window still open to a player
    /// credited its weight times 0.4 per free square, up to 3 free
    /// squares), the mover's minus the opponent's. Training moves the
    /// patterns it meets; a pattern it never meets (six stones of a line
    /// of seven and a gap) keeps a sensible value rather than none.
    pub fn untrained(size: u8, width: u32) -> LineNet {
        let n = size as usize;
        let patterns = 4usize.pow(n as u32);
        // The file stores the width in one byte.
        let width = width.clamp(1, u8::MAX as u32);
        let tables = table_count(size, width);
        let w = EvalWeights::default();
        let (mut exact, mut potential) = (vec![0f32; patterns], vec![0f32; patterns]);
        let mut cells = [0u32; 8];
        for pat in 0..patterns {
            let mut x = pat as u32;
            for c in cells.iter_mut().take(n) {
                *c = x % 4;
                x /= 4;
            }
            let line = &cells[..n];
            exact[pat] = line_potential(line, MINE, 0.0, 0) - line_potential(line, THEIRS, 0.0, 0);
            potential[pat] = line_potential(line, MINE, w.decay, w.reach)
                - line_potential(line, THEIRS, w.decay, w.reach);
        }
        let mut weights = exact;
        for _ in 1..tables {
            weights.extend_from_slice(&potential);
        }
        LineNet {
            size,
            patterns,
            width,
            weights: weights.into_boxed_slice(),
        }
    }

    /// The built-in network of boards of side `size` (7 only), read once
    /// per process.
    pub fn builtin(size: u8) -> Option<&'static LineNet> {
        static NET: OnceLock<Option<LineNet>> = OnceLock::new();
        NET.get_or_init(|| LineNet::from_bytes(BUILTIN_7).ok())
            .as_ref()
            .filter(|n| n.size == size)
    }

    /// The network in `path`, read once per process and path.
    ///
    /// # Errors
    /// The file cannot be read or is not a network.
    pub fn load(path: &Path) -> Result<&'static LineNet, NetError> {
        static FILES: NetFiles<LineNet> = NetFiles::new("line network");
        FILES.get(path, LineNet::from_bytes)
    }

    /// Board side this network values.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Empty squares per table.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Patterns of a line, `4^size`: the length of one table.
    pub fn patterns(&self) -> usize {
        self.patterns
    }

    /// Every table's weights, `[table * patterns + pattern]`.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The table of positions with `empties` empty squares, for the
    /// trainer's steps.
    pub fn table_mut(&mut self, empties: u32) -> &mut [f32] {
        let at = empties.div_ceil(self.width) as usize * self.patterns;
        &mut self.weights[at..at + self.patterns]
    }

    #[inline(always)]
    fn table(&self, empties: u32) -> &[f32] {
        let at = empties.div_ceil(self.width) as usize * self.patterns;
        &self.weights[at..at + self.patterns]
    }

    /// The predicted final margin of `pos` in points for the side to move
    /// (komi not included). `pos` must be of the network's size.
    pub fn value(&self, pos: &Position) -> f32 {
        debug_assert_eq!(pos.size(), self.size);
        NetLines::new(self, pos).sum(self, pos.turn(), pos.empty().count())
    }

    /// The network as bytes: `PTLN`, format 1, the board side, the table
    /// width, a zero byte, then the weights in hundredths of a point as
    /// little-endian `i16`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + 2 * self.weights.len());
        out.extend_from_slice(b"PTLN");
        out.extend_from_slice(&[1, self.size, self.width as u8, 0]);
        for w in self.weights.iter() {
            let q = (w * STORE_SCALE)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16;
            out.extend_from_slice(&q.to_le_bytes());
        }
        out
    }

    /// Reads [`LineNet::to_bytes`].
    ///
    /// # Errors
    /// A wrong header, board side, width or length, named in the message.
    pub fn from_bytes(bytes: &[u8]) -> Result<LineNet, String> {
        if bytes.len() < 8 || &bytes[..4] != b"PTLN" {
            return Err("no PTLN header".into());
        }
        if bytes[4] != 1 {
            return Err(format!("format {} (this build reads format 1)", bytes[4]));
        }
        let (size, width) = (bytes[5], bytes[6] as u32);
        if !(3..=8).contains(&size) {
            return Err(format!("board side {size} (3 to 8 are supported)"));
        }
        if width == 0 {
            return Err("table width 0".into());
        }
        let patterns = 4usize.pow(size as u32);
        let len = table_count(size, width) * patterns;
        let body = &bytes[8..];
        if body.len() != 2 * len {
            return Err(format!(
                "{} bytes where a {size}x{size} network of width {width} has {}",
                bytes.len(),
                8 + 2 * len
            ));
        }
        let weights = body
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]) as f32 / STORE_SCALE)
            .collect();
        Ok(LineNet {
            size,
            patterns,
            width,
            weights,
        })
    }
}

/// Tables of a network of side `size` with `width` empty squares per
/// table: one per `width` empty squares of the full count, and table 0 for
/// the full board.
fn table_count(size: u8, width: u32) -> usize {
    (size as u32 * size as u32).div_ceil(width) as usize + 1
}

/// The windows of `line` (pattern digits) still open to the player whose
/// stones are `own`, each its weight times `decay` per free square, up to
/// `reach` free squares: with `reach = 0` the line's score.
fn line_potential(line: &[u32], own: u32, decay: f64, reach: u32) -> f32 {
    let n = line.len();
    let mut total = 0.0;
    for (k, &weight) in WINDOW_WEIGHT.iter().enumerate().take(n + 1).skip(3) {
        for window in line.windows(k) {
            if window.iter().all(|&c| c == own || c == 0) {
                let free = window.iter().filter(|&&c| c == 0).count() as u32;
                if free <= reach {
                    total += weight as f64 * decay.powi(free as i32);
                }
            }
        }
    }
    total as f32
}

/// `x as i32` as a float that orders and ties as the integer does (NaN is
/// 0, the rest is truncated and saturated), so a scan can compare floats:
/// fewer instructions than the saturating conversion.
#[inline(always)]
fn as_i32_order(x: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else {
        x.trunc().clamp(-2_147_483_648.0, 2_147_483_648.0)
    }
}

/// Every line's pattern index from both colours' points of view, kept up
/// to date move by move: lines `0..n` are the rows, `n..2n` the columns.
#[derive(Clone, Debug)]
pub struct NetLines {
    size: u8,
    /// `[colour][line]`: the pattern with that colour's stones as `MINE`.
    idx: [[u32; 16]; 2],
}

impl NetLines {
    /// The lines of `pos`, which must be of `net`'s size.
    pub fn new(net: &LineNet, pos: &Position) -> NetLines {
        debug_assert_eq!(pos.size(), net.size);
        let mut v = NetLines {
            size: net.size,
            idx: [[0; 16]; 2],
        };
        for line in 0..net.size as u32 {
            v.update(pos, line, line);
        }
        v
    }

    /// Takes the stone just placed on `sq` in `pos` into account: in
    /// each pattern through `sq` that square's digit goes from empty (0)
    /// to `MINE` or `THEIRS`, so four additions keep the lines.
    #[inline]
    pub fn played(&mut self, pos: &Position, sq: Square) {
        let (row, col) = (sq.row() as usize & 7, sq.col() as usize & 7);
        let n = self.size as usize;
        let by = if pos.stones(Player::White).contains(sq) {
            Player::White
        } else {
            Player::Black
        };
        let (me, them) = (by as usize, !by as usize);
        self.idx[me][row] += MINE * POW4[col];
        self.idx[them][row] += THEIRS * POW4[col];
        self.idx[me][(n + col) & 15] += MINE * POW4[row];
        self.idx[them][(n + col) & 15] += THEIRS * POW4[row];
        debug_assert_eq!(
            self.idx,
            {
                let mut full = self.clone();
                full.update(pos, row as u32, col as u32);
                full.idx
            },
            "the square was empty before"
        );
    }

    #[inline(always)]
    fn update(&mut self, pos: &Position, row: u32, col: u32) {
        let n = self.size as usize;
        let holes = pos.holes().0;
        let (w, b) = (pos.stones(Player::White).0, pos.stones(Player::Black).0);
        let line = |byte: fn(u64, u32) -> u64, at: u32, me: u64, them: u64| {
            BASE4[byte(me, at) as usize] as u32 * MINE
                + BASE4[byte(them, at) as usize] as u32 * THEIRS
                + BASE4[byte(holes, at) as usize] as u32 * HOLE
        };
        for (p, me, them) in [(0, w, b), (1, b, w)] {
            self.idx[p][row as usize] = line(row_byte, row, me, them);
            self.idx[p][n + col as usize] = line(col_byte, col, me, them);
        }
    }

    /// The pattern index of every line (rows, then columns) with `who`'s
    /// stones as the side to move's: what the trainer steps.
    pub fn patterns_of(&self, who: Player) -> &[u32] {
        &self.idx[who as usize][..2 * self.size as usize]
    }

    /// `net`'s value for `who` with `empties` empty squares: the sum over
    /// the lines.
    #[inline]
    pub fn sum(&self, net: &LineNet, who: Player, empties: u32) -> f32 {
        let t = net.table(empties);
        self.idx[who as usize][..2 * self.size as usize]
            .iter()
            .map(|&i| t[i as usize])
            .sum()
    }

    /// The sum over the lines as the opponent of the side to move sees
    /// them one ply on: the part of every move's value that the move does
    /// not change (see [`NetLines::move_value`]).
    #[inline]
    pub fn after_base(&self, net: &LineNet, pos: &Position) -> f32 {
        let empties = pos.empty().count();
        self.sum(net, !pos.turn(), empties.saturating_sub(1))
    }

    /// The value for the side to move of placing on the free `sq`: minus
    /// the value of the position after it, for the opponent; `base` is
    /// [`NetLines::after_base`]. Only the move's row and column change.
    #[inline(always)]
    pub fn move_value(&self, net: &LineNet, pos: &Position, base: f32, sq: Square) -> f32 {
        let t = net.table(pos.empty().count().saturating_sub(1));
        let n = self.size as usize;
        let them = &self.idx[!pos.turn() as usize];
        let (row, col) = (sq.row() as usize, sq.col() as usize);
        let (ri, ci) = (them[row], them[n + col]);
        let v = base - t[ri as usize] - t[ci as usize]
            + t[(ri + THEIRS * POW4[col]) as usize]
            + t[(ci + THEIRS * POW4[row]) as usize];
        -v
    }

    /// The square that `bot::choose::best_from_random_start` picks from `pos`'s free
    /// squares by `(move_value * 100) as i32` (hundredths of a point, as
    /// the heuristic's move values are), drawing the same random word, with
    /// [`NetLines::after_base`] as the base: the same floating-point steps
    /// in the same order, so the same square. The innermost loop of the
    /// default playout: each line's value is looked up once a ply instead
    /// of once a square (the base is their sum), and the scan compares
    /// plain values.
    #[inline]
    pub fn best_in_hundredths(
        &self,
        net: &LineNet,
        pos: &Position,
        rng: &mut FastRng,
    ) -> Option<Square> {
        let r = (rng.next_word() & 63) as u32;
        let mut rot = pos.empty().0.rotate_right(r);
        if rot == 0 {
            return None;
        }
        let t = net.table(pos.empty().count().saturating_sub(1));
        let n = self.size as usize;
        let them = &self.idx[!pos.turn() as usize];
        let (mut rows, mut cols) = ([0u32; 8], [0u32; 8]);
        let (mut row_value, mut col_value) = ([0f32; 8], [0f32; 8]);
        for i in 0..n {
            rows[i] = them[i];
            cols[i] = them[n + i];
            row_value[i] = t[rows[i] as usize];
            col_value[i] = t[cols[i] as usize];
        }
        // `after_base`'s sum: the same values in the same order.
        let base: f32 = row_value[..n].iter().chain(&col_value[..n]).sum();
        // `move_value`'s first step, the same for a whole row.
        let mut row_base = [0f32; 8];
        for i in 0..n {
            row_base[i] = base - row_value[i];
        }
        // One square's value, as `move_value` computes it, in the order of
        // its `as i32` hundredths.
        macro_rules! value_at {
            ($rot:expr) => {{
                let sq = Square::from_index_unchecked((($rot.trailing_zeros() + r) & 63) as u8);
                let (row, col) = (sq.row() as usize & 7, sq.col() as usize & 7);
                let v = row_base[row] - col_value[col]
                    + t[(rows[row] + THEIRS * POW4[col]) as usize]
                    + t[(cols[col] + THEIRS * POW4[row]) as usize];
                (sq, as_i32_order(-v * 100.0))
            }};
        }
        let (mut best_sq, mut best) = value_at!(rot);
        rot &= rot - 1;
        while rot != 0 {
            let (sq, v) = value_at!(rot);
            rot &= rot - 1;
            if v > best {
                best = v;
                best_sq = sq;
            }
        }
        Some(best_sq)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::rules::{HoleSetup, Rules};

    /// A position of `size` with random holes and stones, for tests here
    /// and of the line trainer.
    pub(crate) fn random_position(rng: &mut FastRng, size: u8) -> Position {
        let rules = Rules {
            size,
            holes: HoleSetup::Random(rng.below(size as u32 + 1)),
            ..Rules::default()
        };
        let mut pos = rules.new_game(rng).expect("game");
        for _ in 0..rng.below(pos.empty().count() + 1) {
            let sq = pos.empty().nth(rng.below(pos.empty().count()));
            pos.play_unchecked(sq.expect("a free square"));
        }
        pos
    }

    #[test]
    fn a_full_board_is_valued_at_its_margin() {
        let net = LineNet::builtin(7).expect("built-in network");
        let mut rng = FastRng::new(3);
        for _ in 0..200 {
            let mut pos = random_position(&mut rng, 7);
            let mut fill = rng.clone();
            pos = pos.random_fill(&mut fill);
            let s = pos.scores();
            let margin = s[pos.turn()] as f32 - s[!pos.turn()] as f32;
            assert_eq!(net.value(&pos), margin);
        }
    }

    #[test]
    fn the_float_order_is_the_order_of_as_i32() {
        let big = 2_147_483_648.0f32;
        let mut xs = vec![
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            big,
            -big,
            f32::MAX,
            f32::MIN,
            0.0,
            -0.0,
            0.3,
            -0.3,
            0.99,
            -0.99,
            1.0,
            -1.0,
            1.5,
            -1.5,
            12345.67,
            -12345.67,
        ];
        for k in 1..4 {
            xs.push(f32::from_bits(big.to_bits() - k));
            xs.push(-f32::from_bits(big.to_bits() - k));
            xs.push(f32::from_bits(big.to_bits() + k));
            xs.push(-f32::from_bits(big.to_bits() + k));
        }
        for &a in &xs {
            for &b in &xs {
                let want = (a as i32).cmp(&(b as i32));
                let got = as_i32_order(a).partial_cmp(&as_i32_order(b));
                assert_eq!(got, Some(want), "{a} against {b}");
            }
        }
    }
}
