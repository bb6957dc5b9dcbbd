//! Options shared by several subcommands (docs/CONTRACT.md, Common options).

use clap::Args;

use super::error::{CliResult, usage};
use super::num;
use crate::arena::rundir::DirRun;
use crate::arena::runinfo::RunArgs;
use crate::arena::runopts::RunOptions;
use crate::arena::schedule::Shard;
use crate::arena::tournament::TournamentConfig;
use crate::bot::{Catalog, MAX_THREADS, builtin_catalog};
use crate::game::bitboard::Bitboard;
use crate::game::outcome::Komi;
use crate::game::rules::{HoleSetup, Rules};
use crate::game::square::Square;
use crate::game::square::{MAX_SIZE, MIN_SIZE};
use crate::game::suite::Openings;
use crate::protocol::{EngineConfig, EngineFactory, words};

mod run;

pub use self::run::{
    CANCEL, RowsError, install_cancel, install_exit, name_picked_dir, open_run, run_interrupt_note,
    save_run, styled_bar, terminal_bar,
};

/// `--shard K/N`: play or solve only part K of N of a study's work, for
/// batch schedulers. Each command words the help itself (what a part
/// holds there) with `#[command(mut_arg("shard", ...))]`.
#[derive(Args, Clone, Copy, Debug)]
pub struct ShardArgs {
    /// The part to do
    #[arg(
        id = "shard",
        long = "shard",
        value_name = "K/N",
        default_value = "1/1",
        allow_hyphen_values = true
    )]
    pub part: Shard,
}

/// A study that can be played in parts: its rules, engines and run
/// ([`StudyArgs`], which it derefs to), and `--shard K/N`.
#[derive(Args, Clone, Debug)]
pub struct ShardedStudyArgs {
    /// Rules, external engines, seed, threads, output directory
    #[command(flatten)]
    pub study: StudyArgs,
    /// `--shard K/N`, worded by each command
    #[command(flatten)]
    pub shard: ShardArgs,
}

impl std::ops::Deref for ShardedStudyArgs {
    type Target = StudyArgs;
    fn deref(&self) -> &StudyArgs {
        &self.study
    }
}

impl std::ops::DerefMut for ShardedStudyArgs {
    fn deref_mut(&mut self) -> &mut StudyArgs {
        &mut self.study
    }
}

/// Rules of the games to play: `--size`, `--holes`, `--layout`, `--pie`,
/// `--komi`.
#[derive(Args, Clone, Debug, Default)]
pub struct RulesArgs {
    /// Board side, 3 to 8 (7 is the game)
    #[arg(long, default_value_t = 7, value_name = "N", allow_negative_numbers = true,
          value_parser = num::int::<u8>(MIN_SIZE.into(), MAX_SIZE.into()))]
    pub size: u8,
    /// Number of random holes, or a list like 3,5,7 that games cycle through [default: 5]
    #[arg(
        long,
        value_name = "N[,N...]",
        conflicts_with = "layout",
        allow_negative_numbers = true
    )]
    pub holes: Option<String>,
    /// Fixed hole squares, like a1,d4,g7
    #[arg(long, value_name = "SQ,SQ,...")]
    pub layout: Option<String>,
    /// Pie rule: Black may swap sides after White's first stone
    #[arg(long)]
    pub pie: bool,
    /// Points added to Black's total (a half point allowed, e.g. 2.5)
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub komi: Option<String>,
}

impl RulesArgs {
    /// The rules of each hole count (one entry for a fixed layout), in the
    /// order games cycle through them.
    ///
    /// # Errors
    /// A usage error naming the bad option.
    pub fn to_rules(&self) -> CliResult<Vec<Rules>> {
        let komi = match &self.komi {
            None => Komi::ZERO,
            Some(k) => parse_komi(k)?,
        };
        if !(MIN_SIZE..=MAX_SIZE).contains(&self.size) {
            return Err(usage(format!(
                "--size {}: board sizes 3 to 8 are supported",
                self.size
            )));
        }
        let setups = if let Some(layout) = &self.layout {
            vec![HoleSetup::Fixed(parse_layout(layout, self.size)?)]
        } else {
            parse_holes(self.holes.as_deref().unwrap_or("5"))?
                .into_iter()
                .map(HoleSetup::Random)
                .collect()
        };
        let rules = Rules::for_setups(self.size, setups, self.pie, komi);
        for r in &rules {
            r.validate().map_err(|e| {
                let what = match &r.holes {
                    HoleSetup::Random(n) => format!("--holes {n}"),
                    HoleSetup::Fixed(_) => "--layout".to_string(),
                };
                usage(format!("{what}: {e}"))
            })?;
        }
        Ok(rules)
    }
}

