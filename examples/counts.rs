//! The fixed workloads of CI's instruction-count guard
//! (`.ci/instruction-counts`), one per run: `counts WORKLOAD`, with
//! WORKLOAD one of `playouts`, `uct`, `default`, `solver`.
//!
//! Setup (the arena's first allocation, the solver's table, the line
//! tables) happens before `measured`, the one function the guard counts,
//! so the counts are those of the hot loops. Each prints a check value
//! (a playout tally, a node count and move) so that the work cannot be
//! optimised away and a change of results shows.

use pahtum::arena::bench::{bench_position, mcts_speed_config, search_once, solver_positions};
use pahtum::bot::mcts::MctsBot;
use pahtum::bot::mcts::config::{Budget, MctsConfig, Parallel};
use pahtum::solve::{SolveLimits, Solver};
use pahtum::{FastRng, Game};

/// The counted part: runs `f` once.
#[inline(never)]
fn measured<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// One search of `cfg` from the bench position, after an untimed one that
/// sizes the arena and builds the tables.
fn search(cfg: MctsConfig) -> String {
    let game = Game::new(bench_position());
    let mut bot = MctsBot::new("counts", cfg, 3);
    let _ = search_once(&mut bot, &game);
    let run = measured(|| search_once(&mut bot, &game));
    format!("nodes={} move={:?}", run.nodes, run.chosen)
}

fn main() {
    let name = std::env::args().nth(1).unwrap_or_default();
    let check = match name.as_str() {
        "playouts" => {
            let pos = bench_position();
            let mut rng = FastRng::new(7);
            let wins = measured(|| {
                (0..100_000)
                    .filter(|_| pos.random_playout(&mut rng) > 0)
                    .count()
            });
            format!("white_wins={wins}")
        }
        "uct" => search(mcts_speed_config(50_000, 1, Parallel::Tree)),
        "default" => search(MctsConfig {
            budget: Budget::Iters(2_000),
            reuse: false,
            ..MctsConfig::default()
        }),
        "solver" => {
            let pos = solver_positions(18)[0];
            let mut solver = Solver::new(16);
            let line = measured(|| {
                solver
                    .solve(&pos, &SolveLimits::default())
                    .map(|s| s.line())
            });
            format!("{line:?}")
        }
        _ => {
            eprintln!("counts: WORKLOAD must be playouts, uct, default or solver");
            std::process::exit(2);
        }
    };
    println!("{name} {check}");
}
