//! Tournaments: their configuration, errors and observers. The module
//! `arena::parallel` plays them (and uses this one; this one uses it not).

use std::fmt;
use std::ops::ControlFlow;
use std::path::PathBuf;

use super::games_csv::{GameRecord, check_label};
use super::schedule::{Format, Schedule, Shard};
use crate::bot::{BotSpec, Catalog};
use crate::game::rules::Rules;
use crate::game::suite::Openings;

/// What can go wrong in a tournament.
#[derive(Debug)]
pub enum ArenaError {
    /// Bad settings or input files: the user's to fix (exit 2).
    Config(String),
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What happened.
        source: std::io::Error,
    },
    /// A bot could not be built or a game could not start.
    Game(String),
    /// The output directory holds no run to continue, or another run:
    /// the user's to fix (exit 2).
    Run(super::run_dir_error::RunDirError),
    /// A tournament that cannot be played as configured: the user's to
    /// fix (exit 2).
    Invalid(ConfigError),
    /// Stopped (Ctrl-C) before the end; the rows written so far are valid.
    Interrupted {
        /// Games finished and recorded.
        done: u64,
        /// Games in the run.
        total: u64,
    },
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::Config(m) | ArenaError::Game(m) => f.write_str(m),
            ArenaError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ArenaError::Run(e) => write!(f, "{e}"),
            ArenaError::Invalid(e) => write!(f, "{e}"),
            ArenaError::Interrupted { done, total } => {
                write!(f, "interrupted after {done} of {total} games")
            }
        }
    }
}

impl std::error::Error for ArenaError {}

/// Why [`TournamentConfig::validate`] refuses a tournament, in the
/// library's terms; a front end names its own options when it reports one
/// (the command line's `--bot`, `--games`, `--shard`, `--threads`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// Fewer than two bots.
    TooFewBots {
        /// Bots given.
        given: usize,
    },
    /// A bot's spec or label is not usable (the message says why).
    BadBot(String),
    /// Two bots share a label.
    SameLabel {
        /// The label.
        label: String,
        /// The name of the second bot with it.
        name: String,
    },
    /// No games per pairing.
    NoGames,
    /// More games per pairing than a schedule may hold.
    TooManyGames {
        /// Games per pairing asked for.
        games: u64,
        /// The most allowed with this many pairings.
        most: u64,
        /// Pairings.
        pairings: u64,
    },
    /// A shard past the schedule's last pair.
    EmptyShard {
        /// The shard.
        shard: Shard,
        /// Colour-swapped pairs in the schedule.
        pairs: u64,
    },
    /// No threads.
    NoThreads,
    /// Rules that describe no playable game.
    Rules(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::TooFewBots { given } => {
                write!(f, "a tournament needs at least two bots, {given} given")
            }
            ConfigError::BadBot(m) => f.write_str(m),
            ConfigError::SameLabel { label, name } => write!(
                f,
                "two bots are named '{label}'; give one a label, e.g. label={name}-2"
            ),
            ConfigError::NoGames => f.write_str("games per pairing must be at least 1"),
            ConfigError::TooManyGames {
                games,
                most,
                pairings,
            } => write!(
                f,
                "{games} games per pairing is out of range ({})",
                games_limit(*most, *pairings)
            ),
            ConfigError::EmptyShard { shard, pairs } => {
                write!(f, "part {shard} has no games: {}", shard_limit(*pairs))
            }
            ConfigError::NoThreads => f.write_str("threads must be at least 1"),
            ConfigError::Rules(m) => write!(f, "rules: {m}"),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Why `most` games per pairing are the most, with `pairings` pairings.
pub fn games_limit(most: u64, pairings: u64) -> String {
    format!(
        "1..={most} with {pairings} pairings: a schedule holds at most {MAX_GAMES} games, whose records are kept in memory, about 100 bytes a game"
    )
}

/// How many parts a schedule of `pairs` colour-swapped pairs may be split
/// into.
pub fn shard_limit(pairs: u64) -> String {
    let s = if pairs == 1 { "" } else { "s" };
    format!(
        "the schedule has {pairs} colour-swapped pair{s}, so split it into at most {pairs} part{s}"
    )
}

impl ArenaError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> ArenaError {
        ArenaError::Io {
            path: path.into(),
            source,
        }
    }
}

