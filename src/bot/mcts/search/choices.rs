//! Lazy selection (`lazy=`): a thread's recent choices of child, reused
//! at heavily visited nodes.

use crate::bot::mcts::tree::{NodeId, Proof, Tree};

/// Lazy selection: a thread's recent choices of child at heavily visited
/// nodes, each followed for `visits >> LAZY_SHIFT` more of this thread's
/// passes, `visits` being the chosen child's when it was chosen: about
/// 1/16 of its visits, counted per thread (with `T` threads sharing the
/// tree, the child may grow by up to about `T/16` meanwhile).
///
/// Why: with random playouts, scanning a node's children for the best
/// bound was most of an iteration (docs/mcts-history.md, "Lazy
/// selection"), and at a node with hundreds of visits the choice rarely
/// changes from one visit to the next. Reusing it for a small fraction of
/// the chosen child's visits changes that child's statistics by at most
/// that fraction before the choice is made again; a child that looked
/// good on few visits is re-examined after a few more (a length in
/// proportion to the parent's visits instead gave a corner move with a
/// 0.43 value ten thousand visits at once at the bench's root). Measured
/// in `MctsConfig`'s docs: about three times the iterations a second with
/// random playouts, level at equal iterations, stronger at equal time.
///
/// Direct-mapped by node id; a node whose slot another took chooses
/// afresh. Node ids are stable within one search, and a `Choices` lives
/// for one search (a `Worker`), so a stored child is always a child of
/// its node. A slot with no visits left to give is empty, whatever ids it
/// holds. A child with a proof (proven when or after it was chosen, or
/// terminal) is chosen afresh; with the solver on, its choice rules then
/// apply. Nothing shared is written: a reused choice reads neither the
/// virtual loss nor other threads' updates.
#[derive(Debug)]
pub(super) struct Choices {
    /// (node id, chosen child id, visits it still receives).
    slots: Box<[(NodeId, NodeId, u32); CHOICE_SLOTS]>,
}

/// Slots of [`Choices`] (a power of two): the heavily visited nodes of one
/// search are the few at the top of the tree.
const CHOICE_SLOTS: usize = 256;

/// A reused choice lasts `visits >> LAZY_SHIFT` of the chosen child's
/// visits (0 with under 16: chosen afresh every visit).
const LAZY_SHIFT: u32 = 4;

impl Choices {
    pub(super) fn new() -> Choices {
        Choices {
            slots: Box::new([(NodeId::ROOT, NodeId::ROOT, 0); CHOICE_SLOTS]),
        }
    }

    /// The child to visit from `id`: the stored choice while it lasts,
    /// otherwise `select()`'s, stored.
    #[inline]
    pub(super) fn child(
        &mut self,
        tree: &Tree,
        id: NodeId,
        select: impl FnOnce() -> NodeId,
    ) -> NodeId {
        let h = (id.index().wrapping_mul(0x9E37_79B1) >> 24) as usize & (CHOICE_SLOTS - 1);
        let slot = &mut self.slots[h];
        if slot.0 == id && slot.2 > 0 && tree.node(slot.1).proof() == Proof::Unknown {
            slot.2 -= 1;
            return slot.1;
        }
        let child = select();
        *slot = (id, child, tree.node(child).visits() >> LAZY_SHIFT);
        child
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::mcts::tree::{OwnedTree, TreeView};

    /// A root with three children, child `i` given `visits[i - 1]` visits.
    fn tree_with(visits: [u32; 3]) -> Tree {
        let mut t = Tree::new();
        t.reset(10);
        let moves: Vec<(crate::game::outcome::MoveCode, f32)> = (0..3)
            .map(|i| {
                let sq = crate::game::square::Square::from_index_unchecked(i);
                (crate::game::outcome::MoveCode::place(sq), 0.0)
            })
            .collect();
        assert!(t.expand(NodeId::ROOT, &moves, None));
        let w = OwnedTree::new(&mut t);
        for (ch, v) in w.nodes(w.root().children()).iter().zip(visits) {
            w.add_visits(ch, v);
        }
        t
    }

    /// The root's child `i` (from 1, as in [`tree_with`]).
    fn kid(t: &Tree, i: u32) -> NodeId {
        t.root().children().nth(i - 1)
    }

    /// How many times in a row `child` is followed from the root when it
    /// is the fresh choice once and `other` every time after.
    fn followed(t: &Tree, child: NodeId, other: NodeId) -> u32 {
        let mut c = Choices::new();
        assert_eq!(c.child(t, NodeId::ROOT, || child), child);
        let mut n = 1;
        while c.child(t, NodeId::ROOT, || other) == child {
            n += 1;
        }
        n
    }

    #[test]
    fn a_choice_lasts_a_sixteenth_of_the_childs_visits() {
        let t = tree_with([64, 15, 16]);
        // Chosen once, then followed 64 >> 4 = 4 more times.
        assert_eq!(followed(&t, kid(&t, 1), kid(&t, 2)), 5);
        // Under 16 visits: chosen afresh every time; 16: followed once more.
        assert_eq!(followed(&t, kid(&t, 2), kid(&t, 1)), 1);
        assert_eq!(followed(&t, kid(&t, 3), kid(&t, 1)), 2);
    }

    #[test]
    fn a_proven_child_is_chosen_afresh() {
        let mut t = tree_with([1000, 0, 0]);
        let (a, b) = (kid(&t, 1), kid(&t, 2));
        let mut c = Choices::new();
        assert_eq!(c.child(&t, NodeId::ROOT, || a), a);
        assert_eq!(c.child(&t, NodeId::ROOT, || b), a);
        let w = OwnedTree::new(&mut t);
        w.set_proof(w.node(a), Proof::Loss);
        assert_eq!(c.child(&t, NodeId::ROOT, || b), b);
    }
}
