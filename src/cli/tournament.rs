//! `pahtum tournament`: a seeded round robin (or gauntlet) over random
//! layouts, played in parallel into CSV files (docs/CONTRACT.md).

use std::path::PathBuf;

use clap::Args;

use super::common::{
    CANCEL, EngineArgs, OpeningsArgs, RulesArgs, StudyRunArgs, install_cancel, run_interrupt_note,
    threads,
};
use super::error::{CliError, CliResult, cli_error, out_error, usage};
use super::num;
use crate::arena::progress::{Progress, ProgressMode};
use crate::arena::report::Report;
use crate::arena::rundir::{DirRun, check_dir, run_in_dir};
use crate::arena::runinfo::{RunArgs, utc_stamp};
use crate::arena::schedule::{Format, Shard};
use crate::arena::tournament::{ArenaError, TournamentConfig};
use crate::bot::{BotSpec, Catalog};

/// The bots of the no-argument tournament: one list, adjusted as bots land.
pub const DEFAULT_BOTS: &[&str] = &[
    "random",
    "greedy",
    "heuristic",
    "learned",
    "flatmc:playouts=1000,label=flatmc",
    "alphabeta:nodes=20000,label=alphabeta",
    "mcts:iters=2000,label=mcts",
];

/// Games per pairing when `--games` is not given.
pub const DEFAULT_GAMES: u64 = 40;

/// Games per pairing of the built-in field (no `--bot`) when `--games` is
/// not given: the README's first command, which shows the output formats
/// and should end in seconds, not measure anything.
pub const QUICKSTART_GAMES: u64 = 10;

pub use super::common::DEFAULT_SEED;

/// Arguments of `tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// A bot spec, e.g. mcts:iters=2000 (repeat, at least two; default: a small built-in field)
    #[arg(long = "bot", value_name = "SPEC")]
    pub bots: Vec<String>,
    /// Games per pairing, rounded up to whole colour-swapped pairs [default: 40; 10 for the built-in field]
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = num::games())]
    pub games: Option<u64>,
    /// Rules of the games
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Start-position suite
    #[command(flatten)]
    pub openings: OpeningsArgs,
    /// External engines
    #[command(flatten)]
    pub engine: EngineArgs,
    /// round-robin (everyone meets everyone) or gauntlet (the first bot meets each other)
    #[arg(long, default_value = "round-robin", value_name = "FORMAT")]
    pub format: String,
    /// Seed, threads, output directory, resume, quiet
    #[command(flatten)]
    pub run: StudyRunArgs,
    /// Play only part K of N of the schedule (join the parts with `pahtum merge`)
    #[arg(long, value_name = "K/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
}

/// Writes `ratings.svg`, the ratings as a plot beside `ratings.csv`
/// (plot), for a tournament and for a merge alike.
///
/// # Errors
/// A drawing failure (exit 1) or a write that fails (exit 2, naming `--out`).
pub fn write_ratings_svg(out: &std::path::Path, report: &Report, seed: u64) -> CliResult {
    let svg = crate::plot::ratings_plot(
        report,
        &format!(
            "Ratings: {} games, seed {seed}",
            report.games.iter().sum::<u64>() / 2
        ),
    )
    .map_err(|e| CliError::Internal(e.into()))?;
    crate::arena::runinfo::write_atomic(&out.join("ratings.svg"), svg.as_bytes())
        .map_err(out_error(out))
}

/// `results/<UTC time>`, with `-2`, `-3`... if runs start in the same second.
fn default_out() -> PathBuf {
    let base = PathBuf::from("results").join(utc_stamp());
    let mut out = base.clone();
    let mut k = 2;
    while out.exists() {
        out = PathBuf::from(format!("{}-{k}", base.display()));
        k += 1;
    }
    out
}

/// The `--bot` specs, checked, or the built-in field without any.
fn bot_specs(given: &[String], catalog: &Catalog) -> CliResult<Vec<BotSpec>> {
    let defaults: Vec<String> = DEFAULT_BOTS.iter().map(|s| s.to_string()).collect();
    let texts = if given.is_empty() {
        &defaults[..]
    } else {
        given
    };
    texts
        .iter()
        .map(|t| {
            catalog
                .parse_unattended(t)
                .map_err(|e| usage(format!("--bot: {e}")))
        })
        .collect()
}

/// Runs `tournament`.
///
/// # Errors
/// Bad arguments (exit 2), I/O failures (exit 1) or an interruption (exit 130).
pub fn run(a: TournamentArgs) -> CliResult {
    let out = a.run.out_dir(default_out)?;
    // External engines report faults, with their stderr tails, next to the results.
    let catalog = a.engine.catalog_with_log(Some(&out.join("engines.log")))?;
    let rules = a.rules.to_rules()?;
    let openings = a.openings.load(&rules)?;
    let bots = bot_specs(&a.bots, &catalog)?;
    let format: Format = a
        .format
        .parse()
        .map_err(|e| usage(format!("--format: {e}")))?;
    let shard = match &a.shard {
        None => Shard::ALL,
        Some(s) => s.parse().map_err(|e| usage(format!("--shard: {e}")))?,
    };
    let threads = threads(a.run.threads)?;
    let config = TournamentConfig {
        bots,
        games_per_pairing: a.games.unwrap_or(if a.bots.is_empty() {
            QUICKSTART_GAMES
        } else {
            DEFAULT_GAMES
        }),
        rules,
        format,
        seed: a.run.seed,
        threads,
        shard,
        openings,
    };
    config.validate(&catalog).map_err(cli_error)?;
    let args = RunArgs::new(&config, a.engine.engines.clone(), a.engine.move_timeout_ms);
    let run = DirRun {
        config: &config,
        command: "tournament",
        options: args.options(),
        args,
        catalog: &catalog,
        out: out.clone(),
        resume: a.run.resume,
        command_line: std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    };
    let mode = ProgressMode::detect(a.run.quiet);
    check_dir(&run).map_err(out_error(&out))?;
    if !a.run.quiet {
        let schedule = config.schedule();
        let games = schedule.shard_games(shard).count();
        eprintln!(
            "tournament: {} bots, {} games ({}, {} per pairing{}{}), seed {}, {} threads, out {}",
            config.bots.len(),
            games,
            format,
            schedule.games_per_pairing(),
            if shard == Shard::ALL {
                String::new()
            } else {
                format!(", shard {shard}")
            },
            super::common::openings_note(config.openings.as_ref()),
            config.seed,
            threads,
            out.display()
        );
    }
    // A second Ctrl-C exits at once; rows already written stay valid.
    install_cancel(run_interrupt_note(&out));
    let mut progress = Progress::new(config.labels(), mode);
    let result = run_in_dir(&run, &CANCEL, &mut progress);
    progress.finish();
    match result {
        Ok(done) => {
            write_ratings_svg(&out, &done.report, config.seed)?;
            if !a.run.quiet {
                println!("{}", done.report.text());
                println!("results in {}", out.display());
            }
            super::common::name_picked_dir(&out, a.run.quiet, a.run.out.is_none());
            Ok(())
        }
        Err(ArenaError::Interrupted { done, total }) => Err(CliError::Interrupted(format!(
            "interrupted after {done} of {total} games; continue with: {} --resume --out {}",
            run.args.command(),
            out.display()
        ))),
        Err(e) => Err(out_error(&out)(e)),
    }
}
