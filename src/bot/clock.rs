//! How a search shares its game clock out over the moves it has left
//! ([`Clock::allot`], by the `alloc=` key). The clock itself, the time
//! control and the loss on time are the game's (`game::clock`); the arena
//! shows a bot its clock through [`super::Bot::set_clock`].

use std::time::Duration;

pub use super::spec::search_keys::Allocation;
pub use crate::game::clock::{Clock, FLAG_MARGIN, TimeControl};
use crate::game::position::Position;

/// Of the time left, the share kept back from every allotment: a move
/// overrunning its allotment (a thread slow to stop, a long solver call)
/// is paid from it rather than from the flag.
const RESERVE_SHARE: u32 = 10;
/// Least reserve: what a move may overrun at the shortest controls. A
/// loaded machine stalls a search for a tenth of a second and more (the
/// screen of `experiments/time-management/` lost games on time with
/// less), and the exact endgame's first solve, which no allotment bounds,
/// is paid from it too.
const MIN_RESERVE: Duration = Duration::from_millis(150);

impl Clock {
    /// The moves the side to move of `pos` has left, this one included:
    /// every move fills a square, the sides alternate, and a pending swap
    /// is one move more.
    pub fn moves_left(pos: &Position) -> u32 {
        let empty = pos.empty().count();
        empty.div_ceil(2) + u32::from(pos.can_swap())
    }

    /// The time this move may take: the time left (less a reserve)
    /// shared out by `how` over the bot's moves left in `pos`, plus the
    /// increment, and never more than the time left less the reserve.
    /// `exact` is the bot's `exact=` (the empty squares from which it
    /// solves instead of searching).
    pub fn allot(&self, pos: &Position, how: Allocation, exact: u32) -> Duration {
        let reserve = (self.left / RESERVE_SHARE).max(MIN_RESERVE);
        let usable = self.left.saturating_sub(reserve);
        let mine = Self::moves_left(pos).max(1);
        let moves = match how {
            Allocation::Even => mine,
            Allocation::Searched => {
                let empty = pos.empty().count();
                // Moves of this side made while more than `exact` squares
                // are empty: the side to move plays at empty, empty-2, ...
                let searched = empty.saturating_sub(exact).div_ceil(2);
                searched.clamp(1, mine)
            }
        };
        (usable / moves + self.inc).min(usable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::FastRng;
    use crate::game::rules::Rules;

    #[test]
    fn allotments_share_the_clock_and_keep_a_reserve() {
        let pos = Rules::default()
            .new_game(&mut FastRng::new(3))
            .expect("game");
        let moves = Clock::moves_left(&pos);
        assert_eq!(moves, pos.empty().count().div_ceil(2));
        let clock = Clock {
            left: Duration::from_secs(10),
            inc: Duration::from_millis(100),
        };
        let even = clock.allot(&pos, Allocation::Even, 10);
        let searched = clock.allot(&pos, Allocation::Searched, 10);
        assert_eq!(
            even,
            Duration::from_secs(9) / moves + Duration::from_millis(100)
        );
        assert!(searched > even);
        // Nearly out of time: never more than what is left less the reserve.
        let short = Clock {
            left: Duration::from_millis(200),
            inc: Duration::from_secs(1),
        };
        assert_eq!(
            short.allot(&pos, Allocation::Even, 10),
            Duration::from_millis(50)
        );
        let flagged = Clock {
            left: Duration::ZERO,
            inc: Duration::ZERO,
        };
        assert_eq!(
            flagged.allot(&pos, Allocation::Searched, 10),
            Duration::ZERO
        );
    }
}
