//! Speed of one MCTS search from the bench position: `mcts_speed SPEC`.
//! Prints iterations, tree nodes, wall seconds and iterations per second
//! of the second of two identical searches (the first sizes the arena),
//! and the nodes of its tree.

use std::time::Instant;

use pahtum::arena::bench::{bench_position, cpu_seconds};
use pahtum::{Game, builtin_catalog};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "mcts:rollout=random,reward=win,rave=off,prior=off,mix=0,expand=2,solver=false,reuse=false,iters=1000000".into());
    let catalog = builtin_catalog();
    let spec = catalog.parse(&spec)?;
    let mut bot = catalog.build(&spec, 3)?;
    let game = Game::new(bench_position());
    bot.select_move(&game)?;
    let (t0, c0) = (Instant::now(), cpu_seconds());
    let mv = bot.select_move(&game)?;
    let secs = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(c0).map_or(0.0, |(b, a)| b - a);
    let info = bot.last_search().unwrap_or_default();
    println!(
        "move={mv} wall_s={secs:.3} cpu_s={cpu:.3} nodes={} {}",
        info.nodes, info.extra
    );
    Ok(())
}
