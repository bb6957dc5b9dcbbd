//! `pahtum accuracy`: a bot's moves on a suite of positions against perfect
//! play (docs/CONTRACT.md, `accuracy` outputs; the suite format is in
//! [`crate::judge::accuracy`]).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::common::{
    CANCEL, CommonRunArgs, EngineArgs, RowsError, TableArgs, install_cancel, open_run, save_run,
    terminal_bar, threads,
};
use super::error::{CliError, CliResult, usage};
use super::error::{cli_error, out_error};
use super::num;
use crate::arena::rundir::prepare_out;
use crate::arena::runinfo::{utc_now, utc_stamp, write_atomic};
use crate::arena::runopts::RunOptions;
use crate::game::outcome::Komi;
use crate::game::position::Position;
use crate::judge::accuracy::{
    AccuracyError, AccuracyRow, Mover, SuitePosition, csv_line, judge_in_order, parse_suite,
    suite_text, summary_line,
};
use crate::judge::ordered::SolverThreads;
use crate::solve::{Solution, SolveError, SolveLimits};

/// Positions with more free squares than this are refused unless
/// `--max-empty` says otherwise: a position without a stored value is
/// solved, and a move off the best margin costs a solve one square
/// smaller.
pub const DEFAULT_MAX_EMPTY: u32 = 24;

/// Arguments of `accuracy`.
#[derive(Args, Debug)]
pub struct AccuracyArgs {
    /// The bot judged, a spec like mcts:iters=2000
    #[arg(long, value_name = "SPEC", required_unless_present = "played")]
    pub bot: Option<String>,
    /// Judge the move each position's header records (`; move=SQ`) instead of a bot's
    #[arg(long, conflicts_with = "bot")]
    pub played: bool,
    /// Suite file: boards (docs/RULES.md text), each optionally after `;` header lines
    #[arg(long, value_name = "FILE")]
    pub positions: PathBuf,
    /// Refuse positions with more free squares than this
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_EMPTY,
          allow_negative_numbers = true, value_parser = num::int::<u32>(1, 64))]
    pub max_empty: u32,
    /// The solver's table
    #[command(flatten)]
    pub table: TableArgs,
    /// Seed (of the bot's stream, derived per position), threads (positions judged in parallel), output directory, quiet
    #[command(flatten)]
    pub run: CommonRunArgs,
    /// External engines the judged bot may be
    #[command(flatten)]
    pub engines: EngineArgs,
}

/// Why the judging loop stopped.
type AccuracyRunError = RowsError<AccuracyError>;

