//! Game clocks (`tc=BASE+INC`): a built-in search bot shares its clock out
//! and never loses on time, even at 1 s + 0.01 s a game on a machine the
//! other tests load; a bot that overruns its clock loses (`timeout`); the
//! protocol carries the clock to `pahtum engine`; specs that mix a clock
//! with a per-move budget are refused.

use crate::common;

use std::time::{Duration, Instant};

use common::{Served, assert_none_left, ok, read, refused, repo};

/// Columns of `games.csv` rows, by header name.
fn rows(text: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("header").split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Plays a tournament of `bots` with `games` a pairing into a temporary
/// directory and returns its `games.csv` rows and `run.json`.
fn clocked_run(
    bots: &[&str],
    games: u32,
    seed: u32,
) -> (Vec<std::collections::HashMap<String, String>>, String) {
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("run");
    let (games, seed) = (games.to_string(), seed.to_string());
    let mut args = vec!["tournament", "--format", "gauntlet"];
    for b in bots {
        args.extend(["--bot", b]);
    }
    args.extend([
        "--games",
        &games,
        "--seed",
        &seed,
        "--threads",
        "2",
        "--quiet",
    ]);
    args.extend(["--out", out.to_str().expect("utf-8")]);
    ok(&args);
    (
        rows(&read(&out.join("games.csv"))),
        read(&out.join("run.json")),
    )
}

/// The done-when of the clocks: the default engine at `tc=1+0.01` loses
/// none of 200 games on time (nor any other way but over the board), on a
/// machine the other tests load.
#[test]
fn the_default_engine_never_loses_on_time_at_one_second_a_game() {
    let (games, run) = clocked_run(&["mcts:tc=1+0.01", "heuristic"], 200, 48);
    assert_eq!(games.len(), 200);
    let mut slowest: u64 = 0;
    for g in &games {
        assert_eq!(g["termination"], "normal", "{g:?}");
        let colour = if g["white"] == "heuristic" {
            "black"
        } else {
            "white"
        };
        slowest = slowest.max(g[&format!("{colour}_ms")].parse().expect("ms"));
    }
    // 1 s and 22 increments of 10 ms: what a game's moves may take.
    assert!(slowest <= 1220 + 25, "{slowest} ms");
    assert!(run.contains("\"replayable\": false"), "{run}");
}

/// Every other search bot manages the same clock, the managed `mcts`
/// strategies too.
#[test]
fn every_search_bot_keeps_inside_its_clock() {
    let bots = [
        "heuristic",
        "zero:tc=1+0.01",
        "alphabeta:tc=1+0.01",
        "flatmc:tc=1+0.01",
        "mcts:tc=1+0.01,alloc=searched,early=true,label=managed",
    ];
    let (games, _) = clocked_run(&bots, 6, 49);
    assert_eq!(games.len(), 24);
    for g in &games {
        assert_eq!(g["termination"], "normal", "{g:?}");
    }
}

/// A clock that runs out is a loss: an engine that knows no time command
/// and hangs on its second move loses on time once its 0.5 s are gone,
/// not after the 30 s move timeout.
#[test]
fn an_engine_that_overruns_its_clock_loses_on_time() {
    let tag = format!("clock-hang-{}", std::process::id());
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("run");
    let engine = format!(
        "slow=python3 {} hang 2 {tag}",
        repo("tests/engines/faulty.py")
    );
    let t0 = Instant::now();
    ok(&[
        "tournament",
        "--engine",
        &engine,
        "--bot",
        "slow:tc=0.5+0",
        "--bot",
        "random",
        "--games",
        "2",
        "--seed",
        "3",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    let games = rows(&read(&out.join("games.csv")));
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g["termination"], "timeout", "{g:?}");
        let slow = if g["white"].starts_with("slow") {
            "white"
        } else {
            "black"
        };
        assert_ne!(g["winner"], slow, "{g:?}");
        let plies: usize = g["plies"].parse().expect("plies");
        assert!(plies <= 3, "{g:?}");
    }
    assert_none_left(&tag);
}

/// `pahtum engine` reads the clock of `time_left` and plays inside it:
/// 44 moves of one game against a clock of 2 s with no increment, each
/// told what is left, end with time to spare; `search_info` reports the
/// search.
#[test]
fn the_engine_shares_the_clock_it_is_told() {
    let mut engine = Served::start("mcts");
    let mut ask = |cmd: &str| engine.ask(cmd);
    assert_eq!(ask("known_command time_left"), "true");
    assert_eq!(ask("known_command search_info"), "true");
    ask("set_holes a1 c5 g7 d2 f6");
    ask("time_settings 2 0");
    let mut left = [Duration::from_secs(2); 2];
    for ply in 0..44 {
        let side = ply % 2;
        let colour = ["w", "b"][side];
        ask(&format!(
            "time_left {colour} {:.3}",
            left[side].as_secs_f64()
        ));
        let t0 = Instant::now();
        let mv = ask(&format!("genmove {colour}"));
        let took = t0.elapsed();
        assert!(!mv.is_empty());
        assert!(
            took <= left[side],
            "ply {ply}: {took:?} with {:?} left",
            left[side]
        );
        left[side] -= took;
        if ply == 0 {
            let info = ask("search_info");
            assert!(info.starts_with("nodes="), "{info}");
            assert!(info.contains(" pv="), "{info}");
        }
    }
    ask("quit");
    engine.finish();
}

#[test]
fn clocks_and_move_budgets_do_not_mix() {
    for (spec, key) in [
        ("mcts:tc=1+0.01,iters=100", "iters"),
        ("mcts:tc=1+0.01,ms=10", "ms"),
        ("alphabeta:tc=5,depth=3", "depth"),
        ("flatmc:tc=5,playouts=100", "playouts"),
    ] {
        let e = refused(&["play", "--white", spec, "--black", "random"]);
        assert!(
            e.contains("tc=") && e.contains(&format!("drop {key}=")),
            "{spec}: {e}"
        );
    }
    for bad in ["mcts:tc=0+1", "random:tc=x", "heuristic:tc=1+-1"] {
        let e = refused(&["play", "--white", bad, "--black", "random"]);
        assert!(e.contains("time control"), "{bad}: {e}");
    }
    // Where no game is played on a clock, a clock is refused, not ignored.
    let e = refused(&["engine", "--bot", "mcts:tc=5"]);
    assert!(e.contains("--bot") && e.contains("tc="), "{e}");
    let e = refused(&[
        "review",
        "--moves",
        "d4",
        "--layout",
        "a1",
        "--bot",
        "mcts:tc=5",
    ]);
    assert!(e.contains("--bot") && e.contains("tc="), "{e}");
    // Every bot takes a clock, external engines too (bots that do not
    // search never come near it).
    let out = ok(&[
        "play",
        "--white",
        "random:tc=5",
        "--black",
        "greedy:tc=5+0.1",
        "--quiet",
    ]);
    assert!(
        out.lines().last().expect("result").starts_with("result="),
        "{out}"
    );
}
