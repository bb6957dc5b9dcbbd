//! The project's one exact solver: behind `pahtum solve`, `exact` and
//! `accuracy`, the `alphabeta` bot's endgame and the `mcts` bot's exact
//! leaves and root decisions and `zero`'s exact moves (`solve/endgame.rs`).
//!
//! [`solve`] finds the game-theoretic value of a position for both players
//! preferring a larger margin, and from it the outcome (a larger margin is
//! never a worse outcome, so the outcome under win > draw > loss play is the
//! sign of the minimax margin), and every move that keeps the outcome or
//! attains the margin.
//!
//! The search (in `search.rs`) is alpha-beta on the margin with a
//! transposition table, bound cuts from what each side can still add, and
//! move ordering by immediate gains. The root adds what pays once per
//! solve: moves equivalent under the board symmetries that fix the position
//! (and all *dead* squares, where nobody can score) are solved once; the
//! most promising move gets a full-window search (measured: slightly fewer
//! nodes than MTD(f) from the static value, whose loose fail-soft bounds
//! make it step slowly), every other root move a null-window test against
//! the best margin (and MTD(f) when it reaches it) and, for the outcome
//! list, against the smallest win.
//!
//! `pahtum bench --solver` times it on fixed 7x7 positions with 20 and 24
//! free squares; experiments/solver-speed/ has the figures.
//!
//! Under the pie rule, colours are named as the players hold them in the
//! given position: when Black may swap, `swap` is one of its moves, and a
//! result or margin for White is one for the player who holds White now
//! (after a swap that player plays Black).

pub mod endgame;
mod node;
mod root;
mod search;
mod tt;

use std::fmt;
use std::time::Instant;

pub(crate) use self::node::raise_best;
use self::root::{RootClass, root_classes};
use self::search::{INF, Search, Stop, scores_of};
use self::tt::TranspositionTable;
use crate::game::outcome::{Move, Outcome};
use crate::game::player::Player;
use crate::game::position::Position;

/// Limits of one solve. `Default`: no limits, a 64 MiB table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    /// Give up after visiting this many nodes.
    pub max_nodes: Option<u64>,
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Transposition table size in MiB (for a [`Solver`] built by
    /// [`solve`]; a reused [`Solver`] keeps its own).
    pub tt_mb: usize,
}

impl Default for SolveLimits {
    fn default() -> SolveLimits {
        SolveLimits {
            max_nodes: None,
            deadline: None,
            tt_mb: 64,
        }
    }
}

/// Why no solution came back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The node budget ran out.
    #[error("node limit of {0} reached")]
    NodeLimit(u64),
    /// The deadline passed.
    #[error("time limit reached")]
    TimeLimit,
    /// The run was interrupted (Ctrl-C or SIGTERM).
    #[error("interrupted")]
    Interrupted,
}

/// The exact solution of a position (docs/CONTRACT.md, `solve` output).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The outcome with both sides preferring win > draw > loss.
    pub outcome: Outcome,
    /// White's total minus Black's with komi, under minimax play, in half
    /// points.
    pub margin_halves: i32,
    /// Every move of the side to move that keeps `outcome`, sorted by name.
    pub best_result: Vec<Move>,
    /// Every move that attains the margin, sorted by name.
    pub best_margin: Vec<Move>,
    /// Search nodes visited.
    pub nodes: u64,
}

impl Solution {
    /// The `solve` output line: `result=... margin=... best_result=...
    /// best_margin=...`.
    pub fn line(&self) -> String {
        format!(
            "result={} margin={} best_result={} best_margin={}",
            self.outcome,
            format_halves(self.margin_halves),
            move_list(&self.best_result),
            move_list(&self.best_margin)
        )
    }
}

impl fmt::Display for Solution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

/// Half points as points: `5`, `-2.5`, `-0.5`.
pub fn format_halves(halves: i32) -> String {
    if halves % 2 == 0 {
        format!("{}", halves / 2)
    } else {
        let sign = if halves < 0 { "-" } else { "" };
        format!("{sign}{}.5", halves.unsigned_abs() / 2)
    }
}