/// The suite of `--positions`, checked: its text, its entries and their
/// positions, each with a move to judge, within `--max-empty`, and with a
/// played move under `--played`. Also the file's name, as messages give it.
///
/// # Errors
/// A usage error naming the file, line and column.
fn read_suite(a: &AccuracyArgs) -> CliResult<(String, Vec<SuitePosition>, Vec<Position>)> {
    let source = a.positions.display().to_string();
    let bytes = std::fs::read(&a.positions)
        .map_err(|e| usage(format!("--positions {source}: cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = upto.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        usage(format!("{source}:{line}:{column}: not UTF-8 text"))
    })?;
    let entries = parse_suite(&text)
        .map_err(|e| usage(format!("{source}:{}:{}: {}", e.line, e.column, e.message)))?;
    let mut positions = Vec::with_capacity(entries.len());
    for e in &entries {
        let at = format!("{source}:{}:1", e.line);
        let pos = e
            .board
            .to_position(false, Komi::ZERO)
            .map_err(|err| usage(format!("{at}: {err}")))?;
        if pos.is_game_over() {
            return Err(usage(format!(
                "{at}: the game is over; there is no move to judge"
            )));
        }
        let empty = pos.empty().count();
        if empty > a.max_empty {
            return Err(usage(format!(
                "{at}: {empty} empty squares, more than --max-empty {} (raise it to judge anyway)",
                a.max_empty
            )));
        }
        if a.played && e.played.is_none() {
            return Err(usage(format!(
                "{at}: --played needs a `; move=SQ` header here"
            )));
        }
        positions.push(pos);
    }
    Ok((source, entries, positions))
}

/// Writes `accuracy.csv`'s header at `csv` in `out` and opens it to
/// append the rows to come.
///
/// # Errors
/// A usage error naming `--out`.
fn open_csv(csv: &Path, out: &Path) -> CliResult<File> {
    write_atomic(
        csv,
        format!("{}\n", crate::judge::accuracy::header()).as_bytes(),
    )
    .map_err(out_error(out))?;
    OpenOptions::new().append(true).open(csv).map_err(|e| {
        usage(format!(
            "--out {}: cannot open accuracy.csv: {e}",
            out.display()
        ))
    })
}

/// What the end of judging means for the command, `judged` of `total`
/// positions done: an I/O failure, an interrupt (before the first row, the
/// run's files removed, and the directory `out` too unless it `existed`),
/// a stored move that is not legal in `source`, or on to the summary.
fn judging_ended(
    result: Result<usize, AccuracyRunError>,
    judged: usize,
    total: usize,
    (out, existed): (&Path, bool),
    source: &str,
) -> CliResult {
    let interrupted = CANCEL.load(std::sync::atomic::Ordering::Relaxed);
    match result {
        Err(AccuracyRunError::Io(e)) => Err(usage(format!(
            "--out {}: cannot write accuracy.csv: {e}",
            out.display()
        ))),
        Err(AccuracyRunError::Work(AccuracyError::Solve(SolveError::Interrupted))) | Ok(_)
            if interrupted && judged == 0 =>
        {
            // Nothing judged: a header alone is no result, and the run
            // cannot be resumed, so what it wrote would only be in the way
            // of the same command again.
            let _ = std::fs::remove_file(out.join("accuracy.csv"));
            let _ = std::fs::remove_file(out.join("run.json"));
            if !existed {
                let _ = std::fs::remove_dir(out);
            }
            Err(CliError::Interrupted(format!(
                "interrupted before the first of {} positions was judged; nothing written",
                total
            )))
        }
        Err(AccuracyRunError::Work(AccuracyError::Solve(SolveError::Interrupted))) | Ok(_)
            if interrupted =>
        {
            Err(CliError::Interrupted(format!(
                "interrupted after {} of {} positions; accuracy.csv in {} holds them",
                judged,
                total,
                out.display()
            )))
        }
        Err(AccuracyRunError::Work(e @ AccuracyError::Stored(..))) => {
            Err(usage(format!("{source}: {e}")))
        }
        Err(AccuracyRunError::Work(e)) => Err(CliError::Internal(anyhow::anyhow!("{e}"))),
        Ok(_) => Ok(()),
    }
}

/// Runs `accuracy`: every input checked first, then `accuracy.csv`
/// streamed in suite order, `solved.txt` (the suite with every value) and
/// the summary line.
///
/// # Errors
/// Bad arguments or input (exit 2) before any work; an interrupt (exit
/// 130); a stored value the solver contradicts (exit 2, naming it).
pub fn run(a: AccuracyArgs) -> CliResult {
    let threads = threads(a.run.threads)?;
    let catalog = a.engines.catalog()?;
    let spec = match &a.bot {
        Some(s) => Some(
            catalog
                .parse_unattended(s)
                .map_err(|e| usage(format!("--bot: {e}")))?,
        ),
        None => None,
    };
    if let Some(spec) = &spec {
        super::common::no_clock(
            spec,
            "--bot",
            "accuracy judges single positions",
            super::common::ANY_BUDGET,
        )?;
    }
    let (source, entries, positions) = read_suite(&a)?;
    let out = a
        .run
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(format!("accuracy-{}", utc_stamp())));
    let mut options = RunOptions::new();
    options
        .add("--bot", a.bot.as_deref().unwrap_or("(played)"))
        .add("--positions", &source)
        .add("--seed", a.run.seed)
        .add("--max-empty", a.max_empty);
    a.engines.options(&mut options);
    // accuracy has no --resume, so its refusal must not suggest one.
    if crate::arena::rundir::is_non_empty(&out) {
        return Err(usage(format!(
            "--out {}: directory is not empty; accuracy starts in a new or empty directory",
            out.display()
        )));
    }
    let (mut info, _) = open_run(&out, "accuracy", options, threads, false)?;
    // The run starts in an absent or empty directory (open_run refuses
    // any other): an interrupt before the first row can leave it so.
    let existed = out.is_dir();
    prepare_out(&out).map_err(cli_error)?;
    save_run(&info, &out)?;
    let csv = out.join("accuracy.csv");
    let mut file = open_csv(&csv, &out)?;
    if !a.run.quiet {
        eprintln!(
            "accuracy: {}, {} positions, {threads} threads, out {}",
            a.bot.as_deref().unwrap_or("the moves played"),
            entries.len(),
            out.display()
        );
    }
    install_cancel("stopping; the rows in accuracy.csv stand");
    let bar = terminal_bar(
        a.run.quiet,
        "{spinner} [{elapsed_precise}] {pos}/{len} positions, ETA {eta}",
        0,
        entries.len() as u64,
    );
    let mover = match &spec {
        Some(s) => Mover::Bot(&catalog, s, a.run.seed),
        None => Mover::Played,
    };
    let mut rows: Vec<AccuracyRow> = Vec::with_capacity(entries.len());
    let mut solved: Vec<Option<Solution>> = Vec::with_capacity(entries.len());
    let result = judge_in_order::<AccuracyRunError>(
        &entries,
        &positions,
        &mover,
        &SolveLimits::default(),
        SolverThreads {
            threads,
            tt_mb: a.table.tt_mb,
            stop: &CANCEL,
        },
        |row, sol| {
            file.write_all(csv_line(&row).as_bytes())
                .and_then(|()| file.flush())
                .map_err(AccuracyRunError::Io)?;
            bar.inc(1);
            rows.push(row);
            solved.push(sol);
            Ok(())
        },
    );
    bar.abandon();
    drop(file);
    judging_ended(result, rows.len(), entries.len(), (&out, existed), &source)?;
    // Judging recorded moves leaves positions without their move lists:
    // then there is no solved suite to write.
    if let Some(solved) = solved.into_iter().collect::<Option<Vec<Solution>>>() {
        write_atomic(
            &out.join("solved.txt"),
            suite_text(&entries, &solved).as_bytes(),
        )
        .map_err(out_error(&out))?;
    }
    info.end_time = Some(utc_now());
    save_run(&info, &out)?;
    println!("{}", summary_line(&rows));
    super::common::name_picked_dir(&out, a.run.quiet, a.run.out.is_none());
    Ok(())
}
