//! The options that shape a run's results, recorded in `run.json` and
//! compared by `--resume`.
//!
//! Every subcommand that writes a run directory (tournament, sweep, sprt,
//! fpa) lists its result-shaping options as `(option, value)` pairs, the
//! option spelt as the user types it (`--elo1`) and the value normalised
//! (defaults filled in, numbers and specs in one spelling), so that one
//! generic comparison covers them all and names the first difference in
//! the user's own words. Options that change no result (`--threads`,
//! `--quiet`, `--out`, `--resume`) are not listed. The resume check itself
//! is [`super::runinfo::RunFile::resume_in`].

use std::fmt::Display;

use serde::{Deserialize, Serialize};

/// Options that never change a run's results, so `--resume` may change
/// them freely.
pub const NOT_COMPARED: &[&str] = &["--threads", "--quiet", "--out", "--resume"];

/// The result-shaping options of a run, in the order the command lists
/// them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOptions(pub Vec<(String, String)>);

impl RunOptions {
    /// No options yet.
    pub fn new() -> RunOptions {
        RunOptions::default()
    }

    /// Adds `option` (`--elo1`) with its normalised value.
    pub fn add(&mut self, option: &str, value: impl Display) -> &mut RunOptions {
        self.0.push((option.to_string(), value.to_string()));
        self
    }

    /// Adds a repeatable option, its values joined by spaces (each quoted
    /// as a shell would need it), `(none)` when it was not given.
    pub fn add_list<S: AsRef<str>>(&mut self, option: &str, values: &[S]) -> &mut RunOptions {
        let v = if values.is_empty() {
            "(none)".to_string()
        } else {
            values
                .iter()
                .map(|s| shell_quote(s.as_ref()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        self.add(option, v)
    }

    /// The value recorded for `option`.
    pub fn get(&self, option: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(o, _)| o == option)
            .map(|(_, v)| v.as_str())
    }

    /// The options' names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(o, _)| o.as_str())
    }

    /// The first option whose value differs between `self` and `other`
    /// (in `self`'s order, then `other`'s new ones), with both values
    /// (`None`: not recorded). Options named in `except` are skipped.
    /// A `--layout` that differs is named before `--holes`: a fixed layout
    /// replaces the hole counts, so runs that differ in `--layout` alone,
    /// as the user typed them, record different `--holes` too.
    pub fn first_difference<'a>(
        &'a self,
        other: &'a RunOptions,
        except: &[&str],
    ) -> Option<(&'a str, Option<&'a str>, Option<&'a str>)> {
        let mut names: Vec<&str> = self.names().collect();
        names.extend(other.names().filter(|n| self.get(n).is_none()));
        let mut differ = names
            .into_iter()
            .filter(|n| !except.contains(n))
            .map(|n| (n, self.get(n), other.get(n)))
            .filter(|(_, a, b)| a != b);
        let first = differ.next()?;
        if first.0 == "--holes"
            && let Some(layout) = differ.find(|d| d.0 == "--layout")
        {
            return Some(layout);
        }
        Some(first)
    }

    /// The first option whose value differs between the run (`self`) and
    /// this command (`now`), as the one line `--resume` refuses with:
    /// `--elo1: the run used 5, this command says 10`. Options named in
    /// `except` are skipped (`--shard` for merging).
    pub fn difference(&self, now: &RunOptions, except: &[&str]) -> Option<String> {
        self.first_difference(now, except).map(|(n, was, is)| {
            format!(
                "{n}: the run used {}, this command says {}",
                was.unwrap_or(NOT_RECORDED),
                is.unwrap_or(NOT_RECORDED)
            )
        })
    }
}

/// How a message names an option that one of two runs did not record.
pub const NOT_RECORDED: &str = "(not recorded)";

/// `s` as one shell word: unchanged when it needs no quoting, else in
/// single quotes.
pub fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.:=,/+@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(pairs: &[(&str, &str)]) -> RunOptions {
        let mut o = RunOptions::new();
        for (k, v) in pairs {
            o.add(k, v);
        }
        o
    }

    #[test]
    fn the_first_difference_is_named_in_one_line() {
        let a = opts(&[("--elo0", "0"), ("--elo1", "5")]);
        let b = opts(&[("--elo0", "0"), ("--elo1", "10")]);
        assert_eq!(
            a.difference(&b, &[]).as_deref(),
            Some("--elo1: the run used 5, this command says 10")
        );
        assert_eq!(a.difference(&a, &[]), None);
        assert_eq!(a.difference(&b, &["--elo1"]), None);
        let c = opts(&[("--elo0", "0"), ("--elo1", "5"), ("--pie", "true")]);
        assert_eq!(
            a.difference(&c, &[]).as_deref(),
            Some("--pie: the run used (not recorded), this command says true")
        );
        // Runs that differ only in a --layout the user gave to one of
        // them record different --holes too: the layout is named.
        let holes = opts(&[("--holes", "5"), ("--layout", "(none)")]);
        let fixed = opts(&[("--holes", "(none)"), ("--layout", "a1")]);
        assert_eq!(
            holes.difference(&fixed, &[]).as_deref(),
            Some("--layout: the run used (none), this command says a1")
        );
        let other = opts(&[("--holes", "3"), ("--layout", "(none)")]);
        assert_eq!(
            holes.difference(&other, &[]).as_deref(),
            Some("--holes: the run used 5, this command says 3")
        );
        let mut l = RunOptions::new();
        l.add_list("--bot", &["random", "mcts:iters=5,c=1"])
            .add_list::<&str>("--engine", &[]);
        assert_eq!(l.get("--bot"), Some("random mcts:iters=5,c=1"));
        assert_eq!(l.get("--engine"), Some("(none)"));
    }
}
