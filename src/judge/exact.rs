//! Small boards solved from the start (`pahtum exact`): every hole layout,
//! one per class of the square's symmetries, or seeded random layouts,
//! each solved exactly from the empty board with and without the pie rule.
//!
//! The answers need no engine to be trusted: the first-player advantage
//! under perfect play, the fair komi, and whether the pie rule leaves the
//! first player a fair first stone.
//!
//! Under the pie rule the second player may swap after the first stone, so
//! it takes whichever side of the board the stone left worse for the first
//! player: the first player's value is `max over s of -|m(s)|`, where
//! `m(s)` is White's exact margin after the first stone `s` (komi goes to
//! whoever holds Black, before and after a swap). So the first player can
//! at best draw, and draws exactly when some first stone leaves margin 0: a
//! *fair* first move. (On a board with one free square the first stone
//! ends the game and nobody can swap.) The solver computes this itself (a
//! swap is one of the second player's moves), and the tests check it
//! against that formula.

mod layouts;
mod plot;
mod summary;
mod versus;

use serde::{Deserialize, Serialize};

use crate::csv_rows;

use crate::game::outcome::{Komi, Move, Outcome};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::judge::ordered::SolverThreads;
use crate::solve::{SolveError, SolveLimits, Solver, format_halves};

pub use self::layouts::{Layout, MAX_ENUMERATED, choose, random_layouts, symmetry_classes};
pub use self::plot::summary_plot;
pub use self::summary::{
    ExactSummary, ExactSummaryCsvRow, push_summary, summarize, summary_header,
};
pub use self::versus::{
    Giveaway, Versus, VersusCsvRow, VersusRow, VersusSummary, VersusSummaryCsvRow,
    parse_versus_row, play_versus, push_versus_row, push_versus_summary, summarize_versus,
};

/// The pie-rule value of a layout for the first player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieValue {
    /// The first player's exact margin (own total minus the other's, komi
    /// included), in half points; never positive unless the first stone
    /// fills the board.
    pub margin_halves: i32,
    /// The first stones that attain it, sorted by name.
    pub fair_first_moves: Vec<Move>,
}

impl PieValue {
    /// `win`, `draw` or `loss` for the first player.
    pub fn result(&self) -> &'static str {
        match self.margin_halves.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        }
    }
}

/// One solved layout: a row of `exact.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactRow {
    /// Board side.
    pub size: u8,
    /// The layout and its weight.
    pub layout: Layout,
    /// The outcome under perfect play without the pie rule.
    pub outcome: Outcome,
    /// White's total minus Black's (komi included) under perfect play, in
    /// half points.
    pub margin_halves: i32,
    /// The first moves that keep `outcome`, sorted by name.
    pub best_first_moves: Vec<Move>,
    /// The value under the pie rule, when it was asked for.
    pub pie: Option<PieValue>,
    /// Search nodes, both solves together.
    pub nodes: u64,
    /// With `--versus`: each bot's games against perfect play, as White
    /// then as Black, bot by bot.
    pub versus: Vec<VersusRow>,
}

/// Solves `layout` from the empty board, White to move; with `pie` also
/// under the pie rule; with `versus`, then plays its bots against perfect
/// play on the layout (without the pie rule). `solver` keeps its table
/// between calls (its keys tell rules and layouts apart).
///
/// # Errors
/// A limit of `limits` was reached, the layout leaves no square free, or
/// a bot could not play.
pub fn solve_layout(
    solver: &mut Solver,
    size: u8,
    layout: Layout,
    komi: Komi,
    pie: bool,
    versus: Option<&Versus<'_>>,
    limits: &SolveLimits,
) -> Result<ExactRow, ExactError> {
    let start = Position::new(size, layout.holes, false, komi)
        .map_err(|e| ExactError::Layout(e.to_string()))?;
    let plain = solver.solve(&start, limits)?;
    let mut nodes = plain.nodes;
    let pie = if pie {
        let start = Position::new(size, layout.holes, true, komi)
            .map_err(|e| ExactError::Layout(e.to_string()))?;
        let s = solver.solve(&start, limits)?;
        nodes += s.nodes;
        Some(PieValue {
            margin_halves: s.margin_halves,
            fair_first_moves: s.best_margin,
        })
    } else {
        None
    };
    let mut games = Vec::new();
    if let Some(v) = versus {
        for index in 0..v.bots.len() {
            for colour in [Player::White, Player::Black] {
                games.push(play_versus(
                    solver,
                    &start,
                    plain.outcome,
                    v,
                    index,
                    colour,
                    limits,
                )?);
            }
        }
    }
    Ok(ExactRow {
        size,
        layout,
        outcome: plain.outcome,
        margin_halves: plain.margin_halves,
        best_first_moves: plain.best_result,
        pie,
        nodes,
        versus: games,
    })
}

