//! Rules settings: every variant of docs/RULES.md is a value of [`Rules`].

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::bitboard::Bitboard;
use super::outcome::Komi;
use super::position::{Position, PositionError};
use super::square::{MAX_SIZE, MIN_SIZE, Square};

/// Where the holes go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoleSetup {
    /// This many holes on distinct squares drawn uniformly at random.
    Random(u32),
    /// Exactly these squares.
    Fixed(Bitboard),
}

/// The settings of one game: board side, holes, pie rule and komi.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Board side, 3..=8; 7 is the game.
    pub size: u8,
    /// Hole placement.
    pub holes: HoleSetup,
    /// Whether Black may swap after White's first stone.
    pub pie: bool,
    /// Points added to Black's total.
    pub komi: Komi,
}

impl Default for Rules {
    /// The standard game: 7x7, 5 random holes, no pie rule, no komi.
    fn default() -> Rules {
        Rules {
            size: 7,
            holes: HoleSetup::Random(5),
            pie: false,
            komi: Komi::ZERO,
        }
    }
}

/// The random stream that draws one layout's holes, from a seed derived
/// from (`--seed`, layout index). Layouts are the shared experimental units
/// of every study, so they come from ChaCha8, whose output `rand_chacha`
/// keeps value-stable across versions and platforms: a published seed names
/// the same boards for anyone who reruns it.
pub fn layout_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

impl Rules {
    /// One `Rules` per hole setup, in the order given, all sharing the
    /// board side, pie rule and komi: the hole counts (or the one fixed
    /// layout) that a run's games cycle through.
    pub fn for_setups(
        size: u8,
        setups: impl IntoIterator<Item = HoleSetup>,
        pie: bool,
        komi: Komi,
    ) -> Vec<Rules> {
        setups
            .into_iter()
            .map(|holes| Rules {
                size,
                holes,
                pie,
                komi,
            })
            .collect()
    }

    /// Checks that the settings describe a playable game.
    ///
    /// # Errors
    /// Unsupported size, holes off the board or too many of them.
    pub fn validate(&self) -> Result<(), PositionError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(PositionError::BadSize(self.size));
        }
        let max = (self.size as u32).pow(2) - 1;
        match &self.holes {
            HoleSetup::Random(n) if *n > max => Err(PositionError::TooManyHoles {
                holes: *n,
                size: self.size,
                max,
            }),
            HoleSetup::Random(_) => Ok(()),
            HoleSetup::Fixed(h) => Position::new(self.size, *h, self.pie, self.komi).map(|_| ()),
        }
    }

    /// The holes of one game: fixed, or drawn from `rng` (a partial
    /// Fisher-Yates shuffle of the board's squares, so every set of squares
    /// is equally likely).
    pub fn draw_holes<R: Rng + ?Sized>(&self, rng: &mut R) -> Bitboard {
        match &self.holes {
            HoleSetup::Fixed(h) => *h,
            HoleSetup::Random(n) => {
                let mut squares: Vec<Square> = Bitboard::full(self.size).collect();
                let n = (*n as usize).min(squares.len());
                for i in 0..n {
                    let j = rng.random_range(i..squares.len());
                    squares.swap(i, j);
                }
                squares[..n].iter().copied().collect()
            }
        }
    }

    /// A new game under these rules, holes from `rng`.
    ///
    /// # Errors
    /// As [`Rules::validate`].
    pub fn new_game<R: Rng + ?Sized>(&self, rng: &mut R) -> Result<Position, PositionError> {
        self.validate()?;
        Position::new(self.size, self.draw_holes(rng), self.pie, self.komi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::FastRng;

    #[test]
    fn holes_are_distinct_and_on_board() {
        let mut rng = FastRng::new(7);
        for size in MIN_SIZE..=MAX_SIZE {
            let rules = Rules {
                size,
                holes: HoleSetup::Random(5),
                ..Rules::default()
            };
            let p = rules.new_game(&mut rng).expect("game");
            assert_eq!(p.holes().count(), 5);
            assert!((p.holes() & !Bitboard::full(size)).is_empty());
        }
        let too_many = Rules {
            size: 3,
            holes: HoleSetup::Random(9),
            ..Rules::default()
        };
        assert!(too_many.validate().is_err());
    }
}
