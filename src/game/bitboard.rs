//! Sets of squares as 64-bit words.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares: bit `row * 8 + col`.
///
/// Boards of side 7 or less never use column 7, so a shift by one along a row
/// runs into that empty column instead of wrapping to the next row; side 8
/// uses the whole word and scoring masks the wrap explicitly.
///
/// # Examples
/// ```
/// use pahtum::{bitboard, Bitboard, Square};
/// let b = bitboard! {
///     . . . . . . .
///     . . . . . . .
///     . . . . . . .
///     . . . X . . .
///     . . . . . . .
///     . . . . . . .
///     X . . . . . X
/// };
/// assert_eq!(b.count(), 3);
/// assert!(b.contains("d4".parse::<Square>().unwrap()));
/// assert!(b.contains("g1".parse::<Square>().unwrap()));
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 49 squares of the 7x7 board.
    pub const FULL: Bitboard = Bitboard::full(7);

    /// All squares of a board of side `size` (1..=8).
    pub const fn full(size: u8) -> Bitboard {
        let row: u64 = if size >= 8 { 0xff } else { (1u64 << size) - 1 };
        let mut bits = 0u64;
        let mut r = 0;
        while r < size {
            bits |= row << (8 * r);
            r += 1;
        }
        Bitboard(bits)
    }

    /// The single square `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u64 << sq.index())
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The `k`-th lowest square (0-based), if the set has more than `k`.
    #[inline]
    pub fn nth(self, k: u32) -> Option<Square> {
        let mut bits = self.0;
        if k >= bits.count_ones() {
            return None;
        }
        for _ in 0..k {
            bits &= bits - 1;
        }
        Some(Square::from_index_unchecked(bits.trailing_zeros() as u8))
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1u64 << sq.index();
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1u64 << sq.index());
    }

    /// The set's image under board symmetry `sym` (see [`Square::transform`]).
    pub fn transform(self, sym: u8, size: u8) -> Bitboard {
        self.into_iter()
            .map(|sq| Bitboard::from_square(sq.transform(sym, size)))
            .fold(Bitboard::EMPTY, |a, b| a | b)
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Yields squares from lowest to highest, removing them.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the 8x8 frame, rank 8 first, `X` for members.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(0x{:016x})", self.0)?;
        for row in (0..8).rev() {
            for col in 0..8 {
                let c = if self.contains(Square::new(col, row)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// Draws a bitboard as a picture, top rank first, `X` for members and `.`
/// for others; the number of rows gives the board side (rows must be equally
/// long). Used in tests and docs.
#[macro_export]
macro_rules! bitboard {
    ($($t:tt)*) => {{
        const PICTURE: &str = stringify!($($t)*);
        $crate::Bitboard::from_picture(PICTURE)
    }};
}

impl Bitboard {
    /// Parses the text of [`bitboard!`]: whitespace-separated `X` and `.`
    /// cells, `size * size` of them, top rank first.
    ///
    /// # Panics
    /// If the cell count is not a square of 1..=8 or a cell is neither `X`
    /// nor `.`; it is meant for literals in code, not user input.
    pub fn from_picture(picture: &str) -> Bitboard {
        let cells: Vec<char> = picture.chars().filter(|c| !c.is_whitespace()).collect();
        let size = (1..=8u8)
            .find(|s| (*s as usize) * (*s as usize) == cells.len())
            .expect("bitboard! needs size*size cells");
        let mut b = Bitboard::EMPTY;
        for (i, c) in cells.iter().enumerate() {
            let row = size - 1 - (i / size as usize) as u8;
            let col = (i % size as usize) as u8;
            match c {
                'X' | 'x' => b.insert(Square::new(col, row)),
                '.' => {}
                _ => panic!("bitboard! cell must be X or ."),
            }
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_masks() {
        assert_eq!(Bitboard::FULL.0, 0x007f_7f7f_7f7f_7f7f);
        assert_eq!(Bitboard::full(8).0, u64::MAX);
        assert_eq!(Bitboard::full(3).count(), 9);
    }

    #[test]
    fn iterate_and_nth() {
        let b = bitboard! {
            X . .
            . X .
            . . X
        };
        let v: Vec<String> = b.into_iter().map(|s| s.to_string()).collect();
        assert_eq!(v, ["c1", "b2", "a3"]);
        assert_eq!(b.nth(1).map(|s| s.to_string()).as_deref(), Some("b2"));
        assert_eq!(b.nth(3), None);
    }

    #[test]
    fn transform_keeps_count() {
        let b = Bitboard(0x0000_0000_0001_0207);
        for sym in 0..8 {
            assert_eq!(b.transform(sym, 7).count(), b.count());
        }
    }
}
