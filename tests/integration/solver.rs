//! The exact solver against plain exhaustive minimax, the `alphabeta` bot
//! against the solver, and the `solve` command line.

use crate::common;

use pahtum::solve::{Solution, SolveLimits, Solver, solve, solve_margin};
use pahtum::{Bitboard, Bot, FastRng, Komi, Move, Outcome, Player, Position};

/// Plain minimax, no pruning: the value of `pos` for the player to move
/// (half points, komi included). A swap hands the same colour to the other
/// player, so it negates like any move.
fn naive_value(pos: &mut Position) -> i32 {
    if pos.is_game_over() {
        let m = pos.margin_halves();
        return if pos.turn() == Player::White { m } else { -m };
    }
    let mut best = i32::MIN;
    for mv in naive_moves(pos) {
        pos.try_play_move(mv).expect("legal");
        let v = -naive_value(pos);
        pos.undo_move(mv);
        best = best.max(v);
    }
    best
}

fn naive_moves(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().map(Move::Place).collect();
    if pos.can_swap() {
        moves.push(Move::Swap);
    }
    moves
}

/// The solution by definition, from every root move's minimax value.
fn naive_solution(pos: &Position) -> (Outcome, i32, Vec<String>, Vec<String>) {
    let white = |v: i32| if pos.turn() == Player::White { v } else { -v };
    if pos.is_game_over() {
        let m = pos.margin_halves();
        return (Outcome::from_margin_halves(m), m, vec![], vec![]);
    }
    let mut p = *pos;
    let values: Vec<(Move, i32)> = naive_moves(pos)
        .into_iter()
        .map(|mv| {
            p.try_play_move(mv).expect("legal");
            let v = -naive_value(&mut p);
            p.undo_move(mv);
            (mv, v)
        })
        .collect();
    let best = values.iter().map(|&(_, v)| v).max().expect("moves");
    let mut by_result: Vec<String> = values
        .iter()
        .filter(|&&(_, v)| v.signum() == best.signum())
        .map(|(m, _)| m.to_string())
        .collect();
    let mut by_margin: Vec<String> = values
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|(m, _)| m.to_string())
        .collect();
    by_result.sort();
    by_margin.sort();
    let m = white(best);
    (Outcome::from_margin_halves(m), m, by_result, by_margin)
}

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// A position of `size` with random holes, played at random until at most
/// `max_empty` squares are free.
fn random_position(rng: &mut FastRng, size: u8, max_empty: u32, pie: bool, komi: Komi) -> Position {
    let board = Bitboard::full(size);
    let max_holes = (size as u32 * size as u32).min(12);
    let holes_n = rng.below(max_holes.min(board.count() - 1) + 1);
    let mut holes = Bitboard::EMPTY;
    while holes.count() < holes_n {
        let sq = board.nth(rng.below(board.count())).expect("square");
        holes.insert(sq);
    }
    let mut pos = Position::new(size, holes, pie, komi).expect("position");
    let target = max_empty.saturating_sub(rng.below(3));
    while pos.empty().count() > target {
        let free = pos.empty();
        let sq = free.nth(rng.below(free.count())).expect("free");
        pos.play(sq);
    }
    pos
}

fn check(pos: &Position) -> Solution {
    let limits = SolveLimits {
        tt_mb: 1,
        ..SolveLimits::default()
    };
    let got = solve(pos, &limits).expect("no limits");
    let (outcome, margin, by_result, by_margin) = naive_solution(pos);
    let want = (outcome, margin, by_result, by_margin);
    let have = (
        got.outcome,
        got.margin_halves,
        names(&got.best_result),
        names(&got.best_margin),
    );
    assert_eq!(have, want, "\n{pos}komi {}", pos.komi());
    assert_eq!(solve_margin(pos), margin, "\n{pos}");
    // The result alone, by null-window tests, for the side to move.
    let mine = if pos.turn() == Player::White {
        margin
    } else {
        -margin
    };
    let sign = Solver::new(1).result_sign(pos, &limits).expect("no limits");
    assert_eq!(sign, mine.signum(), "\n{pos}komi {}", pos.komi());
    // The first move of a given order that keeps the result, by
    // null-window tests: the order reversed, so that it is not the
    // solver's own.
    let order: Vec<Move> = naive_moves(pos).into_iter().rev().collect();
    let kept = Solver::new(1)
        .result_move(pos, &order, &limits)
        .expect("no limits");
    let want = order
        .iter()
        .find(|m| by_result_has(&got, m))
        .map(|&m| (m, mine.signum()));
    assert_eq!(kept.map(|k| (k.0, k.1)), want, "\n{pos}komi {}", pos.komi());
    got
}

/// Whether `mv` keeps the result of the solution `s`.
fn by_result_has(s: &Solution, mv: &Move) -> bool {
    s.best_result.contains(mv)
}

