//! What an iteration leaves in the tree above its leaf: rewards and AMAF
//! statistics (its visits were counted on the way down), implicit minimax
//! values and solver proofs.

use std::sync::atomic::Ordering::Relaxed;

use std::sync::atomic::AtomicBool;

use super::leaf::Leaf;
use super::pv::mixed;
use super::{SearchContext, Worker};
use crate::bot::mcts::tree::{NodeState, Proof, REWARD_ONE, SharedTree, Tree, TreeView};
use crate::game::player::ByPlayer;

impl Worker {
    /// Adds the leaf's reward to every node of the path (for its chooser)
    /// and, where the playout's stones count (`amaf`), to the AMAF
    /// statistics of each path node's children whose square the mover
    /// there ended up holding. A hot node's reward waits in `pending`
    /// with its visit. With `mix=`, a simulated leaf's reward is blended
    /// with the network's value of its parent (`search/pv.rs`).
    #[inline(always)]
    pub(super) fn back_up_rewards<V: TreeView>(&mut self, s: &SearchContext<'_, V>, leaf: &Leaf) {
        let view = &s.tree;
        let tree: &Tree = view;
        let mut reward = s.rewarder.both(leaf.margin);
        if s.cfg.mix > 0.0 && leaf.simulated && self.path.len() >= 2 {
            // The leaf's parent was expanded, so the network valued it.
            let parent = tree.node(self.path[self.path.len() - 2].id);
            reward = mixed(reward, parent, s.cfg.mix);
        }
        let amaf = s.cfg.uses_amaf() && leaf.amaf;
        for step in self.path.iter().rev() {
            let node = tree.node(step.id);
            if step.deferred {
                self.pending
                    .reward(view.shared(), step.id, reward[!step.turn]);
            } else {
                view.add_value(node, reward[!step.turn]);
            }
            if amaf && node.state() == NodeState::Expanded {
                let own = leaf.stones[step.turn];
                let r = reward[step.turn];
                let children = node.children();
                for j in 0..children.len() {
                    let ch = tree.node(children.nth(j));
                    if ch.node_move().square().is_some_and(|sq| own.contains(sq)) {
                        view.add_amaf(ch, r);
                    }
                }
            }
        }
    }

    /// Implicit minimax (Lanctot et al. 2014): the leaf keeps its
    /// heuristic value for its chooser; every node above takes one minus
    /// the best value among its visited children. Only the path's nodes
    /// can change, so the backup stops at the first node whose value
    /// stays (one thread computes exactly what a full backup would).
    pub(super) fn back_up_minimax(&self, tree: SharedTree<'_>, leaf: ByPlayer<u64>) {
        let mut steps = self.path.iter().rev();
        let Some(last) = steps.next() else {
            return;
        };
        let v = leaf[!last.turn] as f32 / REWARD_ONE as f32;
        tree.set_minimax(tree.node(last.id), v);
        for step in steps {
            let node = tree.node(step.id);
            let mut best = f32::NEG_INFINITY;
            let children = node.children();
            for j in 0..children.len() {
                let ch = tree.node(children.nth(j));
                if ch.visits() > 0 {
                    best = best.max(ch.minimax());
                }
            }
            if best == f32::NEG_INFINITY {
                continue;
            }
            // Only the child on the path changed: when this node's value
            // stays, every value above it stays too.
            if !tree.set_minimax(node, 1.0 - best) {
                return;
            }
        }
    }

    /// MCTS-Solver (Winands et al. 2008): from the leaf up, a node is lost
    /// for its chooser when some child is won for the opponent choosing
    /// it, and decided when every child is (best child's result, seen by
    /// the other side). Stops at the first node that stays unproven; a
    /// proven root sets `stop`.
    pub(super) fn propagate_proofs(&self, tree: SharedTree<'_>, stop: &AtomicBool) {
        let Some(last) = self.path.last() else {
            return;
        };
        if tree.node(last.id).proof() == Proof::Unknown {
            return;
        }
        for step in self.path.iter().rev().skip(1) {
            let node = tree.node(step.id);
            if node.proof() != Proof::Unknown {
                continue;
            }
            let mut best = Proof::Loss;
            let mut all = true;
            let children = node.children();
            for j in 0..children.len() {
                match tree.node(children.nth(j)).proof() {
                    Proof::Win => {
                        best = Proof::Win;
                        break;
                    }
                    Proof::Unknown => all = false,
                    p => best = best.max(p),
                }
            }
            if best == Proof::Win || (all && step.full) {
                tree.set_proof(node, best.flip());
            } else {
                return;
            }
        }
        if tree.root().proof() != Proof::Unknown {
            stop.store(true, Relaxed);
        }
    }
}
