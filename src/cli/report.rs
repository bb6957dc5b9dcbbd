//! `pahtum report`: run directories as one self-contained HTML page
//! (`view::page`), with `--review` reviewing some of their games first.

use std::path::{Path, PathBuf};

use clap::Args;

use super::common::install_cancel;
use super::error::{CliError, CliResult, usage};
use super::num;
use super::review::{ReviewJob, check_run_games, holds_review, review_run_game};
use crate::arena::rundir::is_non_empty;
use crate::csv_rows;
use crate::judge::review::ReviewCsvRow;
use crate::view::page::run::review_csv;
use crate::view::page::{self, PageError, RunData};

/// The games `--review` reviews in each directory when none are named: a
/// review searches and solves every position of its game, so reviewing
/// all of a large run would take hours (experiments/report-speed), while
/// the first few get their graphs at once.
pub const DEFAULT_REVIEW_MAX: u64 = 10;

/// Arguments of `report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run directories (tournament, merge, sweep, sprt, fpa, exact, tune,
    /// accuracy); several are compared side by side
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where to write the page [default: DIR/report.html of the first DIR]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// First review games that have no review yet, as `pahtum review DIR --game N` does with its defaults (DIR/review-N/review.csv): those of --review-game, else the first --review-max of each tournament
    #[arg(long)]
    pub review: bool,
    /// With --review: the games to review (their `game` values), like 3,17
    #[arg(long, value_name = "N,...", value_delimiter = ',', requires = "review",
          allow_negative_numbers = true, value_parser = num::seed())]
    pub review_game: Vec<u64>,
    /// With --review and no --review-game: review at most N games of each tournament, in game order
    #[arg(long, value_name = "N", default_value_t = DEFAULT_REVIEW_MAX, requires = "review",
          allow_negative_numbers = true, value_parser = num::int::<u64>(0, 10_000_000))]
    pub review_max: u64,
}

/// Reads each run; a `games.csv` is checked row by row against the games'
/// replays, and each review's `review.csv` against its columns, so a
/// damaged file is refused by file and line rather than shown.
fn read_runs(dirs: &[PathBuf]) -> CliResult<Vec<RunData>> {
    let runs = dirs
        .iter()
        .map(|d| RunData::read(d))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| match e {
            PageError::Unrecognised { .. } => usage(e.to_string()),
            e => CliError::Internal(anyhow::Error::new(e)),
        })?;
    for run in runs.iter().filter(|r| r.games.is_some()) {
        check_run_games(&run.dir)?;
        for review in &run.reviews {
            let path = review_csv(&run.dir, review.game);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| usage(format!("{}: cannot read: {e}", path.display())))?;
            csv_rows::parse::<ReviewCsvRow>(&text)
                .map_err(|(line, m)| usage(format!("{} line {line}: {m}", path.display())))?;
        }
    }
    Ok(runs)
}

/// The games of `run` that `--review` reviews: the named ones it has, or
/// the first `max`; in both cases only those without a review.
fn to_review(run: &RunData, named: &[u64], max: u64) -> Vec<u64> {
    let Some(games) = &run.games else {
        return Vec::new();
    };
    let at = games.column("game").unwrap_or(0);
    let all = games.rows.iter().filter_map(|r| r[at].parse::<u64>().ok());
    let picked: Vec<u64> = if named.is_empty() {
        all.take(usize::try_from(max).unwrap_or(usize::MAX))
            .collect()
    } else {
        all.filter(|g| named.contains(g)).collect()
    };
    picked
        .into_iter()
        .filter(|&g| !holds_review(&review_dir(&run.dir, g)))
        .collect()
}

/// Where `pahtum review DIR --game N` writes game `N`'s review.
fn review_dir(dir: &Path, game: u64) -> PathBuf {
    review_csv(dir, game)
        .parent()
        .map_or_else(|| dir.to_path_buf(), Path::to_path_buf)
}

/// Reviews what `--review` asks for in each run; whether any review was
/// written.
fn review_games(runs: &[RunData], a: &ReportArgs) -> CliResult<bool> {
    if !runs.iter().any(|r| r.games.is_some()) {
        return Err(usage("--review: no directory given has a games.csv"));
    }
    for &g in &a.review_game {
        let found = runs.iter().any(|r| {
            r.games.as_ref().is_some_and(|t| {
                let at = t.column("game").unwrap_or(0);
                t.rows.iter().any(|row| row[at] == g.to_string())
            })
        });
        if !found {
            return Err(usage(format!(
                "--review-game {g}: no such game in the directories given"
            )));
        }
    }
    let jobs: Vec<(&Path, u64)> = runs
        .iter()
        .flat_map(|r| {
            to_review(r, &a.review_game, a.review_max)
                .into_iter()
                .map(|g| (r.dir.as_path(), g))
        })
        .collect();
    // A directory in the way is found before any review is made: a
    // report never writes into what is not a review's directory.
    for &(dir, game) in &jobs {
        let at = review_dir(dir, game);
        if is_non_empty(&at) || at.is_file() {
            return Err(usage(format!(
                "--review: {} is in the way of game {game}'s review: it holds something else than a review; move it away",
                at.display()
            )));
        }
    }
    install_cancel("the reviews written are kept, no report.html is written");
    let job = ReviewJob::defaults();
    for (k, &(dir, game)) in jobs.iter().enumerate() {
        let line = review_run_game(dir, game, &job, true).map_err(|e| match e {
            CliError::Interrupted(_) => CliError::Interrupted(format!(
                "interrupted in the review of game {game}; the {k} reviews written are kept, no report.html written"
            )),
            e => e,
        })?;
        eprintln!(
            "review {}/{}: {} {line}",
            k + 1,
            jobs.len(),
            review_csv(dir, game).display()
        );
    }
    Ok(!jobs.is_empty())
}

/// Builds the page (after the reviews of `--review`) and writes it,
/// through a temporary file renamed into place, so a failed write leaves
/// no half page.
///
/// # Errors
/// A directory that is not a known run (exit 2, naming it), an unwritable
/// `--out` (exit 2), a `--review-game` in no directory (exit 2), an
/// interrupt during the reviews (exit 130, the reviews written kept), any
/// other I/O failure (exit 1).
pub fn run(args: ReportArgs) -> CliResult {
    let mut runs = read_runs(&args.dirs)?;
    if args.review && review_games(&runs, &args)? {
        runs = read_runs(&args.dirs)?;
    } else {
        // Without reviews the page takes moments to build; the handler
        // keeps an interrupt from stopping the write between its
        // temporary file and the rename, which would leave the first.
        install_cancel("no report.html is written");
    }
    let html = page::page(&runs);
    if crate::interrupt::requested() {
        return Err(CliError::Interrupted(
            "interrupted; no report.html written".into(),
        ));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| args.dirs[0].join("report.html"));
    let mut tmp = out.clone().into_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, html).and_then(|()| std::fs::rename(&tmp, &out));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(usage(format!("--out {}: cannot write: {e}", out.display())));
    }
    println!("report={}", out.display());
    Ok(())
}
