//! A game clock: a time control of base time and increment (the `tc=`
//! key every bot takes) and what is left of it, which the arena keeps
//! for each side (`arena::game`) and shows the bot before each move. How
//! a search shares its clock out is the bot's (`bot::clock`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
