//! The fixed workloads behind `pahtum bench`'s speed figures and the
//! benches in `benches/`: the bench position, the MCTS configuration of
//! the speed figures and the timed unit of work (one search). They live
//! in the library below the command line so that the benches build
//! against the engine alone and both measure the same thing.

use std::time::Instant;

use crate::bot::builtin_catalog;
use crate::bot::mcts::MctsBot;
use crate::bot::mcts::config::{
    Budget, FinalChoice, MctsConfig, Model, Parallel, Prior, Rave, Reward, Rollout,
};
use crate::eval::EvalWeights;
use crate::game::outcome::Move;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::FastRng;
use crate::game::rules::Rules;

/// The fixed position every figure starts from: a standard game with holes
/// drawn from seed 1.
pub fn bench_position() -> Position {
    let mut rng = FastRng::new(1);
    Rules::default()
        .new_game(&mut rng)
        .unwrap_or_else(|e| unreachable!("standard rules are valid: {e}"))
}

/// The MCTS of the speed figures: plain UCT with uniformly random
/// playouts (the setting other engines are compared in), no reuse; the
/// benches measure the same search.
///
/// Every key is written out, none taken from `MctsConfig::default()`:
/// a tuned default (an exploration constant, a minimax weight that turns
/// on a static evaluation at every leaf) would otherwise change what
/// "plain UCT" measures, and the figure would move without the code
/// moving. The values are those plain UCT had when the figure was first
/// compared with other engines (`experiments/speed/`).
pub fn mcts_speed_config(iters: u64, threads: usize, parallel: Parallel) -> MctsConfig {
    MctsConfig {
        budget: Budget::Iters(iters),
        c: 0.2,
        fpu: 1.0,
        expand: 2,
        lazy: 0,
        rollout: Rollout::Random,
        eps: 0.0,
        tempo: 0.0,
        reward: Reward::Win,
        scale: 10.0,
        win_share: 0.0,
        rave: Rave::Off,
        bias: 0.0,
        r#ref: 0,
        prior: Prior::Off,
        k: 0,
        widen: 0.0,
        pw: 0.0,
        minimax: 0.0,
        solver: false,
        exact: 0,
        prove: 0,
        prove_nodes: 1,
        reuse: false,
        alloc: crate::bot::clock::Allocation::Even,
        early: false,
        r#final: FinalChoice::Visits,
        model: Model::Off,
        model_after: 0,
        threads,
        parallel,
        max_nodes: SPEED_MAX_NODES,
        weights: EvalWeights::default(),
        net: None,
        pvnet: None,
        mix: 0.0,
    }
}

/// The node bound of the speed figures: the one they have always run
/// with (when a long search fills it, leaves stop expanding).
pub const SPEED_MAX_NODES: u32 = 4_000_000;

/// The `lazy=` of the lazy-selection figures: the setting measured in
/// `MctsConfig`'s docs.
pub const LAZY_BENCH: u32 = 64;

/// What one [`search_once`] did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchRun {
    /// The chosen move; `None` when the search failed.
    pub chosen: Option<Move>,
    /// Iterations the search reported (0 without a report).
    pub iterations: u64,
    /// Tree nodes the search reported (0 without a report).
    pub nodes: u64,
}

/// One search of `bot` from `game`: the unit of work that both the
/// speed figures and the benches time, so that they count the same.
pub fn search_once(bot: &mut MctsBot, game: &Game) -> SearchRun {
    let chosen = bot.search(game).ok();
    let (iterations, nodes) = bot.report().map_or((0, 0), |r| (r.iterations, r.nodes));
    SearchRun {
        chosen,
        iterations,
        nodes,
    }
}

/// CPU seconds this process has used (all threads, finished ones
/// included), from `getrusage` (user and system time, to the
/// microsecond; on Linux the scheduler's exact count, not 10 ms ticks,
/// so that a window of a few milliseconds is measured); `None` off Unix.
#[cfg(unix)]
pub fn cpu_seconds() -> Option<f64> {
    use nix::sys::resource::{UsageWho, getrusage};
    use nix::sys::time::TimeValLike;
    let u = getrusage(UsageWho::RUSAGE_SELF).ok()?;
    Some((u.user_time().num_microseconds() + u.system_time().num_microseconds()) as f64 / 1e6)
}

