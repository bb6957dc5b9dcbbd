//! Exact decisions of a bot with few squares left, from the project's one
//! exact solver: the margin of a position, the margin after each move,
//! and the best move with the pie swap pending. `mcts` (its leaves and
//! root) and `zero` both play from here.
//!
//! The candidates are tried in the order below (own gain, then the
//! opponent gain they block), and among equally good moves the first
//! wins, so the move played does not depend on the solver's own order.

use super::{SolveLimits, Solver};
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::square::Square;

/// The solver's table for a bot's exact searches, in MiB: enough for the
/// root positions of a bot's `exact=` free squares (at most 16).
pub const TABLE_MB: usize = 1;

/// The exact solution of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// White's final margin in half points (komi included) with best play.
    pub margin_halves: i32,
    /// A move of the side to move that attains it (`None` if the game is
    /// over).
    pub best: Option<Move>,
}

/// Placements ordered by own gain plus the opponent gain they block, best
/// first.
fn ordered(pos: &Position) -> Vec<Move> {
    let me = pos.turn();
    let mut moves: Vec<(i32, Square)> = pos
        .empty()
        .into_iter()
        .map(|sq| (pos.gain(sq) as i32 * 4 + pos.gain_for(!me, sq) as i32, sq))
        .collect();
    moves.sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    moves.into_iter().map(|(_, sq)| Move::Place(sq)).collect()
}

/// White's view of a value for the side to move of `pos`.
fn to_white(pos: &Position, v: i32) -> i32 {
    if pos.turn() == Player::White { v } else { -v }
}

/// A value from a search without limits, which stops only at the end.
fn unlimited<T>(r: Result<T, crate::solve::SolveError>) -> T {
    r.unwrap_or_else(|e| unreachable!("a search without limits stops only at the end: {e}"))
}

/// Solves `pos` exactly (the pie swap included when offered: swapping
/// makes the chooser the owner of White in the same position, so it pays
/// exactly when the position is won for White with Black to move).
pub fn solve(pos: &Position, solver: &mut Solver) -> Exact {
    if pos.is_game_over() {
        return Exact {
            margin_halves: pos.margin_halves(),
            best: None,
        };
    }
    let order = ordered(pos);
    let found = unlimited(solver.best_move(pos, &order, &SolveLimits::default()));
    let Some((mv, v, _)) = found else {
        unreachable!("a game not over has a placement")
    };
    let margin = to_white(pos, v);
    // Either way the board is played out to White's `margin`; a swap makes
    // the chooser White's owner, so it pays when White comes out ahead.
    let best = if pos.can_swap() && margin > 0 {
        Move::Swap
    } else {
        mv
    };
    Exact {
        margin_halves: margin,
        best: Some(best),
    }
}

/// Every placement of the side to move with White's exact final margin
/// after it (best play from there on), in square order.
pub fn move_values(pos: &Position, solver: &mut Solver) -> Vec<(Move, i32)> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(p.empty().count() as usize);
    for sq in pos.empty() {
        p.play_unchecked(sq);
        out.push((Move::Place(sq), margin(&without_swap(&p), solver)));
        p.undo_unchecked(sq);
    }
    out
}

/// `pos` as a game without the pie rule when a swap is pending: the
/// caller (the root's first stone) accounts for the swap itself.
fn without_swap(pos: &Position) -> Position {
    if !pos.can_swap() {
        return *pos;
    }
    let stones = |p| pos.stones(p);
    Position::with_stones(
        pos.size(),
        pos.holes(),
        stones(Player::White),
        stones(Player::Black),
        false,
        pos.komi(),
    )
    .unwrap_or_else(|e| unreachable!("a legal position stays legal without the pie rule: {e}"))
}

/// White's exact final margin of `pos` in half points (no swap allowed:
/// the caller never asks with a swap pending).
pub fn margin(pos: &Position, solver: &mut Solver) -> i32 {
    to_white(pos, unlimited(solver.value(pos, &SolveLimits::default())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rng::FastRng;
    use crate::game::rules::Rules;

    /// Plain minimax on White's margin, no pruning.
    fn minimax(pos: &mut Position) -> i32 {
        if pos.is_game_over() {
            return pos.margin_halves();
        }
        let white = pos.turn() == Player::White;
        let mut best = if white { i32::MIN } else { i32::MAX };
        for sq in pos.empty() {
            pos.play_unchecked(sq);
            let v = minimax(pos);
            pos.undo_unchecked(sq);
            best = if white { best.max(v) } else { best.min(v) };
        }
        best
    }

    #[test]
    fn agrees_with_minimax() {
        let mut rng = FastRng::new(11);
        let mut solver = Solver::new(TABLE_MB);
        for i in 0..40 {
            let start = Rules::default().new_game(&mut rng).expect("game");
            let empty = 3 + (i % 6) as u32;
            let mut p = start;
            while p.empty().count() > empty {
                let k = rng.below(p.empty().count());
                p.play(p.empty().nth(k).expect("free"));
            }
            let want = minimax(&mut p.clone());
            let got = solve(&p, &mut solver);
            assert_eq!(got.margin_halves, want, "{p}");
            assert_eq!(margin(&p, &mut Solver::new(TABLE_MB)), want);
            let Some(Move::Place(sq)) = got.best else {
                panic!("no move")
            };
            let mut q = p;
            q.play(sq);
            assert_eq!(minimax(&mut q), want, "best move {sq} keeps the value");
            // Among equally good moves, the first in `ordered` order.
            let first_best = ordered(&p).into_iter().find(|&mv| {
                let Move::Place(sq) = mv else { return false };
                let mut q = p;
                q.play(sq);
                minimax(&mut q) == want
            });
            assert_eq!(got.best, first_best, "{p}");
            let vals = move_values(&p, &mut solver);
            let best = if p.turn() == Player::White {
                vals.iter().map(|v| v.1).max()
            } else {
                vals.iter().map(|v| v.1).min()
            };
            assert_eq!(best, Some(want));
        }
    }
}
