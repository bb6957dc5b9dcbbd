//! The mcts bot's own exact decisions: the moves that keep the result
//! with few squares left, the result-only root proof (`prove=`) that
//! follows the tree search with more squares left, and its solver's
//! table. The exact margins and moves with few squares left
//! come from [`crate::solve::endgame`], which `zero` shares.

use super::MctsBot;
use super::config::{MctsConfig, Reward};
use super::root::RootMove;
use super::root::SearchReport;
use super::tree::Proof;
use crate::eval::EvalWeights;
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::square::Square;
use crate::solve::endgame::TABLE_MB;
use crate::solve::{SolveLimits, Solver};

/// The table when the root proof is on, in MiB: a proof from 22 free
/// squares visits millions of nodes, and the table keeps its subtrees for
/// the proofs of the moves that follow, which then cost little.
pub const PROVE_TABLE_MB: usize = 16;

/// Whether `cfg` ever proves a root (`prove=` beyond `exact=`).
fn proving(cfg: &MctsConfig) -> bool {
    cfg.solver && cfg.reward == Reward::Win && cfg.prove > cfg.exact
}

/// The table size of the bot's solver under `cfg`, in MiB.
pub fn table_mb(cfg: &MctsConfig) -> usize {
    if proving(cfg) {
        PROVE_TABLE_MB
    } else {
        TABLE_MB
    }
}

/// Whether the search at `pos` is followed by the result-only proof: more
/// free squares than `exact=`, at most `prove=`, and no pie swap at or
/// right after the root (the first stone's value is then what the swap
/// leaves, which a result of the position alone does not say).
pub fn proves(pos: &Position, cfg: &MctsConfig) -> bool {
    let n = pos.empty().count();
    proving(cfg) && n > cfg.exact && n <= cfg.prove && !pos.can_swap() && !pos.swap_follows()
}

/// Every placement of `pos`, in the order the proof tries them: `chosen`
/// (the search's choice), the other searched moves as the search ranked
/// them, the unsearched ones by line-potential value, and the moves the
/// tree proved lost last.
pub fn proof_order(pos: &Position, moves: &[RootMove], chosen: Move, w: &EvalWeights) -> Vec<Move> {
    let mut order = vec![chosen];
    order.extend(
        moves
            .iter()
            .filter(|m| m.mv != chosen && m.proof != Proof::Loss)
            .map(|m| m.mv),
    );
    let mut rest: Vec<(i32, Square)> = pos
        .empty()
        .filter(|&sq| !moves.iter().any(|m| m.mv == Move::Place(sq)))
        .map(|sq| (crate::eval::move_value(pos, sq, w), sq))
        .collect();
    rest.sort_by_key(|r| std::cmp::Reverse(r.0));
    order.extend(rest.into_iter().map(|r| Move::Place(r.1)));
    order.extend(
        moves
            .iter()
            .filter(|m| m.mv != chosen && m.proof == Proof::Loss)
            .map(|m| m.mv),
    );
    order
}

/// The first move of `order` (every legal move) that keeps the result of
/// `pos` for the side to move, and that result (`1` win, `0` draw, `-1`
/// loss: then the first move); `None` when `limits` stop the proof first.
pub fn result_move(
    pos: &Position,
    order: &[Move],
    solver: &mut Solver,
    limits: &SolveLimits,
) -> Option<(Move, i32)> {
    match solver.result_move(pos, order, limits) {
        Ok(Some((mv, sign, _))) => Some((mv, sign)),
        _ => None,
    }
}

/// What the exact search decided before the tree search.
pub(super) enum ExactStep {
    /// The one move that keeps the result (already reported).
    Decided(Move),
    /// The tree search chooses: among `keep` (the result-keeping moves,
    /// the margin-best first, whose margin is `margin`) when given.
    Search {
        keep: Option<Vec<Move>>,
        margin: Option<i32>,
    },
}

