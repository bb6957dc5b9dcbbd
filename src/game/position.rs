//! A game in progress: holes, stones, side to move, pie-rule state.
//!
//! Random playouts are in `position/random.rs`. The board text, and with
//! it `Display` and `Debug`, is in `text.rs`, which uses this file and not
//! the other way round.

use super::bitboard::Bitboard;
use super::outcome::{Komi, Move, Outcome};
use super::player::{ByPlayer, Player};
use super::rng::mix64;
use super::scoring::{gain, score};
use super::square::{MAX_SIZE, MIN_SIZE, Square};

mod random;

/// Zobrist keys: `[colour][square]`, built at compile time from SplitMix64
/// so hashes are identical on every machine and run.
const ZOBRIST: [[u64; 64]; 2] = {
    let mut t = [[0u64; 64]; 2];
    let mut i = 0;
    while i < 128 {
        t[i / 64][i % 64] = mix64(0x7061_6874_756d_0000 + i as u64);
        i += 1;
    }
    t
};
/// Key of the holes (so layouts hash apart) and of a taken pie swap.
const HOLE_KEY_SALT: u64 = 0x686f_6c65_7300_0000;
const SWAP_KEY: u64 = 0x8c3b_0f1e_22d4_97a5;

/// Why a position or a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Board side outside 3..=8.
    #[error("board size {0} is not supported (use 3 to 8)")]
    BadSize(u8),
    /// A square outside the board.
    #[error("square {0} is off the {1}x{1} board")]
    OffBoard(Square, u8),
    /// Two things on one square.
    #[error("square {0} is used twice")]
    Overlap(Square),
    /// The stone counts cannot arise in play (White moves first).
    #[error(
        "stone counts white={white} black={black} cannot arise: White moves first, so White has as many stones as Black or one more"
    )]
    StoneCounts {
        /// White stones.
        white: u32,
        /// Black stones.
        black: u32,
    },
    /// More holes than the board allows (at least one square must stay free).
    #[error("{holes} holes do not fit on a {size}x{size} board (at most {max})")]
    TooManyHoles {
        /// Requested.
        holes: u32,
        /// Board side.
        size: u8,
        /// Allowed.
        max: u32,
    },
}

/// Why a move was refused; the position is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Not a square of this board.
    #[error("{0} is off the board")]
    OffBoard(Square),
    /// A hole.
    #[error("{0} is a hole")]
    Hole(Square),
    /// Already occupied.
    #[error("{0} is already occupied")]
    Occupied(Square),
    /// A swap where the pie rule does not offer one.
    #[error("swap is only allowed as Black's first decision under the pie rule")]
    SwapNotAllowed,
}

/// A Pah Tum position. `Copy` and 64 bytes, so searches copy-make freely.
///
/// Side to move is White when both have placed equally many stones, else
/// Black. A pie swap changes who owns which colour, not the board: after it
/// Black (now played by the first player) is still to move.
///
/// # Examples
/// ```
/// use pahtum::{Position, Player, Square, Bitboard, Komi};
/// let holes: Bitboard = ["a1", "g7"].iter().map(|s| s.parse::<Square>().unwrap()).collect();
/// let mut pos = Position::new(7, holes, false, Komi::ZERO).unwrap();
/// assert_eq!(pos.turn(), Player::White);
/// pos.play("d4".parse().unwrap());
/// assert_eq!(pos.turn(), Player::Black);
/// assert_eq!(pos.legal_moves().count(), 49 - 2 - 1);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    stones: ByPlayer<Bitboard>,
    holes: Bitboard,
    empty: Bitboard,
    hash: u64,
    komi: Komi,
    size: u8,
    turn: Player,
    pie: bool,
    swapped: bool,
}

impl Position {
    /// An empty board of side `size` with `holes`.
    ///
    /// # Errors
    /// Unsupported size, holes off the board, or no square left free.
    pub fn new(
        size: u8,
        holes: Bitboard,
        pie: bool,
        komi: Komi,
    ) -> Result<Position, PositionError> {
        Position::with_stones(size, holes, Bitboard::EMPTY, Bitboard::EMPTY, pie, komi)
    }

