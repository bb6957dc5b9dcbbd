//! The catalogue of known bots: names and keys checked, bots built, and
//! the listing `pahtum bots` prints.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use super::{BotFactory, BotKind, BotSpec, Params, SpecError};
use crate::bot::Bot;

/// Keys every bot takes, built-in or external: its name in outputs and
/// its game clock.
pub const GENERIC_KEYS: [&str; 2] = ["label", "tc"];

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

    /// The catalogue as `pahtum bots` prints it: each bot with its keys,
    /// defaults, accepted values and help, the everyday keys first and the
    /// research options (for studies of the bot itself) after them under a
    /// heading of their own, then the external engines.
    pub fn listing(&self) -> String {
        let mut s = String::from(
            "Bot specs are NAME[:KEY=VALUE,...], e.g. heuristic:decay=0.4,label=H.\n\
             Every bot also takes label=NAME (its name in outputs) and tc=BASE+INC,\n\
             a game clock in seconds (10+0.1: 10 s for the game, 0.1 s more after\n\
             each move) that replaces a search's iters= or ms= budget.\n\
             KEY=- below: the key has no default; leave it out for what its help\n\
             says \"not given\" means.\n",
        );
        for kind in &self.kinds {
            s.push_str(&format!("\n{}  {}\n", kind.name, kind.summary));
            if kind.keys.is_empty() {
                s.push_str("  (no keys)\n");
            }
            let width = kind
                .keys
                .iter()
                .map(|k| k.key.len() + k.default_text().len() + 1)
                .max()
                .unwrap_or(0);
            for research in [false, true] {
                let mut group = kind.keys.iter().filter(|k| k.research == research);
                if research && group.clone().next().is_some() {
                    s.push_str("  research options:\n");
                }
                for k in group.by_ref() {
                    let kv = format!("{}={}", k.key, k.default_text());
                    s.push_str(&format!("  {kv:<width$}  {}: {}\n", k.accepts(), k.help));
                }
            }
        }
        for (name, summary) in self.engines() {
            s.push_str(&format!(
                "\n{name}  {summary}\n  (external engine, no keys)\n"
            ));
        }
        s
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
            if !GENERIC_KEYS.contains(&k.as_str()) && !allowed.contains(&k.as_str()) {
                let mut accepted = allowed.clone();
                accepted.extend(GENERIC_KEYS);
                return Err(SpecError(format!(
                    "bot '{}' has no key '{k}' (keys: {})",
                    spec.name,
                    accepted.join(", ")
                )));
            }
        }
        let tc = spec.time_control()?;
        if let Some(kind) = self.kind(&spec.name) {
            if tc.is_some()
                && let Some(k) = kind
                    .keys
                    .iter()
                    .find(|k| k.budget.is_some() && spec.params.iter().any(|(p, _)| p == k.key))
            {
                return Err(SpecError(format!(
                    "bot spec '{text}': tc= sets the budget from the clock; drop {}=",
                    k.key
                )));
            }
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
    fn listing_puts_research_options_after_everyday_keys() {
        let text = crate::bot::builtin_catalog().listing();
        let mcts = text.split("\nmcts  ").nth(1).expect("mcts listed");
        let mcts = mcts.split("\n\n").next().expect("block");
        let at = |key: &str| mcts.find(&format!("\n  {key}=")).expect(key);
        let heading = mcts.find("\n  research options:\n").expect("heading");
        for everyday in ["iters", "ms", "threads", "model", "rollout"] {
            assert!(at(everyday) < heading, "{everyday}: {mcts}");
        }
        for research in ["c", "fpu", "rave", "k", "decay"] {
            assert!(at(research) > heading, "{research}: {mcts}");
        }
        // A bot whose keys are all everyday ones gets no heading.
        let learned = text.split("\nlearned  ").nth(1).expect("learned listed");
        let learned = learned.split("\n\n").next().expect("block");
        assert!(!learned.contains("research options"), "{learned}");
    }
}
