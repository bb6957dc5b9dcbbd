//! Game clocks: a time control of base time and increment (the `tc=` key
//! every bot takes), the clock a bot is shown before each move, and how a
//! search shares its clock out over the moves it has left.
//!
//! The arena keeps the clocks (`arena::game`); a bot only reads its own
//! through [`super::Bot::set_clock`]. Built-in search bots turn the clock
//! into a time budget for the move with [`Clock::allot`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::game::position::Position;

/// Most seconds a base time may be: a day, far above any use.
const MAX_BASE_S: f64 = 86_400.0;

/// How far a move may run past the clock before it loses on time: the
/// time between a bot's answer and the arena's reading of the clock is
/// the arena's, not the bot's (thread wake-ups on a loaded machine,
/// an external engine's pipe), and 25 ms covers it with room to spare.
pub const FLAG_MARGIN: Duration = Duration::from_millis(25);

/// A time control: `base` seconds for the game, `inc` added after each
/// move (Fischer increment), written `BASE+INC` in seconds (`10+0.1`;
/// `10` alone has no increment).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Time for the whole game.
    pub base: Duration,
    /// Time added after each of the bot's moves.
    pub inc: Duration,
}

impl TimeControl {
    /// The clock at the start of a game.
    pub fn start(self) -> Clock {
        Clock {
            left: self.base,
            inc: self.inc,
        }
    }
}

/// Seconds as the shortest decimal that gives back the same milliseconds.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", seconds(self.base), seconds(self.inc))
    }
}

/// Whole milliseconds of a decimal count of seconds, `None` if it is not
/// one (or is below 0, or not finite).
fn millis(text: &str) -> Option<Duration> {
    let s: f64 = text.trim().parse().ok()?;
    if !(0.0..=MAX_BASE_S).contains(&s) || !text.trim().starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some(Duration::from_millis((s * 1000.0).round() as u64))
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "'{s}' is not a time control: BASE+INC in seconds, as 10+0.1 (BASE above 0, at most {MAX_BASE_S})"
            )
        };
        let (base, inc) = match s.split_once('+') {
            Some((b, i)) => (millis(b).ok_or_else(bad)?, millis(i).ok_or_else(bad)?),
            None => (millis(s).ok_or_else(bad)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(bad());
        }
        Ok(TimeControl { base, inc })
    }
}

/// What a bot is shown of its own clock before a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock, this move's increment not yet added.
    pub left: Duration,
    /// Time added after the move.
    pub inc: Duration,
}

/// How a search shares its clock out over its moves (the `alloc=` key).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// The time left split evenly over every move the bot has left, plus
    /// the increment.
    Even,
    /// The time left split over the moves that need a search: the last
    /// moves, from `exact` empty squares on, are solved in moments and
    /// get no share.
    Searched,
}

impl Allocation {
    /// The key's value.
    pub fn name(self) -> &'static str {
        match self {
            Allocation::Even => "even",
            Allocation::Searched => "searched",
        }
    }
}

/// Of the time left, the share kept back from every allotment: a move
/// overrunning its allotment (a thread slow to stop, a long solver call)
/// is paid from it rather than from the flag.
const RESERVE_SHARE: u32 = 10;
/// Least reserve: what a move may overrun at the shortest controls.
const MIN_RESERVE: Duration = Duration::from_millis(20);

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
    fn time_controls_parse_and_print() {
        let tc: TimeControl = "10+0.1".parse().expect("tc");
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.inc, Duration::from_millis(100));
        assert_eq!(tc.to_string(), "10+0.1");
        assert_eq!(
            "1+0.01".parse::<TimeControl>().expect("tc").to_string(),
            "1+0.01"
        );
        assert_eq!("60".parse::<TimeControl>().expect("tc").to_string(), "60+0");
        assert_eq!(
            "0.5+0".parse::<TimeControl>().expect("tc").base,
            Duration::from_millis(500)
        );
        for bad in [
            "", "+1", "0+1", "-1+0", "1+-0.1", "a+b", "1+2+3", "inf", "NaN+0", "1e9",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

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
            left: Duration::from_millis(30),
            inc: Duration::from_secs(1),
        };
        assert_eq!(
            short.allot(&pos, Allocation::Even, 10),
            Duration::from_millis(10)
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
