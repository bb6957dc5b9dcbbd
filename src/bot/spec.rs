//! Bot specs, `NAME[:KEY=VALUE,...]`, parsed and validated in one place.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::Bot;

/// Why a bot spec was refused. The message names the spec, the key and
/// what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

/// One key a bot accepts, as `pahtum bots` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyInfo {
    /// The key, e.g. `iters`.
    pub key: &'static str,
    /// Its default, as text.
    pub default: &'static str,
    /// Accepted values, e.g. `1..=10000000` or `random|greedy`.
    pub accepts: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// Builds a bot from its params and a seed.
pub type BuildFn = fn(&Params, u64) -> Result<Box<dyn Bot>, SpecError>;

/// A built-in kind of bot: its name, keys and constructor.
#[derive(Clone, Copy)]
pub struct BotKind {
    /// Spec name, e.g. `mcts`.
    pub name: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Keys besides `label`.
    pub keys: &'static [KeyInfo],
    /// Builds a bot with the given random seed. Must be cheap (allocate
    /// search memory lazily), because validating a spec builds it once.
    pub build: BuildFn,
}

impl fmt::Debug for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotKind").field("name", &self.name).finish()
    }
}

/// Builds bots that are not compiled in (external engines).
pub trait BotFactory: Send + Sync {
    /// One line on what it is (for `pahtum bots`).
    fn summary(&self) -> String;
    /// A bot named `label`, seeded with `seed`.
    ///
    /// # Errors
    /// When the bot cannot be started.
    fn build(&self, label: &str, seed: u64) -> Result<Box<dyn Bot>, SpecError>;
}

/// Other spellings of keys, `(alias, key)`: a spec may use either, and
/// the parser reads the alias as the key, so that one concept has one key
/// in every bot (`eps` is the random-move share of every playout policy).
pub const KEY_ALIASES: &[(&str, &str)] = &[("epsilon", "eps")];

/// `key`, or the key it is another spelling of.
pub fn canonical_key(key: &str) -> &str {
    KEY_ALIASES
        .iter()
        .find(|(alias, _)| *alias == key)
        .map_or(key, |(_, k)| k)
}

/// A parsed spec: the name and its `KEY=VALUE` pairs, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// Bot name.
    pub name: String,
    /// Keys and values, `label` included.
    pub params: Vec<(String, String)>,
    text: String,
}

impl BotSpec {
    /// The text the spec was parsed from.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The name in outputs: the `label=` value, else the spec text with
    /// each `,` written as `;`, so that `mcts:iters=2000,c=0.3` stands in
    /// a CSV field unquoted (as `mcts:iters=2000;c=0.3`) without a label.
    pub fn label(&self) -> String {
        self.params
            .iter()
            .find(|(k, _)| k == "label")
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| self.text.replace(',', ";"))
    }
}

impl FromStr for BotSpec {
    type Err = SpecError;

