//! The `mcts` bot: legality, determinism, budgets, parallel search, memory
//! bound, tactics and exact endgames (seconds in all), plus the strength
//! measurement used to choose the defaults (`#[ignore]`d; run in release):
//!
//! ```sh
//! MCTS_A=mcts MCTS_B=heuristic MCTS_PAIRS=100 MCTS_THREADS=2 \
//!   cargo test --release --test integration mcts::strength -- --ignored --nocapture
//! ```

use crate::common;

use std::time::{Duration, Instant};

use common::wilson;
use pahtum::arena::game::{Termination, play_game};
use pahtum::bot::mcts::config::MctsConfig;
use pahtum::bot::mcts::{MctsBot, SearchReport, Tree};
use pahtum::bot::random::RandomBot;
use pahtum::{
    Bitboard, Bot, FastRng, Game, Komi, Move, Outcome, Player, Position, Rules, Square,
    builtin_catalog, derive_seed,
};

fn bot(spec: &str, seed: u64) -> MctsBot {
    let catalog = builtin_catalog();
    let spec = catalog.parse(spec).expect("valid spec");
    let params = pahtum::bot::Params::new(&spec);
    MctsBot::new(
        spec.label(),
        MctsConfig::from_params(&params).expect("config"),
        seed,
    )
}

fn sq(s: &str) -> Square {
    s.parse().expect("square")
}

fn report(b: &MctsBot) -> SearchReport {
    b.report().cloned().expect("a search ran")
}

/// A standard position after `plies` random moves.
fn random_position(seed: u64, plies: u32) -> Position {
    let mut rng = FastRng::new(seed);
    let mut p = Rules::default().new_game(&mut rng).expect("game");
    for _ in 0..plies {
        let k = rng.below(p.empty().count());
        p.play(p.empty().nth(k).expect("free"));
    }
    p
}

fn legal(pos: &Position, mv: Move) -> bool {
    let mut p = *pos;
    p.try_play_move(mv).is_ok()
}

#[test]
fn one_thread_is_deterministic() {
    for plies in [0, 9, 20] {
        let game = Game::new(random_position(plies as u64, plies));
        let run = || {
            let mut b = bot("mcts:iters=3000", 42);
            let mv = b.select_move(&game).expect("move");
            (mv, report(&b).nodes, report(&b).iterations)
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b);
        assert_eq!(a.2, 3000);
        assert!(legal(game.position(), a.0));
    }
}

/// The move and node count of `spec`'s search of `game`, checking that
/// the move is legal and that exactly `iters` iterations ran.
fn searched(game: &Game, spec: &str, seed: u64, iters: u64) -> (Move, u64) {
    let mut b = bot(spec, seed);
    let mv = b.select_move(game).expect("move");
    assert!(legal(game.position(), mv), "{spec}: {mv}");
    let r = report(&b);
    assert_eq!(r.iterations, iters, "{spec}");
    (mv, r.nodes)
}

#[test]
fn lazy_selection_is_deterministic_and_changes_the_search() {
    let game = Game::new(random_position(3, 4));
    let run = |spec: &str| searched(&game, spec, 42, 20_000);
    let plain = "mcts:iters=20000,rollout=random,reward=win,rave=off,prior=off,mix=0,expand=2";
    let lazy = format!("{plain},lazy=64");
    assert_eq!(run(&lazy), run(&lazy));
    // `lazy=0` is the textbook search, the default.
    assert_eq!(run(plain), run(&format!("{plain},lazy=0")));
    // Reused choices give a different tree (here, a different node count).
    assert_ne!(run(plain).1, run(&lazy).1);
    run("mcts:iters=20000,rollout=random,lazy=16,threads=2");
    let root = "mcts:iters=20000,lazy=64,threads=2,parallel=root";
    assert_eq!(run(root), run(root));
}

