//! A game as a start position and the moves played from it.

use super::outcome::{Move, Outcome};
use super::position::{MoveError, Position};

/// A game in progress or finished: where it started, what was played, and
/// where it stands. Bots receive it whole, so that those which keep state
/// between moves (tree reuse, external engines) can see the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    moves: Vec<Move>,
    pos: Position,
}

impl Game {
    /// A game from `start`, no moves yet.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            moves: Vec::with_capacity(start.empty().count() as usize + 1),
            pos: start,
        }
    }

    /// The position the game started from.
    #[inline]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    #[inline]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Moves played so far, a pie swap included.
    #[inline]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `mv`.
    ///
    /// # Errors
    /// An illegal move; the game is unchanged.
    pub fn try_play(&mut self, mv: Move) -> Result<(), MoveError> {
        self.pos.try_play_move(mv)?;
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.pos.undo_move(mv);
        Some(mv)
    }

    /// Whether every free square is filled.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.pos.is_game_over()
    }

    /// The result by the scores as they stand.
    pub fn outcome(&self) -> Outcome {
        self.pos.outcome()
    }

    /// The moves as text, separated by single spaces (`d4 swap e4 ...`).
    pub fn moves_text(&self) -> String {
        let mut s = String::with_capacity(self.moves.len() * 3);
        for (i, m) in self.moves.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&m.to_string());
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bitboard, Komi};

    #[test]
    fn play_and_undo() {
        let start = Position::new(3, Bitboard::EMPTY, true, Komi::ZERO).expect("pos");
        let mut g = Game::new(start);
        g.try_play(Move::Place("b2".parse().expect("sq")))
            .expect("legal");
        g.try_play(Move::Swap).expect("swap");
        assert!(g.try_play(Move::Swap).is_err());
        assert_eq!(g.moves_text(), "b2 swap");
        assert_eq!(g.undo(), Some(Move::Swap));
        assert_eq!(g.undo().map(|m| m.to_string()).as_deref(), Some("b2"));
        assert_eq!(g.position(), &start);
    }
}
