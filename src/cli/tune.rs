//! `pahtum tune`: SPSA over several keys of one bot at once
//! (docs/CONTRACT.md, "tune outputs"); `tune.csv`, `tune.svg`, and the
//! tuned spec as the last line, optionally gated by an SPRT against the
//! start.

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::ProgressBar;

use super::common::{
    CANCEL, CommonRunArgs, StudyArgs, StudyRunArgs, install_cancel, open_run, openings_options,
    rules_options, run_interrupt_note, save_run, styled_bar, threads,
};
use super::error::{CliError, CliResult, usage};
use super::error::{cli_error, out_error};
use super::num;
use crate::arena::progress::{LINE_INTERVAL, ProgressMode, short_duration};
use crate::arena::rundir::prepare_out;
use crate::arena::runinfo::{RunFile, utc_now, utc_stamp, write_atomic};
use crate::arena::runopts::RunOptions;
use crate::arena::tournament::ArenaError;
use crate::bot::{BotSpec, Catalog};
use crate::game::rules::Rules;
use crate::study::spsa::{Spsa, SpsaParam, SpsaSettings, value_text};
use crate::study::tune::{Tune, TuneRow, Tuner, param_text, parse_param};
use crate::study::tune_csv::{header, replay, row_text, tune_svg};

/// What `--alpha` and `--gamma` accept.
const EXPONENT: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 10.0,
    lo_open: false,
    hi_open: false,
};

/// What `--c-end` accepts: a share of a range.
const SHARE: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 1.0,
    lo_open: true,
    hi_open: false,
};

/// What `--coarse` accepts: a share of the pairs, leaving some to the
/// fine phase.
const COARSE: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 0.9,
    lo_open: false,
    hi_open: false,
};

/// What `--r-end` accepts.
const RATE: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 1e6,
    lo_open: true,
    hi_open: false,
};

/// Arguments of `tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The bot whose keys are tuned; its values are the start (else the keys' defaults)
    #[arg(long, value_name = "SPEC")]
    pub bot: String,
    /// A tuned key and its range, optionally its own c_end and r_end (repeat for more keys)
    #[arg(
        long = "param",
        value_name = "KEY=LO..HI[:C_END:R_END]",
        required = true
    )]
    pub params: Vec<String>,
    /// A fixed opponent: θ+ and θ− each play a pair against it instead of each other
    #[arg(long, value_name = "SPEC")]
    pub vs: Option<String>,
    /// SPSA iterations, each one colour-swapped pair (two with --vs)
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = num::int::<u64>(1, 100_000_000))]
    pub pairs: u64,
    /// Decay exponent of the learning rate (fishtest's alpha)
    #[arg(long, default_value_t = 0.602, allow_hyphen_values = true, value_parser = num::float(EXPONENT))]
    pub alpha: f64,
    /// Decay exponent of the perturbation (fishtest's gamma)
    #[arg(long, default_value_t = 0.101, allow_hyphen_values = true, value_parser = num::float(EXPONENT))]
    pub gamma: f64,
    /// The last perturbation, as a share of each key's range
    #[arg(long, default_value_t = 0.05, allow_hyphen_values = true, value_parser = num::float(SHARE))]
    pub c_end: f64,
    /// The last learning rate (fishtest's r_end = a_end / c_end^2)
    #[arg(long, default_value_t = 0.002, allow_hyphen_values = true, value_parser = num::float(RATE))]
    pub r_end: f64,
    /// Share of the pairs run first as a coarse phase, for a start far from the optimum: twice the perturbation, and steps sized from the pairs and each key's range (0: fishtest's gains alone)
    #[arg(long, default_value_t = 0.0, value_name = "SHARE", allow_hyphen_values = true, value_parser = num::float(COARSE))]
    pub coarse: f64,
    /// At the end, an SPRT of the tuned spec against the start (ELO0,ELO1, e.g. 0,5)
    #[arg(long, value_name = "ELO0,ELO1", allow_hyphen_values = true)]
    pub then_sprt: Option<String>,
    /// Most games of the --then-sprt test
    #[arg(long, default_value_t = 4000, value_name = "N", allow_negative_numbers = true,
          value_parser = num::games())]
    pub sprt_max_games: u64,
    /// Rules, external engines, seed, threads, output directory
    #[command(flatten)]
    pub study: StudyArgs,
}

