//! The rows a resumed `exact` run keeps: each row of `exact.csv` and
//! `versus.csv` checked against the layout (and bot) it stands for.

use std::path::Path;

use crate::cli::error::{CliResult, usage};
use crate::csv_rows;
use crate::game::outcome::Komi;
use crate::game::square::Square;
use crate::judge::exact::{ExactCsvRow, Job, VersusCsvRow, columns, parse_versus_row};

/// The complete rows already in `exact.csv`, each checked against the
/// job it stands for; a torn last line is dropped.
///
/// # Errors
/// A usage error naming the file and line.
pub(in crate::cli) fn read_rows(
    path: &Path,
    pie: bool,
    jobs: &[Job],
) -> CliResult<Vec<ExactCsvRow>> {
    let bytes =
        std::fs::read(path).map_err(|e| usage(format!("{}: cannot read: {e}", path.display())))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        usage(format!(
            "{}: not text (invalid UTF-8 at byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    let bad = |line: usize, m: String| usage(format!("{} line {line}: {m}", path.display()));
    let complete = csv_rows::complete(&text);
    if complete.is_empty() {
        return Ok(Vec::new());
    }
    let parsed =
        csv_rows::parse_as::<ExactCsvRow>(complete, &columns(pie)).map_err(|(l, m)| bad(l, m))?;
    let mut rows = Vec::new();
    for (i, (n, row)) in parsed.into_iter().enumerate() {
        let job = jobs
            .get(i)
            .ok_or_else(|| bad(n, "more rows than this run has layouts".into()))?;
        check_row(&row, job).map_err(|m| bad(n, m))?;
        rows.push(row);
    }
    Ok(rows)
}

/// Whether `f` (a row of `exact.csv` or `versus.csv`) is about `job`'s
/// layout: the same `size,holes,layout,weight`.
fn same_layout(f: (u8, u32, &str, u64), job: &Job) -> bool {
    let e = ExactCsvRow::of_job(job);
    f == (e.size, e.holes, e.layout.as_str(), e.weight)
}

/// Checks a kept row: its layout is the job's, its results agree with its
/// margins, and its moves are free squares of its layout.
fn check_row(f: &ExactCsvRow, job: &Job) -> Result<(), String> {
    if !same_layout((f.size, f.holes, &f.layout, f.weight), job) {
        let e = ExactCsvRow::of_job(job);
        return Err(format!(
            "layout '{}' (weight {}) where this run has '{}' (weight {})",
            f.layout, f.weight, e.layout, e.weight
        ));
    }
    let margin = |s: &str| -> Result<i32, String> {
        s.parse::<Komi>()
            .map(Komi::halves)
            .map_err(|_| format!("margin '{s}' is not a number of points"))
    };
    let m = margin(&f.margin)?;
    let result = match m.signum() {
        1 => "white",
        0 => "draw",
        _ => "black",
    };
    if f.result != result {
        return Err(format!("result {} with margin {}", f.result, f.margin));
    }
    let moves_ok = |s: &str| {
        s.split(' ').all(|m| {
            m.parse::<Square>()
                .is_ok_and(|sq| sq.is_on_board(job.size) && !job.layout.holes.contains(sq))
        })
    };
    if !moves_ok(&f.best_first_moves) {
        return Err(format!(
            "best_first_moves '{}' are not free squares",
            f.best_first_moves
        ));
    }
    if let (Some(pm), Some(pr), Some(first)) = (&f.pie_margin, &f.pie_result, &f.fair_first_moves) {
        let p = margin(pm)?;
        let r = match p.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        if pr != r {
            return Err(format!("pie_result {pr} with pie_margin {pm}"));
        }
        if !moves_ok(first) {
            return Err(format!("fair_first_moves '{first}' are not free squares"));
        }
    }
    Ok(())
}

/// The complete rows already in `versus.csv`, each checked against the
/// layout and bot it stands for (layout by layout, each bot as White then
/// as Black); a torn last line is dropped.
///
/// # Errors
/// A usage error naming the file and line.
pub(in crate::cli) fn read_versus_rows(
    path: &Path,
    jobs: &[Job],
    specs: &[crate::bot::BotSpec],
) -> CliResult<Vec<VersusCsvRow>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| usage(format!("{}: cannot read: {e}", path.display())))?;
    let complete = csv_rows::complete(&text);
    let bad = |line: usize, m: String| usage(format!("{} line {line}: {m}", path.display()));
    if complete.is_empty() {
        return Ok(Vec::new());
    }
    let parsed = csv_rows::parse::<VersusCsvRow>(complete).map_err(|(l, m)| bad(l, m))?;
    let per_layout = 2 * specs.len();
    let mut rows = Vec::new();
    for (i, (n, f)) in parsed.into_iter().enumerate() {
        let job = jobs
            .get(i / per_layout)
            .ok_or_else(|| bad(n, "more rows than this run has games".into()))?;
        let spec = &specs[i % per_layout / 2];
        let colour = if i % 2 == 0 { "white" } else { "black" };
        if !same_layout((f.size, f.holes, &f.layout, f.weight), job)
            || f.bot != spec.label()
            || f.bot_colour != colour
        {
            return Err(bad(
                n,
                format!(
                    "expected the game of {} as {colour} on layout '{}'",
                    spec.label(),
                    ExactCsvRow::of_job(job).layout
                ),
            ));
        }
        parse_versus_row(&f).map_err(|m| bad(n, m))?;
        rows.push(f);
    }
    Ok(rows)
}

/// The rows of a resumed run in `out` to keep: `exact.csv`'s and
/// `versus.csv`'s complete rows, checked ([`read_rows`],
/// [`read_versus_rows`]). A layout is kept only with all its games: the
/// shorter file decides.
///
/// # Errors
/// A usage error naming the file and line.
pub(super) fn kept_rows(
    out: &Path,
    pie: bool,
    jobs: &[Job],
    specs: &[crate::bot::BotSpec],
) -> CliResult<(Vec<ExactCsvRow>, Vec<VersusCsvRow>)> {
    let csv = out.join("exact.csv");
    let vcsv = out.join("versus.csv");
    let per_layout = 2 * specs.len();
    let mut kept = if csv.exists() {
        read_rows(&csv, pie, jobs)?
    } else {
        Vec::new()
    };
    let mut kept_games = Vec::new();
    if per_layout > 0 && vcsv.exists() {
        kept_games = read_versus_rows(&vcsv, jobs, specs)?;
    }
    if let Some(layouts) = kept_games.len().checked_div(per_layout) {
        let layouts = layouts.min(kept.len());
        kept.truncate(layouts);
        kept_games.truncate(layouts * per_layout);
        for (i, g) in kept_games.iter().enumerate() {
            let exact_result = &kept[i / per_layout].result;
            if &g.exact_result != exact_result {
                return Err(usage(format!(
                    "{} line {}: exact_result is not the layout's result in exact.csv ({exact_result})",
                    vcsv.display(),
                    i + 2,
                )));
            }
        }
    }
    Ok((kept, kept_games))
}
