//! The mcts bot's own exact decisions: the result-only root proof
//! (`prove=`) that follows the tree search with more squares left, and
//! its solver's table. The exact margins and moves with few squares left
//! come from [`crate::solve::endgame`], which `zero` shares.

use super::config::{MctsConfig, Reward};
use super::root::RootMove;
use super::tree::Proof;
use crate::eval::EvalWeights;
use crate::game::outcome::Move;
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
