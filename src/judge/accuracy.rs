//! Bots against perfect play (`pahtum accuracy`, docs/CONTRACT.md): a
//! suite of positions (its format: [`parse_suite`]), each with its exact
//! value, and for each the bot's move judged by the solver.

mod suite;

use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};

use crate::bot::{BotSpec, Catalog};
use crate::csv_rows;
use crate::game::outcome::{Move, Outcome};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::judge::ordered::{SolverThreads, solve_in_order};
use crate::solve::{Solution, SolveError, SolveLimits, Solver, format_halves};

pub use self::suite::{SuiteError, SuitePosition, parse_suite, suite_text};

/// One line of `accuracy.csv`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct AccuracyCsvRow {
    /// The position's name, else its 1-based index in the suite.
    pub position: String,
    /// `white` or `black`.
    pub to_move: String,
    /// Free squares.
    pub empties: u32,
    /// The exact result before the move.
    pub result: String,
    /// The exact margin before the move, points.
    pub margin: String,
    /// The move judged.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether it keeps the exact result.
    pub keeps_result: bool,
    /// The margin it gives away, points.
    pub margin_loss: String,
}

/// The header of `accuracy.csv`, without its newline.
pub fn header() -> String {
    csv_rows::header::<AccuracyCsvRow>()
}

/// One judged move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccuracyRow {
    /// The position's name, else its 1-based index in the suite.
    pub position: String,
    /// The side to move.
    pub to_move: Player,
    /// Free squares.
    pub empties: u32,
    /// The exact value before the move.
    pub exact: Solution,
    /// The move judged.
    pub mv: Move,
    /// Whether it keeps the exact result.
    pub keeps_result: bool,
    /// The margin it gives away from the mover's side, half points (≥ 0).
    pub loss_halves: i32,
}

/// The `accuracy.csv` line of `r`, newline included.
pub fn csv_line(r: &AccuracyRow) -> String {
    let mut s = String::new();
    csv_rows::push(
        &mut s,
        &AccuracyCsvRow {
            position: r.position.clone(),
            to_move: r.to_move.to_string(),
            empties: r.empties,
            result: r.exact.outcome.to_string(),
            margin: format_halves(r.exact.margin_halves),
            mv: r.mv.to_string(),
            keeps_result: r.keeps_result,
            margin_loss: format_halves(r.loss_halves),
        },
    );
    s
}

/// The last stdout line: `positions=N result_accuracy=X margin_loss=Y`.
pub fn summary_line(rows: &[AccuracyRow]) -> String {
    let n = rows.len().max(1) as f64;
    let kept = rows.iter().filter(|r| r.keeps_result).count() as f64;
    let loss: f64 = rows.iter().map(|r| f64::from(r.loss_halves) / 2.0).sum();
    format!(
        "positions={} result_accuracy={:.4} margin_loss={:.4}",
        rows.len(),
        kept / n,
        loss / n
    )
}

/// Why a position could not be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccuracyError {
    /// The solver stopped (an interrupt).
    #[error("solver: {0}")]
    Solve(#[from] SolveError),
    /// The bot produced no move, or an illegal one.
    #[error("position {0}: the bot gave no legal move: {1}")]
    Bot(String, String),
    /// A stored value is contradicted by the solver.
    #[error("position {0}: its stored value is wrong: {1}")]
    Stored(String, String),
}

/// Who moves in each position: a bot spec, or the move each header records.
#[derive(Clone, Debug)]
pub enum Mover<'a> {
    /// Build this bot afresh for each position, seeded from the run's seed
    /// and the position's index, so a row depends on nothing else.
    Bot(&'a Catalog, &'a BotSpec, u64),
    /// Judge the `move=` of each header.
    Played,
}

