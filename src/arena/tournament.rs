//! Playing a schedule: games in parallel, handed on in game order.
//!
//! Concurrency contract: `threads` workers in a rayon pool take game
//! positions from one atomic counter, so games start in schedule order and
//! finish nearly in order. Each worker builds fresh bots from the catalogue
//! with seeds from (seed, game index, seat), plays the game, formats its
//! CSV line and sends both down a channel (in small batches, see
//! [`BATCH_LATENCY`]). The calling thread owns the
//! [`Observer`]: it keeps a reorder buffer and hands games on strictly in
//! game order, so what the observer sees never depends on `threads`.
//! Stopping (cancel flag, an observer's `Break`, or an error) stops the
//! dispatch; games already running finish, and those after a gap are
//! dropped, never handed on out of order.

use std::collections::VecDeque;
use std::fmt;
use std::ops::{ControlFlow, Range};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use super::game::play_game;
use super::record::{GameRecord, check_label, push_row};
use super::schedule::{Format, Schedule, Shard};
use crate::bot::{BotSpec, Catalog};
use crate::game::rules::Rules;

/// What can go wrong in a tournament.
#[derive(Debug)]
pub enum TournamentError {
    /// Bad settings or input files: the user's to fix (exit 2).
    Config(String),
    /// A file could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// What happened.
        source: std::io::Error,
    },
    /// A bot could not be built or a game could not start.
    Game(String),
    /// Stopped (Ctrl-C) before the end; the rows written so far are valid.
    Interrupted {
        /// Games finished and recorded.
        done: u64,
        /// Games in the run.
        total: u64,
    },
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentError::Config(m) | TournamentError::Game(m) => f.write_str(m),
            TournamentError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            TournamentError::Interrupted { done, total } => {
                write!(f, "interrupted after {done} of {total} games")
            }
        }
    }
}

impl std::error::Error for TournamentError {}

impl TournamentError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> TournamentError {
        TournamentError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Everything that defines a tournament's games. Plain data; check it with
/// [`TournamentConfig::validate`].
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The bots, in the order given; their labels name them in outputs.
    pub bots: Vec<BotSpec>,
    /// Games per pairing; rounded up to whole colour-swapped pairs.
    pub games_per_pairing: u64,
    /// Rules the rounds cycle through (one entry per `--holes` value).
    pub rules: Vec<Rules>,
    /// Round robin or gauntlet.
    pub format: Format,
    /// The seed every layout and bot stream derives from.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// The part of the schedule to play.
    pub shard: Shard,
}

impl TournamentConfig {
    /// A match of `a` against `b` over `pairs` colour-swapped pairs of
    /// games (each layout played twice), cycling through `rules`: the unit
    /// of parameter sweeps and A/B tests. Order matters only for naming:
    /// pair results are counted for `a`.
    pub fn head_to_head(
        a: BotSpec,
        b: BotSpec,
        pairs: u64,
        rules: Vec<Rules>,
        seed: u64,
        threads: usize,
    ) -> TournamentConfig {
        TournamentConfig {
            bots: vec![a, b],
            games_per_pairing: 2 * pairs,
            rules,
            format: Format::Gauntlet,
            seed,
            threads,
            shard: Shard::ALL,
        }
    }

    /// The bots' output names.
    pub fn labels(&self) -> Vec<String> {
        self.bots.iter().map(BotSpec::label).collect()
    }

    /// The full schedule (all shards).
    pub fn schedule(&self) -> Schedule {
        Schedule::new(
            self.bots.len(),
            self.format,
            self.games_per_pairing,
            self.rules.clone(),
            self.seed,
        )
    }

    /// Checks everything that could stop a game before any is played:
    /// at least two bots, distinct labels that CSV can hold, known bots
    /// with valid keys (each is built once), games and threads above zero,
    /// valid rules.
    ///
    /// # Errors
    /// [`TournamentError::Config`] naming the problem.
    pub fn validate(&self, catalog: &Catalog) -> Result<(), TournamentError> {
        let bad = |m: String| Err(TournamentError::Config(m));
        if self.bots.len() < 2 {
            return bad(format!(
                "--bot: a tournament needs at least two bots, {} given",
                self.bots.len()
            ));
        }
        let labels = self.labels();
        for (i, l) in labels.iter().enumerate() {
            check_label(l).map_err(|e| TournamentError::Config(format!("--bot: {e}")))?;
            if labels[..i].contains(l) {
                return bad(format!(
                    "--bot: two bots are named '{l}'; give one a label, e.g. {}:label={l}2",
                    self.bots[i].name
                ));
            }
        }
        for spec in &self.bots {
            catalog
                .parse(spec.as_str())
                .map_err(|e| TournamentError::Config(format!("--bot: {e}")))?;
        }
        if self.games_per_pairing == 0 {
            return bad("--games: must be at least 1".into());
        }
        if self.threads == 0 {
            return bad("--threads: must be at least 1".into());
        }
        for r in &self.rules {
            r.validate()
                .map_err(|e| TournamentError::Config(format!("rules: {e}")))?;
        }
        Ok(())
    }

