//! Bot specs, `NAME[:KEY=VALUE,...]`, parsed and validated in one place:
//! the syntax here, typed values in `spec/params.rs`, names and keys
//! against the known bots in `spec/catalog.rs`.

mod catalog;
mod key;
#[cfg(test)]
mod key_walk;
mod params;
pub mod search_keys;
mod weights;

pub use catalog::Catalog;
pub(crate) use key::key_values;
pub use key::{BudgetKind, Implied, KeyInfo, KeyType, KeyValues};
pub use params::Params;
pub use search_keys::Budget;
pub use weights::{WEIGHT_KEYS, weight_keys, weights_from_params, weights_from_params_with};

use std::fmt;
use std::str::FromStr;

use super::Bot;

/// Why a bot spec was refused. The message names the spec, the key and
/// what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

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

    /// The spec with `key` set to `value`: in its place if the spec gives
    /// the key, else after the others. Only the syntax is checked;
    /// [`Catalog::parse`] checks the key and the value.
    ///
    /// # Errors
    /// A key or value the syntax cannot hold (empty, or with a `,`; a
    /// key with `=`).
    pub fn with(&self, key: &str, value: &str) -> Result<BotSpec, SpecError> {
        let key = canonical_key(key);
        let mut params = self.params.clone();
        match params.iter_mut().find(|(k, _)| k == key) {
            Some(p) => p.1 = value.to_string(),
            None => params.push((key.to_string(), value.to_string())),
        }
        Self::from_parts(&self.name, &params)
    }

    /// The spec without `key` (unchanged if it does not give it).
    pub fn without(&self, key: &str) -> BotSpec {
        let params: Vec<(String, String)> = self
            .params
            .iter()
            .filter(|(k, _)| k != key)
            .cloned()
            .collect();
        if params.len() == self.params.len() {
            return self.clone();
        }
        BotSpec {
            text: Self::text_of(&self.name, &params),
            name: self.name.clone(),
            params,
        }
    }

    /// `NAME:K=V,...` (or `NAME` alone) of these parts.
    fn text_of(name: &str, params: &[(String, String)]) -> String {
        let mut text = name.to_string();
        for (i, (k, v)) in params.iter().enumerate() {
            text.push(if i == 0 { ':' } else { ',' });
            text.push_str(k);
            text.push('=');
            text.push_str(v);
        }
        text
    }

    /// The spec of these parts, its text parsed again so that a part the
    /// syntax cannot hold is refused as the user's text would be.
    fn from_parts(name: &str, params: &[(String, String)]) -> Result<BotSpec, SpecError> {
        let text = Self::text_of(name, params);
        let spec: BotSpec = text.parse()?;
        if spec.params != params {
            return Err(SpecError(format!(
                "bad bot spec '{text}': a key or value holds ',' or '='"
            )));
        }
        Ok(spec)
    }

    /// The game clock of the `tc=` key, if the spec gives one.
    ///
    /// # Errors
    /// A value that is not `BASE+INC` in seconds.
    pub fn time_control(&self) -> Result<Option<crate::game::clock::TimeControl>, SpecError> {
        self.params
            .iter()
            .find(|(k, _)| k == "tc")
            .map(|(_, v)| {
                v.parse()
                    .map_err(|e| SpecError(format!("bot spec '{}': tc: {e}", self.text)))
            })
            .transpose()
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // Built specs keep the given keys in place and append new ones.
        let s: BotSpec = "mcts:iters=5,c=0.7".parse().expect("spec");
        let t = s
            .with("c", "0.2")
            .and_then(|t| t.with("k", "3"))
            .expect("with");
        assert_eq!(t.as_str(), "mcts:iters=5,c=0.2,k=3");
        assert_eq!(t.without("iters").as_str(), "mcts:c=0.2,k=3");
        assert_eq!(t.without("nope"), t);
        assert_eq!(s.without("iters").without("c").as_str(), "mcts");
        assert!(s.with("label", "a,b").is_err());
        assert!(s.with("label", "").is_err());
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
}