/// Records the rules options (`--size`, `--holes`, `--layout`, `--pie`,
/// `--komi`) of `rules` (from [`RulesArgs::to_rules`], defaults filled
/// in) for `--resume` to compare.
pub fn rules_options(o: &mut RunOptions, rules: &[Rules]) {
    let first = rules.first().cloned().unwrap_or_default();
    let holes: Vec<String> = rules
        .iter()
        .filter_map(|r| match r.holes {
            HoleSetup::Random(n) => Some(n.to_string()),
            HoleSetup::Fixed(_) => None,
        })
        .collect();
    let layout = match first.holes {
        HoleSetup::Fixed(b) => b.map(|sq| sq.to_string()).collect::<Vec<_>>().join(","),
        HoleSetup::Random(_) => "(none)".into(),
    };
    o.add("--size", first.size);
    o.add(
        "--holes",
        crate::arena::runinfo::none_if_empty(holes.join(",")),
    );
    o.add("--layout", layout);
    o.add("--pie", first.pie).add("--komi", first.komi);
}

/// `--openings FILE`: a start-position suite (docs/cli.md), whose starts
/// replace the random layouts of `--holes` and `--layout`.
#[derive(Args, Clone, Debug, Default)]
pub struct OpeningsArgs {
    /// Start-position suite: one start a line (holes | moves, or a board); pair k plays start k mod N, once with each colour
    #[arg(long, value_name = "FILE", conflicts_with_all = ["holes", "layout"])]
    pub openings: Option<String>,
}

impl OpeningsArgs {
    /// The suite, read and checked against `rules` (its first entry's
    /// board side, pie rule and komi), or `None` without `--openings`.
    ///
    /// # Errors
    /// A file that cannot be read, or its first bad start, named by file,
    /// line and column (exit 2).
    pub fn load(&self, rules: &[Rules]) -> CliResult<Option<Openings>> {
        let Some(path) = &self.openings else {
            return Ok(None);
        };
        let r = rules.first().cloned().unwrap_or_default();
        crate::arena::suite_file::load(path, r.size, r.pie, r.komi)
            .map(Some)
            .map_err(|e| usage(format!("--openings: {e}")))
    }
}

/// Records `--openings` (path and content hash) of `openings` for
/// `--resume` to compare; nothing without a suite, as before suites.
pub fn openings_options(o: &mut RunOptions, openings: Option<&Openings>) {
    if let Some(op) = openings {
        o.add("--openings", op.record());
    }
}

/// `, openings FILE (N starts)` for a command's first line on stderr,
/// or nothing without a suite.
pub fn openings_note(openings: Option<&Openings>) -> String {
    openings.map_or(String::new(), |o| {
        let n = o.suite.len();
        format!(
            ", openings {} ({n} start{})",
            o.path,
            if n == 1 { "" } else { "s" }
        )
    })
}

/// External engines: `--engine NAME=COMMAND` (repeatable) makes `NAME` a bot
/// backed by that program speaking the engine protocol.
#[derive(Args, Clone, Debug, Default)]
pub struct EngineArgs {
    /// Make NAME a bot backed by the program COMMAND (engine protocol on stdin/stdout)
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    pub engines: Vec<String>,
    /// An external engine that takes longer than this for one move loses the game (at most a day)
    #[arg(long, default_value_t = 30_000, value_name = "MS", allow_negative_numbers = true,
          value_parser = num::int::<u64>(1, MAX_MOVE_TIMEOUT_MS.into()))]
    pub move_timeout_ms: u64,
}

impl EngineArgs {
    /// Records `--engine` and `--move-timeout-ms` for `--resume` to
    /// compare.
    pub fn options(&self, o: &mut RunOptions) {
        o.add_list("--engine", &self.engines)
            .add("--move-timeout-ms", self.move_timeout_ms);
    }

    /// The built-in bots plus the declared engines.
    ///
    /// # Errors
    /// A malformed `--engine` or a name already taken (exit 2).
    pub fn catalog(&self) -> CliResult<Catalog> {
        self.catalog_with_log(None)
    }

    /// As [`EngineArgs::catalog`], with engine fault reports (and each
    /// faulty engine's stderr tail) appended to `log`, e.g. `--out/engines.log`;
    /// `None` writes them to stderr. The file is created only when there is
    /// something to report.
    ///
    /// # Errors
    /// A malformed `--engine`, a program that cannot be found, or a name
    /// already taken (exit 2).
    pub fn catalog_with_log(&self, log: Option<&std::path::Path>) -> CliResult<Catalog> {
        let mut catalog = builtin_catalog();
        if !self.engines.is_empty() && self.move_timeout_ms == 0 {
            return Err(usage("--move-timeout-ms: must be at least 1"));
        }
        for arg in &self.engines {
            let bad = |e: String| usage(format!("--engine {arg}: {e}"));
            let (name, argv) = words::parse_engine_arg(arg).map_err(bad)?;
            if name == "human" {
                return Err(bad("'human' is a built-in bot name".into()));
            }
            let program = argv.first().map(String::as_str).unwrap_or_default();
            words::find_program(program).map_err(bad)?;
            let factory = EngineFactory::new(EngineConfig {
                name: name.clone(),
                argv,
                move_timeout: std::time::Duration::from_millis(self.move_timeout_ms),
                log: log.map(std::path::Path::to_path_buf),
            });
            catalog
                .add_engine(&name, std::sync::Arc::new(factory))
                .map_err(|e| bad(e.to_string()))?;
        }
        Ok(catalog)
    }
}

