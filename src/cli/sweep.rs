//! `pahtum sweep`: a parameter grid of one bot against a reference, played
//! as a resumable gauntlet tournament, summarised in `sweep.csv` and
//! `sweep.svg`.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use clap::Args;

use super::common::{
    CANCEL, ShardedStudyArgs, install_cancel, openings_options, rules_options, run_interrupt_note,
    threads,
};
use super::error::{CliError, CliResult, usage};
use super::error::{cli_error, out_error};
use super::num;
use crate::arena::games_csv::GameRecord;
use crate::arena::progress::{Leader, Progress, ProgressMode};
use crate::arena::report::Report;
use crate::arena::rundir::{check_dir, run_in_dir};
use crate::arena::runinfo::{utc_stamp, write_atomic};
use crate::arena::runopts::RunOptions;
use crate::arena::tournament::{ArenaError, Observer, TournamentConfig};
use crate::bot::Catalog;
use crate::study::grid::parse_axis;
use crate::study::sweep::{Sweep, SweepRow, sweep_csv, sweep_plot};

/// Arguments of `sweep`.
#[derive(Args, Debug)]
#[command(mut_arg("shard", |a| a.help(
    "Play only part K of N of the games (colour-swapped pairs dealt out in turn), for batch schedulers; `pahtum merge` joins the parts' directories",
)))]
pub struct SweepArgs {
    /// The bot whose keys are swept, e.g. mcts:iters=2000
    #[arg(long, value_name = "SPEC")]
    pub bot: String,
    /// A swept key: KEY=V1,V2,... or KEY=LO..HI:STEP (repeat for a grid)
    #[arg(long = "param", value_name = "KEY=VALUES", required = true)]
    pub params: Vec<String>,
    /// The reference every combination plays
    #[arg(long, value_name = "SPEC")]
    pub vs: String,
    /// Games per combination, rounded up to whole colour-swapped pairs
    #[arg(long, default_value_t = 100, value_name = "N", allow_negative_numbers = true,
          value_parser = num::games())]
    pub games: u64,
    /// Rules, external engines, seed, threads, output directory; `--shard
    /// K/N`, its help worded above
    #[command(flatten)]
    pub study: ShardedStudyArgs,
}

/// Keeps every record (resumed ones too) for the timing column and
/// passes the games on to the progress display.
struct Keep<'a> {
    inner: &'a mut dyn Observer,
    records: Vec<GameRecord>,
}

impl Observer for Keep<'_> {
    fn on_start(&mut self, done: &[GameRecord], total: u64) {
        self.records.extend_from_slice(done);
        self.inner.on_start(done, total);
    }

    fn on_game(&mut self, r: &GameRecord, row: &str) -> Result<ControlFlow<()>, ArenaError> {
        self.records.push(*r);
        self.inner.on_game(r, row)
    }

    fn on_idle(&mut self) -> Result<(), ArenaError> {
        self.inner.on_idle()
    }
}

/// The table printed at the end.
fn table(sweep: &Sweep, rows: &[SweepRow]) -> String {
    let mut s = String::new();
    let keys: Vec<&str> = sweep.axes.iter().map(|a| a.key.as_str()).collect();
    let _ = writeln!(
        s,
        "{:<24} {:>6} {:>5} {:>5} {:>5} {:>7} {:>17} {:>8} {:>8}",
        keys.join(" "),
        "games",
        "W",
        "D",
        "L",
        "score",
        "Elo [95 %]",
        "margin",
        "ms/move"
    );
    for r in rows {
        let elo = format!("{:.0} [{:.0}, {:.0}]", r.elo, r.elo_lo, r.elo_hi);
        let _ = writeln!(
            s,
            "{:<24} {:>6} {:>5} {:>5} {:>5} {:>7.3} {:>17} {:>8.2} {:>8.2}",
            r.values.join(" "),
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.score_rate,
            elo,
            r.mean_margin,
            r.move_ms
        );
    }
    s
}

/// Writes `sweep.csv` and `sweep.svg` into `out`.
fn write_outputs(out: &Path, sweep: &Sweep, rows: &[SweepRow]) -> CliResult {
    write_atomic(
        &out.join("sweep.csv"),
        sweep_csv(&sweep.axes, rows).as_bytes(),
    )
    .map_err(out_error(out))?;
    let svg = sweep_plot(sweep, rows).map_err(|e| CliError::Internal(e.into()))?;
    write_atomic(&out.join("sweep.svg"), svg.as_bytes()).map_err(out_error(out))
}