/// CPU seconds this process has used: unknown off Unix.
#[cfg(not(unix))]
pub fn cpu_seconds() -> Option<f64> {
    None
}

/// Timed searches behind each MCTS figure. With several threads sharing
/// a tree the threads' timing shapes the tree, and one search's speed
/// varies by a third or more between runs; the figure is the total over
/// several searches, so that it measures the engine rather than one draw.
pub const MCTS_SEARCHES: u32 = 3;

/// The speed of a timed stretch of work.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Speed {
    /// Work (iterations, evaluations) per wall-clock second.
    pub per_s: f64,
    /// Work per CPU second of the whole process (when known): on a
    /// shared machine the figure that does not depend on the other load.
    pub per_cpu_s: Option<f64>,
    /// CPU time over wall time times the threads asked for (when known):
    /// 1 when every thread worked all the time, 0.5 when two threads did
    /// the work of one (one waited, or the machine ran something else).
    pub cpu_util: Option<f64>,
}

/// Times `work` (which returns the work it did) on `threads` threads.
pub fn timed(threads: usize, work: impl FnOnce() -> u64) -> Speed {
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let done = work() as f64;
    let secs = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds()
        .zip(c0)
        .map(|(b, a)| b - a)
        .filter(|&c| c > 0.0);
    Speed {
        per_s: done / secs,
        per_cpu_s: cpu.map(|c| done / c),
        cpu_util: cpu.map(|c| c / (secs * threads as f64)),
    }
}

/// Iterations of [`MCTS_SEARCHES`] searches of `cfg` from the bench
/// position, after an untimed search that sizes the arena (and starts a
/// pool's threads), timed on `cfg.threads` threads. With enough idle
/// cores, wall-clock speed of `t` threads is the CPU figure times `t`.
pub fn mcts_iters_per_s(cfg: MctsConfig) -> Speed {
    let game = Game::new(bench_position());
    let threads = cfg.threads;
    let mut bot = MctsBot::new("bench", cfg, 3);
    let _ = search_once(&mut bot, &game);
    timed(threads, || {
        (0..MCTS_SEARCHES)
            .map(|_| search_once(&mut bot, &game).iterations)
            .sum()
    })
}

/// Network evaluations of [`MCTS_SEARCHES`] searches of `zero` with its
/// defaults, `threads` threads, `iters` leaves a search and no tree
/// reuse, from the bench position, after an untimed one (as
/// [`mcts_iters_per_s`]). From the bench position nearly every leaf is an
/// evaluation, so this is also its iterations a second.
pub fn zero_evals_per_s(iters: u64, threads: usize) -> Speed {
    let game = Game::new(bench_position());
    let text = format!("zero:iters={iters},threads={threads},reuse=false");
    let catalog = builtin_catalog();
    let mut bot = catalog
        .parse(&text)
        .and_then(|spec| catalog.build(&spec, 3))
        .unwrap_or_else(|e| unreachable!("a spec of keys in range: {e}"));
    let mut search = || {
        bot.select_move(&game).ok().map_or(0, |_| {
            bot.last_search()
                .and_then(|s| evals_of(&s.extra))
                .unwrap_or(0)
        })
    };
    let _ = search();
    timed(threads, || (0..MCTS_SEARCHES).map(|_| search()).sum())
}

/// The `evals=N` of a `zero` search's report.
fn evals_of(extra: &str) -> Option<u64> {
    extra
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("evals="))
        .and_then(|n| n.parse().ok())
}

/// Positions per free-square count of the solver figures.
const SOLVER_POSITIONS: u64 = 5;

/// The fixed positions of the solver figures: the bench position played on
/// by uniformly random moves (seeds 1, 2, ...) until `empties` squares are
/// free, White or Black to move as the count falls.
pub fn solver_positions(empties: u32) -> Vec<Position> {
    (1..=SOLVER_POSITIONS)
        .map(|seed| {
            let mut pos = bench_position();
            let mut rng = FastRng::new(1000 * empties as u64 + seed);
            while pos.empty().count() > empties {
                let free = pos.empty();
                let k = rng.below(free.count());
                let sq = free
                    .nth(k)
                    .unwrap_or_else(|| unreachable!("k is below the free count"));
                pos.play(sq);
            }
            pos
        })
        .collect()
}
