//! The policy-value network inside `mcts` (`prior=pv`, `mix=`): one
//! evaluation per node, made when the node is expanded, that gives its
//! children their priors and the node its value.
//!
//! Why at expansion only: an evaluation costs as much as dozens of
//! iterations, so it must be paid once per node, not once per visit; the
//! expansion threshold (`expand=`) is the knob that spaces evaluations
//! out, as AlphaGo's expansion threshold did (Silver et al. 2016).
//!
//! The value is stored in the node's minimax field (`mix=` and
//! `minimax=` exclude each other) as White's reward in `[0, 1]`, the
//! network's `[-1, 1]` for the side to move turned into the per-colour
//! reward convention of the backup. Threads that race to expand one node
//! compute the same value from the same position and store the same bits,
//! before the node is published, so whoever reads it later reads it
//! written.

use super::{SearchContext, Worker};
use crate::bot::mcts::config::Prior;
use crate::bot::mcts::tree::{Node, REWARD_ONE, TreeView};
use crate::game::player::{ByPlayer, Player};
use crate::game::position::Position;
use crate::net::{PvNet, Scratch, legal_priors, swap_index};

/// A worker's buffers for network evaluations, sized at the first one.
#[derive(Debug, Default)]
pub(super) struct PvBuffers {
    scratch: Scratch,
    logits: Vec<f32>,
    /// `(policy index, probability)` of the legal moves of the position
    /// evaluated last, when its priors were asked for.
    pub(super) priors: Vec<(usize, f32)>,
}

impl Worker {
    /// Evaluates `pos`, the position of LEAF `node` about to be expanded,
    /// when the network is on: the priors for `child_moves` (with
    /// `prior=pv`, unless `plain`: the moves are not ranked there) and the
    /// value into `node` (with `mix=`). Returns whether priors were made.
    #[inline]
    pub(super) fn evaluate_pv<V: TreeView>(
        &mut self,
        s: &SearchContext<'_, V>,
        node: &Node,
        pos: &Position,
        plain: bool,
    ) -> bool {
        let Some(net) = s.pv else {
            return false;
        };
        let want_priors = s.cfg.prior == Prior::Pv && !plain;
        let mix = s.cfg.mix > 0.0;
        if !want_priors && !mix {
            return false;
        }
        let v = self.pv.evaluate(net, pos, want_priors);
        if mix {
            let white = if pos.turn() == Player::White { v } else { -v };
            let _ = s.tree.set_minimax(node, (1.0 + white) / 2.0);
        }
        want_priors
    }
}

impl PvBuffers {
    /// The network's value of `pos` for the side to move, and with
    /// `priors` its legal moves' probabilities in `self.priors`.
    fn evaluate(&mut self, net: &PvNet, pos: &Position, priors: bool) -> f32 {
        let width = swap_index(pos.size()) + 1;
        if self.logits.len() != width {
            self.logits.resize(width, 0.0);
        }
        let mut value = [0.0f32];
        net.evaluate_slice(
            std::slice::from_ref(pos),
            &mut self.scratch,
            &mut self.logits,
            &mut value,
        );
        if priors {
            legal_priors(pos, &self.logits, &mut self.priors);
        }
        value[0]
    }
}

/// The rewards a simulated leaf backs up with `mix=`: the playout's
/// `reward` and the network's value of the leaf's parent `parent` (White's
/// reward, stored by [`Worker::evaluate_pv`]), weighted `1 - mix` and
/// `mix`.
#[inline]
pub(super) fn mixed(reward: ByPlayer<u64>, parent: &Node, mix: f32) -> ByPlayer<u64> {
    let net = parent.minimax().clamp(0.0, 1.0) * REWARD_ONE as f32;
    let w = (1.0 - mix) * reward[Player::White] as f32 + mix * net;
    let w = (w.round() as u64).min(REWARD_ONE);
    ByPlayer::new(w, REWARD_ONE - w)
}