/// Parses `--then-sprt ELO0,ELO1`.
fn parse_then_sprt(s: &str) -> CliResult<(f64, f64)> {
    let bad = || {
        usage(format!(
            "--then-sprt {s}: expected ELO0,ELO1 with ELO0 < ELO1, e.g. 0,5"
        ))
    };
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let a: f64 = a.trim().parse().map_err(|_| bad())?;
    let b: f64 = b.trim().parse().map_err(|_| bad())?;
    if !(a.is_finite() && b.is_finite() && a < b) {
        return Err(bad());
    }
    Ok((a, b))
}

/// Shows the tune's progress: a bar with the ETA and θ on a terminal,
/// a line every few seconds otherwise.
struct Display {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    last: Instant,
    start: Instant,
    resumed: u64,
    total: u64,
}

impl Display {
    fn new(mode: ProgressMode, done: u64, total: u64) -> Display {
        let bar = (mode == ProgressMode::Bar).then(|| {
            styled_bar(
                "{bar:30} {pos}/{len} pairs {per_sec} ETA {eta} θ {msg}",
                done,
                total,
            )
        });
        Display {
            mode,
            bar,
            last: Instant::now(),
            start: Instant::now(),
            resumed: done,
            total,
        }
    }

    fn update(&mut self, done: u64, theta: &str) {
        if let Some(b) = &self.bar {
            b.set_position(done);
            b.set_message(theta.to_string());
        } else if self.mode == ProgressMode::Lines && self.last.elapsed() >= LINE_INTERVAL {
            self.last = Instant::now();
            let (_, eta) =
                crate::arena::progress::pace(done, self.resumed, self.total, self.start.elapsed());
            eprintln!(
                "tune: {done}/{} pairs, ETA {}, θ {theta}",
                self.total,
                eta.map_or("?".into(), short_duration)
            );
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// θ as the display shows it: `key=value` for each tuned key.
fn theta_text(tuner: &Tuner) -> String {
    let p = &tuner.spsa.params;
    p.iter()
        .zip(tuner.spsa.theta())
        .map(|(p, &v)| format!("{}={}", p.key, value_text(v, false)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes `tune.svg` for the rows so far.
fn write_svg(out: &Path, tuner: &Tuner, rows: &[TuneRow], bot: &str) -> CliResult {
    let svg = tune_svg(&tuner.spsa.params, rows, bot).map_err(|e| CliError::Internal(e.into()))?;
    write_atomic(&out.join("tune.svg"), svg.as_bytes()).map_err(out_error(out))
}

/// The `--param` keys to tune, each checked, none given twice.
///
/// # Errors
/// A usage error naming the `--param` value.
fn tuned_params(a: &TuneArgs, base: &BotSpec, catalog: &Catalog) -> CliResult<Vec<SpsaParam>> {
    let mut params = Vec::new();
    for arg in &a.params {
        let p = parse_param(arg, base, catalog, a.c_end, a.r_end).map_err(usage)?;
        if params.iter().any(|q: &SpsaParam| q.key == p.key) {
            return Err(usage(format!("--param {arg}: key '{}' given twice", p.key)));
        }
        params.push(p);
    }
    Ok(params)
}

/// The note of a run whose bots (`base`, `vs`) are bounded by time: its
/// games are not replayable.
///
/// # Errors
/// A bot that cannot be built (a usage error).
fn timed_note(
    catalog: &Catalog,
    base: &BotSpec,
    vs: Option<&BotSpec>,
) -> CliResult<Option<String>> {
    let mut timed = Vec::new();
    for spec in std::iter::once(base).chain(vs) {
        let bot = catalog
            .build(spec, 0)
            .map_err(|e| usage(format!("--bot: {e}")))?;
        if bot.is_timed() || spec.params.iter().any(|(k, _)| k == "tc") {
            timed.push(spec.label());
        }
    }
    Ok((!timed.is_empty()).then(|| {
        format!(
            "not replayable: bots bounded by time ({}) play differently from run to run",
            timed.join(", ")
        )
    }))
}

/// The options `run.json` records of a `tune` run.
fn run_options(
    a: &TuneArgs,
    (base, vs): (&BotSpec, Option<&BotSpec>),
    params: &[SpsaParam],
    rules: &[Rules],
) -> RunOptions {
    let mut options = RunOptions::new();
    let param_texts: Vec<String> = params.iter().map(param_text).collect();
    options
        .add("--bot", base.as_str())
        .add_list("--param", &param_texts)
        .add("--vs", vs.map_or("(none)", |v| v.as_str()))
        .add("--pairs", a.pairs)
        .add("--alpha", a.alpha)
        .add("--gamma", a.gamma);
    // Recorded only when set, so that runs from before the option resume.
    if a.coarse > 0.0 {
        options.add("--coarse", a.coarse);
    }
    rules_options(&mut options, rules);
    a.study.engine.options(&mut options);
    options.add("--seed", a.study.run.seed);
    options
}

/// The SPRT of `--then-sprt` (bounds `elo0`, `elo1`): the `tuned` spec
/// against the `start` one, in `out/sprt`, resumed when it holds a run.
///
/// # Errors
/// The SPRT's.
fn then_sprt_run(
    a: &TuneArgs,
    out: &Path,
    (tuned, start): (&str, &str),
    (elo0, elo1): (f64, f64),
) -> CliResult {
    let dir = out.join("sprt");
    let sprt = super::sprt::SprtArgs {
        a: tuned.to_string(),
        b: start.to_string(),
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model: "logistic".into(),
        max_games: a.sprt_max_games,
        study: StudyArgs {
            rules: a.study.rules.clone(),
            openings: a.study.openings.clone(),
            engine: a.study.engine.clone(),
            run: StudyRunArgs {
                resume: crate::arena::rundir::is_non_empty(&dir),
                base: CommonRunArgs {
                    out: Some(dir),
                    ..a.study.run.base.clone()
                },
            },
        },
    };
    super::sprt::run(sprt)
}

/// The rows of `tune.csv` at `csv` that a resumed run keeps, replayed
/// into `tuner` (a torn last line dropped).
///
/// # Errors
/// A usage error naming the file (and line).
fn kept_rows(csv: &Path, tuner: &mut Tuner) -> CliResult<Vec<TuneRow>> {
    let text =
        std::fs::read_to_string(csv).map_err(|e| usage(format!("{}: {e}", csv.display())))?;
    replay(&text, tuner).map_err(|e| usage(format!("{}:{e}", csv.display())))
}

/// Writes the kept `rows` back to `tune.csv` at `csv` in `out` whole (a
/// torn last line dropped) and opens it to append each batch as it ends.
///
/// # Errors
/// An I/O error naming `--out`.
fn rewrite_rows(csv: &Path, out: &Path, params: &[SpsaParam], rows: &[TuneRow]) -> CliResult<File> {
    let mut text = header(params);
    for r in rows {
        text.push_str(&row_text(params, r));
    }
    write_atomic(csv, text.as_bytes()).map_err(out_error(out))?;
    std::fs::OpenOptions::new()
        .append(true)
        .open(csv)
        .map_err(|e| out_error(out)(ArenaError::io(csv, e)))
}

/// Adds `note` to the run's notes unless a resumed run has it already.
fn add_note(info: &mut RunFile, note: String) {
    if !info.notes.contains(&note) {
        info.notes.push(note);
    }
}

/// The run's first line on stderr.
fn announce(
    a: &TuneArgs,
    keys: usize,
    (base, vs): (&BotSpec, Option<&BotSpec>),
    threads: usize,
    out: &Path,
) {
    eprintln!(
        "tune: {} keys of {} over {} pairs{}, seed {}, {} threads, out {}",
        keys,
        base.label(),
        a.pairs,
        vs.map_or(String::new(), |v| format!(" against {}", v.label())),
        a.study.run.seed,
        threads,
        out.display()
    );
}

/// The `--bot` to tune and the `--vs` it plays (itself when absent).
fn tuned_bots(a: &TuneArgs, catalog: &Catalog) -> CliResult<(BotSpec, Option<BotSpec>)> {
    let base = catalog
        .parse_unattended(&a.bot)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    let vs =
        a.vs.as_deref()
            .map(|v| catalog.parse_unattended(v))
            .transpose();
    Ok((base, vs.map_err(|e| usage(format!("--vs: {e}")))?))
}

/// Runs `tune`.
///
/// # Errors
/// Bad arguments (exit 2) before any game; I/O failures (exit 1); an
/// interruption (exit 130).
pub fn run(a: TuneArgs) -> CliResult {
    let catalog = a.study.engine.catalog()?;
    let rules = a.study.rules.to_rules()?;
    let (base, vs) = tuned_bots(&a, &catalog)?;
    let params = tuned_params(&a, &base, &catalog)?;
    let then_sprt = a.then_sprt.as_deref().map(parse_then_sprt).transpose()?;
    let threads = threads(a.study.run.threads)?;
    let openings = a.study.openings.load(&rules)?;
    let tune = Tune {
        base: base.clone(),
        vs: vs.clone(),
        rules: rules.clone(),
        seed: a.study.run.seed,
        openings: openings.as_ref().map(|o| o.suite.clone()),
    };
    let settings = SpsaSettings {
        iterations: a.pairs,
        alpha: a.alpha,
        gamma: a.gamma,
        coarse: a.coarse,
    };
    let mut tuner = Tuner::new(Spsa::new(params.clone(), settings), a.study.run.seed);
    let timed_note = timed_note(&catalog, &base, vs.as_ref())?;
    let out = a
        .study
        .run
        .out_dir(|| PathBuf::from("results").join(format!("tune-{}", utc_stamp())))?;
    let mut options = run_options(&a, (&base, vs.as_ref()), &params, &rules);
    openings_options(&mut options, openings.as_ref());
    let (mut info, resumed) = open_run(&out, "tune", options, threads, a.study.run.resume)?;
    // The kept rows are checked before anything is printed or written.
    let csv = out.join("tune.csv");
    let mut rows = if resumed && csv.exists() {
        kept_rows(&csv, &mut tuner)?
    } else {
        Vec::new()
    };
    prepare_out(&out).map_err(cli_error)?;
    if let Some(note) = timed_note {
        add_note(&mut info, note);
    }
    save_run(&info, &out)?;
    let mut file = rewrite_rows(&csv, &out, &params, &rows)?;
    if !a.study.run.quiet {
        announce(&a, params.len(), (&base, vs.as_ref()), threads, &out);
    }
    install_cancel(run_interrupt_note(&out));
    let mut display = Display::new(ProgressMode::detect(a.study.run.quiet), tuner.next, a.pairs);
    let mut last_svg = Instant::now();
    while tuner.next < a.pairs {
        let ks = tuner.next..tuner.batch_end();
        let results = match tune.play_batch(&catalog, &tuner, ks, threads, &CANCEL) {
            Ok(r) => r,
            Err(ArenaError::Interrupted { done, total }) => {
                display.finish();
                write_svg(&out, &tuner, &rows, &base.label())?;
                return Err(CliError::Interrupted(format!(
                    "interrupted after {done} of {total} pairs; continue with the same command plus --resume --out {}",
                    out.display()
                )));
            }
            Err(ArenaError::Config(m)) => return Err(usage(m)),
            Err(e) => return Err(out_error(&out)(e)),
        };
        let mut batch = String::new();
        for r in results {
            let row = tuner.record(r);
            batch.push_str(&row_text(&params, &row));
            rows.push(row);
        }
        file.write_all(batch.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| out_error(&out)(ArenaError::io(&csv, e)))?;
        display.update(tuner.next, &theta_text(&tuner));
        if last_svg.elapsed() >= Duration::from_secs(30) {
            last_svg = Instant::now();
            write_svg(&out, &tuner, &rows, &base.label())?;
        }
    }
    display.finish();
    write_svg(&out, &tuner, &rows, &base.label())?;
    let tuned = tune.spec_text(&params, &tuner.spsa.rounded());
    catalog
        .parse(&tuned)
        .map_err(|e| CliError::Internal(anyhow::anyhow!("tuned spec {tuned}: {e}")))?;
    add_note(&mut info, format!("tuned={tuned}"));
    info.end_time = Some(utc_now());
    save_run(&info, &out)?;
    if let Some(bounds) = then_sprt {
        then_sprt_run(&a, &out, (&tuned, base.as_str()), bounds)?;
    }
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "tuned={tuned}");
    super::common::name_picked_dir(&out, a.study.run.quiet, a.study.run.out.is_none());
    Ok(())
}
