//! Exact solves of a list of jobs on several threads, handed on in list
//! order: the engine behind `exact` (one job a layout) and `accuracy` (one
//! job a suite position).
//!
//! Concurrency contract, as for the arena's games: plain scoped threads
//! take job indices from one atomic counter, each with its own [`Solver`]
//! (a table of `tt_mb` MiB kept from job to job), and send results down a
//! channel; the calling thread keeps a reorder buffer and owns `on_row`,
//! so what it sees never depends on the thread count. `stop` (checked
//! between jobs, and inside each solve by the solver's own limits), a job
//! that gives up, or an error stops the dispatch; results after a gap are
//! dropped, never handed on out of order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::bot::solver::Solver;

/// Runs `work(solver, i)` for every job `i` in `0..jobs` on `threads`
/// threads and hands each `Ok` result to `on_row(i, result)` in job order.
/// `work` returns `None` to drop its result and stop its thread (a solve
/// cut short by an interrupt). Returns how many results were handed on.
///
/// # Errors
/// The first error in job order, of a job or of `on_row`.
pub fn solve_in_order<R, Err, E>(
    jobs: usize,
    threads: usize,
    tt_mb: usize,
    stop: &AtomicBool,
    work: impl Fn(&mut Solver, usize) -> Option<Result<R, Err>> + Sync,
    mut on_row: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<usize, E>
where
    R: Send,
    Err: Send,
    E: From<Err>,
{
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<R, Err>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.max(1)) {
            let tx = tx.clone();
            let (next, halt, work) = (&next, &halt, &work);
            scope.spawn(move || {
                let mut solver = Solver::new(tt_mb);
                loop {
                    if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs {
                        break;
                    }
                    let Some(result) = work(&mut solver, i) else {
                        break;
                    };
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Result<R, Err>> = BTreeMap::new();
        let mut done = 0;
        let mut result = Ok(());
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&done) {
                let handed = r.map_err(E::from).and_then(|v| on_row(done, v));
                if let Err(e) = handed {
                    halt.store(true, Ordering::Relaxed);
                    result = Err(e);
                    break;
                }
                done += 1;
            }
            if result.is_err() {
                break;
            }
        }
        halt.store(true, Ordering::Relaxed);
        result.map(|()| done)
    })
}
