//! Time budgets are wall time for the whole move, as the caller measures
//! it: every `genmove` of `pahtum engine --bot mcts:ms=100` (or
//! `alphabeta:ms=100`) over a whole game, the first move with its setup
//! of search memory included, answers within a bound. The bound here is
//! generous for a loaded machine (the promise is 120 ms on an idle one);
//! run with `--nocapture` to see the slowest move measured.

use crate::common;

use std::time::{Duration, Instant};

use common::Served;

/// The most a move of a 100 ms budget may take in this test.
const BOUND: Duration = Duration::from_millis(250);

/// Plays a whole game of `bot` against itself through the engine
/// protocol and returns the wall time of each `genmove`, first first.
fn genmove_times(bot: &str) -> Vec<Duration> {
    let mut engine = Served::start(bot);
    let mut ask = |cmd: &str| engine.ask(cmd);
    ask("boardsize 7");
    ask("clear_board");
    ask("set_holes a1 c5 g7 d2 f6");
    let mut times = Vec::new();
    for ply in 0..44 {
        let colour = if ply % 2 == 0 { "w" } else { "b" };
        let t0 = Instant::now();
        let mv = ask(&format!("genmove {colour}"));
        times.push(t0.elapsed());
        assert!(!mv.is_empty());
    }
    engine.finish();
    times
}

fn check(bot: &str) {
    let times = genmove_times(bot);
    let (worst, at) = times
        .iter()
        .enumerate()
        .map(|(i, t)| (*t, i))
        .max()
        .expect("moves");
    eprintln!(
        "{bot}: slowest genmove {worst:?} (move {}), first {:?}",
        at + 1,
        times[0]
    );
    assert!(worst < BOUND, "{bot}: move {} took {worst:?}", at + 1);
}

#[test]
fn mcts_moves_keep_their_time_budget() {
    check("mcts:ms=100");
}

#[test]
fn alphabeta_moves_keep_their_time_budget() {
    check("alphabeta:ms=100");
}
