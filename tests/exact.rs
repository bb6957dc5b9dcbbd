//! Small boards solved from the start (`study::exact`) against plain
//! minimax written here: the plain value, the first moves that keep the
//! result, and the pie-rule value from its definition (the second player
//! takes the worse side of the first stone for the first player).

use pahtum::bot::solver::{SolveLimits, Solver};
use pahtum::study::exact::{Layout, solve_layout, symmetry_classes};
use pahtum::{Komi, Player, Position};

/// Plain minimax, no pruning, no table: the value for the player to move
/// in half points, komi included.
fn minimax(pos: &mut Position) -> i32 {
    if pos.is_game_over() {
        let m = pos.margin_halves();
        return if pos.turn() == Player::White { m } else { -m };
    }
    let mut best = i32::MIN;
    for sq in pos.legal_moves() {
        pos.play(sq);
        best = best.max(-minimax(pos));
        pos.undo_unchecked(sq);
    }
    best
}

/// White's margin after each first stone, by name, and whether the second
/// player may still swap (not when that stone filled the board).
fn first_move_margins(size: u8, layout: Layout, komi: Komi) -> Vec<(String, i32, bool)> {
    let mut pos = Position::new(size, layout.holes, false, komi).expect("layout");
    let mut out: Vec<(String, i32, bool)> = pos
        .legal_moves()
        .map(|sq| {
            pos.play(sq);
            let m = -minimax(&mut pos);
            let swappable = !pos.is_game_over();
            pos.undo_unchecked(sq);
            (sq.to_string(), m, swappable)
        })
        .collect();
    out.sort();
    out
}

fn check(size: u8, layout: Layout, komi: Komi, solver: &mut Solver) {
    let row = solve_layout(solver, size, layout, komi, true, &SolveLimits::default())
        .expect("no limits");
    let margins = first_move_margins(size, layout, komi);
    let best = margins.iter().map(|&(_, m, _)| m).max().expect("a free square");
    let keeps: Vec<String> = margins
        .iter()
        .filter(|&&(_, m, _)| m.signum() == best.signum())
        .map(|(s, _, _)| s.clone())
        .collect();
    let pie_value = |m: i32, swappable: bool| if swappable { -m.abs() } else { m };
    let pie = margins
        .iter()
        .map(|&(_, m, s)| pie_value(m, s))
        .max()
        .expect("moves");
    let fair: Vec<String> = margins
        .iter()
        .filter(|&&(_, m, s)| pie_value(m, s) == pie)
        .map(|(s, _, _)| s.clone())
        .collect();
    let names = |v: &[pahtum::Move]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    let p = row.pie.as_ref().expect("pie asked for");
    assert_eq!(
        (
            row.margin_halves,
            names(&row.best_first_moves),
            p.margin_halves,
            names(&p.fair_first_moves)
        ),
        (best, keeps, pie, fair),
        "{size}x{size} holes {:?} komi {komi}",
        layout.holes
    );
}

#[test]
fn every_3x3_layout_equals_minimax() {
    let mut solver = Solver::new(4);
    let mut draws = 0;
    for holes in 0..9 {
        for layout in symmetry_classes(3, holes).expect("small") {
            for komi in [0, 3, -5] {
                check(3, layout, Komi::from_halves(komi), &mut solver);
            }
            draws += u32::from(
                first_move_margins(3, layout, Komi::ZERO)
                    .iter()
                    .any(|&(_, m, _)| m == 0),
            );
        }
    }
    // Fair first moves exist on some layouts and not on others, so both
    // branches of the pie value were exercised.
    assert!(draws > 5, "{draws}");
}

#[test]
fn every_4x4_layout_with_7_free_squares_equals_minimax() {
    let mut solver = Solver::new(4);
    for layout in symmetry_classes(4, 9).expect("small") {
        check(4, layout, Komi::ZERO, &mut solver);
    }
    for layout in symmetry_classes(4, 7).expect("small").into_iter().step_by(40) {
        check(4, layout, Komi::from_halves(1), &mut solver);
    }
}