    /// A position with stones already placed (for study and solving).
    ///
    /// # Errors
    /// As [`Position::new`], plus overlapping squares or stone counts that
    /// cannot arise (White must have as many stones as Black, or one more).
    pub fn with_stones(
        size: u8,
        holes: Bitboard,
        white: Bitboard,
        black: Bitboard,
        pie: bool,
        komi: Komi,
    ) -> Result<Position, PositionError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(PositionError::BadSize(size));
        }
        let board = Bitboard::full(size);
        for part in [holes, white, black] {
            if let Some(sq) = (part & !board).first() {
                return Err(PositionError::OffBoard(sq, size));
            }
        }
        for overlap in [holes & white, holes & black, white & black] {
            if let Some(sq) = overlap.first() {
                return Err(PositionError::Overlap(sq));
            }
        }
        let max = board.count() - 1;
        if holes.count() > max {
            return Err(PositionError::TooManyHoles {
                holes: holes.count(),
                size,
                max,
            });
        }
        let (w, b) = (white.count(), black.count());
        if w != b && w != b + 1 {
            return Err(PositionError::StoneCounts { white: w, black: b });
        }
        let mut hash = 0;
        for sq in holes {
            hash ^= mix64(HOLE_KEY_SALT ^ sq.index() as u64);
        }
        for (p, set) in [(Player::White, white), (Player::Black, black)] {
            for sq in set {
                hash ^= ZOBRIST[p.index()][sq.index()];
            }
        }
        Ok(Position {
            stones: ByPlayer::new(white, black),
            holes,
            empty: board & !(holes | white | black),
            hash,
            komi,
            size,
            turn: if w == b { Player::White } else { Player::Black },
            pie,
            swapped: false,
        })
    }

    /// Board side.
    #[inline]
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The holes.
    #[inline]
    pub fn holes(&self) -> Bitboard {
        self.holes
    }

    /// Stones of colour `p`.
    #[inline]
    pub fn stones(&self, p: Player) -> Bitboard {
        self.stones[p]
    }

    /// Squares still free: exactly the legal placements.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        self.empty
    }

    /// Legal placements (the same set as [`Position::empty`]); the pie swap,
    /// when offered, is separate: see [`Position::can_swap`].
    #[inline]
    pub fn legal_moves(&self) -> Bitboard {
        self.empty
    }

    /// The colour to move.
    #[inline]
    pub fn turn(&self) -> Player {
        self.turn
    }

    /// Stones placed so far.
    #[inline]
    pub fn stone_count(&self) -> u32 {
        (self.stones[Player::White] | self.stones[Player::Black]).count()
    }

    /// Komi (points added to Black).
    #[inline]
    pub fn komi(&self) -> Komi {
        self.komi
    }

    /// Whether the pie rule is on for this game.
    #[inline]
    pub fn pie(&self) -> bool {
        self.pie
    }

    /// Whether the pie swap was taken.
    #[inline]
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Whether the move from here is the first stone under the pie rule,
    /// which the other player may take over by swapping: a search values
    /// that stone as what its player keeps after the swap decision, not as
    /// a stone of its own.
    #[inline]
    pub fn swap_follows(&self) -> bool {
        self.pie && !self.swapped && self.stone_count() == 0
    }

    /// Whether the side to move may swap now: pie rule on, exactly White's
    /// first stone placed, no swap yet.
    #[inline]
    pub fn can_swap(&self) -> bool {
        self.pie && !self.swapped && self.stone_count() == 1 && self.turn == Player::Black
    }

    /// Zobrist hash of holes, stones and the swap flag.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether no free square is left.
    #[inline]
    pub fn is_game_over(&self) -> bool {
        self.empty.is_empty()
    }

    /// Places a stone of the side to move on `sq`.
    ///
    /// # Errors
    /// Game over, off-board, hole or occupied square; the position is
    /// unchanged.
    pub fn try_play(&mut self, sq: Square) -> Result<(), MoveError> {
        if self.is_game_over() {
            return Err(MoveError::GameOver);
        }
        if !sq.is_on_board(self.size) {
            return Err(MoveError::OffBoard(sq));
        }
        if self.holes.contains(sq) {
            return Err(MoveError::Hole(sq));
        }
        if !self.empty.contains(sq) {
            return Err(MoveError::Occupied(sq));
        }
        self.play_unchecked(sq);
        Ok(())
    }

    /// Places a stone of the side to move on `sq`.
    ///
    /// # Panics
    /// If `sq` is not free.
    pub fn play(&mut self, sq: Square) {
        if let Err(e) = self.try_play(sq) {
            panic!("illegal move {sq}: {e}");
        }
    }

    /// Places a stone on `sq`, which must be free (checked in debug builds).
    #[inline]
    pub fn play_unchecked(&mut self, sq: Square) {
        debug_assert!(self.empty.contains(sq));
        let bit = Bitboard::from_square(sq);
        self.stones[self.turn] |= bit;
        self.empty ^= bit;
        self.hash ^= ZOBRIST[self.turn.index()][sq.index()];
        self.turn = !self.turn;
    }

    /// Takes back the stone on `sq`, which must be the last one placed by
    /// the colour that moved last (checked in debug builds).
    #[inline]
    pub fn undo_unchecked(&mut self, sq: Square) {
        let mover = !self.turn;
        debug_assert!(self.stones[mover].contains(sq));
        let bit = Bitboard::from_square(sq);
        self.stones[mover] ^= bit;
        self.empty |= bit;
        self.hash ^= ZOBRIST[mover.index()][sq.index()];
        self.turn = mover;
    }

    /// Takes the pie swap.
    ///
    /// # Errors
    /// [`MoveError::SwapNotAllowed`] unless [`Position::can_swap`].
    pub fn try_swap(&mut self) -> Result<(), MoveError> {
        if !self.can_swap() {
            return Err(MoveError::SwapNotAllowed);
        }
        self.swapped = true;
        self.hash ^= SWAP_KEY;
        Ok(())
    }

    /// Takes back a pie swap.
    pub fn undo_swap(&mut self) {
        debug_assert!(self.swapped);
        self.swapped = false;
        self.hash ^= SWAP_KEY;
    }

    /// Plays a [`Move`].
    ///
    /// # Errors
    /// As [`Position::try_play`] and [`Position::try_swap`].
    pub fn try_play_move(&mut self, mv: Move) -> Result<(), MoveError> {
        match mv {
            Move::Place(sq) => self.try_play(sq),
            Move::Swap => self.try_swap(),
        }
    }

    /// Takes back a [`Move`] (the last one played).
    pub fn undo_move(&mut self, mv: Move) {
        match mv {
            Move::Place(sq) => self.undo_unchecked(sq),
            Move::Swap => self.undo_swap(),
        }
    }

    /// Both colours' line scores as the board stands (komi not included).
    #[inline]
    pub fn scores(&self) -> ByPlayer<u32> {
        ByPlayer::new(
            score(self.stones[Player::White]),
            score(self.stones[Player::Black]),
        )
    }

    /// White's score minus Black's minus komi, in half points.
    #[inline]
    pub fn margin_halves(&self) -> i32 {
        let s = self.scores();
        2 * (s[Player::White] as i32 - s[Player::Black] as i32) - self.komi.halves()
    }

    /// The result by the scores as they stand (final once the game is over).
    #[inline]
    pub fn outcome(&self) -> Outcome {
        Outcome::from_margin_halves(self.margin_halves())
    }

    /// What the side to move would add to its own line score by placing on
    /// `sq` (the opponent's score cannot change: `sq` already broke its runs).
    #[inline]
    pub fn gain(&self, sq: Square) -> u32 {
        gain(self.stones[self.turn], sq)
    }

    /// What `p` would add to its line score with a stone on `sq`.
    #[inline]
    pub fn gain_for(&self, p: Player, sq: Square) -> u32 {
        gain(self.stones[p], sq)
    }

    /// The square at `sq`: `Some(colour)` for a stone, `None` otherwise.
    pub fn stone_at(&self, sq: Square) -> Option<Player> {
        Player::ALL
            .into_iter()
            .find(|&p| self.stones[p].contains(sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    #[test]
    fn is_64_bytes() {
        assert!(std::mem::size_of::<Position>() <= 64);
    }

    #[test]
    fn play_undo_restores_hash() {
        let mut p =
            Position::new(7, Bitboard::from_square(sq("a1")), true, Komi::ZERO).expect("pos");
        let start = p;
        p.play(sq("d4"));
        assert!(p.can_swap());
        p.try_swap().expect("swap");
        assert!(!p.can_swap());
        assert_eq!(p.turn(), Player::Black);
        p.play(sq("e4"));
        p.undo_unchecked(sq("e4"));
        p.undo_swap();
        p.undo_unchecked(sq("d4"));
        assert_eq!(p, start);
    }

    #[test]
    fn refused_moves_leave_position() {
        let mut p =
            Position::new(3, Bitboard::from_square(sq("a1")), false, Komi::ZERO).expect("pos");
        let before = p;
        assert_eq!(p.try_play(sq("a1")), Err(MoveError::Hole(sq("a1"))));
        assert_eq!(p.try_play(sq("d1")), Err(MoveError::OffBoard(sq("d1"))));
        assert_eq!(p.try_swap(), Err(MoveError::SwapNotAllowed));
        assert_eq!(p, before);
        p.play(sq("b1"));
        assert_eq!(p.try_play(sq("b1")), Err(MoveError::Occupied(sq("b1"))));
    }
}
