//! Numbers on the command line: one parser for every numeric option, so
//! each refusal has the same one-line shape and names the option.
//!
//! `OPTION: VALUE is out of range (RANGE)` for a number outside what the
//! option accepts (a negative seed, a board side of 300, a count too long
//! for any integer type), `OPTION: 'VALUE' is not a whole number (RANGE)`
//! or `... is not a number (RANGE)` for anything else. The value is quoted
//! as the user typed it, never as a derived quantity.
//!
//! The clap parsers ([`int`], [`float`]) see a value that starts with `-`
//! only when the option lets clap pass it on: without that, clap reads
//! `--seed -1` as a stray argument `-1`. Integer options set
//! `allow_negative_numbers = true`; real-valued ones set
//! `allow_hyphen_values = true`, which clap's notion of a negative number
//! (digits only) needs for `-inf`.

use std::ffi::OsStr;
use std::fmt::Display;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;

/// Why a number was refused; [`std::fmt::Display`] gives the text after
/// `OPTION: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumError {
    /// A well-formed number outside the accepted range.
    OutOfRange {
        /// The value as typed.
        value: String,
        /// The accepted range, e.g. `3..=8` or `0 < x < 0.5`.
        range: String,
    },
    /// Not a number of the expected kind.
    Malformed {
        /// The value as typed.
        value: String,
        /// `whole number` or `number`.
        kind: &'static str,
        /// The accepted range.
        range: String,
    },
}

impl Display for NumError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NumError::OutOfRange { value, range } => write!(f, "{value} is out of range ({range})"),
            NumError::Malformed { value, kind, range } => {
                write!(f, "'{value}' is not a {kind} ({range})")
            }
        }
    }
}

/// Parses a whole number in `lo..=hi`. Underscores are ignored
/// (`1_000_000`), as in bot specs. Anything made of an optional sign and
/// digits is a number, so `-1` for a count and a 30-digit value are
/// reported as out of range, not as malformed.
///
/// # Errors
/// [`NumError`] saying which.
pub fn parse_int(text: &str, lo: i128, hi: i128) -> Result<i128, NumError> {
    let value = text.trim();
    let range = format!("{lo}..={hi}");
    let digits: String = value.chars().filter(|&c| c != '_').collect();
    let unsigned = digits.strip_prefix(['-', '+']).unwrap_or(&digits);
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumError::Malformed {
            value: value.to_string(),
            kind: "whole number",
            range,
        });
    }
    match digits.parse::<i128>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(x),
        _ => Err(NumError::OutOfRange {
            value: value.to_string(),
            range,
        }),
    }
}

/// Bounds of a real-valued option; each end open or closed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FloatRange {
    /// Lower bound (`f64::NEG_INFINITY`: none).
    pub lo: f64,
    /// Upper bound (`f64::INFINITY`: none).
    pub hi: f64,
    /// Whether `lo` itself is excluded.
    pub lo_open: bool,
    /// Whether `hi` itself is excluded.
    pub hi_open: bool,
}

impl FloatRange {
    /// Any finite number.
    pub const FINITE: FloatRange = FloatRange {
        lo: f64::NEG_INFINITY,
        hi: f64::INFINITY,
        lo_open: true,
        hi_open: true,
    };

    /// Whether `x` lies in the range (never for NaN or an infinity).
    pub fn contains(&self, x: f64) -> bool {
        x.is_finite()
            && if self.lo_open {
                x > self.lo
            } else {
                x >= self.lo
            }
            && if self.hi_open {
                x < self.hi
            } else {
                x <= self.hi
            }
    }
}

impl Display for FloatRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == FloatRange::FINITE {
            return write!(f, "a finite number");
        }
        let op = |open| if open { "<" } else { "<=" };
        match (self.lo.is_finite(), self.hi.is_finite()) {
            (true, true) => write!(
                f,
                "{} {} x {} {}",
                self.lo,
                op(self.lo_open),
                op(self.hi_open),
                self.hi
            ),
            (true, false) => write!(f, "{} {} x", self.lo, op(self.lo_open)),
            _ => write!(f, "x {} {}", op(self.hi_open), self.hi),
        }
    }
}

/// Parses a real number in `range`.
///
/// # Errors
/// [`NumError`]: NaN and text that is no number are malformed; an
/// infinity or a number outside `range` is out of range.
pub fn parse_float(text: &str, range: FloatRange) -> Result<f64, NumError> {
    let value = text.trim();
    match value.parse::<f64>() {
        Ok(x) if range.contains(x) => Ok(x),
        Ok(x) if !x.is_nan() => Err(NumError::OutOfRange {
            value: value.to_string(),
            range: range.to_string(),
        }),
        _ => Err(NumError::Malformed {
            value: value.to_string(),
            kind: "number",
            range: range.to_string(),
        }),
    }
}