/// The seed when `--seed` is not given, the same in every subcommand, so
/// that a command without `--seed` replays the same games as one with
/// `--seed 1`.
pub const DEFAULT_SEED: u64 = 1;

/// How a run goes and where it writes: `--seed`, `--threads`, `--out`,
/// `--quiet`, shared by every command that writes a run directory, so that
/// each option means the same in all of them.
#[derive(Args, Clone, Debug, Default)]
pub struct CommonRunArgs {
    /// Seed of every random choice (layouts, bot streams); the same seed replays the same run
    #[arg(long, default_value_t = DEFAULT_SEED, value_name = "N", allow_negative_numbers = true,
          value_parser = num::seed())]
    pub seed: u64,
    /// Threads (default: all cores); the results do not depend on it (bots on a time budget aside)
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = num::threads())]
    pub threads: Option<usize>,
    /// Output directory (default: a new one under results/, named by the UTC time); never overwritten
    #[arg(long, value_name = "DIR")]
    pub out: Option<std::path::PathBuf>,
    /// No progress and no tables
    #[arg(long)]
    pub quiet: bool,
}

/// [`CommonRunArgs`] and `--resume`, for the commands whose runs continue
/// (`tournament`, `sweep`, `sprt`, `fpa`, `tune`, `exact`, `train`).
/// `accuracy` takes [`CommonRunArgs`] alone: it solves its positions anew each
/// time, so a kept row would cost as much to check as to judge.
#[derive(Args, Clone, Debug, Default)]
pub struct StudyRunArgs {
    /// Seed, threads, output directory, quiet
    #[command(flatten)]
    pub base: CommonRunArgs,
    /// Continue the interrupted run in --out: keep its results, do what is missing
    #[arg(long)]
    pub resume: bool,
}

/// The shared options read as the run's own fields (`run.seed`).
impl std::ops::Deref for StudyRunArgs {
    type Target = CommonRunArgs;

    fn deref(&self) -> &CommonRunArgs {
        &self.base
    }
}

impl std::ops::DerefMut for StudyRunArgs {
    fn deref_mut(&mut self) -> &mut CommonRunArgs {
        &mut self.base
    }
}

impl StudyRunArgs {
    /// The output directory: `--out`, else `default()`.
    ///
    /// # Errors
    /// `--resume` without `--out`, which names no run to continue (exit 2).
    pub fn out_dir(
        &self,
        default: impl FnOnce() -> std::path::PathBuf,
    ) -> CliResult<std::path::PathBuf> {
        match &self.out {
            Some(out) => Ok(out.clone()),
            None if self.resume => Err(usage(
                "--resume needs --out DIR, the directory of the run to continue",
            )),
            None => Ok(default()),
        }
    }
}

/// The option blocks every study command (`sweep`, `sprt`, `fpa`, `tune`)
/// takes whole, flattened into its own arguments: the rules, the external
/// engines and how the run goes, so that they read the same in each.
#[derive(Args, Clone, Debug, Default)]
pub struct StudyArgs {
    /// Rules of the games
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Start-position suite
    #[command(flatten)]
    pub openings: OpeningsArgs,
    /// External engines
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Seed, threads, output directory, resume, quiet
    #[command(flatten)]
    pub run: StudyRunArgs,
}

impl StudyArgs {
    /// The games of `config` played into `out` for `command`, with its
    /// recorded `options`, the engines as recorded in `run.json` and
    /// `--resume` as given.
    pub fn dir_run<'a>(
        &self,
        command: &'static str,
        config: &'a TournamentConfig,
        options: RunOptions,
        catalog: &'a Catalog,
        out: &std::path::Path,
    ) -> DirRun<'a> {
        DirRun {
            config,
            args: RunArgs::new(
                config,
                self.engine.engines.clone(),
                self.engine.move_timeout_ms,
            ),
            command,
            options,
            catalog,
            out: out.to_path_buf(),
            resume: self.run.resume,
            command_line: std::env::args().collect(),
        }
    }
}

