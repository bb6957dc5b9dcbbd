//! Exact solves of a list of jobs on several threads, handed on in list
//! order: the engine behind `exact` (one job a layout) and `accuracy` (one
//! job a suite position).
//!
//! The jobs run on the arena's ordered runner ([`crate::arena::ordered`],
//! whose concurrency contract this shares); each thread keeps its own
//! [`Solver`] (a table of `tt_mb` MiB) from job to job.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use crate::arena::ordered::{each, run_in_order};
use crate::solve::Solver;

/// The solver threads of a run: how many, each one's table size, and the
/// flag that stops them (an interrupt).
#[derive(Clone, Copy, Debug)]
pub struct SolverThreads<'a> {
    /// Threads, each with its own [`Solver`].
    pub threads: usize,
    /// Each solver's table, in MiB.
    pub tt_mb: usize,
    /// Set to stop dispatching jobs (the results handed on stand).
    pub stop: &'a AtomicBool,
}

/// Runs `work(solver, i)` for every job `i` in `0..jobs` on `pool.threads`
/// threads and hands each `Ok` result to `on_row(i, result)` in job order.
/// `work` returns `None` to drop its result and stop its thread (a solve
/// cut short by an interrupt). Returns how many results were handed on.
///
/// # Errors
/// The first error in job order, of a job or of `on_row`.
pub fn solve_in_order<R, Err, E>(
    jobs: usize,
    pool: SolverThreads<'_>,
    work: impl Fn(&mut Solver, usize) -> Option<Result<R, Err>> + Sync,
    mut on_row: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<usize, E>
where
    R: Send,
    E: From<Err> + Send,
{
    let status = run_in_order(
        "solve",
        jobs,
        pool.threads,
        pool.stop,
        || Solver::new(pool.tt_mb),
        |solver: &mut Solver, i| work(solver, i).map(|r| r.map_err(E::from)),
        &mut each(|i, r| on_row(i, r).map(|()| ControlFlow::Continue(()))),
    )?;
    Ok(status.delivered)
}