/// The largest schedule a tournament may have. The game list and the
/// records are kept in memory (about 100 bytes a game, reserved up front),
/// so the cap keeps a mistyped `--games` from exhausting memory: ten
/// million games take about a gigabyte, and weeks on a workstation.
pub const MAX_GAMES: u64 = 10_000_000;

/// The most games per pairing a schedule of `pairings` pairings may hold
/// within [`MAX_GAMES`]: an even number, as games come in pairs.
pub fn max_games_per_pairing(pairings: u64) -> u64 {
    MAX_GAMES / pairings.max(1) / 2 * 2
}

/// Everything that defines a tournament's games. Plain data; check it with
/// [`TournamentConfig::validate`].
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The bots, in the order given; their labels name them in outputs.
    pub bots: Vec<BotSpec>,
    /// Games per pairing; rounded up to whole colour-swapped pairs.
    pub games_per_pairing: u64,
    /// Rules the rounds cycle through (one entry per `--holes` value).
    pub rules: Vec<Rules>,
    /// Round robin or gauntlet.
    pub format: Format,
    /// The seed every layout and bot stream derives from.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// The part of the schedule to play.
    pub shard: Shard,
    /// The start-position suite (`--openings`): pair `L` starts from its
    /// start `L mod N` instead of a random layout.
    pub openings: Option<Openings>,
}

impl TournamentConfig {
    /// A match of `a` against `b` over `pairs` colour-swapped pairs of
    /// games (each layout played twice), cycling through `rules`: the unit
    /// of parameter sweeps and A/B tests. Order matters only for naming:
    /// pair results are counted for `a`.
    pub fn head_to_head(
        a: BotSpec,
        b: BotSpec,
        pairs: u64,
        rules: Vec<Rules>,
        seed: u64,
        threads: usize,
    ) -> TournamentConfig {
        TournamentConfig {
            bots: vec![a, b],
            games_per_pairing: 2 * pairs,
            rules,
            format: Format::Gauntlet,
            seed,
            threads,
            shard: Shard::ALL,
            openings: None,
        }
    }

    /// The bots' output names.
    pub fn labels(&self) -> Vec<String> {
        self.bots.iter().map(BotSpec::label).collect()
    }

    /// The full schedule (all shards).
    pub fn schedule(&self) -> Schedule {
        Schedule::new(
            self.bots.len(),
            self.format,
            self.games_per_pairing,
            self.rules.clone(),
            self.seed,
        )
        .with_openings(self.openings.as_ref().map(|o| o.suite.clone()))
    }

    /// Checks everything that could stop a game before any is played:
    /// at least two bots, distinct labels that CSV can hold, known bots
    /// with valid keys (each is built once), games and threads above zero,
    /// valid rules.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] naming the problem.
    pub fn validate(&self, catalog: &Catalog) -> Result<(), ArenaError> {
        let bad = |e: ConfigError| Err(ArenaError::Invalid(e));
        let bad_bot = |e: String| ArenaError::Invalid(ConfigError::BadBot(e));
        if self.bots.len() < 2 {
            return bad(ConfigError::TooFewBots {
                given: self.bots.len(),
            });
        }
        let labels = self.labels();
        for (i, l) in labels.iter().enumerate() {
            check_label(l).map_err(bad_bot)?;
            if labels[..i].contains(l) {
                return bad(ConfigError::SameLabel {
                    label: l.clone(),
                    name: self.bots[i].name.clone(),
                });
            }
        }
        for spec in &self.bots {
            catalog
                .parse(spec.as_str())
                .map_err(|e| bad_bot(e.to_string()))?;
        }
        if self.games_per_pairing == 0 {
            return bad(ConfigError::NoGames);
        }
        let pairings = match self.format {
            Format::RoundRobin => self.bots.len() * (self.bots.len() - 1) / 2,
            Format::Gauntlet => self.bots.len() - 1,
        } as u64;
        // Games per pairing are rounded up to whole pairs.
        let most = max_games_per_pairing(pairings);
        if self.games_per_pairing.div_ceil(2) * 2 > most {
            return bad(ConfigError::TooManyGames {
                games: self.games_per_pairing,
                most,
                pairings,
            });
        }
        // A part past the last pair would succeed having played nothing;
        // say so instead (the parts a merge needs must all have games).
        let pairs = self.games_per_pairing.div_ceil(2) * pairings;
        if u64::from(self.shard.index) > pairs {
            return bad(ConfigError::EmptyShard {
                shard: self.shard,
                pairs,
            });
        }
        if self.threads == 0 {
            return bad(ConfigError::NoThreads);
        }
        for r in &self.rules {
            r.validate()
                .map_err(|e| ArenaError::Invalid(ConfigError::Rules(e.to_string())))?;
        }
        Ok(())
    }