/// The option's name as the user types it (`--size`), for messages.
fn option_name(arg: Option<&clap::Arg>) -> String {
    match arg {
        Some(a) => match a.get_long() {
            Some(l) => format!("--{l}"),
            None => a.get_id().to_string(),
        },
        None => "value".into(),
    }
}

/// A clap error whose whole text is `OPTION: MESSAGE`, which
/// [`crate::cli::run`] prints as the one line of a usage error.
fn clap_error(cmd: &clap::Command, arg: Option<&clap::Arg>, e: &NumError) -> clap::Error {
    clap::Error::raw(
        ErrorKind::ValueValidation,
        format!("{}: {e}\n", option_name(arg)),
    )
    .with_cmd(cmd)
}

/// The clap parser of an integer option of type `T` taking `lo..=hi`.
#[derive(Clone, Debug)]
pub struct IntParser<T> {
    lo: i128,
    hi: i128,
    _type: std::marker::PhantomData<fn() -> T>,
}

/// An integer option in `lo..=hi`, e.g.
/// `#[arg(long, value_parser = num::int::<u8>(3, 8), allow_negative_numbers = true)]`.
///
/// # Panics
/// If `lo..=hi` does not fit in `T` (a bug in the option's declaration).
pub fn int<T>(lo: i128, hi: i128) -> IntParser<T>
where
    T: TryFrom<i128>,
{
    assert!(
        lo <= hi && T::try_from(lo).is_ok() && T::try_from(hi).is_ok(),
        "range {lo}..={hi} does not fit the option's type"
    );
    IntParser {
        lo,
        hi,
        _type: std::marker::PhantomData,
    }
}

impl<T> TypedValueParser for IntParser<T>
where
    T: TryFrom<i128> + Clone + Send + Sync + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        parse_int(&text, self.lo, self.hi)
            .map(|x| T::try_from(x).ok().expect("checked by int()"))
            .map_err(|e| clap_error(cmd, arg, &e))
    }
}

/// `--seed`: any u64.
pub fn seed() -> IntParser<u64> {
    int(0, u64::MAX.into())
}

/// `--games` and `--max-games`: at least 1, at most the schedule's cap
/// (the product with pairings or conditions is checked where it is known).
pub fn games() -> IntParser<u64> {
    int(1, crate::arena::tournament::MAX_GAMES.into())
}

/// `--threads`: 1 to [`crate::bot::MAX_THREADS`], so that `0` and
/// `100000` are refused in the same words, naming the same range.
pub fn threads() -> IntParser<usize> {
    int(1, crate::bot::MAX_THREADS as i128)
}

/// The clap parser of a real-valued option.
#[derive(Clone, Debug)]
pub struct FloatParser(FloatRange);

/// A real-valued option in `range`, e.g.
/// `#[arg(long, value_parser = num::float(num::FloatRange::FINITE), allow_hyphen_values = true)]`.
pub fn float(range: FloatRange) -> FloatParser {
    FloatParser(range)
}

impl TypedValueParser for FloatParser {
    type Value = f64;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<f64, clap::Error> {
        parse_float(&value.to_string_lossy(), self.0).map_err(|e| clap_error(cmd, arg, &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_outside_the_range_or_any_type_are_out_of_range() {
        assert_eq!(parse_int(" 7 ", 3, 8), Ok(7));
        assert_eq!(parse_int("1_000", 0, 1000), Ok(1000));
        let e = parse_int("-1", 0, u64::MAX as i128).unwrap_err();
        assert_eq!(
            e.to_string(),
            "-1 is out of range (0..=18446744073709551615)"
        );
        let e = parse_int("99999999999999999999999999999999999999999", 0, 9).unwrap_err();
        assert!(matches!(e, NumError::OutOfRange { .. }), "{e}");
        assert_eq!(
            parse_int("300", 3, 8).unwrap_err().to_string(),
            "300 is out of range (3..=8)"
        );
        for bad in ["", "x", "1.5", "-", "1e3", "0x10"] {
            assert!(
                matches!(parse_int(bad, 0, 9), Err(NumError::Malformed { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn reals_name_their_interval() {
        let half = FloatRange {
            lo: 0.0,
            hi: 0.5,
            lo_open: true,
            hi_open: true,
        };
        assert_eq!(parse_float("0.05", half), Ok(0.05));
        assert_eq!(
            parse_float("0.5", half).unwrap_err().to_string(),
            "0.5 is out of range (0 < x < 0.5)"
        );
        assert_eq!(
            parse_float("1e400", FloatRange::FINITE)
                .unwrap_err()
                .to_string(),
            "1e400 is out of range (a finite number)"
        );
        assert!(matches!(
            parse_float("nan", FloatRange::FINITE),
            Err(NumError::Malformed { .. })
        ));
    }
}