impl MctsBot {
    /// The exact search's part with few squares left: it decides which
    /// moves keep the game-theoretic result. If one does, it is played
    /// (and reported); otherwise the tree search chooses among them: all
    /// of them hold the result against best play, and the search finds
    /// the one that leaves a fallible opponent the most chances to go
    /// wrong.
    pub(super) fn exact_moves(&mut self, pos: &Position) -> ExactStep {
        let open = ExactStep::Search {
            keep: None,
            margin: None,
        };
        if !self.cfg.solver || pos.empty().count() > self.cfg.exact {
            return open;
        }
        let mb = table_mb(&self.cfg);
        let solver = self.solver.get_or_insert_with(|| Box::new(Solver::new(mb)));
        if pos.can_swap() {
            let ex = crate::solve::endgame::solve(pos, solver);
            return match ex.best {
                Some(mv) => ExactStep::Decided(self.exact_report(pos, mv, ex.margin_halves)),
                None => open,
            };
        }
        let mut vals = crate::solve::endgame::move_values(pos, solver);
        // Under the pie rule the second player swaps after a first
        // stone that leaves White ahead, so the first player gets
        // the worse side of each first stone: `-|m|` for White.
        if pos.swap_follows() {
            for v in &mut vals {
                v.1 = -v.1.abs();
            }
        }
        let sign = if pos.turn() == Player::White { 1 } else { -1 };
        let best = vals.iter().map(|v| (v.1 * sign).signum()).max();
        let set: Vec<(Move, i32)> = vals
            .into_iter()
            .filter(|v| Some((v.1 * sign).signum()) == best)
            .collect();
        // The margin-best of them, as the fallback and the report.
        let Some(&(mv, m)) = set.iter().max_by_key(|v| v.1 * sign) else {
            return open;
        };
        if set.len() == 1 {
            return ExactStep::Decided(self.exact_report(pos, mv, m));
        }
        ExactStep::Search {
            keep: Some(std::iter::once(mv).chain(set.iter().map(|v| v.0)).collect()),
            margin: Some(m),
        }
    }

    /// The root proof (`prove=`): the first move in the search's order
    /// (`chosen` first) that keeps the root's game-theoretic result, with
    /// that result's sign, when the proof finishes within `limits`.
    pub(super) fn prove_move(
        &mut self,
        pos: &Position,
        moves: &[RootMove],
        chosen: Move,
        limits: &SolveLimits,
    ) -> Option<(Move, i32)> {
        let mb = table_mb(&self.cfg);
        let solver = self.solver.get_or_insert_with(|| Box::new(Solver::new(mb)));
        let order = proof_order(pos, moves, chosen, &self.cfg.weights);
        result_move(pos, &order, solver, limits)
    }

    /// Records a move decided by the exact search alone.
    fn exact_report(&mut self, pos: &Position, mv: Move, margin_halves: i32) -> Move {
        self.rooted = None;
        self.report = Some(SearchReport {
            iterations: 0,
            nodes: 0,
            depth: pos.empty().count(),
            moves: Vec::new(),
            pv: vec![mv],
            exact_margin: Some(margin_halves),
            exact_share: Some(exact_share(pos, mv, margin_halves)),
            proven: None,
            reused: false,
            modelled: None,
        });
        mv
    }
}

/// The mover's expected score (1 a win, ½ a draw, 0 a loss) when White's
/// exact final margin after `mv` from `pos` is `margin_halves`: a swap
/// makes the mover White's owner.
pub(super) fn exact_share(pos: &Position, mv: Move, margin_halves: i32) -> f64 {
    let white = f64::from(margin_halves.signum() + 1) / 2.0;
    if pos.turn() == Player::White || mv == Move::Swap {
        white
    } else {
        1.0 - white
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Komi;

    /// The mover's share from White's margin: White's as White, the
    /// complement as Black, White's again for a swapper (who owns White
    /// after it), and a draw is one half whoever moves.
    #[test]
    fn the_exact_share_is_the_movers() {
        let sq = |s: &str| s.parse::<Square>().expect("square");
        let mut pos = Position::new(5, Bitboard::EMPTY, true, Komi::ZERO).expect("position");
        assert_eq!(pos.turn(), Player::White);
        let white = Move::Place(sq("c3"));
        assert_eq!(
            [4, 0, -4].map(|m| exact_share(&pos, white, m)),
            [1.0, 0.5, 0.0]
        );
        pos.play(sq("c3"));
        assert!(pos.turn() == Player::Black && pos.can_swap());
        let black = Move::Place(sq("b2"));
        assert_eq!(
            [4, 0, -4].map(|m| exact_share(&pos, black, m)),
            [0.0, 0.5, 1.0]
        );
        assert_eq!(
            [4, 0, -4].map(|m| exact_share(&pos, Move::Swap, m)),
            [1.0, 0.5, 0.0]
        );
    }
}
