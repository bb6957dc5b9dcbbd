//! The one ordered parallel runner: numbered jobs run on several threads,
//! their results handed on in job order as they complete. Games of a
//! tournament, layouts of `exact`, positions of `accuracy` and the games
//! of a tune's SPSA batch all run on it.
//!
//! Concurrency contract: `threads` plain scoped threads (not a rayon
//! pool: a thread of one rayon pool that waits on another, as it does when
//! a bot runs its search on its own pool, runs queued work of its own pool
//! meanwhile, which would nest one job inside another's move) take job
//! indices from one atomic counter, so jobs start in index order and
//! finish nearly in order. Each thread owns a state of its own (a solver's
//! table, say) built once and kept from job to job. Finished results wait
//! in the thread's slot and go to the calling thread in small batches (see
//! [`BATCH_LATENCY`]); the calling thread owns the delivery, keeps a
//! reorder buffer and hands results on strictly in index order, so what it
//! sees never depends on the thread count. Stopping (delivery's `Break`,
//! an error, the cancel flag or the process's [`crate::interrupt`]
//! flag) stops the dispatch; jobs already running finish, and results
//! after a gap are dropped, never handed on out of order. The first error
//! is the first in index order, so it too does not depend on the thread
//! count.
//!
//! The search threads of one MCTS move (`bot::mcts::parallel`) are not
//! jobs of this runner: they share one tree and one deadline, and none of
//! them has a result to hand on by itself.

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// How long a thread may hold finished results before sending them to the
/// calling thread: one message (and one wake-up) per result would cost
/// more than a fast job itself, a random game say.
pub const BATCH_LATENCY: Duration = Duration::from_millis(2);

/// How [`run_in_order`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InOrder {
    /// Results handed on, the first `delivered` jobs.
    pub delivered: usize,
    /// Whether it stopped before the last job: delivery's `Break`, or the
    /// cancel flag.
    pub stopped: bool,
}

/// Whether the run is to stop at once: `cancel`, or the process's
/// interrupt flag, which every search also watches.
#[inline]
pub fn cancelled(cancel: &AtomicBool) -> bool {
    cancel.load(Ordering::Relaxed) || crate::interrupt::requested()
}

/// Where [`run_in_order`] hands results on, on the calling thread.
pub trait Deliver<R, E> {
    /// Takes the result of job `index`, the jobs before it already taken;
    /// `Break` stops the run.
    ///
    /// # Errors
    /// Any: it stops the run and is returned.
    fn deliver(&mut self, index: usize, result: R) -> Result<ControlFlow<()>, E>;

    /// Called whenever everything that can be handed on has been and the
    /// calling thread is about to wait (to flush a file, say).
    ///
    /// # Errors
    /// Any: it stops the run and is returned.
    fn idle(&mut self) -> Result<(), E> {
        Ok(())
    }
}

/// A closure as a [`Deliver`] with nothing to do when idle ([`each`]).
pub struct Each<F>(F);

/// Delivers each result to `f`.
pub fn each<R, E, F>(f: F) -> Each<F>
where
    F: FnMut(usize, R) -> Result<ControlFlow<()>, E>,
{
    Each(f)
}

impl<R, E, F: FnMut(usize, R) -> Result<ControlFlow<()>, E>> Deliver<R, E> for Each<F> {
    fn deliver(&mut self, index: usize, result: R) -> Result<ControlFlow<()>, E> {
        (self.0)(index, result)
    }
}

/// Finished results of one thread, not yet sent.
type Held<R, E> = Vec<(usize, Result<R, E>)>;