/// Why a layout was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// The solver stopped at a limit.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The layout is not a playable board, or perfect play contradicted
    /// itself.
    #[error("{0}")]
    Layout(String),
    /// A `--versus` bot could not be built or gave no legal move.
    #[error("bot {0}")]
    Bot(String),
}

/// One line of `exact.csv`. Lists are squares separated by single
/// spaces: the layout in board order (as in `games.csv`), the moves sorted
/// by name. The pie columns are there only in a run with `--pie`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExactCsvRow {
    /// Board side.
    pub size: u8,
    /// Hole count.
    pub holes: u32,
    /// The hole squares.
    pub layout: String,
    /// Layouts the row stands for (its symmetry class).
    pub weight: u64,
    /// `white`, `draw` or `black`.
    pub result: String,
    /// White's exact margin, points.
    pub margin: String,
    /// The first moves that attain it.
    pub best_first_moves: String,
    /// The first player's margin under the pie rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pie_margin: Option<String>,
    /// `win`, `draw` or `loss` for the first player under the pie rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pie_result: Option<String>,
    /// The first stones that attain the pie margin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fair_first_moves: Option<String>,
}

/// Squares or moves separated by single spaces.
fn spaced<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl ExactCsvRow {
    /// The line of `row`.
    pub fn new(row: &ExactRow) -> ExactCsvRow {
        let pie = row.pie.as_ref();
        ExactCsvRow {
            size: row.size,
            holes: row.layout.holes.count(),
            layout: spaced(row.layout.holes),
            weight: row.layout.weight,
            result: row.outcome.to_string(),
            margin: format_halves(row.margin_halves),
            best_first_moves: spaced(&row.best_first_moves),
            pie_margin: pie.map(|p| format_halves(p.margin_halves)),
            pie_result: pie.map(|p| p.result().to_string()),
            fair_first_moves: pie.map(|p| spaced(&p.fair_first_moves)),
        }
    }

    /// The row of `job` before it is solved: its layout's columns filled.
    pub fn of_job(job: &Job) -> ExactCsvRow {
        ExactCsvRow {
            size: job.size,
            holes: job.layout.holes.count(),
            layout: spaced(job.layout.holes),
            weight: job.layout.weight,
            ..ExactCsvRow::default()
        }
    }
}

/// The columns of `exact.csv`, the pie columns with `pie`.
pub fn columns(pie: bool) -> Vec<String> {
    let some = || pie.then(String::new);
    csv_rows::columns_of(&ExactCsvRow {
        pie_margin: some(),
        pie_result: some(),
        fair_first_moves: some(),
        ..ExactCsvRow::default()
    })
}

/// The header of `exact.csv`, the pie columns with `pie`.
pub fn header(pie: bool) -> String {
    columns(pie).join(",")
}

/// Appends `row`'s line of `exact.csv`, newline included.
pub fn push_row(out: &mut String, row: &ExactRow) {
    csv_rows::push(out, &ExactCsvRow::new(row));
}

