//! What an iteration finds at the end of its descent: the exact result
//! where the game is over there or few squares are left, else a playout.

use super::{LEAF_EXACT, LEAF_TABLE_MB, SearchContext, Worker};
use crate::bot::mcts::config::{MctsConfig, Rollout};
use crate::bot::mcts::rollout::playout;
use crate::bot::mcts::tree::{Node, NodeState, Proof, TreeView};
use crate::eval;
use crate::game::bitboard::Bitboard;
use crate::game::outcome::Outcome;
use crate::game::player::{ByPlayer, Player};
use crate::game::position::Position;
use crate::solve::Solver;
use crate::solve::endgame;

/// The value an iteration backs up from its leaf.
#[derive(Copy, Clone, Debug)]
pub(super) struct Leaf {
    /// Both colours' stones at the end of the game (AMAF's moves).
    pub(super) stones: ByPlayer<Bitboard>,
    /// White's final margin in half points (the reward's).
    pub(super) margin: i32,
    /// Whether the stones are a played-out game's, for AMAF (not those
    /// of a position the exact solver valued).
    pub(super) amaf: bool,
    /// White's margin for implicit minimax: the static evaluation of a
    /// simulated leaf when minimax is on and playouts are not already
    /// static, else `margin`.
    pub(super) minimax_margin: i32,
    /// Whether the margin is a simulation's (a playout or a static
    /// evaluation), not an exact result: only then does `mix=` blend in
    /// the network's value.
    pub(super) simulated: bool,
}

impl Worker {
    /// The value of the descent's last node `node` (in state `st`, at
    /// `pos`): its stored exact margin when TERMINAL; the game's result
    /// when the game is over, or the exact solver's with few squares
    /// left, both recorded as the node's proof; else a playout's.
    #[inline(always)]
    pub(super) fn leaf_value<V: TreeView>(
        &mut self,
        s: &SearchContext<'_, V>,
        node: &Node,
        st: NodeState,
        pos: &Position,
    ) -> Leaf {
        let cfg = s.cfg;
        let exact = |m: i32, amaf: bool| Leaf {
            stones: stones_of(pos),
            margin: m,
            amaf,
            minimax_margin: m,
            simulated: false,
        };
        if st == NodeState::Terminal {
            return exact(node.terminal_margin(), pos.is_game_over());
        }
        if pos.is_game_over() {
            let m = pos.margin_halves();
            s.tree
                .set_proof(node, Proof::of_outcome(pos.outcome(), !pos.turn()));
            s.tree.set_terminal(node, m);
            return exact(m, true);
        }
        if cfg.solver && !pos.can_swap() && pos.empty().count() <= LEAF_EXACT.min(cfg.exact) {
            let solver = self
                .solver
                .get_or_insert_with(|| Box::new(Solver::new(LEAF_TABLE_MB)));
            let m = endgame::margin(pos, solver);
            let outcome = Outcome::from_margin_halves(m);
            s.tree
                .set_proof(node, Proof::of_outcome(outcome, !pos.turn()));
            s.tree.set_terminal(node, m);
            return exact(m, false);
        }
        let p = playout(pos, cfg, &s.valuer, s.net, &mut self.rng);
        // Static leaves are their own minimax values.
        let minimax_margin =
            if cfg.minimax > 0.0 && !matches!(cfg.rollout, Rollout::Eval | Rollout::Value) {
                static_margin(pos, cfg)
            } else {
                p.margin_halves
            };
        Leaf {
            stones: p.stones,
            margin: p.margin_halves,
            amaf: true,
            minimax_margin,
            simulated: true,
        }
    }
}

/// White's margin in half points as the line-potential evaluation sees it.
#[inline]
fn static_margin(pos: &Position, cfg: &MctsConfig) -> i32 {
    2 * eval::evaluate(pos, &cfg.weights) - pos.komi().halves()
}

#[inline]
fn stones_of(pos: &Position) -> ByPlayer<Bitboard> {
    ByPlayer::new(pos.stones(Player::White), pos.stones(Player::Black))
}