#[test]
fn solver_equals_minimax_on_random_positions() {
    let mut rng = FastRng::new(2024);
    let komis = [0, 1, -3, 6, 13];
    // Count what the positions exercised, so the test cannot pass on
    // trivial positions only.
    let (mut outcomes, mut lists_differ, mut finished) = ([0u32; 3], 0, 0);
    for i in 0..300u32 {
        let size = 3 + (i % 5) as u8;
        let komi = Komi::from_halves(komis[(i / 5) as usize % komis.len()]);
        let pos = random_position(&mut rng, size, 8, false, komi);
        let s = check(&pos);
        outcomes[s.outcome as usize] += 1;
        lists_differ += (s.best_result != s.best_margin) as u32;
        finished += pos.is_game_over() as u32;
    }
    assert!(outcomes.iter().all(|&n| n >= 20), "{outcomes:?}");
    assert!(lists_differ >= 30, "{lists_differ}");
    assert!(finished < 30, "{finished}");
}

#[test]
fn solver_equals_minimax_with_the_pie_swap() {
    // 3x3 boards small enough to solve from White's first stone, so the
    // swap is a root move (and from the empty board, a move one ply down).
    let mut rng = FastRng::new(7);
    let mut swaps_best = 0;
    for i in 0..24u32 {
        let holes_n = 1 + i % 2;
        let mut holes = Bitboard::EMPTY;
        while holes.count() < holes_n {
            holes.insert(Bitboard::full(3).nth(rng.below(9)).expect("sq"));
        }
        let komi = Komi::from_halves([0, 1, 2, -1][(i % 4) as usize]);
        let mut pos = Position::new(3, holes, true, komi).expect("position");
        if i % 3 == 0 {
            check(&pos);
        }
        let free = pos.empty();
        pos.play(free.nth(rng.below(free.count())).expect("free"));
        assert!(pos.can_swap());
        let s = check(&pos);
        swaps_best += s.best_margin.contains(&Move::Swap) as u32;
    }
    assert!(swaps_best > 0, "the swap should be best somewhere");
}

#[test]
fn alphabeta_to_the_end_equals_the_solver() {
    use pahtum::bot::alphabeta::{AlphaBetaBot, AlphaBetaConfig};
    let mut rng = FastRng::new(99);
    for i in 0..120u32 {
        let size = 3 + (i % 5) as u8;
        let komi = Komi::from_halves([0, 3, -2][(i % 3) as usize]);
        // Two in eight: a 3x3 pie position where the swap is a root move.
        let pie = i % 8 < 2;
        let pos = if pie {
            let mut p = Position::new(
                3,
                Bitboard::from_square(Bitboard::full(3).nth(rng.below(9)).expect("sq")),
                true,
                komi,
            )
            .expect("position");
            p.play(p.empty().nth(rng.below(8)).expect("free"));
            p
        } else {
            random_position(&mut rng, size, 8, false, komi)
        };
        if pos.is_game_over() {
            continue;
        }
        // Odd rounds through the solver path (solve=), even by search.
        let cfg = AlphaBetaConfig {
            nodes: 0,
            solve: if i % 2 == 1 { 30 } else { 0 },
            tt: 1,
            ..AlphaBetaConfig::default()
        };
        let mut bot = AlphaBetaBot::new("ab", cfg, u64::from(i));
        let mv = bot.choose(&pos).expect("a move");
        let info = bot.last_search().expect("search info");
        let s = check(&pos);
        let white_view = if pos.turn() == Player::White {
            1.0
        } else {
            -1.0
        };
        assert_eq!(
            info.eval.map(|e| e * white_view * 2.0),
            Some(s.margin_halves as f64),
            "\n{pos}"
        );
        assert!(
            s.best_margin.contains(&mv),
            "{mv} not best in\n{pos}{}",
            s.line()
        );
    }
}

fn run_solve(args: &[&str], input: &str) -> (i32, String, String) {
    let all: Vec<&str> = std::iter::once("solve")
        .chain(args.iter().copied())
        .collect();
    let out = common::pahtum_with_input(&all, input.as_bytes());
    (
        out.status.code().unwrap_or(-1),
        common::text(&out.stdout),
        common::text(&out.stderr),
    )
}

#[test]
fn solve_cli_prints_one_line_per_board() {
    // A win with one best move, a finished board, and komi as a half point.
    let input = "WWB\nBW.\nB..\n\nWWB\nBWB\nBWW\n";
    let (code, out, err) = run_solve(&[], input);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "result=white margin=3 best_result=b1 best_margin=b1\n\
         result=white margin=3 best_result=- best_margin=-\n"
    );
    let (code, out, _) = run_solve(&["--komi", "3.5"], "WWB\nBW.\nB..\n");
    assert_eq!(code, 0);
    assert!(
        out.starts_with("result=black margin=-0.5 best_result="),
        "{out}"
    );
    // Pie rule: after White's first stone the swap is one of Black's moves.
    let (code, out, _) = run_solve(&["--pie"], "#..\n.W.\n...\n");
    assert_eq!(code, 0);
    assert!(out.contains("swap"), "{out}");
}