#[test]
fn learned_leaves_are_deterministic_and_not_the_heuristic() {
    let game = Game::new(random_position(6, 5));
    let run = |spec: &str| searched(&game, spec, 11, 5000);
    for spec in [
        "mcts:iters=5000,rollout=net",
        "mcts:iters=5000,rollout=value",
    ] {
        assert_eq!(run(spec), run(spec), "{spec}");
    }
    // The network, not a fallback to heuristic playouts, guides them.
    let heuristic = run("mcts:iters=5000,rollout=heuristic").1;
    assert_ne!(run("mcts:iters=5000,rollout=net").1, heuristic);
    assert_ne!(run("mcts:iters=5000,rollout=value").1, heuristic);
    // On a board the built-in network does not cover, they fall back.
    let small = Rules {
        size: 5,
        ..Rules::default()
    };
    let g5 = Game::new(small.new_game(&mut FastRng::new(2)).expect("game"));
    let (a, _) = searched(&g5, "mcts:iters=500,rollout=net", 1, 500);
    assert!(legal(g5.position(), a));
}

#[test]
fn root_parallel_is_deterministic_and_budgets_hold() {
    let game = Game::new(random_position(5, 3));
    let run = |spec: &str| searched(&game, spec, 7, 4001);
    let root = "mcts:iters=4001,threads=2,parallel=root";
    assert_eq!(run(root), run(root));
    run("mcts:iters=4001,threads=2,parallel=tree");
    run("mcts:iters=4001,threads=3,parallel=tree,rave=off,prior=off");
}

#[test]
fn timed_search_stops_in_time() {
    let game = Game::new(random_position(8, 2));
    for spec in [
        "mcts:ms=40",
        "mcts:ms=40,threads=2",
        "mcts:ms=40,threads=2,parallel=root",
    ] {
        let mut b = bot(spec, 1);
        assert!(b.is_timed());
        let t0 = Instant::now();
        let mv = b.select_move(&game).expect("move");
        assert!(t0.elapsed() < Duration::from_millis(1500), "{spec}");
        assert!(legal(game.position(), mv));
        assert!(report(&b).iterations > 0);
    }
}

#[test]
fn whole_games_are_legal_with_pie_rule_and_reuse() {
    let rules = Rules {
        pie: true,
        ..Rules::default()
    };
    for (i, spec) in [
        "mcts:iters=400",
        "mcts:iters=400,reuse=false,rave=rave,prior=prune,k=5,final=value",
        "mcts:iters=400,rollout=heuristic,reward=win,solver=false",
        "mcts:iters=400,rollout=greedy,threads=2",
        "mcts:iters=400,threads=2,parallel=root,rave=off,prior=off",
        "mcts:iters=400,rollout=random,lazy=16,rave=grave,threads=2",
        "mcts:iters=400,rollout=net,threads=2",
        "mcts:iters=400,rollout=value,prior=bias,reuse=false",
    ]
    .into_iter()
    .enumerate()
    {
        let start = rules.new_game(&mut FastRng::new(i as u64)).expect("game");
        let mut m = bot(spec, 3);
        let mut r = RandomBot::new("random", 4);
        for first in [true, false] {
            let res = if first {
                play_game(Game::new(start), &mut m, &mut r, [None; 2], |_| {})
            } else {
                play_game(Game::new(start), &mut r, &mut m, [None; 2], |_| {})
            };
            assert_eq!(res.termination, Termination::Normal, "{spec}");
            assert!(res.game.is_over());
        }
    }
}

#[test]
fn pie_reply_is_searched() {
    // After a strong first stone the swap (a root child) should be taken;
    // in any case the reply must be legal.
    let mut p = Position::new(7, Bitboard::EMPTY, true, Komi::ZERO).expect("pos");
    p.play(sq("d4"));
    let game = {
        let mut g = Game::new(Position::new(7, Bitboard::EMPTY, true, Komi::ZERO).expect("pos"));
        g.try_play(Move::Place(sq("d4"))).expect("legal");
        g
    };
    let mut b = bot("mcts:iters=3000", 5);
    let mv = b.select_move(&game).expect("move");
    assert!(legal(&p, mv));
    let r = report(&b);
    assert!(
        r.moves.iter().any(|m| m.mv == Move::Swap),
        "swap is a root child"
    );
}

#[test]
fn reuse_keeps_the_subtree() {
    let mut game = Game::new(random_position(2, 0));
    let mut b = bot("mcts:iters=2000", 9);
    let mv = b.select_move(&game).expect("move");
    game.try_play(mv).expect("legal");
    let reply = game.position().empty().first().expect("free");
    game.try_play(Move::Place(reply)).expect("legal");
    let mv = b.select_move(&game).expect("move");
    assert!(legal(game.position(), mv));
    assert!(report(&b).reused);
    // A different game (another start) is never reused.
    let other = Game::new(random_position(3, 2));
    b.select_move(&other).expect("move");
    assert!(!report(&b).reused);
}

