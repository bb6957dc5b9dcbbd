//! Playing games in parallel and handing them on in game order, and
//! [`run_tournament`], which plays a whole tournament so in memory.
//!
//! Concurrency contract: `threads` plain scoped threads (not a rayon
//! pool: a thread of one rayon pool that waits on another, as it does when
//! a bot runs its search on its own pool, runs queued work of its own pool
//! meanwhile, which would nest one game inside another's move) take game
//! positions from one atomic counter, so games start in schedule order and
//! finish nearly in order. Each worker builds fresh bots from the catalogue
//! with seeds from (seed, game index, seat), plays the game, formats its
//! CSV line and sends both down a channel (in small batches, see
//! [`BATCH_LATENCY`]). The calling thread owns the
//! [`Observer`]: it keeps a reorder buffer and hands games on strictly in
//! game order, so what the observer sees never depends on `threads`.
//! Stopping (an observer's `Break`, or an error) stops the dispatch;
//! games already running finish, and those after a gap are dropped, never
//! handed on out of order. An interrupt (the cancel flag, or the process's
//! [`crate::bot::interrupt`] flag, which every search also watches) stops
//! the dispatch too, and the games in flight, whose searches return at
//! once, are dropped.

use std::collections::VecDeque;
use std::ops::{ControlFlow, Range};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::game::play_game;
use super::record::{GameRecord, push_row};
use super::schedule::Schedule;
use super::tournament::{Collect, Observer, TournamentConfig, TournamentError};
use crate::bot::{BotSpec, Catalog};

/// How [`run_games`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RunStatus {
    /// Games handed to the observer.
    pub played: u64,
    /// Whether it stopped early (cancel flag or the observer's `Break`).
    pub stopped: bool,
}

/// Plays game `index` of `schedule` with fresh bots; returns its record
/// and appends its `games.csv` line to `row`.
///
/// # Errors
/// A bot that cannot be built, or rules that give no start position.
pub fn play_scheduled(
    schedule: &Schedule,
    bots: &[BotSpec],
    labels: &[String],
    catalog: &Catalog,
    index: u64,
    row: &mut String,
) -> Result<GameRecord, TournamentError> {
    let sg = schedule.game(index);
    let start = schedule
        .start(&sg)
        .map_err(|e| TournamentError::Game(format!("game {index}: {e}")))?;
    let build = |bot: usize, seat: u64| {
        catalog
            .build(&bots[bot], schedule.bot_seed(&sg, seat))
            .map_err(|e| TournamentError::Game(format!("game {index}: {e}")))
    };
    let mut first = build(sg.first, 0)?;
    let mut second = build(sg.second, 1)?;
    let result = play_game(start, first.as_mut(), second.as_mut(), |_| {});
    let rec = GameRecord::new(&sg, &result);
    push_row(row, &rec, result.game.moves(), labels);
    Ok(rec)
}

/// Games a worker finished: their rows share one text buffer, so a batch
/// costs two allocations however many games it holds.
struct Batch {
    text: Arc<String>,
    games: Vec<(usize, PlayedRow)>,
}

/// The games a worker finished and has not sent yet.
#[derive(Default)]
struct Held {
    text: String,
    games: Vec<(usize, PlayedRow)>,
}

impl Held {
    /// Everything held, as one batch; the slot is left empty.
    fn take(&mut self) -> Batch {
        let capacity = self.text.capacity();
        Batch {
            text: Arc::new(std::mem::replace(
                &mut self.text,
                String::with_capacity(capacity),
            )),
            games: std::mem::take(&mut self.games),
        }
    }
}

/// Locks a worker's slot; a worker that panicked while holding it left
/// whole rows only (it pushes a row and its game together), so the data
/// stays usable.
fn lock(slot: &Mutex<Held>) -> std::sync::MutexGuard<'_, Held> {
    slot.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A played game's record and its row's place in the batch text.
type PlayedRow = Result<(GameRecord, Range<usize>), TournamentError>;

/// A game in the reorder buffer: its record and where its row lies.
type Pending = Option<(GameRecord, Arc<String>, Range<usize>)>;

/// How long a worker may hold finished games before sending them to the
/// writer. Rows reach `games.csv` at most this much later than "as soon as
/// possible"; a kill loses nothing either way (the games are replayed).
pub const BATCH_LATENCY: Duration = Duration::from_millis(2);

