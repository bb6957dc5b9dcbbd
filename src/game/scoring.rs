//! Line scores: every maximal horizontal or vertical run of one colour.
//!
//! A run of length L scores `RUN_POINTS[L]`. Instead of finding runs, the
//! fast scorer counts *windows*: a run of length L contains `L - k + 1` full
//! windows of length k, so weighting the number of full windows of each
//! length by the second difference of `RUN_POINTS` (`WINDOW_WEIGHT`)
//! reproduces the run scores exactly, with shifts, ANDs and popcounts only.

use super::bitboard::Bitboard;
use super::square::Square;

/// Points for one maximal run by length: 0 below 3, then 2^n - n - 2
/// (a run of n scores n points plus every shorter run inside it, which is
/// the recurrence s(n) = n + 2·s(n−1)). Index 8 extends it to 8x8 boards.
pub const RUN_POINTS: [u32; 9] = {
    let mut t = [0u32; 9];
    let mut len = 3;
    while len < 9 {
        t[len] = len as u32 + 2 * t[len - 1];
        len += 1;
    }
    t
};

/// Weight of one full window of length k: the second difference
/// `RUN_POINTS[k] - 2·RUN_POINTS[k-1] + RUN_POINTS[k-2]` (3, 4, 8, 16, 32, 64
/// for k = 3..=8; 0 below 3). Summed over the `L - k + 1` windows of each
/// length inside a run of length L, it telescopes to `RUN_POINTS[L]`.
pub const WINDOW_WEIGHT: [u32; 9] = {
    let mut w = [0u32; 9];
    let mut k = 2;
    while k < 9 {
        w[k] = RUN_POINTS[k] + RUN_POINTS[k - 2] - 2 * RUN_POINTS[k - 1];
        k += 1;
    }
    w
};

/// Column 7 cleared: a horizontal window may not start there, or it would
/// wrap to the next row on 8x8 boards.
const NOT_COL7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// Sum of window weights in one direction. `w2` holds the starts of full
/// windows of length 2; each longer window is two overlapping shorter ones.
#[inline(always)]
fn windows_score(w2: u64, step: u32) -> u32 {
    let w3 = w2 & (w2 >> step);
    let w4 = w3 & (w3 >> step);
    let w5 = w4 & (w4 >> step);
    let w6 = w5 & (w5 >> step);
    let w7 = w6 & (w6 >> step);
    let w8 = w7 & (w7 >> step);
    3 * w3.count_ones()
        + 4 * w4.count_ones()
        + 8 * w5.count_ones()
        + 16 * w6.count_ones()
        + 32 * w7.count_ones()
        + 64 * w8.count_ones()
}

/// The line score of one colour's `stones`, on any board up to 8x8.
///
/// Runs are broken by anything that is not in `stones` (opponent stones,
/// holes, empty squares, the edge), so partial boards score as they stand.
///
/// # Examples
/// ```
/// use pahtum::{bitboard, score};
/// // One run of 3 and one of 4 across, nothing down: 3 + 10.
/// let white = bitboard! {
///     X X X . . . .
///     . . . . . . .
///     . . . X X X X
///     . . . . . . .
///     . . . . . . .
///     . . . . . . .
///     . . . . . . .
/// };
/// assert_eq!(score(white), 13);
/// ```
#[inline]
pub fn score(stones: Bitboard) -> u32 {
    let s = stones.0;
    windows_score(s & (s >> 1) & NOT_COL7, 1) + windows_score(s & (s >> 8), 8)
}

/// Points a stone at bit `at` of an 8-square line `line` adds to that
/// line's runs: the merged run through it replaces the runs on either side
/// (bit `at` itself is ignored, so the value is the same set or not).
const fn line_gain(line: u32, at: u32) -> u32 {
    let mut right = 0;
    while at + 1 + right < 8 && line >> (at + 1 + right) & 1 == 1 {
        right += 1;
    }
    let mut left = 0;
    while left < at && line >> (at - 1 - left) & 1 == 1 {
        left += 1;
    }
    RUN_POINTS[(left + right + 1) as usize] - RUN_POINTS[left as usize] - RUN_POINTS[right as usize]
}

/// [`line_gain`] of every line byte and position, at `8 * line + at`: the
/// scorer's hot path is two lookups instead of bit scans. Every value fits
/// a byte (at most `RUN_POINTS[8]`), so the table is 2 KiB.
static LINE_GAIN: [u8; 256 * 8] = {
    let mut t = [0u8; 256 * 8];
    let mut i = 0;
    while i < 256 * 8 {
        t[i] = line_gain((i / 8) as u32, (i % 8) as u32) as u8;
        i += 1;
    }
    t
};

