//! The keys and values of one spec, read as typed, range-checked values.

use std::collections::BTreeMap;

use super::{BotSpec, KeyInfo, KeyType, KeyValues, SpecError};

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

    /// The value of `key` the getters read: the one given, else the one
    /// the other keys imply ([`KeyInfo::implied`]), else none (the
    /// declared default).
    fn given_or_implied(&self, key: &KeyInfo) -> Option<&str> {
        self.raw(key.key).or_else(|| key.implied_in(self))
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

    /// A key read by a getter of another type: a bug in the bot's code,
    /// which the key round-trip test (tests/integration/bot_keys.rs) catches.
    fn mismatch(&self, key: &KeyInfo, getter: &str) -> SpecError {
        SpecError(format!(
            "bot spec '{}': key {} is not declared as {getter}",
            self.spec, key.key
        ))
    }

    /// An integer in `lo..=hi`.
    fn integer_in(&self, key: &str, v: &str, lo: u64, hi: u64) -> Result<u64, SpecError> {
        let accepts = format!("an integer {lo}..={hi}");
        let digits = v.replace('_', "");
        let unsigned = digits.strip_prefix(['-', '+']).unwrap_or(&digits);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.bad(key, v, &accepts));
        }
        // Any run of digits is a number; one too long for u64 is out of
        // range like a negative one, not malformed.
        match digits.parse::<u64>() {
            Ok(x) if (lo..=hi).contains(&x) => Ok(x),
            _ => Err(self.out_of_range(key, v, &accepts)),
        }
    }

    /// A finite number in `lo..=hi`.
    fn number_in(&self, key: &str, v: &str, lo: f64, hi: f64) -> Result<f64, SpecError> {
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= lo && x <= hi => Ok(x),
            Ok(x) if !x.is_nan() => {
                Err(self.out_of_range(key, v, &format!("a number {lo}..={hi}")))
            }
            _ => Err(self.bad(key, v, &format!("a number {lo}..={hi}"))),
        }
    }

    /// The value of an integer key, or its default (`None`: off unless
    /// given).
    ///
    /// # Errors
    /// Not an integer, out of range, or `key` is not an integer key.
    pub fn opt_int(&self, key: &KeyInfo) -> Result<Option<u64>, SpecError> {
        let KeyType::Int { lo, hi, default } = key.ty else {
            return Err(self.mismatch(key, "an integer"));
        };
        match self.given_or_implied(key) {
            None => Ok(default),
            Some(v) => self.integer_in(key.key, v, lo, hi).map(Some),
        }
    }

    /// The value of an integer key with a default.
    ///
    /// # Errors
    /// As [`Params::opt_int`], and for a key without a default.
    pub fn int(&self, key: &KeyInfo) -> Result<u64, SpecError> {
        self.opt_int(key)?
            .ok_or_else(|| self.mismatch(key, "an integer with a default"))
    }

    /// The value of a number key (also one that takes 0 or a range), or
    /// its default.
    ///
    /// # Errors
    /// Not a number, out of range, or `key` is not a number key.
    pub fn real(&self, key: &KeyInfo) -> Result<f64, SpecError> {
        match (key.ty, self.given_or_implied(key)) {
            (KeyType::Real { default, .. } | KeyType::ZeroOrReal { default, .. }, None) => {
                Ok(default)
            }
            (KeyType::Real { lo, hi, .. }, Some(v)) => self.number_in(key.key, v, lo, hi),
            (KeyType::ZeroOrReal { lo, hi, .. }, Some(v)) => {
                match self.number_in(key.key, v, 0.0, hi)? {
                    w if w > 0.0 && w < lo => Err(SpecError(format!(
                        "bot spec '{}': {k}={w} is not accepted ({k} takes 0, or a number {lo}..={hi})",
                        self.spec,
                        k = key.key
                    ))),
                    w => Ok(w),
                }
            }
            _ => Err(self.mismatch(key, "a number")),
        }
    }

    /// The value of a `true|false` key (also `on`/`off`, `1`/`0`,
    /// `yes`/`no`), or its default.
    ///
    /// # Errors
    /// Anything else, or `key` is not a flag.
    pub fn flag(&self, key: &KeyInfo) -> Result<bool, SpecError> {
        let KeyType::Bool { default } = key.ty else {
            return Err(self.mismatch(key, "a flag"));
        };
        match self.given_or_implied(key) {
            None => Ok(default),
            Some("true" | "on" | "1" | "yes") => Ok(true),
            Some("false" | "off" | "0" | "no") => Ok(false),
            Some(v) => Err(self.bad(key.key, v, "true|false")),
        }
    }

    /// The value of an enum key, or its default.
    ///
    /// # Errors
    /// A name that is not one of `T`'s, or `key` is not an enum key.
    pub fn pick<T: KeyValues>(&self, key: &KeyInfo) -> Result<T, SpecError> {
        let KeyType::Enum { names, default } = key.ty else {
            return Err(self.mismatch(key, "a choice"));
        };
        let v = self.given_or_implied(key).unwrap_or(default);
        T::ALL
            .iter()
            .copied()
            .find(|t| t.name() == v && names.contains(&v))
            .ok_or_else(|| self.bad(key.key, v, &names.join("|")))
    }

    /// The text of a text key, or its default.
    ///
    /// # Errors
    /// `key` is not a text key.
    pub fn text(&self, key: &KeyInfo) -> Result<&str, SpecError> {
        let KeyType::Text { default, .. } = key.ty else {
            return Err(self.mismatch(key, "text"));
        };
        Ok(self.given_or_implied(key).unwrap_or(default))
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
            let e = p.int(&KeyInfo::int(key, 1, 10, 1, "")).expect_err(key);
            assert!(
                e.0.contains(&format!("{key}="))
                    && e.0.contains("is out of range (")
                    && e.0.contains("1..=10"),
                "{e}"
            );
        }
        let e = p
            .real(&KeyInfo::real("f", 0.0, 1.0, 0.5, ""))
            .expect_err("f");
        assert!(e.0.contains("f=1e400 is out of range"), "{e}");
        let e = p.int(&KeyInfo::int("g", 1, 10, 1, "")).expect_err("g");
        assert!(e.0.contains("g=abc is not accepted"), "{e}");
        assert_eq!(p.int(&KeyInfo::int("h", 1, 10, 1, "")), Ok(7));
        assert!(
            p.int(&KeyInfo::int("h", 8, 10, 8, ""))
                .expect_err("h")
                .0
                .contains("out of range")
        );
        // A getter of the wrong type is refused, not guessed at.
        let e = p.real(&KeyInfo::int("h", 1, 10, 1, "")).expect_err("type");
        assert!(e.0.contains("key h is not declared as a number"), "{e}");
    }
}
