//! The two colours and per-colour storage.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// A colour. White moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// Moves first.
    White = 0,
    /// Moves second; may swap under the pie rule.
    Black = 1,
}

impl Player {
    /// Both colours, White first.
    pub const ALL: [Player; 2] = [Player::White, Player::Black];

    /// 0 for White, 1 for Black: the index into [`ByPlayer`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case name used in files and the protocol: `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Player::White => "white",
            Player::Black => "black",
        }
    }

    /// The board character of this colour's stones: `W` or `B`.
    pub const fn to_char(self) -> char {
        match self {
            Player::White => 'W',
            Player::Black => 'B',
        }
    }
}

impl Not for Player {
    type Output = Player;
    #[inline]
    fn not(self) -> Player {
        match self {
            Player::White => Player::Black,
            Player::Black => Player::White,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per colour, indexed by [`Player`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T>(pub [T; 2]);

impl<T> ByPlayer<T> {
    /// Builds from White's and Black's values.
    pub const fn new(white: T, black: T) -> Self {
        ByPlayer([white, black])
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    #[inline]
    fn index(&self, p: Player) -> &T {
        &self.0[p.index()]
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    #[inline]
    fn index_mut(&mut self, p: Player) -> &mut T {
        &mut self.0[p.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_flips() {
        assert_eq!(!Player::White, Player::Black);
        assert_eq!(!!Player::Black, Player::Black);
        let mut b = ByPlayer::new(1, 2);
        b[Player::Black] += 5;
        assert_eq!(b[Player::Black], 7);
        assert_eq!(b[Player::White], 1);
    }
}
