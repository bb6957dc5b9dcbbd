//! Exact endgame search for the solver: alpha-beta on the score margin.
//!
//! Placing a stone never changes the opponent's score (the square already
//! broke every opponent run through it), so the rest of the game is worth
//! `rest(p) = max over sq of gain(sq) - rest(p + sq)` points to the side to
//! move, and the final margin is the current one plus that. The sign of the
//! minimax margin is the game-theoretic result: a side that can force a
//! margin above zero can force a win, and so on.

use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::square::Square;

/// Transposition entry kinds.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// Beyond any margin (a board scores at most 16 * 246 points).
const INF: i32 = 1 << 20;

/// A small always-replace transposition table (2^16 entries, 1 MiB):
/// transpositions are everywhere in a placement game, where the same stone
/// sets arise in every order.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<(u64, i32, u8)>,
}

impl Default for Table {
    fn default() -> Table {
        Table {
            entries: vec![(0, 0, 0); 1 << 16],
        }
    }
}

impl Table {
    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key >> 48) as usize
    }
}

/// The exact solution of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// White's final margin in half points (komi included) with best play.
    pub margin_halves: i32,
    /// A move of the side to move that attains it (`None` if the game is
    /// over).
    pub best: Option<Move>,
    /// Search nodes.
    pub nodes: u64,
}

/// Moves ordered by own gain plus the opponent gain they block, best first.
#[inline]
fn ordered(pos: &Position, out: &mut [(i32, Square); 64]) -> usize {
    let me = pos.turn();
    let mut n = 0;
    for sq in pos.empty() {
        let g = pos.gain(sq) as i32;
        out[n] = (g * 4 + pos.gain_for(!me, sq) as i32, sq);
        n += 1;
    }
    out[..n].sort_unstable_by_key(|m| std::cmp::Reverse(m.0));
    n
}

/// Points the side to move gains over its opponent from here to the end,
/// searched in `(alpha, beta)` (fail-soft).
fn rest(
    pos: &mut Position,
    mut alpha: i32,
    beta: i32,
    tt: &mut Option<&mut Table>,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    let empty = pos.empty();
    match empty.count() {
        0 => return 0,
        1 => return empty.first().map_or(0, |sq| pos.gain(sq) as i32),
        _ => {}
    }
    let key = pos.hash() | 1;
    let alpha0 = alpha;
    let mut beta = beta;
    if let Some(t) = tt.as_deref() {
        let (k, v, f) = t.entries[t.slot(key)];
        if k == key {
            match f {
                EXACT => return v,
                LOWER => alpha = alpha.max(v),
                _ => beta = beta.min(v),
            }
            if alpha >= beta {
                return v;
            }
        }
    }
    let mut moves = [(0, Square::from_index_unchecked(0)); 64];
    let n = ordered(pos, &mut moves);
    let mut best = i32::MIN;
    for &(_, sq) in &moves[..n] {
        let g = pos.gain(sq) as i32;
        pos.play_unchecked(sq);
        let v = g - rest(pos, g - beta, g - alpha, tt, nodes);
        pos.undo_unchecked(sq);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    if let Some(t) = tt.as_deref_mut() {
        let flag = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        let s = t.slot(key);
        t.entries[s] = (key, best, flag);
    }
    best
}

/// White's margin in half points from `rest` points for `mover`.
#[inline]
fn white_margin(pos: &Position, mover: Player, rest: i32) -> i32 {
    let sign = if mover == Player::White { 2 } else { -2 };
    pos.margin_halves() + sign * rest
}

/// Solves `pos` exactly (the pie swap included when offered: swapping
/// makes the chooser the owner of White in the same position, so it pays
/// exactly when the position is won for White with Black to move).
/// `table` speeds up positions with more than about 6 empty squares.
pub fn solve(pos: &Position, table: Option<&mut Table>) -> Exact {
    let mut p = *pos;
    let mut tt = table;
    let mut nodes = 0;
    if p.is_game_over() {
        return Exact {
            margin_halves: p.margin_halves(),
            best: None,
            nodes,
        };
    }
    let me = p.turn();
    let mut moves = [(0, Square::from_index_unchecked(0)); 64];
    let n = ordered(&p, &mut moves);
    let mut best = (i32::MIN, None);
    for &(_, sq) in &moves[..n] {
        let g = p.gain(sq) as i32;
        p.play_unchecked(sq);
        let beta = if best.1.is_none() {
            INF
        } else {
            g - best.0 + 1
        };
        let v = g - rest(&mut p, -INF, beta, &mut tt, &mut nodes);
        p.undo_unchecked(sq);
        if v > best.0 {
            best = (v, Some(Move::Place(sq)));
        }
    }
    let margin = white_margin(&p, me, best.0);
    let mut mv = best.1;
    // Either way the board is played out to White's `margin`; a swap makes
    // the chooser White's owner, so it pays when White comes out ahead.
    if p.can_swap() && margin > 0 {
        mv = Some(Move::Swap);
    }
    Exact {
        margin_halves: margin,
        best: mv,
        nodes,
    }
}

/// Every placement of the side to move with White's exact final margin
/// after it (best play from there on), in square order.
pub fn move_values(pos: &Position, mut table: Option<&mut Table>) -> Vec<(Move, i32)> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(p.empty().count() as usize);
    for sq in pos.empty() {
        p.play_unchecked(sq);
        out.push((Move::Place(sq), margin(&p, table.as_deref_mut())));
        p.undo_unchecked(sq);
    }
    out
}

/// White's exact final margin of `pos` in half points (no swap allowed:
/// the caller never asks with a swap pending).
pub fn margin(pos: &Position, table: Option<&mut Table>) -> i32 {
    let mut p = *pos;
    let mut tt = table;
    let mut nodes = 0;
    let me = p.turn();
    let r = rest(&mut p, -INF, INF, &mut tt, &mut nodes);
    white_margin(pos, me, r)
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
        let mut table = Table::default();
        for i in 0..40 {
            let start = Rules::default().new_game(&mut rng).expect("game");
            let empty = 3 + (i % 6) as u32;
            let mut p = start;
            while p.empty().count() > empty {
                let k = rng.below(p.empty().count());
                p.play(p.empty().nth(k).expect("free"));
            }
            let want = minimax(&mut p.clone());
            let got = solve(&p, Some(&mut table));
            assert_eq!(got.margin_halves, want, "{p}");
            assert_eq!(margin(&p, None), want);
            let Some(Move::Place(sq)) = got.best else {
                panic!("no move")
            };
            let mut q = p;
            q.play(sq);
            assert_eq!(minimax(&mut q), want, "best move {sq} keeps the value");
            let vals = move_values(&p, Some(&mut table));
            let best = if p.turn() == Player::White {
                vals.iter().map(|v| v.1).max()
            } else {
                vals.iter().map(|v| v.1).min()
            };
            assert_eq!(best, Some(want));
        }
    }
}
