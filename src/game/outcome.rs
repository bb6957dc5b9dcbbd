//! Komi, final results and moves.

use std::fmt;
use std::str::FromStr;

use super::player::Player;
use super::square::Square;

/// Points added to Black's total, counted in half points so that `6.5`
/// (which rules out draws) is exact. Negative komi favours White.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Komi(i32);

impl Komi {
    /// No komi.
    pub const ZERO: Komi = Komi(0);

    /// Komi of `halves` half points.
    pub const fn from_halves(halves: i32) -> Komi {
        Komi(halves)
    }

    /// The komi in half points.
    pub const fn halves(self) -> i32 {
        self.0
    }

    /// The komi as a number of points.
    pub fn points(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}", self.0 as f64 / 2.0)
        }
    }
}

/// The largest komi in points either way: far beyond any score a board
/// allows, small enough that totals in half points stay exact in an `i32`.
pub const MAX_KOMI_POINTS: i32 = 500_000;

/// Why a komi did not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseKomiError {
    /// Not a whole or half number.
    #[error("bad komi '{0}': expected a whole or half number of points, like 6 or -2.5")]
    Malformed(String),
    /// A number beyond [`MAX_KOMI_POINTS`] either way.
    #[error("{0} is out of range (-{MAX_KOMI_POINTS}..={MAX_KOMI_POINTS} points)")]
    OutOfRange(String),
}

impl FromStr for Komi {
    type Err = ParseKomiError;

    fn from_str(s: &str) -> Result<Komi, ParseKomiError> {
        let text = s.trim();
        let v: f64 = text
            .parse()
            .ok()
            .filter(|v: &f64| !v.is_nan())
            .ok_or_else(|| ParseKomiError::Malformed(text.to_string()))?;
        if v.abs() > f64::from(MAX_KOMI_POINTS) {
            return Err(ParseKomiError::OutOfRange(text.to_string()));
        }
        let halves = v * 2.0;
        if halves.fract() != 0.0 {
            return Err(ParseKomiError::Malformed(text.to_string()));
        }
        Ok(Komi(halves as i32))
    }
}

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// White's total is higher.
    WhiteWins,
    /// Black's total (komi included) is higher.
    BlackWins,
    /// Equal totals.
    Draw,
}

impl Outcome {
    /// The outcome of White's total minus Black's, in half points.
    #[inline]
    pub fn from_margin_halves(margin_halves: i32) -> Outcome {
        match margin_halves.signum() {
            1 => Outcome::WhiteWins,
            -1 => Outcome::BlackWins,
            _ => Outcome::Draw,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::WhiteWins => Some(Player::White),
            Outcome::BlackWins => Some(Player::Black),
            Outcome::Draw => None,
        }
    }

