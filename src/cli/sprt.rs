//! `pahtum sprt`: a sequential A/B test of two bots over colour-swapped
//! pairs, stopped by the pentanomial GSPRT; `sprt.csv` and `sprt.svg`.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;

use super::common::{
    CANCEL, StudyArgs, install_cancel, openings_options, rules_options, run_interrupt_note, threads,
};
use super::error::{CliError, CliResult, usage};
use super::error::{cli_error, out_error};
use super::num;
use crate::arena::games_csv::GameRecord;
use crate::arena::report::Report;
use crate::arena::rundir::{check_dir, check_games_and_moves, run_in_dir, write_report};
use crate::arena::runinfo::{RunFile, utc_now, utc_stamp, write_atomic};
use crate::arena::runopts::RunOptions;
use crate::arena::schedule::{Format, Shard};
use crate::arena::tournament::{ArenaError, TournamentConfig};
use crate::bot::Catalog;
use crate::stats::gsprt::{Decision, EloModel, SprtConfig};
use crate::study::grid::relabel;
use crate::study::sprt::{SprtObserver, SprtState};

/// What `--alpha` and `--beta` accept.
const ERROR_RATE: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 0.5,
    lo_open: true,
    hi_open: true,
};

/// Arguments of `sprt`.
#[derive(Args, Debug)]
pub struct SprtArgs {
    /// Bot A, the candidate (H1: A is elo1 stronger than B)
    #[arg(long, value_name = "SPEC")]
    pub a: String,
    /// Bot B, the baseline
    #[arg(long, value_name = "SPEC")]
    pub b: String,
    /// H0: A is elo0 Elo stronger than B
    #[arg(long, value_name = "E0", allow_hyphen_values = true,
          value_parser = num::float(num::FloatRange::FINITE))]
    pub elo0: f64,
    /// H1: A is elo1 Elo stronger than B (elo1 > elo0)
    #[arg(long, value_name = "E1", allow_hyphen_values = true,
          value_parser = num::float(num::FloatRange::FINITE))]
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds, in (0, 0.5)
    #[arg(long, default_value_t = 0.05, allow_hyphen_values = true,
          value_parser = num::float(ERROR_RATE))]
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds, in (0, 0.5)
    #[arg(long, default_value_t = 0.05, allow_hyphen_values = true,
          value_parser = num::float(ERROR_RATE))]
    pub beta: f64,
    /// Scale of elo0/elo1: logistic (score per game) or normalized (t-value, fishtest's default)
    #[arg(long, default_value = "logistic", value_name = "MODEL")]
    pub model: String,
    /// Stop after this many games even if no bound was reached (rounded up to a pair)
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = num::games())]
    pub max_games: u64,
    /// Rules, external engines, seed, threads, output directory
    #[command(flatten)]
    pub study: StudyArgs,
}

/// The outputs: `sprt.csv`, `sprt.svg`, the tournament summaries of the
/// games played, and `run.json` closed with a note on why it stopped.
fn finish(
    out: &Path,
    config: &TournamentConfig,
    state: &SprtState,
    records: &[GameRecord],
) -> CliResult {
    let labels = config.labels();
    write_atomic(&out.join("sprt.csv"), state.csv().as_bytes()).map_err(out_error(out))?;
    let svg = state
        .plot(&labels[0], &labels[1])
        .map_err(|e| CliError::Internal(e.into()))?;
    write_atomic(&out.join("sprt.svg"), svg.as_bytes()).map_err(out_error(out))?;
    // Games past the deciding pair (none, since the test stops there) are
    // left out, so the summaries describe exactly the games the test used.
    let used: Vec<GameRecord> = records
        .iter()
        .filter(|r| r.game < state.games())
        .copied()
        .collect();
    write_report(out, &Report::new(&labels, &config.schedule(), &used)).map_err(out_error(out))?;
    let mut info = RunFile::load(out).map_err(out_error(out))?;
    if info.end_time.is_none() || state.decision() != Decision::Continue {
        info.end_time = Some(utc_now());
    }
    let note = format!(
        "sprt: {} after {} games (llr {:.3})",
        state.decision().verdict(),
        state.games(),
        state.llr()
    );
    if !info.notes.contains(&note) {
        info.notes.push(note);
    }
    info.save(out).map_err(out_error(out))
}

/// The test an `sprt` command line asks for, checked: its hypotheses,
/// error rates and model.
///
/// # Errors
/// A usage error naming the option.
fn sprt_test(a: &SprtArgs) -> CliResult<SprtConfig> {
    let model: EloModel = a
        .model
        .parse()
        .map_err(|e| usage(format!("--model: {e}")))?;
    let test = SprtConfig {
        elo0: a.elo0,
        elo1: a.elo1,
        alpha: a.alpha,
        beta: a.beta,
        model,
    };
    test.validate().map_err(|e| usage(e.0))?;
    Ok(test)
}