/// How much the owner of `stones` gains by adding a stone on `sq` (not in
/// `stones`): the merged runs through `sq` across and down replace the runs
/// on either side. The opponent's score never changes, because `sq` was
/// empty and so already broke every opponent run through it.
///
/// Equals `score(stones | sq) - score(stones)` (checked in tests).
#[inline]
pub fn gain(stones: Bitboard, sq: Square) -> u32 {
    let s = stones.0;
    let row = sq.row() as usize;
    let col = sq.col() as usize;
    // Across: the row byte, position `col`.
    let x = (s >> (8 * row)) as u8 as usize;
    // Down: the multiply gathers the column into a byte with row r at bit
    // 7 - r; a line's gains are the same read backwards, so the byte is
    // looked up as it comes, at position 7 - row.
    let y =
        (((s >> col) & 0x0101_0101_0101_0101).wrapping_mul(0x8040_2010_0804_0201) >> 56) as usize;
    LINE_GAIN[8 * x + col] as u32 + LINE_GAIN[8 * y + 7 - row] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_pinned() {
        assert_eq!(RUN_POINTS, [0, 0, 0, 3, 10, 25, 56, 119, 246]);
        assert_eq!(WINDOW_WEIGHT, [0, 0, 0, 3, 4, 8, 16, 32, 64]);
        for n in 3..9u32 {
            assert_eq!(RUN_POINTS[n as usize], (1 << n) - n - 2);
        }
    }

    #[test]
    fn hole_breaks_run() {
        // WWW#WWW on one row scores 3 + 3.
        let w = Bitboard(0b1110111);
        assert_eq!(score(w), 6);
    }

    #[test]
    fn full_row_and_board() {
        assert_eq!(score(Bitboard(0x7f)), 119);
        assert_eq!(score(Bitboard::FULL), 14 * 119);
        assert_eq!(score(Bitboard::full(8)), 16 * 246);
        assert_eq!(score(Bitboard::full(3)), 6 * 3);
    }

    /// The bit-scan scorer the lookup table replaced: the reference the
    /// table is checked against.
    fn gain_by_scans(stones: Bitboard, sq: Square) -> u32 {
        let s = stones.0;
        let (row, col) = (sq.row() as u32, sq.col() as u32);
        let run = |x: u32, at: u32| {
            let right = (!(x >> (at + 1))).trailing_zeros();
            let left = at - (31 - (((!x) << 1 | 1) & ((2u32 << at) - 1)).leading_zeros());
            RUN_POINTS[(left + right + 1) as usize]
                - RUN_POINTS[left as usize]
                - RUN_POINTS[right as usize]
        };
        let x = ((s >> (8 * row)) & 0xff) as u32;
        let y = (0..8).fold(0u32, |y, r| y | ((s >> (8 * r + col) & 1) as u32) << r);
        run(x, col) + run(y, row)
    }

    #[test]
    fn gain_table_matches_bit_scans_on_every_line() {
        // Every row byte and every column byte at every square, with and
        // without the square's own bit.
        for bits in 0u64..256 {
            let spread = (0..8).fold(0u64, |a, r| a | (bits >> r & 1) << (8 * r));
            for sq in Square::ALL {
                for s in [bits << (8 * sq.row()), spread << sq.col()] {
                    let s = Bitboard(s);
                    assert_eq!(gain(s, sq), gain_by_scans(s, sq), "{s:?} {sq}");
                }
            }
        }
        let mut rng = crate::game::rng::FastRng::new(3);
        for _ in 0..20_000 {
            let s = Bitboard(rng.next_word());
            for sq in Square::ALL {
                assert_eq!(gain(s, sq), gain_by_scans(s, sq), "{s:?} {sq}");
                if !s.contains(sq) {
                    let after = score(s | Bitboard::from_square(sq));
                    assert_eq!(gain(s, sq), after - score(s), "{s:?} {sq}");
                }
            }
        }
    }

    #[test]
    fn gain_matches_rescoring_exhaustively_on_rows() {
        for bits in 0u64..256 {
            let s = Bitboard(bits | bits << 8 | (bits & 0x55) << 16);
            for sq in Square::ALL {
                if !s.contains(sq) {
                    let after = score(s | Bitboard::from_square(sq));
                    assert_eq!(gain(s, sq), after - score(s), "{s:?} {sq}");
                }
            }
        }
    }
}