/// The exact solver's table, `--tt-mb`, of the commands that solve with
/// one solver per thread (`exact`, `accuracy`).
#[derive(Args, Clone, Debug, Default)]
pub struct TableArgs {
    /// Transposition table of each thread, MiB
    #[arg(long, value_name = "MB", default_value_t = 64, allow_negative_numbers = true,
          value_parser = num::int::<usize>(1, 4096))]
    pub tt_mb: usize,
}

/// The longest `--move-timeout-ms`: a day, far beyond any real move and
/// far from overflowing the deadlines computed from it.
pub const MAX_MOVE_TIMEOUT_MS: u32 = 86_400_000;

/// Refuses a clocked spec (`tc=`) where no game is played against a
/// clock (a single position judged, a served engine told its clock by the
/// controller): the clock would be silently ignored. `instead` names the
/// budgets the command takes (`iters=, ms= or its own budget`, or only
/// `iters=` where the work must replay from its seed).
///
/// # Errors
/// A usage error naming `option` when `spec` gives `tc=`.
pub fn no_clock(
    spec: &crate::bot::BotSpec,
    option: &str,
    why: &str,
    instead: &str,
) -> CliResult<()> {
    if spec.params.iter().any(|(k, _)| k == "tc") {
        return Err(usage(format!(
            "{option}: '{}' has a game clock (tc=), but {why}; give it {instead}",
            spec.as_str()
        )));
    }
    Ok(())
}

/// [`no_clock`]'s `instead` where any budget but a clock will do.
pub const ANY_BUDGET: &str = "iters=, ms= or its own budget";

/// [`no_clock`]'s `instead` where the work must replay from its seed.
pub const REPLAYABLE_BUDGET: &str =
    "an iteration budget (iters=; playouts=, depth= or nodes= for the bots that count those)";

/// Parses `--holes`: one count or a comma-separated list. Each count is
/// checked against the largest board here and against the chosen board by
/// [`Rules::validate`].
///
/// # Errors
/// A usage error naming the bad entry.
pub fn parse_holes(s: &str) -> CliResult<Vec<u32>> {
    let most = i128::from(MAX_SIZE).pow(2) - 1;
    s.split(',')
        .map(|part| {
            num::parse_int(part, 0, most)
                .map(|n| n as u32)
                .map_err(|e| usage(format!("--holes: {e}")))
        })
        .collect()
}

/// Parses `--komi` (whole or half points).
///
/// # Errors
/// A usage error naming `--komi`.
pub fn parse_komi(s: &str) -> CliResult<Komi> {
    s.parse::<Komi>().map_err(|e| usage(format!("--komi: {e}")))
}

/// Parses `--layout`: distinct squares on a board of side `size`.
///
/// # Errors
/// A usage error naming the bad square.
pub fn parse_layout(s: &str, size: u8) -> CliResult<Bitboard> {
    let mut b = Bitboard::EMPTY;
    if s.trim().is_empty() {
        return Ok(b);
    }
    for part in s.split(',') {
        let sq: Square = part
            .trim()
            .parse()
            .map_err(|e| usage(format!("--layout: {e}")))?;
        if !sq.is_on_board(size) {
            return Err(usage(format!(
                "--layout: square {sq} is off the {size}x{size} board"
            )));
        }
        if b.contains(sq) {
            return Err(usage(format!("--layout: square {sq} is listed twice")));
        }
        b.insert(sq);
    }
    Ok(b)
}

/// Resolves `--threads`: 1 to [`MAX_THREADS`]; all cores when absent.
///
/// # Errors
/// A count outside the range (exit 2), in [`num::threads`]'s words; clap
/// refuses those already, this guards a caller that built the arguments.
pub fn threads(t: Option<usize>) -> CliResult<usize> {
    match t {
        Some(t) if !(1..=MAX_THREADS).contains(&t) => Err(usage(format!(
            "--threads: {}",
            num::NumError::OutOfRange {
                value: t.to_string(),
                range: format!("1..={MAX_THREADS}"),
            }
        ))),
        Some(t) => Ok(t),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_from_args() {
        let a = RulesArgs {
            size: 7,
            holes: Some("3,5".into()),
            komi: Some("2.5".into()),
            ..Default::default()
        };
        let r = a.to_rules().expect("rules");
        assert_eq!(r.len(), 2);
        assert_eq!(r[1].holes, HoleSetup::Random(5));
        assert_eq!(r[0].komi.halves(), 5);
        let bad = RulesArgs {
            size: 3,
            holes: Some("9".into()),
            ..Default::default()
        };
        assert!(bad.to_rules().is_err());
        assert!(parse_layout("a1,a1", 7).is_err());
        assert!(parse_layout("h8", 7).is_err());
        assert_eq!(parse_layout("a1,g7", 7).map(|b| b.count()).ok(), Some(2));
    }
}