/// Locks a thread's slot; a thread that panicked while holding it left
/// whole results only, so the data stays usable.
fn lock<T>(slot: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs `work(state, i)` for every job `i` in `0..jobs` on `threads`
/// threads named `pahtum-{name}-N`, each with its own `state()`, and hands
/// each result to `sink` in job order. `work` returns `None` for a job cut
/// short by an interrupt: its result is dropped and its thread stops.
///
/// # Errors
/// The first error in job order, of a job or of `sink`.
///
/// # Panics
/// If not one thread can be started, or when a job panics.
pub fn run_in_order<S, R, E>(
    name: &str,
    jobs: usize,
    threads: usize,
    cancel: &AtomicBool,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> Option<Result<R, E>> + Sync,
    sink: &mut dyn Deliver<R, E>,
) -> Result<InOrder, E>
where
    R: Send,
    E: Send,
{
    let threads = threads.clamp(1, jobs.max(1));
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Held<R, E>>();
    let held: Vec<Mutex<Held<R, E>>> = (0..threads).map(|_| Mutex::new(Vec::new())).collect();
    let mut status = InOrder {
        delivered: 0,
        stopped: false,
    };
    let mut failure: Option<E> = None;
    std::thread::scope(|scope| {
        let (next, halt, held, state, work) = (&next, &halt, &held, &state, &work);
        for (i, slot) in held.iter().enumerate() {
            let tx = tx.clone();
            let body = move || {
                let mut own = state();
                let mut since = Instant::now();
                loop {
                    if halt.load(Ordering::Relaxed) || cancelled(cancel) {
                        break;
                    }
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= jobs {
                        break;
                    }
                    let Some(r) = work(&mut own, k) else { break };
                    let failed = r.is_err();
                    if failed {
                        halt.store(true, Ordering::Relaxed);
                    }
                    let batch = {
                        let mut h = lock(slot);
                        h.push((k, r));
                        (failed || since.elapsed() >= BATCH_LATENCY)
                            .then(|| std::mem::take(&mut *h))
                    };
                    if let Some(batch) = batch {
                        if tx.send(batch).is_err() {
                            return;
                        }
                        since = Instant::now();
                    }
                }
                let rest = std::mem::take(&mut *lock(slot));
                if !rest.is_empty() {
                    let _ = tx.send(rest);
                }
            };
            let builder = std::thread::Builder::new().name(format!("pahtum-{name}-{i}"));
            // A thread the system refuses only makes the run slower: the
            // results do not depend on how many threads play them.
            if builder.spawn_scoped(scope, body).is_err() && i == 0 {
                panic!("pahtum-{name}: cannot start a thread");
            }
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Result<R, E>> = BTreeMap::new();
        loop {
            match gather(&rx, held, &mut pending) {
                None => break,
                Some(false) => continue,
                Some(true) => {}
            }
            if failure.is_some() || status.stopped {
                pending.clear();
                continue; // drain until the threads have stopped
            }
            failure = deliver_ready(&mut pending, &mut status, sink, halt);
            if failure.is_none()
                && let Err(e) = sink.idle()
            {
                halt.store(true, Ordering::Relaxed);
                failure = Some(e);
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if cancelled(cancel) && status.delivered < jobs {
        status.stopped = true;
    }
    Ok(status)
}

/// Waits up to [`BATCH_LATENCY`] for the threads' batches into `pending`;
/// when none comes, takes what the threads hold, so that a finished result
/// never waits for its thread's next job. `Some(false)`: nothing new;
/// `None`: every thread has finished.
fn gather<R, E>(
    rx: &mpsc::Receiver<Held<R, E>>,
    held: &[Mutex<Held<R, E>>],
    pending: &mut BTreeMap<usize, Result<R, E>>,
) -> Option<bool> {
    match rx.recv_timeout(BATCH_LATENCY) {
        Ok(batch) => pending.extend(batch),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let before = pending.len();
            for slot in held {
                pending.extend(std::mem::take(&mut *lock(slot)));
            }
            if pending.len() == before {
                return Some(false);
            }
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => return None,
    }
    while let Ok(batch) = rx.try_recv() {
        pending.extend(batch);
    }
    Some(true)
}

/// Hands `sink` the results of `pending` that come next in job order,
/// counting them in `status`; at the sink's break (`status.stopped`) or
/// the first error (returned) it tells the threads to `halt`.
fn deliver_ready<R, E>(
    pending: &mut BTreeMap<usize, Result<R, E>>,
    status: &mut InOrder,
    sink: &mut dyn Deliver<R, E>,
    halt: &AtomicBool,
) -> Option<E> {
    while let Some(r) = pending.remove(&status.delivered) {
        let handed = r.and_then(|v| sink.deliver(status.delivered, v));
        match handed {
            Ok(ControlFlow::Continue(())) => status.delivered += 1,
            Ok(ControlFlow::Break(())) => {
                status.delivered += 1;
                status.stopped = true;
                halt.store(true, Ordering::Relaxed);
                break;
            }
            Err(e) => {
                halt.store(true, Ordering::Relaxed);
                return Some(e);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jobs that finish out of order (later ones sooner) still come in
    /// order, with the state each thread keeps.
    fn squares(threads: usize) -> Vec<(usize, u64)> {
        let mut got = Vec::new();
        let status = run_in_order(
            "test",
            40,
            threads,
            &AtomicBool::new(false),
            || 0u64,
            |seen: &mut u64, i| {
                *seen += 1;
                std::thread::sleep(Duration::from_micros(((40 - i) * 50) as u64));
                Some(Ok::<_, String>((i * i) as u64))
            },
            &mut each(|i, v| {
                got.push((i, v));
                Ok(ControlFlow::Continue(()))
            }),
        )
        .expect("run");
        assert_eq!(
            status,
            InOrder {
                delivered: 40,
                stopped: false
            }
        );
        got
    }

    #[test]
    fn results_come_in_job_order_for_any_thread_count() {
        let one = squares(1);
        assert_eq!(
            one,
            (0..40).map(|i| (i, (i * i) as u64)).collect::<Vec<_>>()
        );
        assert_eq!(squares(4), one);
    }

    #[test]
    fn the_first_error_in_job_order_stops_the_run() {
        for threads in [1, 3] {
            let mut got = Vec::new();
            let e = run_in_order(
                "test",
                30,
                threads,
                &AtomicBool::new(false),
                || (),
                |(), i| Some(if i % 10 == 7 { Err(i) } else { Ok(i) }),
                &mut each(|i, v| {
                    got.push((i, v));
                    Ok(ControlFlow::Continue(()))
                }),
            )
            .expect_err("job 7 fails");
            assert_eq!(e, 7);
            assert_eq!(got, (0..7).map(|i| (i, i)).collect::<Vec<_>>());
        }
    }

    #[test]
    fn break_and_cancel_stop_in_order() {
        let mut got = Vec::new();
        let st = run_in_order(
            "test",
            30,
            2,
            &AtomicBool::new(false),
            || (),
            |(), i| Some(Ok::<_, ()>(i)),
            &mut each(|i, _| {
                got.push(i);
                Ok(if i == 3 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            }),
        )
        .expect("run");
        assert_eq!(st.delivered, 4);
        assert!(st.stopped);
        assert_eq!(got, vec![0, 1, 2, 3]);
        let cancel = AtomicBool::new(false);
        let st = run_in_order(
            "test",
            30,
            2,
            &cancel,
            || (),
            |(), i| {
                if i == 5 {
                    cancel.store(true, Ordering::Relaxed);
                    return None;
                }
                Some(Ok::<_, ()>(i))
            },
            &mut each(|_, _| Ok(ControlFlow::Continue(()))),
        )
        .expect("run");
        assert_eq!(st.delivered, 5);
        assert!(st.stopped);
    }
}