/// The games an `sprt` command line asks for, checked: the gauntlet of
/// `--a` against `--b` (relabelled when the two are the same bot) up to
/// `--max-games`.
///
/// # Errors
/// A usage error naming the option.
fn gauntlet(a: &SprtArgs, catalog: &Catalog) -> CliResult<TournamentConfig> {
    let rules = a.study.rules.to_rules()?;
    let bot_a = catalog
        .parse_unattended(&a.a)
        .map_err(|e| usage(format!("--a: {e}")))?;
    let mut bot_b = catalog
        .parse_unattended(&a.b)
        .map_err(|e| usage(format!("--b: {e}")))?;
    if bot_b.label() == bot_a.label() {
        // A self-test (e.g. random against random): tell the two apart.
        bot_b = relabel(&bot_b, &format!("{}-b", bot_b.label()), catalog)
            .map_err(|e| usage(format!("--b: {e}")))?;
    }
    let config = TournamentConfig {
        bots: vec![bot_a, bot_b],
        games_per_pairing: a.max_games,
        rules: rules.clone(),
        format: Format::Gauntlet,
        seed: a.study.run.seed,
        threads: threads(a.study.run.threads)?,
        shard: Shard::ALL,
        openings: a.study.openings.load(&rules)?,
    };
    config.validate(catalog).map_err(cli_error)?;
    Ok(config)
}

/// The options `run.json` records of an `sprt` run, compared on
/// `--resume`.
fn sprt_options(
    a: &SprtArgs,
    config: &TournamentConfig,
    model: impl std::fmt::Display,
) -> RunOptions {
    let mut options = RunOptions::new();
    options
        .add("--a", config.bots[0].as_str())
        .add("--b", config.bots[1].as_str())
        .add("--elo0", a.elo0)
        .add("--elo1", a.elo1)
        .add("--alpha", a.alpha)
        .add("--beta", a.beta)
        .add("--model", model)
        .add("--max-games", a.max_games);
    rules_options(&mut options, &config.rules);
    openings_options(&mut options, config.openings.as_ref());
    a.study.engine.options(&mut options);
    options.add("--seed", a.study.run.seed);
    options
}

/// Runs `sprt`.
///
/// # Errors
/// Bad arguments (exit 2) before any game; I/O failures (exit 1); an
/// interruption (exit 130).
pub fn run(a: SprtArgs) -> CliResult {
    let test = sprt_test(&a)?;
    let catalog = a.study.engine.catalog()?;
    let config = gauntlet(&a, &catalog)?;
    let model = test.model;
    let out = a
        .study
        .run
        .out_dir(|| PathBuf::from("results").join(format!("sprt-{}", utc_stamp())))?;
    let labels = config.labels();
    let (lower, upper) = test.bounds();
    let options = sprt_options(&a, &config, model);
    let run = a.study.dir_run("sprt", &config, options, &catalog, &out);
    // The directory, the recorded options and the rows are checked before
    // anything is printed.
    check_dir(&run).map_err(out_error(&out))?;
    if !a.study.run.quiet {
        eprintln!(
            "sprt: {} vs {}, elo0={} elo1={} ({}), alpha={} beta={}, bounds [{lower:.3}, {upper:.3}], at most {} games{}, seed {}, out {}",
            labels[0],
            labels[1],
            a.elo0,
            a.elo1,
            model,
            a.alpha,
            a.beta,
            config.schedule().games_per_pairing(),
            super::common::openings_note(config.openings.as_ref()),
            a.study.run.seed,
            out.display()
        );
    }
    // The status on stderr every two seconds while games run.
    let quiet = a.study.run.quiet;
    let mut last = Instant::now();
    let mut show = |s: &SprtState| {
        if !quiet && last.elapsed() >= Duration::from_secs(2) {
            last = Instant::now();
            eprintln!("{}", s.status_line());
        }
    };
    let mut obs = SprtObserver {
        state: SprtState::new(test),
        records: Vec::new(),
        on_game: &mut show,
    };
    // A resumed test that had already decided plays nothing more: replaying
    // its rows gives the same decision, and one more game would be a game
    // the test never asked for.
    let games_csv = out.join("games.csv");
    let mut decided_before = false;
    if a.study.run.resume && games_csv.exists() {
        let schedule = config.schedule();
        let expected: Vec<u64> = (0..schedule.len()).collect();
        let file =
            check_games_and_moves(&games_csv, &labels, &schedule, &expected).map_err(cli_error)?;
        let mut probe = SprtState::new(test);
        for (r, _) in &file.rows {
            probe.add_game(r).map_err(cli_error)?;
        }
        if probe.decision() != Decision::Continue {
            decided_before = true;
            obs.records = file.rows.iter().map(|(r, _)| *r).collect();
            obs.state = probe;
        }
    }
    if !decided_before {
        install_cancel(run_interrupt_note(&out));
        let result = run_in_dir(&run, &CANCEL, &mut obs);
        match result {
            Ok(_) => {}
            Err(ArenaError::Interrupted { .. }) if obs.state.decision() != Decision::Continue => {}
            Err(ArenaError::Interrupted { done, total }) => {
                return Err(CliError::Interrupted(format!(
                    "interrupted after {done} of at most {total} games; continue with the same command plus --resume --out {}",
                    out.display()
                )));
            }
            Err(e) => return Err(out_error(&out)(e)),
        }
    }
    let state = obs.state.clone();
    finish(&out, &config, &state, &obs.records)?;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", state.status_line());
    let _ = writeln!(stdout, "{}", state.decision().verdict());
    super::common::name_picked_dir(&out, a.study.run.quiet, a.study.run.out.is_none());
    Ok(())
}
