//! Speed of one MCTS search from the bench position: `mcts_speed SPEC`.
//! Prints iterations, tree nodes, wall seconds and iterations per second
//! of the second of two identical searches (the first sizes the arena).

use std::time::Instant;

use pahtum::cli::bench::bench_position;
use pahtum::{Game, builtin_catalog};

/// CPU time of this process so far (all threads, finished ones
/// included), in nanoseconds: user plus system time from `/proc/self/stat`
/// (clock ticks of 10 ms); 0 where that file does not exist.
fn cpu_ns() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // Fields after the command name (which ends with ')'): utime is the
    // 12th and stime the 13th of them.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| f.get(i).and_then(|x| x.parse::<u64>().ok()).unwrap_or(0);
    (tick(11) + tick(12)) * 10_000_000
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let spec = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "mcts:rollout=random,reward=win,rave=off,prior=off,solver=false,reuse=false,iters=1000000".into());
    let catalog = builtin_catalog();
    let spec = catalog.parse(&spec)?;
    let mut bot = catalog.build(&spec, 3)?;
    let game = Game::new(bench_position());
    bot.select_move(&game)?;
    let (t0, c0) = (Instant::now(), cpu_ns());
    let mv = bot.select_move(&game)?;
    let (secs, cpu) = (t0.elapsed().as_secs_f64(), (cpu_ns() - c0) as f64 * 1e-9);
    let info = bot.last_search().unwrap_or_default();
    println!("move={mv} wall_s={secs:.3} cpu_s={cpu:.3} {}", info.extra);
    Ok(())
}
