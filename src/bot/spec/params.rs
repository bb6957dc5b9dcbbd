//! The keys and values of one spec, read as typed, range-checked values.

use std::collections::BTreeMap;

use super::{BotSpec, SpecError};

/// The keys and values of one spec, with typed, range-checked getters that
/// produce errors naming the spec, the key and what is accepted.
#[derive(Clone, Debug)]
pub struct Params {
    spec: String,
    label: String,
    values: BTreeMap<String, String>,
}

impl Params {
    /// Params of `spec` (its `label` separated out).
    pub fn new(spec: &BotSpec) -> Params {
        Params {
            spec: spec.text.clone(),
            label: spec.label(),
            values: spec
                .params
                .iter()
                .filter(|(k, _)| k != "label")
                .cloned()
                .collect(),
        }
    }

    /// The bot's output name.
    pub fn label(&self) -> String {
        self.label.clone()
    }

    /// The spec as the user wrote it, for messages about it.
    pub fn spec(&self) -> &str {
        &self.spec
    }

    /// The raw value of `key`, if given.
    pub fn raw(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    fn bad(&self, key: &str, value: &str, accepts: &str) -> SpecError {
        SpecError(format!(
            "bot spec '{}': {key}={value} is not accepted ({key} takes {accepts})",
            self.spec
        ))
    }

    /// A well-formed number outside what `key` accepts.
    fn out_of_range(&self, key: &str, value: &str, accepts: &str) -> SpecError {
        SpecError(format!(
            "bot spec '{}': {key}={value} is out of range ({key} takes {accepts})",
            self.spec
        ))
    }

    /// An integer in `lo..=hi`, or `default`.
    ///
    /// # Errors
    /// Not an integer, or out of range.
    pub fn int(&self, key: &str, default: u64, lo: u64, hi: u64) -> Result<u64, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => {
                let accepts = format!("an integer {lo}..={hi}");
                let digits = v.replace('_', "");
                let unsigned = digits.strip_prefix(['-', '+']).unwrap_or(&digits);
                if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(self.bad(key, v, &accepts));
                }
                // Any run of digits is a number; one too long for u64 is
                // out of range like a negative one, not malformed.
                match digits.parse::<u64>() {
                    Ok(x) if (lo..=hi).contains(&x) => Ok(x),
                    _ => Err(self.out_of_range(key, v, &accepts)),
                }
            }
        }
    }

    /// An optional integer in `lo..=hi` (no default).
    ///
    /// # Errors
    /// Not an integer, or out of range.
    pub fn opt_int(&self, key: &str, lo: u64, hi: u64) -> Result<Option<u64>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(_) => self.int(key, 0, lo, hi).map(Some),
        }
    }

    /// A finite number in `lo..=hi`, or `default`.
    ///
    /// # Errors
    /// Not a number, or out of range.
    pub fn float(&self, key: &str, default: f64, lo: f64, hi: f64) -> Result<f64, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= lo && x <= hi => Ok(x),
                Ok(x) if !x.is_nan() => {
                    Err(self.out_of_range(key, v, &format!("a number {lo}..={hi}")))
                }
                _ => Err(self.bad(key, v, &format!("a number {lo}..={hi}"))),
            },
        }
    }

    /// `true` or `false` (also `on`/`off`, `1`/`0`), or `default`.
    ///
    /// # Errors
    /// Anything else.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some("true" | "on" | "1" | "yes") => Ok(true),
            Some("false" | "off" | "0" | "no") => Ok(false),
            Some(v) => Err(self.bad(key, v, "true|false")),
        }
    }

    /// One of `choices`, or `default`; returns the index into `choices`.
    ///
    /// # Errors
    /// Anything else.
    pub fn choice(&self, key: &str, default: usize, choices: &[&str]) -> Result<usize, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => choices
                .iter()
                .position(|c| *c == v)
                .ok_or_else(|| self.bad(key, v, &choices.join("|"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_outside_a_keys_range_are_out_of_range() {
        let spec: BotSpec = "x:n=99999999999999999999,m=-1,f=1e400,g=abc,h=7"
            .parse()
            .expect("spec");
        let p = Params::new(&spec);
        for key in ["n", "m"] {
            let e = p.int(key, 1, 1, 10).expect_err(key);
            assert!(
                e.0.contains(&format!("{key}="))
                    && e.0.contains("is out of range (")
                    && e.0.contains("1..=10"),
                "{e}"
            );
        }
        let e = p.float("f", 0.5, 0.0, 1.0).expect_err("f");
        assert!(e.0.contains("f=1e400 is out of range"), "{e}");
        let e = p.int("g", 1, 1, 10).expect_err("g");
        assert!(e.0.contains("g=abc is not accepted"), "{e}");
        assert!(p.int("h", 1, 1, 10).is_ok());
        assert!(
            p.int("h", 1, 8, 10)
                .expect_err("h")
                .0
                .contains("out of range")
        );
    }
}