#[test]
fn node_bound_is_respected() {
    let game = Game::new(random_position(4, 0));
    for spec in [
        "mcts:iters=20000,max_nodes=500,expand=1",
        "mcts:iters=20000,max_nodes=500,expand=1,threads=2",
        "mcts:iters=20000,max_nodes=1000,expand=1,threads=2,parallel=root",
    ] {
        let mut b = bot(spec, 1);
        let mv = b.select_move(&game).expect("move");
        assert!(legal(game.position(), mv));
        let r = report(&b);
        assert!(r.nodes <= 1000, "{spec}: {}", r.nodes);
        assert_eq!(r.iterations, 20000, "{spec}: keeps simulating when full");
    }
}

#[test]
fn nodes_are_compact() {
    const { assert!(Tree::NODE_BYTES <= 64) };
}

/// White's exact margin in half points, by plain minimax.
fn minimax(pos: &mut Position) -> i32 {
    let v = common::minimax(pos);
    if pos.turn() == Player::White { v } else { -v }
}

/// The result for the mover of White margin `m`.
fn result_for(mover: Player, m: i32) -> Outcome {
    let o = Outcome::from_margin_halves(m);
    match (o, mover) {
        (Outcome::Draw, _) => Outcome::Draw,
        (o, Player::White) => o,
        (Outcome::WhiteWins, Player::Black) => Outcome::BlackWins,
        (_, Player::Black) => Outcome::WhiteWins,
    }
}