    /// Labels of the bots whose moves depend on wall-clock time.
    ///
    /// # Errors
    /// A bot that cannot be built.
    pub fn timed_bots(&self, catalog: &Catalog) -> Result<Vec<String>, ArenaError> {
        let mut out = Vec::new();
        for spec in &self.bots {
            let bot = catalog
                .build(spec, 0)
                .map_err(|e| ArenaError::Invalid(ConfigError::BadBot(e.to_string())))?;
            if bot.is_timed() || spec.time_control().ok().flatten().is_some() {
                out.push(spec.label());
            }
        }
        Ok(out)
    }
}

/// Receives finished games, in game order, on the thread that called
/// `arena::parallel::run_games`.
pub trait Observer {
    /// Called once before any game, with the games already recorded
    /// (resumed) and the number of games in the run.
    fn on_start(&mut self, _done: &[GameRecord], _total: u64) {}

    /// One finished game and its `games.csv` line. `Break` stops the run
    /// (a sequential test that has decided).
    ///
    /// # Errors
    /// Stops the run and is passed on.
    fn on_game(&mut self, record: &GameRecord, row: &str) -> Result<ControlFlow<()>, ArenaError>;

    /// A finished game's `moves.csv` lines (one a ply, newlines included),
    /// just before its [`Observer::on_game`]. Only the writer of the file
    /// needs them.
    ///
    /// # Errors
    /// Stops the run and is passed on.
    fn on_moves(&mut self, _record: &GameRecord, _lines: &str) -> Result<(), ArenaError> {
        Ok(())
    }

    /// Called whenever no finished game is waiting: the moment to flush.
    ///
    /// # Errors
    /// Stops the run and is passed on.
    fn on_idle(&mut self) -> Result<(), ArenaError> {
        Ok(())
    }
}

/// An observer that keeps every record in memory.
#[derive(Clone, Debug, Default)]
pub struct Collect {
    /// The records, in game order.
    pub records: Vec<GameRecord>,
}

impl Observer for Collect {
    fn on_game(&mut self, r: &GameRecord, _: &str) -> Result<ControlFlow<()>, ArenaError> {
        self.records.push(*r);
        Ok(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bot::builtin_catalog;

    /// Three random bots in a round robin of 5 games per pairing, seed 11.
    pub(crate) fn config(threads: usize) -> TournamentConfig {
        let catalog = builtin_catalog();
        TournamentConfig {
            bots: ["random", "random:label=r2", "random:label=r3"]
                .iter()
                .map(|s| catalog.parse(s).expect("spec"))
                .collect(),
            games_per_pairing: 5,
            rules: vec![Rules::default()],
            format: Format::RoundRobin,
            seed: 11,
            threads,
            shard: Shard::ALL,
            openings: None,
        }
    }

    #[test]
    fn bad_configs_are_refused() {
        let catalog = builtin_catalog();
        let mut c = config(1);
        c.bots.truncate(1);
        assert!(matches!(
            c.validate(&catalog),
            Err(ArenaError::Invalid(ConfigError::TooFewBots { given: 1 }))
        ));
        let mut c = config(1);
        c.bots[1] = c.bots[0].clone();
        let e = c.validate(&catalog).expect_err("dup");
        assert!(e.to_string().contains("two bots are named"), "{e}");
        let mut c = config(1);
        c.games_per_pairing = 0;
        let e = c.validate(&catalog).expect_err("no games");
        // The library's words: no command-line option in them.
        assert_eq!(e.to_string(), "games per pairing must be at least 1");
    }
}
