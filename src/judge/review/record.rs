//! `review.json`: what a review reviewed and with which settings, so that
//! a second review of the same directory can tell whether it would write
//! the same files.

use serde::{Deserialize, Serialize};

use super::SOLVE_NODE_LIMIT;
use crate::bot::spec::Params;
use crate::bot::{BotSpec, Catalog};
use crate::game::outcome::Move;
use crate::game::position::Position;

/// The file beside `review.csv` that says what was reviewed and how.
pub const RECORD_FILE: &str = "review.json";

/// The contents of `review.json`: which game was reviewed and with which
/// settings, so that a review says what made it and a second review of
/// the same directory can tell whether it would write the same files.
/// Nothing in it depends on the time or the machine: the same review
/// writes the same bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReviewRecord {
    /// `pahtum`.
    pub program: String,
    /// The crate version that made the review.
    pub version: String,
    /// `--bot` as given.
    pub bot: String,
    /// The bot with every key it reads, defaults filled in ([`full_spec`]):
    /// its budget even where `--bot` left it to the default.
    pub bot_full: String,
    /// `--exact`: positions with at most this many free squares solved.
    pub exact: u32,
    /// The node bound of each solve ([`SOLVE_NODE_LIMIT`]).
    pub solve_node_limit: u64,
    /// `--seed`.
    pub seed: u64,
    /// The run directory as named, for a run's game.
    pub run: Option<String>,
    /// The game's `game` value in the run's `games.csv`.
    pub game: Option<u64>,
    /// Board side.
    pub size: u8,
    /// The holes, squares separated by spaces as in `games.csv`.
    pub holes: String,
    /// The pie rule.
    pub pie: bool,
    /// Komi in points.
    pub komi: String,
    /// The moves reviewed, separated by spaces.
    pub moves: String,
}

impl ReviewRecord {
    /// The record of a review of `moves` from `start` by `spec` (built by
    /// `catalog`) with `exact` and `seed`; `run` and `game` name a run's
    /// game.
    pub fn new(
        catalog: &Catalog,
        spec: &BotSpec,
        exact: u32,
        seed: u64,
        start: &Position,
        moves: &[Move],
    ) -> ReviewRecord {
        let holes: Vec<String> = start.holes().into_iter().map(|s| s.to_string()).collect();
        let moves: Vec<String> = moves.iter().map(Move::to_string).collect();
        ReviewRecord {
            program: "pahtum".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            bot: spec.as_str().to_string(),
            bot_full: full_spec(catalog, spec),
            exact,
            solve_node_limit: SOLVE_NODE_LIMIT,
            seed,
            run: None,
            game: None,
            size: start.size(),
            holes: holes.join(" "),
            pie: start.pie(),
            komi: start.komi().to_string(),
            moves: moves.join(" "),
        }
    }

    /// The review's settings in a few words: `bot B, exact N, seed S`,
    /// with the bot as given.
    pub fn settings(&self) -> String {
        format!("bot {}, exact {}, seed {}", self.bot, self.exact, self.seed)
    }

    /// What differs between the reviews `self` and `other` would write,
    /// in words (the game first, then the settings); `None` when they
    /// write the same files. The run's name, the game's number and the
    /// version are not compared: the same moves from the same start
    /// reviewed by the same bot (every key, defaults included) give the
    /// same rows.
    pub fn difference(&self, other: &ReviewRecord) -> Option<String> {
        let game = |r: &ReviewRecord| {
            (
                r.size,
                r.holes.clone(),
                r.pie,
                r.komi.clone(),
                r.moves.clone(),
            )
        };
        if game(self) != game(other) {
            let name = |r: &ReviewRecord| match r.game {
                Some(g) => format!("game {g}"),
                None => "moves given by --moves".to_string(),
            };
            return Some(format!(
                "another game ({} there, {} here)",
                name(self),
                name(other)
            ));
        }
        let settings = |r: &ReviewRecord| (r.bot_full.clone(), r.exact, r.seed, r.solve_node_limit);
        if settings(self) == settings(other) {
            return None;
        }
        // The same text for a bot whose defaults changed between versions:
        // then the full specs say how.
        let (a, b) = if self.settings() == other.settings() {
            (self.bot_full.clone(), other.bot_full.clone())
        } else {
            (self.settings(), other.settings())
        };
        Some(format!("other settings ({a} there; {b} here)"))
    }
}

/// `spec` with every key its bot reads, in the bot's order: the value
/// given, else the one the other keys imply ([`crate::bot::spec::KeyInfo::implied`]),
/// else the default (keys without a default, like `ms`, only when
/// given); `label` is left out, as it changes no move. Two specs with the
/// same full spec make the same bot.
pub fn full_spec(catalog: &Catalog, spec: &BotSpec) -> String {
    let Some(kind) = catalog.kind(&spec.name) else {
        return spec.without("label").as_str().to_string();
    };
    let params = Params::new(spec);
    let mut parts = Vec::new();
    for key in kind.keys {
        let given = spec.params.iter().find(|(k, _)| k == key.key);
        match given {
            Some((_, v)) => parts.push(format!("{}={v}", key.key)),
            None => {
                // What the other keys imply (`alphabeta:depth=4` has no
                // node bound), as the parser reads it, else the default.
                let d = key
                    .implied_in(&params)
                    .map_or_else(|| key.default_text(), str::to_string);
                if d != "-" {
                    parts.push(format!("{}={d}", key.key));
                }
            }
        }
    }
    if parts.is_empty() {
        spec.name.clone()
    } else {
        format!("{}:{}", spec.name, parts.join(","))
    }
}