#[test]
fn endgames_match_exhaustive_minimax() {
    let mut checked = 0;
    for seed in 0..24u64 {
        let empty = 5 + (seed % 4) as u32; // 5..=8 empty squares
        let pos = random_position(100 + seed, 44 - empty);
        let me = pos.turn();
        let best = minimax(&mut pos.clone());
        let game = Game::new(pos);
        // The exact endgame search at the root (the tree search only picks
        // among the moves it proves to keep the result); MCTS-Solver alone
        // (no exact search nor root proof), also with lazy selection on
        // (that a proven child is chosen afresh is tested in
        // `search::tests`); the root proof alone.
        let exact = "mcts:iters=300";
        let proof = "mcts:iters=300,exact=0";
        for spec in [
            exact,
            "mcts:iters=30000,exact=0,prove=0,expand=1",
            "mcts:iters=30000,exact=0,prove=0,expand=1,lazy=16",
            proof,
        ] {
            let mut b = bot(spec, seed);
            let Move::Place(s) = b.select_move(&game).expect("move") else {
                panic!("no swap here")
            };
            let mut after = pos;
            after.play(s);
            assert_eq!(
                result_for(me, minimax(&mut after)),
                result_for(me, best),
                "{spec}: {pos}"
            );
            if spec == exact {
                assert_eq!(report(&b).exact_margin, Some(best));
                // The exact result is the mover's expected score, and a
                // mean is given only for a move the tree search visited.
                let mine = if me == Player::White { best } else { -best };
                let info = b.last_search().expect("a search");
                assert_eq!(info.expect, Some(f64::from(mine.signum() + 1) / 2.0));
                let top = report(&b).moves.first().map_or(0, |m| m.visits);
                assert_eq!(info.eval.is_some(), top > 0, "{:?}", report(&b));
            }
            if spec == proof {
                let mine = if me == Player::White { best } else { -best };
                assert_eq!(report(&b).proven, Some(mine.signum()));
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 24);
}

/// Layout `c1 e2 a3` of 5x5 after d3 b2: White wins, and the tree search
/// alone of the engine before the hybrid default (`prior=prune,mix=0,
/// expand=2` with `prove=0`) played b3, which only draws (it did so in a
/// game against perfect play, experiments/perfect-play/); the default's
/// root proof keeps the win.
#[test]
fn root_proof_keeps_a_won_5x5_opening() {
    let holes = [sq("c1"), sq("e2"), sq("a3")]
        .into_iter()
        .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
    let mut pos = Position::new(5, holes, false, Komi::ZERO).expect("layout");
    pos.play(sq("d3"));
    pos.play(sq("b2"));
    let game = Game::new(pos);
    let mut solver = pahtum::solve::Solver::new(16);
    let limits = pahtum::solve::SolveLimits::default();
    let mut white_wins = |mv: Move| {
        let mut p = pos;
        p.try_play_move(mv).expect("legal");
        solver.result_sign(&p, &limits).expect("no limits") == -1
    };
    let mut without = Vec::new();
    for seed in 1..=3 {
        let mut b = bot("mcts", seed);
        let mv = b.select_move(&game).expect("move");
        assert!(white_wins(mv), "seed {seed}: {mv} does not keep the win");
        assert_eq!(report(&b).proven, Some(1));
        let tree_alone = "mcts:prior=prune,mix=0,expand=2,prove=0";
        without.push(bot(tree_alone, seed).select_move(&game).expect("move"));
    }
    assert!(
        without.iter().any(|&mv| !white_wins(mv)),
        "without the proof: {without:?}"
    );
}

/// The searches that must complete or block an open four: the default,
/// plain UCT (with and without lazy selection), the learned leaves (with
/// the heuristic's prior) and the engine before the hybrid default.
const LINE_SPECS: [&str; 6] = [
    "mcts:iters=2000",
    "mcts:iters=2000,rollout=random,reward=win,rave=off,prior=off,mix=0,expand=2,solver=false",
    "mcts:iters=2000,rollout=random,reward=win,rave=off,prior=off,mix=0,expand=2,solver=false,lazy=64",
    "mcts:iters=2000,rollout=net,prior=prune,mix=0,expand=2,solver=false",
    "mcts:iters=2000,rollout=value,prior=prune,mix=0,expand=2,solver=false",
    "mcts:iters=2000,prior=prune,mix=0,expand=2",
];

#[test]
fn completes_and_blocks_lines() {
    // White owns a4 b4 c4 e4 f4 g4: d4 makes a run of 7 (119 points, a
    // gain of 113); Black's stones are scattered.
    let holes = Bitboard::EMPTY;
    let w: Bitboard = ["a4", "b4", "c4", "e4", "f4", "g4"]
        .iter()
        .map(|s| sq(s))
        .collect();
    let b: Bitboard = ["a1", "c2", "e6", "g1", "b7", "f2"]
        .iter()
        .map(|s| sq(s))
        .collect();
    let pos = Position::with_stones(7, holes, w, b, false, Komi::ZERO).expect("pos");
    assert_eq!(pos.turn(), Player::White);
    for spec in LINE_SPECS {
        let mut m = bot(spec, 1);
        let mv = m.select_move(&Game::new(pos)).expect("move");
        assert_eq!(mv, Move::Place(sq("d4")), "{spec} completes the line");
    }
    // The same line with Black to move: Black must block d4.
    let b2: Bitboard = b & !Bitboard::from_square(sq("f2"));
    let pos = Position::with_stones(7, holes, w, b2, false, Komi::ZERO).expect("pos");
    assert_eq!(pos.turn(), Player::Black);
    for spec in LINE_SPECS {
        let mut m = bot(spec, 1);
        let mv = m.select_move(&Game::new(pos)).expect("move");
        assert_eq!(mv, Move::Place(sq("d4")), "{spec} blocks the line");
    }
}

#[test]
fn cli_lists_and_plays_mcts() {
    let exe = env!("CARGO_BIN_EXE_pahtum");
    let out = std::process::Command::new(exe)
        .arg("bots")
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    for key in [
        "iters",
        "rollout",
        "rave",
        "prior",
        "solver",
        "parallel",
        "max_nodes",
        "model",
    ] {
        assert!(text.contains(key), "bots lists {key}");
    }
    let text = play_verbose("mcts:iters=300", "random", &[]);
    assert!(
        text.lines()
            .last()
            .is_some_and(|l| l.starts_with("result=")),
        "{text}"
    );
    let out = std::process::Command::new(exe)
        .args(["play", "--white", "mcts:iters=0", "--black", "random"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

/// The opponent model switches on against `heuristic` (every one of its
/// moves is of best line-potential value) once it has made two moves, and
/// `--verbose` says so; against `random` it never does, and with
/// `model=off` never either.
#[test]
fn verbose_play_shows_when_the_opponent_is_modelled() {
    let play = |white: &str, black: &str| {
        let text = play_verbose(white, black, &["--seed", "3"]);
        let modelled = text.lines().filter(|l| l.contains("model=white")).count();
        (modelled, text)
    };
    let (n, text) = play("heuristic", "mcts:iters=300");
    // Black's searches from its second move on: 22 moves on the standard
    // board, less those the exact endgame search decides alone.
    assert!(n >= 10, "{n} modelled searches\n{text}");
    let (n, text) = play("random", "mcts:iters=300");
    assert_eq!(n, 0, "{text}");
    let (n, text) = play("heuristic", "mcts:iters=300,model=off");
    assert_eq!(n, 0, "{text}");
}

/// The output of `pahtum play --white WHITE --black BLACK ARGS --verbose`,
/// which must succeed.
fn play_verbose(white: &str, black: &str, args: &[&str]) -> String {
    let mut all = vec!["play", "--white", white, "--black", black, "--verbose"];
    all.extend(args);
    common::ok(&all)
}

/// Games, wins, draws of A.
#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
}

/// Paired games: layout `i` (standard rules, random 5 holes from
/// `derive_seed(seed, [i])`) is played twice, A first and B first.
fn play_pairs(a: &str, b: &str, pairs: u64, seed: u64, threads: u64) -> Tally {
    let catalog = builtin_catalog();
    let (sa, sb) = (
        catalog.parse(a).expect("spec a"),
        catalog.parse(b).expect("spec b"),
    );
    let results: Vec<(u32, u32, u32)> = std::thread::scope(|scope| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                let (catalog, sa, sb) = (&catalog, &sa, &sb);
                scope.spawn(move || {
                    let mut tally = (0, 0, 0);
                    for i in (t..pairs).step_by(threads as usize) {
                        let mut rng = FastRng::new(derive_seed(seed, &[i]));
                        let start = Rules::default().new_game(&mut rng).expect("layout");
                        for a_first in [true, false] {
                            let g = 2 * i + u64::from(!a_first);
                            let mut ba = catalog.build(sa, derive_seed(seed, &[g, 0])).expect("a");
                            let mut bb = catalog.build(sb, derive_seed(seed, &[g, 1])).expect("b");
                            let (first, second): (&mut dyn Bot, &mut dyn Bot) = if a_first {
                                (&mut *ba, &mut *bb)
                            } else {
                                (&mut *bb, &mut *ba)
                            };
                            let r = play_game(Game::new(start), first, second, [None; 2], |_| {});
                            let a_colour = if a_first {
                                Player::White
                            } else {
                                Player::Black
                            };
                            tally.0 += 1;
                            match r.outcome.winner() {
                                None => tally.2 += 1,
                                Some(w) if w == a_colour => tally.1 += 1,
                                _ => {}
                            }
                        }
                    }
                    tally
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().expect("games")).collect()
    });
    results.iter().fold(Tally::default(), |t, r| Tally {
        games: t.games + r.0,
        wins: t.wins + r.1,
        draws: t.draws + r.2,
    })
}

#[test]
#[ignore = "measurement: minutes in release"]
fn strength() {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_string());
    let a = env("MCTS_A", "mcts");
    let b = env("MCTS_B", "heuristic");
    let pairs: u64 = env("MCTS_PAIRS", "50").parse().expect("pairs");
    let seed: u64 = env("MCTS_SEED", "1").parse().expect("seed");
    let threads: u64 = env("MCTS_THREADS", "1").parse().expect("threads");
    let t0 = Instant::now();
    let t = play_pairs(&a, &b, pairs, seed, threads.max(1));
    let s = (t.wins as f64 + t.draws as f64 / 2.0) / t.games as f64;
    let (lo, hi) = wilson(s, t.games);
    println!(
        "{a} vs {b}: games={} wins={} draws={} losses={} score_rate={s:.3} wilson95=[{lo:.3}, {hi:.3}] secs={:.0}",
        t.games,
        t.wins,
        t.draws,
        t.games - t.wins - t.draws,
        t0.elapsed().as_secs_f64()
    );
}
