//! Uniformly random playouts of a position, drawn without playing the
//! moves: the fast path of random-playout search.

use super::{Position, ZOBRIST};
use crate::game::bitboard::Bitboard;
use crate::game::player::{ByPlayer, Player};
use crate::game::rng::FastRng;
use crate::game::scoring::score;

impl Position {
    /// Final stones of a uniformly random playout to the end: which free
    /// squares each colour receives, without playing the moves.
    ///
    /// In a uniformly random playout the final board depends only on which
    /// free squares the side to move receives, and that set is a uniformly
    /// random subset of size `ceil(E / 2)`. It is drawn by rejection: a
    /// random word masked to the free squares is a uniform subset; keep it
    /// (or its complement, which is uniform too) when its size is right.
    /// About 1 in 8 draws is kept on an empty 7x7 board, and nothing is
    /// stored per move. Allocation-free.
    #[inline]
    pub fn random_split(&self, rng: &mut FastRng) -> ByPlayer<Bitboard> {
        let e = self.empty.0;
        let n = e.count_ones();
        let k = n.div_ceil(2);
        let mine = loop {
            let r = rng.next_word() & e;
            let c = r.count_ones();
            if c == k {
                break r;
            }
            if c == n - k {
                break e ^ r;
            }
        };
        let mut out = self.stones;
        out[self.turn] |= Bitboard(mine);
        out[!self.turn] |= Bitboard(e ^ mine);
        out
    }

    /// Plays a uniformly random game to the end (see [`Position::random_split`])
    /// and returns White's margin minus komi, in half points.
    #[inline]
    pub fn random_playout(&self, rng: &mut FastRng) -> i32 {
        let s = self.random_split(rng);
        2 * (score(s[Player::White]) as i32 - score(s[Player::Black]) as i32) - self.komi.halves()
    }

    /// The position after filling every free square by a uniformly random
    /// playout.
    pub fn random_fill(&self, rng: &mut FastRng) -> Position {
        let s = self.random_split(rng);
        let mut p = *self;
        p.hash = self.hash;
        for col in Player::ALL {
            for sq in s[col] & !self.stones[col] {
                p.hash ^= ZOBRIST[col.index()][sq.index()];
            }
        }
        p.stones = s;
        p.empty = Bitboard::EMPTY;
        p.turn = if s[Player::White].count() == s[Player::Black].count() {
            Player::White
        } else {
            Player::Black
        };
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;

    #[test]
    fn random_fill_fills_evenly() {
        let mut rng = FastRng::new(3);
        for holes in [1u32, 3, 5, 7] {
            let h: Bitboard = Bitboard::FULL.take(holes as usize).collect();
            let p = Position::new(7, h, false, Komi::ZERO).expect("pos");
            let f = p.random_fill(&mut rng);
            assert!(f.is_game_over());
            assert_eq!(
                f.stones(Player::White).count(),
                f.stones(Player::Black).count()
            );
        }
    }
}