    /// Labels of the bots whose moves depend on wall-clock time.
    ///
    /// # Errors
    /// A bot that cannot be built.
    pub fn timed_bots(&self, catalog: &Catalog) -> Result<Vec<String>, TournamentError> {
        let mut out = Vec::new();
        for spec in &self.bots {
            let bot = catalog
                .build(spec, 0)
                .map_err(|e| TournamentError::Config(format!("--bot: {e}")))?;
            if bot.is_timed() {
                out.push(spec.label());
            }
        }
        Ok(out)
    }
}

/// Receives finished games, in game order, on the thread that called
/// [`run_games`].
pub trait Observer {
    /// Called once before any game, with the games already recorded
    /// (resumed) and the number of games in the run.
    fn on_start(&mut self, _done: &[GameRecord], _total: u64) {}

    /// One finished game and its `games.csv` line. `Break` stops the run
    /// (a sequential test that has decided).
    ///
    /// # Errors
    /// Stops the run and is passed on.
    fn on_game(
        &mut self,
        record: &GameRecord,
        row: &str,
    ) -> Result<ControlFlow<()>, TournamentError>;

    /// Called whenever no finished game is waiting: the moment to flush.
    ///
    /// # Errors
    /// Stops the run and is passed on.
    fn on_idle(&mut self) -> Result<(), TournamentError> {
        Ok(())
    }
}

/// An observer that keeps every record in memory.
#[derive(Clone, Debug, Default)]
pub struct Collect {
    /// The records, in game order.
    pub records: Vec<GameRecord>,
}

impl Observer for Collect {
    fn on_game(&mut self, r: &GameRecord, _: &str) -> Result<ControlFlow<()>, TournamentError> {
        self.records.push(*r);
        Ok(ControlFlow::Continue(()))
    }
}

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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("pahtum-game-{i}"))
        .build()
        .map_err(|e| TournamentError::Game(format!("thread pool: {e}")))?;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Batch>();
    let mut status = RunStatus {
        played: 0,
        stopped: false,
    };
    let mut failure: Option<TournamentError> = None;
    std::thread::scope(|scope| {
        let (schedule, labels, next, stop) = (&schedule, &labels, &next, &stop);
        scope.spawn(move || {
            pool.scope(|ps| {
                for _ in 0..threads {
                    let tx = tx.clone();
                    ps.spawn(move |_| {
                        // Finished games go out in batches at most
                        // BATCH_LATENCY old: one message (and one wake-up
                        // of the writer) per game would cost more than a
                        // fast game itself; slow games go out one by one.
                        let mut text = String::new();
                        let mut done = Vec::new();
                        let mut since = Instant::now();
                        loop {
                            if stop.load(Ordering::Relaxed) || cancel.load(Ordering::Relaxed) {
                                break;
                            }
                            let k = next.fetch_add(1, Ordering::Relaxed);
                            let Some(&g) = games.get(k) else { break };
                            let start = text.len();
                            let r = play_scheduled(
                                schedule,
                                &config.bots,
                                labels,
                                catalog,
                                g,
                                &mut text,
                            )
                            .map(|rec| (rec, start..text.len()));
                            done.push((k, r));
                            if since.elapsed() >= BATCH_LATENCY {
                                let capacity = text.capacity();
                                let batch = Batch {
                                    text: Arc::new(std::mem::replace(
                                        &mut text,
                                        String::with_capacity(capacity),
                                    )),
                                    games: std::mem::take(&mut done),
                                };
                                if tx.send(batch).is_err() {
                                    return;
                                }
                                since = Instant::now();
                            }
                        }
                        if !done.is_empty() {
                            let _ = tx.send(Batch {
                                text: Arc::new(text),
                                games: done,
                            });
                        }
                    });
                }
            });
            drop(tx);
        });
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
        while let Ok(batch) = rx.recv() {
            accept(batch, &mut pending, written, &mut failure);
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
    if cancel.load(Ordering::Relaxed) && (status.played as usize) < games.len() {
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
    if status.stopped && cancel.load(Ordering::Relaxed) {
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
    use crate::bot::builtin_catalog;

    fn config(threads: usize) -> TournamentConfig {
        let catalog = builtin_catalog();
        TournamentConfig {
            bots: ["random", "random:label=r2", "random:label=r3"]
                .iter()
                .map(|s| catalog.parse(s).expect("spec"))
                .collect(),
            games_per_pairing: 5,
            rules: vec![Rules::default()],
            format: Format::RoundRobin,
            seed: 11,
            threads,
            shard: Shard::ALL,
        }
    }

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
    fn bad_configs_are_refused() {
        let catalog = builtin_catalog();
        let mut c = config(1);
        c.bots.truncate(1);
        assert!(matches!(
            c.validate(&catalog),
            Err(TournamentError::Config(_))
        ));
        let mut c = config(1);
        c.bots[1] = c.bots[0].clone();
        let e = c.validate(&catalog).expect_err("dup");
        assert!(e.to_string().contains("two bots are named"), "{e}");
        let mut c = config(1);
        c.games_per_pairing = 0;
        assert!(c.validate(&catalog).is_err());
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