#[test]
fn solve_cli_refuses_bad_boards_with_one_line() {
    for (args, input, needle) in [
        (vec![], "WWW\nBW.\nB..\n", "board 1: stone counts"),
        (
            vec![],
            "...\n...\n...\n\n.B.\n...\n...\n",
            "board 2: stone counts",
        ),
        (vec![], "..x\n...\n...\n", "line 1, column 3"),
        (
            vec!["--max-empty", "5"],
            "...\n...\n...\n",
            "board 1: 9 empty squares",
        ),
        (vec!["--komi", "0.3"], "...\n...\n...\n", "--komi"),
    ] {
        let (code, out, err) = run_solve(&args, input);
        assert_eq!(code, 2, "{args:?} {input}");
        assert!(out.is_empty(), "nothing printed: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err} lacks {needle}");
    }
    // The default refuses a near-empty 7x7 board.
    let (code, _, err) = run_solve(&[], &".......\n".repeat(7));
    assert_eq!(code, 2);
    assert!(
        err.contains("49 empty squares") && err.contains("--max-empty"),
        "{err}"
    );
}

#[test]
fn a_reused_solver_keeps_sizes_and_komi_apart() {
    use pahtum::solve::Solver;
    // The same stones on a 4x4 board and in the corner of a 5x5 board hash
    // alike; a solver reused across them (as `solve` does for a file) must
    // still answer each as a fresh one would.
    let mut rng = FastRng::new(5);
    let limits = SolveLimits {
        tt_mb: 1,
        ..SolveLimits::default()
    };
    let mut reused = Solver::new(1);
    let mut differ = 0;
    for i in 0..20u32 {
        let small = random_position(&mut rng, 4, 6, false, Komi::ZERO);
        let komi = Komi::from_halves([0, 4][(i % 2) as usize]);
        let big = Position::with_stones(
            5,
            small.holes(),
            small.stones(Player::White),
            small.stones(Player::Black),
            false,
            komi,
        )
        .expect("same stones on 5x5");
        let mut margins = [0; 2];
        for (k, pos) in [small, big].iter().enumerate() {
            let fresh = solve(pos, &limits).expect("solved");
            let again = reused.solve(pos, &limits).expect("solved");
            assert_eq!(fresh.line(), again.line(), "\n{pos}");
            margins[k] = fresh.margin_halves;
        }
        differ += (margins[0] != margins[1]) as u32;
    }
    assert!(differ >= 5, "too few informative pairs: {differ}");
}

/// Minimax with every position's value remembered (no pruning, no bounds):
/// exhaustive like [`naive_value`], but fast enough for the 10-14 free
/// squares where the solver's table-driven cuts and heuristic ordering act.
fn memo_value(pos: &mut Position, memo: &mut std::collections::HashMap<(u64, u64), i32>) -> i32 {
    if pos.is_game_over() {
        let m = pos.margin_halves();
        return if pos.turn() == Player::White { m } else { -m };
    }
    let key = (pos.stones(Player::White).0, pos.stones(Player::Black).0);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut best = i32::MIN;
    for sq in pos.legal_moves() {
        pos.play(sq);
        let v = -memo_value(pos, memo);
        pos.undo_unchecked(sq);
        best = best.max(v);
    }
    memo.insert(key, best);
    best
}

#[test]
fn solver_equals_memoized_minimax_with_many_free_squares() {
    let mut rng = FastRng::new(99);
    for i in 0..6u32 {
        let komi = Komi::from_halves([0, 3, -5][(i % 3) as usize]);
        let pos = random_position(&mut rng, 7, 12 + i % 3, false, komi);
        assert!(pos.empty().count() >= 10, "{pos}");
        let mut memo = std::collections::HashMap::new();
        let white = |v: i32| if pos.turn() == Player::White { v } else { -v };
        // Every root move's exact value, then the lists by definition.
        let mut values = Vec::new();
        for sq in pos.legal_moves() {
            let mut child = pos;
            child.play(sq);
            values.push((Move::Place(sq), -memo_value(&mut child, &mut memo)));
        }
        let best = values.iter().map(|&(_, v)| v).max().expect("moves");
        let list = |keep: &dyn Fn(i32) -> bool| {
            let mut l: Vec<String> = values
                .iter()
                .filter(|m| keep(m.1))
                .map(|m| m.0.to_string())
                .collect();
            l.sort();
            l
        };
        let by_margin = list(&|v| v == best);
        let by_result = list(&|v| v.signum() == best.signum());
        let got = solve(
            &pos,
            &SolveLimits {
                tt_mb: 1,
                ..SolveLimits::default()
            },
        )
        .expect("no limits");
        assert_eq!(got.margin_halves, white(best), "\n{pos}");
        assert_eq!(names(&got.best_margin), by_margin, "\n{pos}");
        assert_eq!(names(&got.best_result), by_result, "\n{pos}");
        assert_eq!(solve_margin(&pos), white(best), "\n{pos}");
    }
}