    /// Parses the syntax only; [`Catalog::parse`] also checks names, keys
    /// and values.
    fn from_str(s: &str) -> Result<BotSpec, SpecError> {
        let text = s.trim();
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(SpecError(format!(
                "bad bot spec '{s}': expected NAME[:KEY=VALUE,...] with a name of letters, digits, '_' or '-'"
            )));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            for part in rest.split(',') {
                let Some((k, v)) = part.split_once('=') else {
                    return Err(SpecError(format!(
                        "bad bot spec '{s}': '{part}' is not KEY=VALUE"
                    )));
                };
                let (k, v) = (canonical_key(k.trim()), v.trim());
                if k.is_empty() || v.is_empty() {
                    return Err(SpecError(format!(
                        "bad bot spec '{s}': '{part}' is not KEY=VALUE"
                    )));
                }
                if params.iter().any(|(pk, _)| pk == k) {
                    return Err(SpecError(format!(
                        "bad bot spec '{s}': key '{k}' given twice"
                    )));
                }
                params.push((k.to_string(), v.to_string()));
            }
        }
        Ok(BotSpec {
            name: name.to_string(),
            params,
            text: text.to_string(),
        })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

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

/// Every bot the program knows: the built-in kinds and the external engines
/// declared with `--engine NAME=COMMAND`.
#[derive(Clone)]
pub struct Catalog {
    kinds: Vec<BotKind>,
    engines: BTreeMap<String, Arc<dyn BotFactory>>,
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Catalog")
            .field("kinds", &self.kinds)
            .field("engines", &self.engines.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl Catalog {
    /// A catalogue of exactly `kinds`.
    pub fn new(kinds: Vec<BotKind>) -> Catalog {
        Catalog {
            kinds,
            engines: BTreeMap::new(),
        }
    }

    /// Adds an external bot under `name`.
    ///
    /// # Errors
    /// The name is taken.
    pub fn add_engine(
        &mut self,
        name: &str,
        factory: Arc<dyn BotFactory>,
    ) -> Result<(), SpecError> {
        if self.kind(name).is_some() || self.engines.contains_key(name) {
            return Err(SpecError(format!(
                "engine name '{name}' is already a bot name"
            )));
        }
        self.engines.insert(name.to_string(), factory);
        Ok(())
    }

    /// The built-in kinds.
    pub fn kinds(&self) -> &[BotKind] {
        &self.kinds
    }

    /// External engines with their summaries.
    pub fn engines(&self) -> impl Iterator<Item = (&str, String)> {
        self.engines.iter().map(|(k, v)| (k.as_str(), v.summary()))
    }

    /// The built-in kind called `name`.
    pub fn kind(&self, name: &str) -> Option<&BotKind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    fn names(&self) -> String {
        self.kinds
            .iter()
            .map(|k| k.name)
            .chain(self.engines.keys().map(String::as_str))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Parses and validates `text`: a known name, known keys, values in
    /// range.
    ///
    /// # Errors
    /// A one-line message naming the problem and what is accepted.
    pub fn parse(&self, text: &str) -> Result<BotSpec, SpecError> {
        let spec: BotSpec = text.parse()?;
        let allowed: Vec<&str> = if let Some(kind) = self.kind(&spec.name) {
            kind.keys.iter().map(|k| k.key).collect()
        } else if self.engines.contains_key(&spec.name) {
            Vec::new()
        } else {
            return Err(SpecError(format!(
                "unknown bot '{}' in '{text}' (bots: {})",
                spec.name,
                self.names()
            )));
        };
        for (k, _) in &spec.params {
            if k != "label" && !allowed.contains(&k.as_str()) {
                let mut accepted = allowed.clone();
                accepted.push("label");
                return Err(SpecError(format!(
                    "bot '{}' has no key '{k}' (keys: {})",
                    spec.name,
                    accepted.join(", ")
                )));
            }
        }
        if let Some(kind) = self.kind(&spec.name) {
            (kind.build)(&Params::new(&spec), 0)?;
        }
        Ok(spec)
    }

    /// As [`Catalog::parse`], but refuses `human`: for runs with nobody at
    /// the terminal (tournaments, sweeps, tests, served engines), where a
    /// human seat would wait forever or abort every game.
    ///
    /// # Errors
    /// As [`Catalog::parse`], and for `human`.
    pub fn parse_unattended(&self, text: &str) -> Result<BotSpec, SpecError> {
        let spec = self.parse(text)?;
        if spec.name == "human" {
            return Err(SpecError(format!(
                "bot '{text}' needs a person at the terminal; use it with `pahtum play`"
            )));
        }
        Ok(spec)
    }

    /// Builds the bot of `spec`, seeded with `seed`.
    ///
    /// # Errors
    /// Unknown bot, bad values, or an engine that cannot start.
    pub fn build(&self, spec: &BotSpec, seed: u64) -> Result<Box<dyn Bot>, SpecError> {
        if let Some(kind) = self.kind(&spec.name) {
            (kind.build)(&Params::new(spec), seed)
        } else if let Some(f) = self.engines.get(&spec.name) {
            f.build(&spec.label(), seed)
        } else {
            Err(SpecError(format!(
                "unknown bot '{}' (bots: {})",
                spec.name,
                self.names()
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> Catalog {
        Catalog::new(vec![crate::bot::random::KIND])
    }

    #[test]
    fn parses_syntax() {
        let s: BotSpec = "mcts:iters=20000,c=0.7,label=M".parse().expect("spec");
        assert_eq!(s.name, "mcts");
        assert_eq!(s.params.len(), 3);
        assert_eq!(s.label(), "M");
        assert!("mcts:iters".parse::<BotSpec>().is_err());
        assert!("mcts:a=1,a=2".parse::<BotSpec>().is_err());
        assert!(":x=1".parse::<BotSpec>().is_err());
        // An alias is read as its key, so giving both is giving one twice.
        let s: BotSpec = "flatmc:epsilon=0.5".parse().expect("spec");
        assert_eq!(s.params, vec![("eps".to_string(), "0.5".to_string())]);
        assert!("flatmc:eps=0.1,epsilon=0.2".parse::<BotSpec>().is_err());
        assert_eq!(
            "random".parse::<BotSpec>().map(|s| s.label()),
            Ok("random".to_string())
        );
        // Without a label, commas become semicolons: the name must stand
        // in a CSV field unquoted.
        assert_eq!(
            "mcts:iters=2000,c=0.3"
                .parse::<BotSpec>()
                .map(|s| s.label()),
            Ok("mcts:iters=2000;c=0.3".to_string())
        );
    }

    #[test]
    fn validates_names_and_keys() {
        let c = catalog();
        assert!(c.parse("random").is_ok());
        assert!(c.parse("random:label=R").is_ok());
        let e = c.parse("nosuch").expect_err("unknown");
        assert!(
            e.0.contains("unknown bot 'nosuch'") && e.0.contains("random"),
            "{e}"
        );
        let e = c.parse("random:depth=3").expect_err("key");
        assert!(e.0.contains("no key 'depth'"), "{e}");
    }

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