/// Reads `exact.csv` (header and complete rows, in the order of `jobs`)
/// back into rows, for the summary of a resumed run.
///
/// # Errors
/// The line and what is wrong with it.
pub fn parse_rows(text: &str, jobs: &[Job], pie: bool) -> Result<Vec<ExactRow>, String> {
    let rows = csv_rows::parse_as::<ExactCsvRow>(text, &columns(pie))
        .map_err(|(line, m)| format!("line {line}: {m}"))?;
    let mut out = Vec::new();
    for (i, (line, f)) in rows.into_iter().enumerate() {
        let bad = |m: &str| format!("line {line}: {m}");
        let job = jobs.get(i).ok_or_else(|| bad("more rows than layouts"))?;
        let halves = |s: &str| {
            s.parse::<Komi>()
                .map(Komi::halves)
                .map_err(|_| bad("a margin is not a number"))
        };
        let moves = |s: &str| -> Result<Vec<Move>, String> {
            if s.is_empty() {
                return Ok(Vec::new());
            }
            s.split(' ')
                .map(|m| m.parse::<Move>().map_err(|_| bad("a move is not a square")))
                .collect()
        };
        let margin_halves = halves(&f.margin)?;
        out.push(ExactRow {
            size: job.size,
            layout: job.layout,
            outcome: Outcome::from_margin_halves(margin_halves),
            margin_halves,
            best_first_moves: moves(&f.best_first_moves)?,
            pie: match (&f.pie_margin, &f.fair_first_moves) {
                (Some(m), Some(first)) => Some(PieValue {
                    margin_halves: halves(m)?,
                    fair_first_moves: moves(first)?,
                }),
                _ => None,
            },
            nodes: 0,
            versus: Vec::new(),
        });
    }
    Ok(out)
}

/// One layout of a run: its board side and holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Board side.
    pub size: u8,
    /// The layout.
    pub layout: Layout,
}

/// Solves `jobs` on `pool`'s threads and hands each row to `on_row` in
/// job order, whatever the thread count.
///
/// The concurrency contract is [`super::ordered`]'s: each thread keeps
/// one [`Solver`] of `pool.tt_mb` MiB from layout to layout, `pool.stop` or an error
/// stops the dispatch, and rows after a gap are dropped, never handed on
/// out of order. Returns how many rows were handed on.
///
/// # Errors
/// The first error of a solve or of `on_row`.
pub fn solve_layouts_in_order<E: From<ExactError> + Send>(
    jobs: &[Job],
    komi: Komi,
    pie: bool,
    versus: Option<&Versus<'_>>,
    limits: &SolveLimits,
    pool: SolverThreads<'_>,
    on_row: impl FnMut(usize, ExactRow) -> Result<(), E>,
) -> Result<usize, E> {
    let work = |solver: &mut Solver, i: usize| {
        let job = &jobs[i];
        let row = solve_layout(solver, job.size, job.layout, komi, pie, versus, limits);
        // A game cut short by an interrupt is not a result: drop it.
        (!pool.stop.load(std::sync::atomic::Ordering::Relaxed)).then_some(row)
    };
    super::ordered::solve_in_order(jobs.len(), pool, work, on_row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_in_job_order_for_any_thread_count() {
        let jobs: Vec<Job> = symmetry_classes(4, 6)
            .expect("small")
            .into_iter()
            .take(40)
            .map(|layout| Job { size: 4, layout })
            .collect();
        let run = |threads| {
            let mut rows = Vec::new();
            let stop = std::sync::atomic::AtomicBool::new(false);
            let n = solve_layouts_in_order::<ExactError>(
                &jobs,
                Komi::ZERO,
                true,
                None,
                &SolveLimits::default(),
                SolverThreads {
                    threads,
                    tt_mb: 1,
                    stop: &stop,
                },
                |i, r| {
                    assert_eq!(i, rows.len());
                    rows.push(ExactCsvRow::new(&r));
                    Ok(())
                },
            )
            .expect("solved");
            assert_eq!(n, jobs.len());
            rows
        };
        // Node counts depend on what each thread's table holds; the rows
        // do not.
        let one = run(1);
        assert_eq!(one, run(3));
        for r in &one {
            let pie_result = r.pie_result.as_deref().unwrap_or_default();
            assert!(["draw", "loss"].contains(&pie_result), "{r:?}");
        }
    }
}