/// Moves joined by commas, `-` for none.
fn move_list(moves: &[Move]) -> String {
    if moves.is_empty() {
        "-".to_string()
    } else {
        moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Moves sorted by their names, as the output lists them.
fn sorted_by_name(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(Move::to_string);
    moves
}

/// A move the solver chose, with its value (see the method) and the nodes
/// searched; `None` for a finished game; an error when a limit was
/// reached first.
pub type Found = Result<Option<(Move, i32, u64)>, SolveError>;

/// An exact solver with a transposition table kept between calls (keys
/// include the board size, komi and pie setting, so values stay valid
/// across positions and rules, and a bot can reuse it move after move).
#[derive(Clone, Debug)]
pub struct Solver {
    tt: TranspositionTable,
}

impl Solver {
    /// A solver with a table of about `tt_mb` MiB.
    pub fn new(tt_mb: usize) -> Solver {
        Solver {
            tt: TranspositionTable::new(tt_mb),
        }
    }

    /// Forgets all stored results.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// A search of `pos` under `limits`, and its scores; `None` for a
    /// finished game.
    fn start(&mut self, pos: &Position, limits: &SolveLimits) -> Option<(Search<'_>, [i32; 2])> {
        if pos.is_game_over() {
            return None;
        }
        let s = Search::new(&mut self.tt, pos, limits.max_nodes, limits.deadline);
        Some((s, scores_of(pos)))
    }

    /// Solves `pos` exactly (see [`solve`]); `limits.tt_mb` is ignored.
    ///
    /// # Errors
    /// A limit of `limits` was reached first.
    pub fn solve(&mut self, pos: &Position, limits: &SolveLimits) -> Result<Solution, SolveError> {
        let mut s = Search::new(&mut self.tt, pos, limits.max_nodes, limits.deadline);
        let me = pos.turn();
        let to_white = |v: i32| if me == Player::White { v } else { -v };
        if pos.is_game_over() {
            let m = pos.margin_halves();
            return Ok(Solution {
                outcome: Outcome::from_margin_halves(m),
                margin_halves: m,
                best_result: Vec::new(),
                best_margin: Vec::new(),
                nodes: 1,
            });
        }
        let sc = scores_of(pos);
        let mut classes = root_classes(pos);

        // The exact value of the most promising class first, then a
        // null-window test of each other class against the best so far.
        let mut best = -INF;
        for c in classes.iter_mut() {
            let (child, csc) = child_of(pos, sc, c.moves[0]);
            if best == -INF {
                let v = -s.negamax(&child, csc, -INF, INF);
                (c.lo, c.hi) = (v, v);
                best = v;
                continue;
            }
            // Is the class's value at least `best`?
            let r = -s.negamax(&child, csc, -best, -best + 1);
            if r < best {
                c.hi = r;
                continue;
            }
            c.lo = r;
            let v = -s.mtdf_between(&child, csc, -r, -INF, -r);
            (c.lo, c.hi) = (v, v);
            best = best.max(v);
        }
        if let Some(stop) = s.stopped {
            return Err(stop_error(stop, limits));
        }

        // The outcome list: with a win, the classes not yet known to win
        // need a test at the smallest winning value (one half point).
        if best > 0 {
            for c in classes.iter_mut().filter(|c| c.lo <= 0 && c.hi > 0) {
                let (child, csc) = child_of(pos, sc, c.moves[0]);
                let r = -s.negamax(&child, csc, -1, 0);
                if r > 0 {
                    c.lo = c.lo.max(r);
                } else {
                    c.hi = c.hi.min(r);
                }
            }
        }
        if let Some(stop) = s.stopped {
            return Err(stop_error(stop, limits));
        }
        let keeps = |c: &RootClass| match best.signum() {
            1 => c.lo > 0,
            0 => c.lo >= 0,
            _ => true,
        };
        let best_result = classes
            .iter()
            .filter(|c| keeps(c))
            .flat_map(|c| c.moves.iter().copied())
            .collect();
        let best_margin = classes
            .iter()
            .filter(|c| c.lo == best)
            .flat_map(|c| c.moves.iter().copied())
            .collect();
        let margin = to_white(best);
        Ok(Solution {
            outcome: Outcome::from_margin_halves(margin),
            margin_halves: margin,
            best_result: sorted_by_name(best_result),
            best_margin: sorted_by_name(best_margin),
            nodes: s.nodes,
        })
    }

    /// The exact value of `pos` for the side to move, in half points.
    ///
    /// # Errors
    /// A limit was reached first.
    pub fn value(&mut self, pos: &Position, limits: &SolveLimits) -> Result<i32, SolveError> {
        let mut s = Search::new(&mut self.tt, pos, limits.max_nodes, limits.deadline);
        let sc = scores_of(pos);
        let v = s.negamax(pos, sc, -INF, INF);
        match s.stopped {
            Some(stop) => Err(stop_error(stop, limits)),
            None => Ok(v),
        }
    }

    /// The sign of the exact value of `pos` for the side to move: `1` if
    /// it wins, `0` if it draws, `-1` if it loses. Two null-window tests
    /// around zero instead of the exact margin, so it is much cheaper than
    /// [`Solver::value`] where only the game-theoretic result matters
    /// (keeping or judging a result move by move).
    ///
    /// # Errors
    /// A limit was reached first.
    pub fn result_sign(&mut self, pos: &Position, limits: &SolveLimits) -> Result<i32, SolveError> {
        let mut s = Search::new(&mut self.tt, pos, limits.max_nodes, limits.deadline);
        let sc = scores_of(pos);
        // Does the side to move win (value >= 1 half point)?
        let sign = if s.negamax(pos, sc, 0, 1) >= 1 {
            1
        } else if s.negamax(pos, sc, -1, 0) >= 0 {
            0
        } else {
            -1
        };
        match s.stopped {
            Some(stop) => Err(stop_error(stop, limits)),
            None => Ok(sign),
        }
    }

    /// The result of `pos` for the side to move (`1` win, `0` draw, `-1`
    /// loss), the first move in `order` (which must list every legal move)
    /// that keeps it, and the nodes searched; `None` for a finished game.
    ///
    /// Only null-window tests around zero, move by move in `order`: first
    /// whether a move wins, then whether one draws. A caller that orders
    /// the moves by its own preference gets its favourite among those that
    /// keep the result, at a fraction of the cost of the exact margin.
    ///
    /// # Errors
    /// A limit was reached first.
    pub fn result_move(&mut self, pos: &Position, order: &[Move], limits: &SolveLimits) -> Found {
        let Some((mut s, sc)) = self.start(pos, limits) else {
            return Ok(None);
        };
        let mut found = None;
        // A move wins when the opponent's value after it is at most -1,
        // and draws when that value is at most 0.
        'tests: for (sign, alpha) in [(1, -1), (0, 0)] {
            for &mv in order {
                let (child, csc) = child_of(pos, sc, mv);
                let v = s.negamax(&child, csc, alpha, alpha + 1);
                if s.stopped.is_some() {
                    break 'tests;
                }
                if v <= alpha {
                    found = Some((mv, sign));
                    break 'tests;
                }
            }
        }
        if let Some(stop) = s.stopped {
            return Err(stop_error(stop, limits));
        }
        let (mv, sign) = match (found, order.first()) {
            (Some(f), _) => f,
            (None, Some(&first)) => (first, -1),
            (None, None) => return Ok(None),
        };
        Ok(Some((mv, sign, s.nodes)))
    }

    /// One best move by margin for the side to move, its exact value for the
    /// side to move (half points) and the nodes searched; among equally good
    /// moves the first in `order` (which must list every legal move) wins.
    /// `None` for a finished game.
    ///
    /// # Errors
    /// A limit was reached first.
    pub fn best_move(&mut self, pos: &Position, order: &[Move], limits: &SolveLimits) -> Found {
        let Some((mut s, sc)) = self.start(pos, limits) else {
            return Ok(None);
        };
        let mut best: Option<(Move, i32)> = None;
        for &mv in order {
            let (child, csc) = child_of(pos, sc, mv);
            match best {
                None => {
                    let v = -s.negamax(&child, csc, -INF, INF);
                    best = Some((mv, v));
                }
                Some((_, b)) => {
                    // Only a strictly better move replaces the first best.
                    let r = -s.negamax(&child, csc, -b - 1, -b);
                    if r > b {
                        let v = -s.mtdf_between(&child, csc, -r, -INF, -r);
                        best = Some((mv, v));
                    }
                }
            }
            if s.stopped.is_some() {
                break;
            }
        }
        if let Some(stop) = s.stopped {
            return Err(stop_error(stop, limits));
        }
        Ok(best.map(|(m, v)| (m, v, s.nodes)))
    }
}

fn stop_error(stop: Stop, limits: &SolveLimits) -> SolveError {
    match stop {
        Stop::Nodes => SolveError::NodeLimit(limits.max_nodes.unwrap_or(0)),
        Stop::Time => SolveError::TimeLimit,
        Stop::Interrupted => SolveError::Interrupted,
    }
}

/// The position after `mv` and its scores.
fn child_of(pos: &Position, sc: [i32; 2], mv: Move) -> (Position, [i32; 2]) {
    let mut child = *pos;
    let mut csc = sc;
    match mv {
        Move::Place(sq) => {
            let me = pos.turn();
            csc[me.index()] += pos.gain_for(me, sq) as i32;
            child.play_unchecked(sq);
        }
        Move::Swap => {
            // Only generated when allowed.
            let _ = child.try_swap();
        }
    }
    (child, csc)
}

/// Solves `pos` exactly with a fresh table of `limits.tt_mb` MiB.
///
/// # Errors
/// A limit of `limits` was reached first.
///
/// # Examples
/// ```
/// use pahtum::solve::{solve, SolveLimits};
/// // White to move with three free squares: b1 completes a run of three.
/// let b = &pahtum::parse_boards("WWB\nBW.\nB..\n").unwrap()[0];
/// let pos = b.to_position(false, pahtum::Komi::ZERO).unwrap();
/// let s = solve(&pos, &SolveLimits { tt_mb: 1, ..SolveLimits::default() }).unwrap();
/// assert_eq!(s.line(), "result=white margin=3 best_result=b1 best_margin=b1");
/// ```
pub fn solve(pos: &Position, limits: &SolveLimits) -> Result<Solution, SolveError> {
    Solver::new(limits.tt_mb).solve(pos, limits)
}

/// The exact margin of `pos` under minimax play (White's total minus
/// Black's with komi, half points), with a small fresh table and no limits:
/// for bots and tests on positions with few free squares.
pub fn solve_margin(pos: &Position) -> i32 {
    let mut solver = Solver::new(4);
    let v = solver
        .value(pos, &SolveLimits::default())
        .unwrap_or_else(|e| unreachable!("a search without limits stops only at the end: {e}"));
    if pos.turn() == Player::White { v } else { -v }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bitboard::Bitboard;
    use crate::game::square::Square;

    #[test]
    fn halves_format() {
        assert_eq!(format_halves(5), "2.5");
        assert_eq!(format_halves(-5), "-2.5");
        assert_eq!(format_halves(-1), "-0.5");
        assert_eq!(format_halves(-4), "-2");
        assert_eq!(format_halves(0), "0");
    }

    #[test]
    fn symmetric_root_classes() {
        // Empty 3x3 with the centre a hole: four corners, four edges.
        let holes = Bitboard::from_square(Square::new(1, 1));
        let pos = Position::new(3, holes, false, crate::game::outcome::Komi::ZERO)
            .unwrap_or_else(|e| unreachable!("{e}"));
        let classes = root_classes(&pos);
        assert_eq!(classes.len(), 2);
        assert!(classes.iter().all(|c| c.moves.len() == 4));
    }
}