/// Judges position `index` of a suite with `solver` (its table is reused:
/// values never depend on what it holds). The value comes back when it is
/// a full one (move lists included) for the solved suite: a recorded move
/// on a position without a stored value is judged by values alone.
///
/// # Errors
/// See [`AccuracyError`].
pub fn judge(
    solver: &mut Solver,
    index: usize,
    e: &SuitePosition,
    pos: &Position,
    mover: &Mover<'_>,
    limits: &SolveLimits,
) -> Result<(AccuracyRow, Option<Solution>), AccuracyError> {
    let position = e.name.clone().unwrap_or_else(|| (index + 1).to_string());
    // Judging a recorded move needs only two values, far cheaper than the
    // move lists of a full solve.
    let full = !matches!(mover, Mover::Played);
    let (exact, listed) = match &e.known {
        Some(s) => (s.clone(), true),
        None if full => (solver.solve(pos, limits)?, true),
        None => {
            let v = solver.value(pos, limits)?;
            let m = if pos.turn() == Player::White { v } else { -v };
            let sol = Solution {
                outcome: Outcome::from_margin_halves(m),
                margin_halves: m,
                best_result: Vec::new(),
                best_margin: Vec::new(),
                nodes: 0,
            };
            (sol, false)
        }
    };
    let mv = match mover {
        Mover::Played => e.played.ok_or_else(|| {
            AccuracyError::Bot(position.clone(), "its header has no move=".into())
        })?,
        Mover::Bot(catalog, spec, seed) => {
            let mut bot = catalog
                .build(spec, derive_seed(*seed, &[index as u64]))
                .map_err(|err| AccuracyError::Bot(position.clone(), err.to_string()))?;
            bot.select_move(&Game::new(*pos))
                .map_err(|err| AccuracyError::Bot(position.clone(), err.to_string()))?
        }
    };
    let mut child = *pos;
    child
        .try_play_move(mv)
        .map_err(|err| AccuracyError::Bot(position.clone(), format!("{mv}: {err}")))?;
    let mover_sign = if pos.turn() == Player::White { 1 } else { -1 };
    let after = if listed && exact.best_margin.contains(&mv) {
        exact.margin_halves
    } else if child.is_game_over() {
        child.margin_halves()
    } else {
        let v = solver.value(&child, limits)?;
        if child.turn() == Player::White { v } else { -v }
    };
    let loss_halves = (exact.margin_halves - after) * mover_sign;
    let keeps_by_value = Outcome::from_margin_halves(after) == exact.outcome;
    let keeps_result = if listed {
        exact.best_result.contains(&mv)
    } else {
        keeps_by_value
    };
    if loss_halves < 0 || keeps_result != keeps_by_value {
        return Err(AccuracyError::Stored(
            position,
            format!(
                "{mv} leads to margin {} where it says margin {}",
                format_halves(after),
                format_halves(exact.margin_halves)
            ),
        ));
    }
    let row = AccuracyRow {
        position,
        to_move: pos.turn(),
        empties: pos.empty().count(),
        exact: exact.clone(),
        mv,
        keeps_result,
        loss_halves,
    };
    Ok((row, listed.then_some(exact)))
}

/// Judges every position on `pool`'s threads (each with its own solver)
/// and hands the rows to `on_row` in suite order, so the output is the
/// same for any thread count. Stops at the first error or when
/// `pool.stop` is set (the rows handed on stand).
///
/// # Errors
/// The first error in suite order, or `on_row`'s.
pub fn judge_in_order<E: From<AccuracyError> + Send>(
    entries: &[SuitePosition],
    positions: &[Position],
    mover: &Mover<'_>,
    limits: &SolveLimits,
    pool: SolverThreads<'_>,
    mut on_row: impl FnMut(AccuracyRow, Option<Solution>) -> Result<(), E>,
) -> Result<usize, E> {
    let jobs = entries.len().min(positions.len());
    let work = |solver: &mut Solver, i: usize| {
        let judged = judge(solver, i, &entries[i], &positions[i], mover, limits);
        // A search cut short by an interrupt moves at random: its row is
        // dropped.
        (!pool.stop.load(Ordering::Relaxed)).then_some(judged)
    };
    solve_in_order(jobs, pool, work, |_, (row, sol)| on_row(row, sol))
}