/// What a `sweep` command line asks for, checked: the bots, the sweep and
/// its tournament.
fn plan(a: &SweepArgs) -> CliResult<(Catalog, Sweep, TournamentConfig)> {
    let catalog = a.study.engine.catalog()?;
    let rules = a.study.rules.to_rules()?;
    let base = catalog
        .parse_unattended(&a.bot)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    let reference = catalog
        .parse_unattended(&a.vs)
        .map_err(|e| usage(format!("--vs: {e}")))?;
    let axes = a
        .params
        .iter()
        .map(|p| parse_axis(p).map_err(|e| usage(e.0)))
        .collect::<CliResult<Vec<_>>>()?;
    let sweep = Sweep::new(&base, axes, reference, &catalog).map_err(|e| usage(e.0))?;
    let threads = threads(a.study.run.threads)?;
    let openings = a.study.openings.load(&rules)?;
    let mut config = sweep.tournament(a.games, rules, a.study.run.seed, threads);
    config.shard = a.study.shard.part;
    config.openings = openings;
    config.validate(&catalog).map_err(cli_error)?;
    Ok((catalog, sweep, config))
}

/// Writes the merged sweep's `sweep.csv` and `sweep.svg` (`a` is the
/// recorded command line of its parts).
pub(super) fn write_merged(
    a: &SweepArgs,
    out: &Path,
    report: &Report,
    records: &[GameRecord],
) -> CliResult {
    let (_, sweep, _) = plan(a)?;
    let rows = sweep.rows(report, records);
    write_outputs(out, &sweep, &rows)?;
    if !a.study.run.quiet {
        print!("{}", table(&sweep, &rows));
    }
    Ok(())
}

/// Runs `sweep`.
///
/// # Errors
/// Bad arguments (exit 2) before any game; I/O failures (exit 1); an
/// interruption (exit 130).
pub fn run(a: SweepArgs) -> CliResult {
    let (catalog, sweep, config) = plan(&a)?;
    let out = a
        .study
        .run
        .out_dir(|| PathBuf::from("results").join(format!("sweep-{}", utc_stamp())))?;
    let mut options = RunOptions::new();
    options
        .add("--bot", sweep.base.as_str())
        .add_list("--param", &a.params)
        .add("--vs", sweep.reference.as_str())
        .add("--games", a.games);
    rules_options(&mut options, &config.rules);
    openings_options(&mut options, config.openings.as_ref());
    a.study.engine.options(&mut options);
    options
        .add("--seed", a.study.run.seed)
        .add("--shard", a.study.shard.part);
    let run = a.study.dir_run("sweep", &config, options, &catalog, &out);
    check_dir(&run).map_err(out_error(&out))?;
    if !a.study.run.quiet {
        eprintln!(
            "sweep: {} combinations x {} games against {}{}, seed {}, {} threads, out {}",
            sweep.combos.len(),
            config.schedule().games_per_pairing(),
            sweep.reference.label(),
            super::common::openings_note(config.openings.as_ref()),
            a.study.run.seed,
            config.threads,
            out.display()
        );
    }
    install_cancel(run_interrupt_note(&out));
    // The reference is bot 0 (Sweep::tournament); the leader is the best
    // combination against it.
    let mut progress = Progress::new(config.labels(), ProgressMode::detect(a.study.run.quiet))
        .with_leader(Leader::BestAgainst(0));
    let mut keep = Keep {
        inner: &mut progress,
        records: Vec::new(),
    };
    let result = run_in_dir(&run, &CANCEL, &mut keep);
    let records = std::mem::take(&mut keep.records);
    progress.finish();
    match result {
        Ok(done) => {
            let rows = sweep.rows(&done.report, &records);
            write_outputs(&out, &sweep, &rows)?;
            if !a.study.run.quiet {
                print!("{}", table(&sweep, &rows));
                println!("results in {}", out.display());
            }
            super::common::name_picked_dir(&out, a.study.run.quiet, a.study.run.out.is_none());
            Ok(())
        }
        Err(ArenaError::Interrupted { done, total }) => Err(CliError::Interrupted(format!(
            "interrupted after {done} of {total} games; continue with the same command plus --resume --out {}",
            out.display()
        ))),
        Err(e) => Err(out_error(&out)(e)),
    }
}
