//! The children a leaf gets when it is expanded: every free square,
//! pruned and ordered by the heuristic's, the line network's or the
//! policy-value network's move values.

use super::Worker;
use crate::bot::mcts::config::{MctsConfig, Rollout};
use crate::eval;
use crate::game::outcome::MoveCode;
use crate::game::position::Position;
use crate::net::lines::{LineNet, NetLines};
use crate::net::{index_square, swap_index};

impl Worker {
    /// Fills `self.moves` with the children of `pos`: every free square
    /// (pruned to the best `k` by heuristic value with `prior=prune`, or by
    /// the network's with `rollout=net`), then the pie swap when offered.
    /// Priors are scaled so the best is 1. When `modelled`, only the moves
    /// of best heuristic value, all with prior 1: the moves `heuristic`
    /// chooses among. With `pv` (`prior=pv`), the network's policy in
    /// `self.pv` ranks the moves.
    pub(super) fn child_moves(
        &mut self,
        pos: &Position,
        cfg: &MctsConfig,
        valuer: &eval::MoveValuer,
        net: Option<&LineNet>,
        modelled: bool,
        pv: bool,
    ) {
        self.moves.clear();
        if modelled {
            let mut top = i32::MIN;
            for sq in pos.empty() {
                let v = valuer.value(pos, sq);
                if v > top {
                    top = v;
                    self.moves.clear();
                }
                if v == top {
                    self.moves.push((MoveCode::place(sq), 1.0));
                }
            }
            return;
        }
        // The heuristic ranks stones by what they gain their owner; the
        // first stone under the pie rule should gain nobody, so there it
        // ranks nothing (every stone a child, no prior).
        if !cfg.uses_prior() || pos.swap_follows() {
            self.moves
                .extend(pos.empty().map(|sq| (MoveCode::place(sq), 0.0)));
        } else if pv {
            let size = pos.size();
            let swap = swap_index(size);
            let top = self
                .pv
                .priors
                .iter()
                .map(|p| p.1)
                .fold(f32::MIN_POSITIVE, f32::max);
            for &(i, p) in &self.pv.priors {
                // The swap is added below, first, as for the other priors.
                if i != swap {
                    let sq = index_square(i, size);
                    self.moves.push((MoveCode::place(sq), p / top));
                }
            }
        } else if let (Some(net), Rollout::Net) = (net, cfg.rollout) {
            let lines = NetLines::new(net, pos);
            let base = lines.after_base(net, pos);
            let mut top = f32::NEG_INFINITY;
            for sq in pos.empty() {
                let v = lines.move_value(net, pos, base, sq);
                top = top.max(v);
                self.moves.push((MoveCode::place(sq), v));
            }
            // The network's values are points and may be negative: the
            // best child's prior is 1, one two points worse 1/e.
            for m in self.moves.iter_mut() {
                m.1 = ((m.1 - top) / 2.0).exp();
            }
        } else {
            let mut top = 1;
            for sq in pos.empty() {
                let v = valuer.value(pos, sq).max(0);
                top = top.max(v);
                self.moves.push((MoveCode::place(sq), v as f32));
            }
            let scale = 1.0 / top as f32;
            for m in self.moves.iter_mut() {
                m.1 *= scale;
            }
        }
        if cfg.prunes() {
            // Best first (a stable sort: equal values keep square order,
            // so the tree is deterministic); selection scans a growing
            // prefix, or only `k` children exist.
            self.moves.sort_by(|a, b| b.1.total_cmp(&a.1));
            if cfg.widen == 0.0 {
                self.moves.truncate(cfg.k as usize);
            }
        }
        if pos.can_swap() {
            // First, so that pruning and unpruning never hide the pie
            // decision.
            self.moves.insert(0, (MoveCode::SWAP, 1.0));
        }
    }
}
