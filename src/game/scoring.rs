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

/// How much the owner of `stones` gains by adding a stone on `sq` (not in
/// `stones`): the merged runs through `sq` across and down replace the runs
/// on either side. The opponent's score never changes, because `sq` was
/// empty and so already broke every opponent run through it.
///
/// Equals `score(stones | sq) - score(stones)` (checked in tests).
#[inline]
pub fn gain(stones: Bitboard, sq: Square) -> u32 {
    let s = stones.0;
    let row = sq.row() as u32;
    let col = sq.col() as u32;
    // Across: the run through `sq` inside its row byte.
    let x = ((s >> (8 * row)) & 0xff) as u32;
    let right = (!(x >> (col + 1))).trailing_zeros();
    let left = col - (31 - (((!x) << 1 | 1) & ((2u32 << col) - 1)).leading_zeros());
    // Down: gather the column into a byte (bit r = row r) and do the same.
    let colbits = ((s >> col) & 0x0101_0101_0101_0101).wrapping_mul(0x8040_2010_0804_0201) >> 56;
    // The multiply packs row r into bit 7 - r; reverse so bit r is row r.
    let y = (colbits as u8).reverse_bits() as u32;
    let up = (!(y >> (row + 1))).trailing_zeros();
    let down = row - (31 - (((!y) << 1 | 1) & ((2u32 << row) - 1)).leading_zeros());
    RUN_POINTS[(left + right + 1) as usize] - RUN_POINTS[left as usize] - RUN_POINTS[right as usize]
        + RUN_POINTS[(up + down + 1) as usize]
        - RUN_POINTS[up as usize]
        - RUN_POINTS[down as usize]
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
