//! MCTS search speed from the bench position (`pahtum bench`'s layout):
//! plain UCT with random playouts, one thread and two (tree and root
//! parallelism), the same with lazy selection (`lazy=64`), and the
//! default engine. Each search asserts its budget.
//! The UCT searches take `pahtum bench`'s own configuration and unit of
//! work ([`pahtum::arena::bench`]) so that the two measure the same thing.

mod harness;

use harness::Criterion;
use pahtum::Game;
use pahtum::arena::bench::{LAZY_BENCH, bench_position, mcts_speed_config, search_once};
use pahtum::bot::mcts::MctsBot;
use pahtum::bot::mcts::config::{Budget, MctsConfig, Parallel};
use std::hint::black_box;

const ITERS: u64 = 20_000;

fn bench_mcts(c: &mut Criterion) {
    let game = Game::new(bench_position());
    let configs = [
        (
            "mcts_uct_20k_t1",
            mcts_speed_config(ITERS, 1, Parallel::Tree),
        ),
        (
            "mcts_uct_20k_t2_tree",
            mcts_speed_config(ITERS, 2, Parallel::Tree),
        ),
        (
            "mcts_uct_20k_t2_root",
            mcts_speed_config(ITERS, 2, Parallel::Root),
        ),
        (
            "mcts_uct_20k_t1_lazy64",
            MctsConfig {
                lazy: LAZY_BENCH,
                ..mcts_speed_config(ITERS, 1, Parallel::Tree)
            },
        ),
        (
            "mcts_default_20k_t1",
            MctsConfig {
                budget: Budget::Iters(ITERS),
                reuse: false,
                ..MctsConfig::default()
            },
        ),
    ];
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    for (name, cfg) in configs {
        let mut bot = MctsBot::new(name, cfg, 1);
        group.bench_function(name, |b| {
            b.iter(|| {
                let run = search_once(&mut bot, black_box(&game));
                assert_eq!(run.iterations, ITERS, "{name} runs its budget");
                assert!(run.nodes > 1);
                black_box(run.chosen.expect("a move"))
            })
        });
    }
    group.finish();
}

fn main() {
    bench_mcts(&mut Criterion::default());
}