    /// `white`, `black` or `draw`, as in files and the `result=` line.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "white",
            Outcome::BlackWins => "black",
            Outcome::Draw => "draw",
        }
    }

    /// 1, ½ or 0 for `p`.
    pub fn points_for(self, p: Player) -> f64 {
        match self.winner() {
            Some(w) if w == p => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A proven game result for the player who chose a search node (made
/// the move into it): what the tree searches (`mcts`, `zero`) know exactly
/// of a position once the game ended there, the exact solver decided it, or
/// its children decide it. One type for both searches, so that their
/// proofs mean the same and order the same (a loss below a draw below a
/// win).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Proof {
    /// Not proven.
    Unknown = 0,
    /// The chooser loses with best play.
    Loss = 1,
    /// Best play draws.
    Draw = 2,
    /// The chooser wins with best play.
    Win = 3,
}

impl Proof {
    /// The proof stored as `v` (`Proof as u8`); an unknown byte is no
    /// proof.
    #[inline]
    pub fn from_u8(v: u8) -> Proof {
        match v {
            1 => Proof::Loss,
            2 => Proof::Draw,
            3 => Proof::Win,
            _ => Proof::Unknown,
        }
    }

    /// The same result seen by the other player.
    #[inline]
    pub fn flip(self) -> Proof {
        match self {
            Proof::Loss => Proof::Win,
            Proof::Win => Proof::Loss,
            p => p,
        }
    }

    /// The proof for `chooser` of a game whose exact final result is
    /// `outcome`.
    #[inline]
    pub fn of_outcome(outcome: Outcome, chooser: Player) -> Proof {
        match outcome.winner() {
            None => Proof::Draw,
            Some(w) if w == chooser => Proof::Win,
            Some(_) => Proof::Loss,
        }
    }

    /// The proof of a result sign for the chooser (positive: it wins).
    #[inline]
    pub fn of_sign(sign: i32) -> Proof {
        match sign.signum() {
            1 => Proof::Win,
            -1 => Proof::Loss,
            _ => Proof::Draw,
        }
    }

    /// The result as a value for the chooser, as value networks score a
    /// game: 1 a win, 0 a draw, -1 a loss (0 unproven).
    #[inline]
    pub fn value(self) -> f32 {
        match self {
            Proof::Win => 1.0,
            Proof::Loss => -1.0,
            Proof::Draw | Proof::Unknown => 0.0,
        }
    }
}

/// A move: a stone on a square, or the pie-rule swap.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a stone of the side to move.
    Place(Square),
    /// Under the pie rule, Black's first decision: take over White's side
    /// (and its stone) instead of placing a stone.
    Swap,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => write!(f, "{sq}"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

impl FromStr for Move {
    type Err = super::square::ParseSquareError;

    /// A square name or `swap` (case-insensitive).
    fn from_str(s: &str) -> Result<Move, Self::Err> {
        if s.eq_ignore_ascii_case("swap") {
            Ok(Move::Swap)
        } else {
            s.parse().map(Move::Place)
        }
    }
}

/// A move in one byte, for the trees and tables that store many of them
/// (`mcts` and `zero` nodes, the solver's and `alphabeta`'s transposition
/// tables, killer slots): a square's index (0..=63), the pie swap, or no
/// move at all.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MoveCode(u8);

impl MoveCode {
    /// The pie swap.
    pub const SWAP: MoveCode = MoveCode(64);

    /// No move (an empty table slot).
    pub const NONE: MoveCode = MoveCode(255);

    /// Distinct moves: the 64 squares and the swap (a table indexed by
    /// [`MoveCode::index`] has this many entries).
    pub const COUNT: usize = 65;

    /// The placement of a stone on `sq`.
    #[inline]
    pub fn place(sq: Square) -> MoveCode {
        MoveCode(sq.index() as u8)
    }

    /// The square of a placement; `None` for the swap (and for no move).
    #[inline]
    pub fn square(self) -> Option<Square> {
        (self.0 < Self::SWAP.0).then(|| Square::from_index_unchecked(self.0))
    }

    /// 0..[`MoveCode::COUNT`] for a move: the square's index, or 64 for
    /// the swap.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The game's move. A code that may be [`MoveCode::NONE`] (a table
    /// slot) is checked for it first: no move has no game move.
    #[inline]
    pub fn to_move(self) -> Move {
        debug_assert!(self != MoveCode::NONE, "no move has no game move");
        match self.square() {
            Some(sq) => Move::Place(sq),
            None => Move::Swap,
        }
    }

    /// Its byte, as a node or table entry stores it.
    #[inline]
    pub fn byte(self) -> u8 {
        self.0
    }

    /// The code of a stored byte.
    #[inline]
    pub fn from_byte(b: u8) -> MoveCode {
        MoveCode(b)
    }
}

impl Default for MoveCode {
    /// No move: what an empty table slot holds.
    fn default() -> MoveCode {
        MoveCode::NONE
    }
}

impl From<Move> for MoveCode {
    #[inline]
    fn from(mv: Move) -> MoveCode {
        match mv {
            Move::Place(sq) => MoveCode::place(sq),
            Move::Swap => MoveCode::SWAP,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both searches read a proof as the chooser's result: a win flips to
    /// the other side's loss, the order puts a loss below a draw below a
    /// win, and the sign and the game's outcome agree with it.
    #[test]
    fn proofs_flip_order_and_convert_consistently() {
        for p in [Proof::Unknown, Proof::Loss, Proof::Draw, Proof::Win] {
            assert_eq!(p.flip().flip(), p);
            assert_eq!(Proof::from_u8(p as u8), p);
            assert_eq!(p.flip().value(), -p.value());
        }
        assert!(Proof::Unknown < Proof::Loss && Proof::Loss < Proof::Draw);
        assert!(Proof::Draw < Proof::Win);
        assert_eq!(Proof::Win.flip(), Proof::Loss);
        assert_eq!(Proof::of_sign(3), Proof::Win);
        assert_eq!(Proof::of_sign(-1), Proof::Loss);
        assert_eq!(Proof::of_sign(0), Proof::Draw);
        let white = Outcome::from_margin_halves(5);
        assert_eq!(Proof::of_outcome(white, Player::White), Proof::Win);
        assert_eq!(Proof::of_outcome(white, Player::Black), Proof::Loss);
        assert_eq!(Proof::of_outcome(Outcome::Draw, Player::Black), Proof::Draw);
    }

    #[test]
    fn komi_parses_halves() {
        assert_eq!("6.5".parse::<Komi>(), Ok(Komi(13)));
        assert_eq!("-2".parse::<Komi>(), Ok(Komi(-4)));
        assert!("0.25".parse::<Komi>().is_err());
        assert!("x".parse::<Komi>().is_err());
        assert!(matches!(
            "99999999999".parse::<Komi>(),
            Err(ParseKomiError::OutOfRange(_))
        ));
        assert!(matches!(
            "-inf".parse::<Komi>(),
            Err(ParseKomiError::OutOfRange(_))
        ));
        assert_eq!("-500000".parse::<Komi>(), Ok(Komi(-1_000_000)));
        assert_eq!(Komi(13).to_string(), "6.5");
        assert_eq!(Komi(-4).to_string(), "-2");
    }

    /// Every move comes back from its code, and no move is none of them.
    #[test]
    fn move_codes_round_trip() {
        for i in 0..64 {
            let mv = Move::Place(Square::from_index_unchecked(i));
            assert_eq!(MoveCode::from(mv).to_move(), mv);
            assert_eq!(MoveCode::from(mv).index(), i as usize);
        }
        assert_eq!(MoveCode::from(Move::Swap).to_move(), Move::Swap);
        assert_eq!(MoveCode::SWAP.index() + 1, MoveCode::COUNT);
        assert_eq!(MoveCode::SWAP.square(), None);
        assert_eq!(MoveCode::NONE.square(), None);
        assert_eq!(MoveCode::from_byte(MoveCode::NONE.byte()), MoveCode::NONE);
    }

    #[test]
    fn moves_parse() {
        assert_eq!("SWAP".parse::<Move>(), Ok(Move::Swap));
        assert_eq!(
            "d4".parse::<Move>().map(|m| m.to_string()).as_deref(),
            Ok("d4")
        );
    }
}
