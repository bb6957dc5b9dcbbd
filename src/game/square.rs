//! Squares, named like chess squares.

use std::fmt;
use std::str::FromStr;

/// Largest supported board side.
pub const MAX_SIZE: u8 = 8;
/// Smallest supported board side.
pub const MIN_SIZE: u8 = 3;

/// A square: bit `row * 8 + col` of a [`crate::Bitboard`].
///
/// Files `a..h` are columns 0..7 from the left, ranks `1..8` are rows 0..7
/// from the bottom, so `a1` is bottom-left. Every board size uses the same
/// 8-wide layout, which keeps square numbers stable across sizes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square of the 8x8 frame, `a1, b1, ..., h8`.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square at column `col` and row `row` (both 0-based).
    ///
    /// # Panics
    /// If either is 8 or more.
    #[inline]
    pub const fn new(col: u8, row: u8) -> Square {
        assert!(col < 8 && row < 8, "square out of the 8x8 frame");
        Square(row * 8 + col)
    }

    /// The square with bit index `index`, if below 64.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with bit index `index`, which must be below 64.
    #[inline]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The bit index, `row * 8 + col`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column, 0 = file `a`.
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 & 7
    }

    /// Row, 0 = rank `1`.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }

    /// Whether the square lies on a board of side `size`.
    #[inline]
    pub const fn is_on_board(self, size: u8) -> bool {
        self.col() < size && self.row() < size
    }

    /// The image under symmetry `sym` (0..8) of the square board of side
    /// `size`: bit 0 mirrors columns, bit 1 mirrors rows, bit 2 transposes
    /// (applied first).
    pub const fn transform(self, sym: u8, size: u8) -> Square {
        let (mut c, mut r) = (self.col(), self.row());
        if sym & 4 != 0 {
            let t = c;
            c = r;
            r = t;
        }
        if sym & 1 != 0 {
            c = size - 1 - c;
        }
        if sym & 2 != 0 {
            r = size - 1 - r;
        }
        Square::new(c, r)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// Why a square name did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad square '{0}': expected a file a..h then a rank 1..8, like d4")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`h8`, case-insensitive.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseSquareError(s.to_string()));
        }
        let file = b[0].to_ascii_lowercase();
        let rank = b[1];
        if !(b'a'..=b'h').contains(&file) || !(b'1'..=b'8').contains(&rank) {
            return Err(ParseSquareError(s.to_string()));
        }
        Ok(Square::new(file - b'a', rank - b'1'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            let name = sq.to_string();
            assert_eq!(name.parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().map(|s| s.index()), Ok(0));
        assert_eq!("G7".parse::<Square>().map(|s| s.index()), Ok(54));
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn symmetries_are_permutations() {
        for size in MIN_SIZE..=MAX_SIZE {
            for sym in 0..8 {
                let mut seen = std::collections::HashSet::new();
                for sq in Square::ALL.iter().filter(|s| s.is_on_board(size)) {
                    let t = sq.transform(sym, size);
                    assert!(t.is_on_board(size));
                    seen.insert(t);
                }
                assert_eq!(seen.len(), (size * size) as usize);
            }
        }
    }
}