/// Plays `games` (indices into the schedule of `config`, in the order they
/// are to be handed on) on `config.threads` threads, handing each finished
/// game to `observer` in that order.
///
/// # Errors
/// The first error of a worker or the observer; a thread pool that cannot
/// be built.
pub fn run_games(
    config: &TournamentConfig,
    catalog: &Catalog,
    games: &[u64],
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<RunStatus, TournamentError> {
    let schedule = config.schedule();
    let labels = config.labels();
    let threads = config.threads.max(1);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Batch>();
    let held: Vec<Mutex<Held>> = (0..threads).map(|_| Mutex::new(Held::default())).collect();
    let mut status = RunStatus {
        played: 0,
        stopped: false,
    };
    let mut failure: Option<TournamentError> = None;
    std::thread::scope(|scope| {
        let (schedule, labels, next, stop, held) = (&schedule, &labels, &next, &stop, &held);
        for (i, slot) in held.iter().enumerate() {
            let tx = tx.clone();
            let worker = std::thread::Builder::new()
                .name(format!("pahtum-game-{i}"))
                .spawn_scoped(scope, move || {
                    // Finished games wait in this worker's slot and go
                    // out in batches at most BATCH_LATENCY old: one
                    // message (and one wake-up of the writer) per game
                    // would cost more than a fast game itself. A slot
                    // whose worker is deep in a slow game is emptied by
                    // the writer (below), so no finished game waits for
                    // the next one.
                    let mut row = String::new();
                    let mut since = Instant::now();
                    let cancelled =
                        || cancel.load(Ordering::Relaxed) || crate::bot::interrupt::requested();
                    loop {
                        if stop.load(Ordering::Relaxed) || cancelled() {
                            break;
                        }
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&g) = games.get(k) else { break };
                        row.clear();
                        let r =
                            play_scheduled(schedule, &config.bots, labels, catalog, g, &mut row);
                        if cancelled() {
                            // Its searches were cut short: a game in
                            // flight at an interrupt is dropped, and
                            // `--resume` plays it again from its seeds.
                            break;
                        }
                        let full = {
                            let mut h = lock(slot);
                            let base = h.text.len();
                            h.text.push_str(&row);
                            h.games
                                .push((k, r.map(|rec| (rec, base..base + row.len()))));
                            (since.elapsed() >= BATCH_LATENCY).then(|| h.take())
                        };
                        if let Some(batch) = full {
                            if tx.send(batch).is_err() {
                                return;
                            }
                            since = Instant::now();
                        }
                    }
                    let rest = lock(slot).take();
                    if !rest.games.is_empty() {
                        let _ = tx.send(rest);
                    }
                });
            if let Err(e) = worker {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(TournamentError::Game(format!("game thread: {e}")));
            }
        }
        drop(tx);
        // The reorder buffer: slot i holds game position `written + i`.
        let mut pending: VecDeque<Pending> = VecDeque::new();
        let mut written = 0usize;
        let accept = |batch: Batch,
                      pending: &mut VecDeque<Pending>,
                      written: usize,
                      failure: &mut Option<TournamentError>| {
            for (k, r) in batch.games {
                match r {
                    Ok((rec, range)) if failure.is_none() && k >= written => {
                        let slot = k - written;
                        if pending.len() <= slot {
                            pending.resize(slot + 1, None);
                        }
                        pending[slot] = Some((rec, Arc::clone(&batch.text), range));
                    }
                    Ok(_) => {}
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        failure.get_or_insert(e);
                    }
                }
            }
        };
        loop {
            match rx.recv_timeout(BATCH_LATENCY) {
                Ok(batch) => accept(batch, &mut pending, written, &mut failure),
                // Nothing came: take what the workers hold, so that a
                // finished game never waits for its worker's next game.
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let mut any = false;
                    for slot in held {
                        let batch = lock(slot).take();
                        any |= !batch.games.is_empty();
                        accept(batch, &mut pending, written, &mut failure);
                    }
                    if !any {
                        continue;
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Ok(batch) = rx.try_recv() {
                accept(batch, &mut pending, written, &mut failure);
            }
            if failure.is_some() || status.stopped {
                continue; // drain until the workers have stopped
            }
            while let Some(Some(_)) = pending.front() {
                let Some(Some((rec, text, range))) = pending.pop_front() else {
                    break;
                };
                written += 1;
                status.played += 1;
                match observer.on_game(&rec, &text[range]) {
                    Ok(ControlFlow::Continue(())) => {}
                    Ok(ControlFlow::Break(())) => {
                        status.stopped = true;
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        failure = Some(e);
                        break;
                    }
                }
            }
            if failure.is_none()
                && let Err(e) = observer.on_idle()
            {
                stop.store(true, Ordering::Relaxed);
                failure = Some(e);
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let cancelled = cancel.load(Ordering::Relaxed) || crate::bot::interrupt::requested();
    if cancelled && (status.played as usize) < games.len() {
        status.stopped = true;
    }
    Ok(status)
}

/// Plays the whole of `config`'s shard and returns its records in game
/// order, with no files: the entry point for experiments built on the
/// arena (sweeps, sequential tests). `observer` sees each game too.
///
/// # Errors
/// As [`TournamentConfig::validate`] and [`run_games`];
/// [`TournamentError::Interrupted`] when `cancel` was set.
pub fn run_tournament(
    config: &TournamentConfig,
    catalog: &Catalog,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Vec<GameRecord>, TournamentError> {
    config.validate(catalog)?;
    let games: Vec<u64> = config.schedule().shard_games(config.shard).collect();
    struct Both<'a> {
        inner: &'a mut dyn Observer,
        collect: Collect,
    }
    impl Observer for Both<'_> {
        fn on_start(&mut self, done: &[GameRecord], total: u64) {
            self.inner.on_start(done, total);
        }
        fn on_game(
            &mut self,
            r: &GameRecord,
            row: &str,
        ) -> Result<ControlFlow<()>, TournamentError> {
            let _ = self.collect.on_game(r, row)?;
            self.inner.on_game(r, row)
        }
        fn on_idle(&mut self) -> Result<(), TournamentError> {
            self.inner.on_idle()
        }
    }
    let mut both = Both {
        inner: observer,
        collect: Collect::default(),
    };
    both.on_start(&[], games.len() as u64);
    let status = run_games(config, catalog, &games, cancel, &mut both)?;
    if status.stopped && (cancel.load(Ordering::Relaxed) || crate::bot::interrupt::requested()) {
        return Err(TournamentError::Interrupted {
            done: status.played,
            total: games.len() as u64,
        });
    }
    Ok(both.collect.records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::tournament::tests::config;
    use crate::bot::builtin_catalog;
    use crate::game::rules::Rules;

    struct Rows(String);
    impl Observer for Rows {
        fn on_game(
            &mut self,
            _: &GameRecord,
            row: &str,
        ) -> Result<ControlFlow<()>, TournamentError> {
            self.0.push_str(row);
            Ok(ControlFlow::Continue(()))
        }
    }

    #[test]
    fn same_rows_for_any_thread_count() {
        let catalog = builtin_catalog();
        let cancel = AtomicBool::new(false);
        let run = |t| {
            let mut rows = Rows(String::new());
            let recs = run_tournament(&config(t), &catalog, &cancel, &mut rows).expect("run");
            (recs, rows.0)
        };
        let (r1, t1) = run(1);
        let (r3, t3) = run(3);
        assert_eq!(r1.len(), 18);
        assert!(r1.iter().enumerate().all(|(i, r)| r.game == i as u64));
        assert_eq!(r1, r3);
        assert_eq!(t1, t3);
    }

    #[test]
    fn head_to_head_plays_pairs() {
        let catalog = builtin_catalog();
        let spec = |s: &str| catalog.parse(s).expect("spec");
        let c = TournamentConfig::head_to_head(
            spec("random"),
            spec("random:label=ref"),
            3,
            vec![Rules::default()],
            5,
            2,
        );
        let recs = run_tournament(
            &c,
            &catalog,
            &AtomicBool::new(false),
            &mut Collect::default(),
        )
        .expect("run");
        assert_eq!(recs.len(), 6);
        let pairs = crate::arena::report::pair_results(&recs);
        assert_eq!(pairs.len(), 3);
        assert!(pairs.iter().all(|p| p.bot == 0 && p.opponent == 1));
        assert_eq!(
            crate::arena::report::pentanomial_counts(&pairs)
                .iter()
                .sum::<u64>(),
            3
        );
    }

    #[test]
    fn break_stops_in_order() {
        struct Stop(u64);
        impl Observer for Stop {
            fn on_game(
                &mut self,
                r: &GameRecord,
                _: &str,
            ) -> Result<ControlFlow<()>, TournamentError> {
                assert_eq!(r.game, self.0);
                self.0 += 1;
                Ok(if self.0 == 4 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                })
            }
        }
        let c = config(2);
        let games: Vec<u64> = (0..18).collect();
        let mut s = Stop(0);
        let st = run_games(
            &c,
            &builtin_catalog(),
            &games,
            &AtomicBool::new(false),
            &mut s,
        )
        .expect("run");
        assert_eq!(
            st,
            RunStatus {
                played: 4,
                stopped: true
            }
        );
    }
}
