//! The held-back statistics updates of hot nodes under tree parallelism.

use super::LAG_SHIFT;
use crate::bot::mcts::tree::{NodeId, SharedTree, TreeView};

/// Statistics updates of hot nodes that a thread sharing the tree holds
/// back and adds in batches.
///
/// Why: with cheap iterations, every thread passes through the same few
/// nodes at the top of the tree, and an atomic add there on every
/// iteration moves their cache lines between cores on every iteration;
/// that traffic, not the work, bounded tree parallelism (two threads ran
/// slower than one). A node with hundreds of visits barely changes its
/// selection score over a few more, so its updates wait until they
/// reach 1/64 of its visits, while cold nodes, where one visit matters
/// (and where the in-flight visit is the virtual loss), are updated at
/// once.
#[derive(Debug)]
pub(super) struct Pending {
    /// Direct-mapped by node id: a node whose slot is taken by another
    /// evicts it (adds it to the tree) and takes the slot.
    slots: Box<[PendingLeaf; PENDING_SLOTS]>,
}

#[derive(Copy, Clone, Debug)]
struct PendingLeaf {
    /// The node, or `None` for an empty slot.
    id: Option<NodeId>,
    visits: u32,
    value: u64,
    /// Held-back visits at which the entry is added to the tree.
    limit: u32,
}

const EMPTY: PendingLeaf = PendingLeaf {
    id: None,
    visits: 0,
    value: 0,
    limit: 0,
};

/// Slots of a [`Pending`] (a power of two).
const PENDING_SLOTS: usize = 256;

impl Pending {
    pub(super) fn new() -> Pending {
        Pending {
            slots: Box::new([EMPTY; PENDING_SLOTS]),
        }
    }

    #[inline]
    fn slot(id: NodeId) -> usize {
        (id.index().wrapping_mul(0x9E37_79B1) >> 24) as usize & (PENDING_SLOTS - 1)
    }

    /// Holds back one visit of `id`, which had `before` visits.
    #[inline]
    pub(super) fn visit(&mut self, tree: SharedTree<'_>, id: NodeId, before: u32) {
        let e = &mut self.slots[Self::slot(id)];
        if e.id != Some(id) {
            Self::add(tree, e);
            *e = PendingLeaf {
                id: Some(id),
                visits: 0,
                value: 0,
                limit: before >> LAG_SHIFT,
            };
        }
        e.visits += 1;
    }

    /// Holds back a reward for `id` (straight to the tree if its slot was
    /// taken meanwhile) and adds the entry to the tree once its visits
    /// reach its limit.
    #[inline]
    pub(super) fn reward(&mut self, tree: SharedTree<'_>, id: NodeId, value: u64) {
        let e = &mut self.slots[Self::slot(id)];
        if e.id != Some(id) {
            tree.add_value(tree.node(id), value);
            return;
        }
        e.value += value;
        if e.visits >= e.limit {
            Self::add(tree, e);
        }
    }

    #[inline]
    fn add(tree: SharedTree<'_>, e: &mut PendingLeaf) {
        let Some(id) = e.id else {
            return;
        };
        let node = tree.node(id);
        if e.visits > 0 {
            tree.add_visits(node, e.visits);
        }
        if e.value > 0 {
            tree.add_value(node, e.value);
        }
        e.visits = 0;
        e.value = 0;
    }

    /// Adds everything held back to the tree.
    pub(super) fn flush(&mut self, tree: SharedTree<'_>) {
        for e in self.slots.iter_mut() {
            Self::add(tree, e);
            *e = EMPTY;
        }
    }
}
