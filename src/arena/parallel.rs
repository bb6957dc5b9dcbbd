//! Playing games in parallel and handing them on in game order, and
//! [`run_tournament`], which plays a whole tournament so in memory.
//!
//! The games run on the arena's ordered runner ([`super::ordered`]): each
//! job builds fresh bots from the catalogue with seeds from (seed, game
//! index, seat), plays the game and formats its CSV line; the calling
//! thread owns the [`Observer`] and sees games strictly in game order, so
//! what it sees never depends on `threads`. A game in flight at an
//! interrupt (the cancel flag, or the process's [`crate::interrupt`]
//! flag, which every search also watches) is dropped: its searches were
//! cut short, and `--resume` plays it again from its seeds.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use super::game::play_game;
use super::games_csv::{GameRecord, push_row};
use super::moves_csv::push_game;
use super::ordered::{Deliver, cancelled, run_in_order};
use super::schedule::Schedule;
use super::tournament::{ArenaError, Collect, Observer, TournamentConfig};
use crate::bot::clock::TimeControl;
use crate::bot::{BotSpec, Catalog};

/// How [`run_games`] ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RunStatus {
    /// Games handed to the observer.
    pub played: u64,
    /// Whether it stopped early (cancel flag or the observer's `Break`).
    pub stopped: bool,
}

/// Plays game `index` of `schedule` with fresh bots; returns its record,
/// appends its `games.csv` line to `row` and its `moves.csv` lines to
/// `moves`.
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
    moves: &mut String,
) -> Result<GameRecord, ArenaError> {
    let sg = schedule.game(index);
    let start = schedule
        .start_game(&sg)
        .map_err(|e| ArenaError::Game(format!("game {index}: {e}")))?;
    let build = |bot: usize, seat: u64| {
        catalog
            .build(&bots[bot], schedule.bot_seed(&sg, seat))
            .map_err(|e| ArenaError::Game(format!("game {index}: {e}")))
    };
    let mut first = build(sg.first, 0)?;
    let mut second = build(sg.second, 1)?;
    let clocks = [
        time_control(&bots[sg.first], index)?,
        time_control(&bots[sg.second], index)?,
    ];
    let result = play_game(start, first.as_mut(), second.as_mut(), clocks, |_| {});
    let rec = GameRecord::new(&sg, &result);
    push_row(row, &rec, result.game.moves(), labels);
    push_game(moves, index, &result, &labels[sg.first], &labels[sg.second]);
    Ok(rec)
}

/// The `tc=` of `spec` (checked when the spec was parsed).
fn time_control(spec: &BotSpec, index: u64) -> Result<Option<TimeControl>, ArenaError> {
    spec.time_control()
        .map_err(|e| ArenaError::Game(format!("game {index}: {e}")))
}

/// Hands the runner's games to an [`Observer`].
struct Games<'a>(&'a mut dyn Observer);

impl Deliver<(GameRecord, String, String), ArenaError> for Games<'_> {
    fn deliver(
        &mut self,
        _: usize,
        (rec, row, moves): (GameRecord, String, String),
    ) -> Result<ControlFlow<()>, ArenaError> {
        self.0.on_moves(&rec, &moves)?;
        self.0.on_game(&rec, &row)
    }

    fn idle(&mut self) -> Result<(), ArenaError> {
        self.0.on_idle()
    }
}

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
) -> Result<RunStatus, ArenaError> {
    let schedule = config.schedule();
    let labels = config.labels();
    let work = |(row, moves): &mut (String, String), k: usize| {
        row.clear();
        moves.clear();
        let r = play_scheduled(
            &schedule,
            &config.bots,
            &labels,
            catalog,
            games[k],
            row,
            moves,
        );
        // A game in flight at an interrupt is dropped.
        (!cancelled(cancel)).then(|| r.map(|rec| (rec, row.clone(), moves.clone())))
    };
    let status = run_in_order(
        "game",
        games.len(),
        config.threads,
        cancel,
        <(String, String)>::default,
        work,
        &mut Games(observer),
    )?;
    Ok(RunStatus {
        played: status.delivered as u64,
        stopped: status.stopped,
    })
}

/// Plays the whole of `config`'s shard and returns its records in game
/// order, with no files: the entry point for experiments built on the
/// arena (sweeps, sequential tests). `observer` sees each game too.
///
/// # Errors
/// As [`TournamentConfig::validate`] and [`run_games`];
/// [`ArenaError::Interrupted`] when `cancel` was set.
pub fn run_tournament(
    config: &TournamentConfig,
    catalog: &Catalog,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Vec<GameRecord>, ArenaError> {
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
        fn on_game(&mut self, r: &GameRecord, row: &str) -> Result<ControlFlow<()>, ArenaError> {
            let _ = self.collect.on_game(r, row)?;
            self.inner.on_game(r, row)
        }
        fn on_idle(&mut self) -> Result<(), ArenaError> {
            self.inner.on_idle()
        }
    }
    let mut both = Both {
        inner: observer,
        collect: Collect::default(),
    };
    both.on_start(&[], games.len() as u64);
    let status = run_games(config, catalog, &games, cancel, &mut both)?;
    if status.stopped && cancelled(cancel) {
        return Err(ArenaError::Interrupted {
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
        fn on_game(&mut self, _: &GameRecord, row: &str) -> Result<ControlFlow<()>, ArenaError> {
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
        struct StopAt(u64);
        impl Observer for StopAt {
            fn on_game(&mut self, r: &GameRecord, _: &str) -> Result<ControlFlow<()>, ArenaError> {
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
        let mut s = StopAt(0);
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
