//! Tree reuse between moves: the subtree of the position reached is kept,
//! moved to the front of the arena.

use std::sync::atomic::Ordering::Relaxed;

use super::{NodeId, NodeState, Tree};

impl Tree {
    /// Keeps only the subtree of `new_root`, moved to the front of the
    /// arena with `new_root` as node 0, in breadth-first order: each
    /// children range is copied as one block, so ranges stay contiguous
    /// and in their order. The kept nodes are copied out and written back,
    /// because no order of moving them in place is safe for every tree:
    /// under tree parallelism each thread allocates children from its own
    /// block, so a descendant can sit at a lower index than the new root
    /// (keeping by rank of old index once put such a descendant at node 0,
    /// and the next search ran on the statistics of another position).
    /// Allocates one buffer of the kept nodes (per move, not per node).
    pub fn keep_subtree(&mut self, new_root: NodeId) {
        if new_root == NodeId::ROOT {
            return;
        }
        let mut kept = vec![self.nodes[new_root.0 as usize].save()];
        let mut i = 0;
        while i < kept.len() {
            if kept[i].state == NodeState::Expanded as u8 {
                let (first, k) = (kept[i].first_child, kept[i].children as u32);
                kept[i].first_child = kept.len() as u32;
                for c in first..first + k {
                    kept.push(self.nodes[c as usize].save());
                }
            }
            i += 1;
        }
        for (node, saved) in self.nodes.iter().zip(&kept) {
            node.restore(saved);
        }
        self.next.store(kept.len() as u32, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Move;
    use crate::game::square::Square;

    /// Where a node's children sit in the arena: (first index, how many).
    fn range(c: super::super::Children) -> (u32, u32) {
        (c.first().index(), c.len())
    }

    /// A tree of three-move nodes: the root's children 1..=3, node 1's
    /// 4..=6, node 2's 7..=9, then `extra`'s 10..=12 when given.
    fn three_levels(extra: Option<NodeId>) -> Tree {
        let mut t = Tree::new();
        t.reset(100);
        let moves: Vec<(super::super::MoveCode, f32)> = (0..3)
            .map(|i| {
                (
                    super::super::MoveCode::place(Square::from_index_unchecked(i)),
                    0.0,
                )
            })
            .collect();
        for id in [NodeId::ROOT, NodeId(1), NodeId(2)]
            .into_iter()
            .chain(extra)
        {
            assert!(t.expand(id, &moves, None));
        }
        t
    }

    /// Makes nodes 4..=6 the children of node 9 too, as when a thread
    /// expands a node late from a block it reserved early.
    fn hand_4_to_6_to_9(t: &Tree) {
        t.node(NodeId(9)).publish(4, 3);
    }

    #[test]
    fn keep_subtree_finds_children_below_their_parent() {
        // Tree-parallel threads allocate from their own blocks, so a node
        // expanded late can own children at lower indices than itself.
        let mut t = three_levels(Some(NodeId(4))); // 4's children 10..=12
        // Hand node 1's children (4..=6, with 4's own 10..=12) to node 9.
        hand_4_to_6_to_9(&t);
        t.node(NodeId(1)).unclaim();
        t.node(NodeId(11)).set_visits(5);
        t.keep_subtree(NodeId(2));
        // Breadth first: 2 -> 0, its children 7..=9 -> 1..=3, 9's
        // children 4..=6 -> 4..=6, 4's children 10..=12 -> 7..=9.
        assert_eq!(t.used(), 10);
        assert_eq!(range(t.root().children()), (1, 3));
        assert_eq!(range(t.node(NodeId(3)).children()), (4, 3));
        assert_eq!(range(t.node(NodeId(4)).children()), (7, 3));
        assert_eq!(t.node(NodeId(8)).visits(), 5);
    }

    #[test]
    fn keep_subtree_puts_the_new_root_first_when_a_descendant_sits_below_it() {
        // A thread that reserved a block early expands a node late: the
        // new root (9) owns children (4..=6) at lower indices.
        let mut t = three_levels(None);
        hand_4_to_6_to_9(&t);
        t.node(NodeId(9)).set_visits(40);
        t.node(NodeId(5)).set_visits(6);
        t.keep_subtree(NodeId(9));
        assert_eq!(t.used(), 4);
        assert_eq!(t.root().visits(), 40);
        assert_eq!(range(t.root().children()), (1, 3));
        assert_eq!(t.node(NodeId(2)).visits(), 6);
        assert_eq!(
            t.node(NodeId(2)).mv(),
            Move::Place(Square::from_index_unchecked(1))
        );
    }

    #[test]
    fn keep_subtree_keeps_structure_and_statistics() {
        let mut t = Tree::new();
        t.reset(100);
        let moves: Vec<(crate::bot::mcts::tree::MoveCode, f32)> = (0..4)
            .map(|i| {
                let sq = crate::game::square::Square::from_index_unchecked(i);
                (crate::bot::mcts::tree::MoveCode::place(sq), 0.0)
            })
            .collect();
        assert!(t.expand(NodeId::ROOT, &moves, None)); // 1..=4
        assert!(t.expand(NodeId(1), &moves, None)); // 5..=8
        assert!(t.expand(NodeId(3), &moves, None)); // 9..=12
        assert!(t.expand(NodeId(10), &moves, None)); // 13..=16
        t.node(NodeId(11)).set_visits(7);
        t.keep_subtree(NodeId(3));
        assert_eq!(t.used(), 9);
        let (first, n) = range(t.root().children());
        assert_eq!((first, n), (1, 4));
        assert_eq!(t.node(NodeId(3)).visits(), 7);
        assert_eq!(range(t.node(NodeId(2)).children()), (5, 4));
        assert_eq!(
            t.child_by_move(NodeId(2), Move::Place(Square::from_index_unchecked(3))),
            Some(NodeId(8))
        );
    }
}

/// Tree reuse under tree parallelism: the kept subtree stays a well-formed
/// tree of legal, distinct moves whose visits add up.
#[cfg(test)]
mod parallel_reuse {
    use super::*;
    use crate::bot::mcts::config::{Budget, MctsConfig};
    use crate::bot::mcts::{MctsBot, config, tree};
    use crate::game::outcome::Move;
    use crate::game::position::Position;
    use crate::game::record::Game;
    use crate::game::rules::Rules;

    /// Pushes what is wrong below `id` (position `pos`) onto `bad`.
    fn walk(tree: &Tree, id: NodeId, pos: Position, depth: u32, bad: &mut Vec<String>) {
        let node = tree.node(id);
        if node.state() != tree::NodeState::Expanded {
            return;
        }
        let children = node.children();
        let n = children.len();
        // With `widen` every legal move is a child: a node with another
        // count stands for another position.
        let moves = pos.empty().count() + pos.can_swap() as u32;
        if n != moves {
            bad.push(format!(
                "depth {depth}: {n} children at node {} for {moves} moves",
                id.0
            ));
            return;
        }
        let mut seen = 0u64;
        let mut sum = 0u64;
        for c in children.ids() {
            let ch = tree.node(c);
            sum += ch.visits() as u64;
            match ch.mv() {
                Move::Place(sq) => {
                    if !pos.empty().contains(sq) || seen >> sq.index() & 1 == 1 {
                        bad.push(format!(
                            "depth {depth}: illegal/dup child {sq} at node {}",
                            id.0
                        ));
                        return;
                    }
                    seen |= 1 << sq.index();
                    let mut p = pos;
                    p.play_unchecked(sq);
                    walk(tree, c, p, depth + 1, bad);
                }
                Move::Swap => {}
            }
        }
        // Every visit but those before the expansion went on to a child,
        // or ended here while another thread was writing the children (as
        // many as that thread was descheduled for: no tight bound).
        let v = node.visits() as u64;
        if sum > v {
            bad.push(format!("depth {depth}: children visits {sum}, node {v}"));
        }
    }

    #[test]
    fn parallel_reuse_tree_is_consistent() {
        let rules = Rules::default();
        let start = rules
            .new_game(&mut crate::game::rules::layout_rng(3))
            .unwrap();
        let mut game = Game::new(start);
        // Pruning with widening keeps every legal move as a child, which
        // `walk` checks.
        let cfg = MctsConfig {
            budget: Budget::Iters(4000),
            threads: 2,
            prior: config::Prior::Prune,
            widen: 2.0,
            ..MctsConfig::default()
        };
        let mut bot = MctsBot::new("t", cfg, 1);
        let mut rng = crate::game::rng::FastRng::new(9);
        for ply in 0..30 {
            if game.position().is_game_over() {
                break;
            }
            let mv = bot.search(&game).unwrap();
            let mut bad = Vec::new();
            walk(&bot.trees[0], NodeId::ROOT, *game.position(), 0, &mut bad);
            assert!(bad.is_empty(), "ply {ply}: {:?}", &bad[..bad.len().min(5)]);
            game.try_play(mv).unwrap();
            // A random reply, so that the kept subtree is not always the
            // principal variation.
            let e = game.position().empty();
            if e.count() == 0 {
                break;
            }
            let sq = e.nth(rng.below(e.count())).unwrap();
            game.try_play(Move::Place(sq)).unwrap();
        }
    }
}
