//! The exact solver against plain exhaustive minimax, the `alphabeta` bot
//! against the solver, and the `solve` command line.

use pahtum::bot::solver::{Solution, SolveLimits, solve, solve_margin};
use pahtum::{Bitboard, FastRng, Komi, Move, Outcome, Player, Position};

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
    got
}

#[test]
fn solver_equals_minimax_on_random_positions() {
    let mut rng = FastRng::new(2024);
    let komis = [0, 1, -3, 6, 13];
    let mut checked = 0;
    for i in 0..300u32 {
        let size = 3 + (i % 5) as u8;
        let komi = Komi::from_halves(komis[(i / 5) as usize % komis.len()]);
        let pos = random_position(&mut rng, size, 8, false, komi);
        check(&pos);
        checked += 1;
    }
    assert_eq!(checked, 300);
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
