//! The two ways a search holds a tree, and the writes each allows.
//!
//! Node statistics only grow, and how an add is made depends on who else
//! holds the tree: threads sharing it (tree parallelism) must add with
//! one atomic read-modify-write, or two racing adds lose one; a tree held
//! by one thread alone is added to with a plain load and store, which
//! saves the bus lock. The kind of hold is a type, not a flag the caller
//! picks: [`SharedTree`] is made from `&Tree` and only adds atomically;
//! [`OwnedTree`] is made from `&mut Tree` (no other reference exists while
//! it lives) and cannot leave its thread, so its plain adds cannot race.
//! The other writes (proofs, terminal margins, minimax values) are plain
//! stores under either hold, by the rules in `parallel.rs`.

use std::marker::PhantomData;
use std::ops::Deref;

use super::{Node, Proof, Tree};

/// A search's hold on a tree: reads through `Deref`, writes by the
/// methods below, which make each write the way the hold allows.
pub trait TreeView: Deref<Target = Tree> {
    /// Whether other threads may hold the tree at the same time (they
    /// then also share the search's counters and arena reserve blocks).
    const SHARED: bool;

    /// The tree with only the writes that are right whoever else holds
    /// it, for code that does not depend on the kind of hold.
    fn shared(&self) -> SharedTree<'_>;

    /// Counts `n` visits of `node` (on the way down: in flight, they are
    /// the virtual loss).
    fn add_visits(&self, node: &Node, n: u32);

    /// Adds a reward (fixed point) for `node`'s chooser.
    fn add_value(&self, node: &Node, r: u64);

    /// Counts one AMAF playout of `node` with reward `r`.
    fn add_amaf(&self, node: &Node, r: u64);

    /// Records a proof of `node`. Proofs of a position are facts, so two
    /// threads that store one store the same value.
    #[inline]
    fn set_proof(&self, node: &Node, p: Proof) {
        node.set_proof(p);
    }

    /// Marks `node` terminal with White's exact margin.
    #[inline]
    fn set_terminal(&self, node: &Node, margin_halves: i32) {
        node.set_terminal(margin_halves);
    }

    /// Stores `node`'s minimax value and says whether it changed. A plain
    /// store: a racing thread may overwrite it with a value one iteration
    /// older, which the next backup that changes the node repairs.
    #[inline]
    fn set_minimax(&self, node: &Node, v: f32) -> bool {
        node.set_minimax(v)
    }
}

/// A tree that several threads may hold at once: every add is one atomic
/// read-modify-write.
#[derive(Copy, Clone, Debug)]
pub struct SharedTree<'a> {
    tree: &'a Tree,
}

impl<'a> SharedTree<'a> {
    /// A shared hold on `tree`.
    #[inline]
    pub fn new(tree: &'a Tree) -> SharedTree<'a> {
        SharedTree { tree }
    }
}

impl Deref for SharedTree<'_> {
    type Target = Tree;
    #[inline]
    fn deref(&self) -> &Tree {
        self.tree
    }
}

impl TreeView for SharedTree<'_> {
    const SHARED: bool = true;

    #[inline]
    fn shared(&self) -> SharedTree<'_> {
        *self
    }

    #[inline]
    fn add_visits(&self, node: &Node, n: u32) {
        debug_assert!(self.tree.holds(node));
        node.add_visits::<true>(n);
    }

    #[inline]
    fn add_value(&self, node: &Node, r: u64) {
        debug_assert!(self.tree.holds(node));
        node.add_value::<true>(r);
    }

    #[inline]
    fn add_amaf(&self, node: &Node, r: u64) {
        debug_assert!(self.tree.holds(node));
        node.add_amaf::<true>(r);
    }
}

/// A tree one thread holds alone: adds are a plain load and store. Made
/// from `&mut Tree`, so no other reference to the tree exists while it
/// lives, and neither `Send` nor `Sync`, so it stays on its thread.
#[derive(Copy, Clone, Debug)]
pub struct OwnedTree<'a> {
    tree: &'a Tree,
    /// Keeps the hold on the thread that made it.
    one_thread: PhantomData<*const ()>,
}

impl<'a> OwnedTree<'a> {
    /// The sole hold on `tree`.
    #[inline]
    pub fn new(tree: &'a mut Tree) -> OwnedTree<'a> {
        OwnedTree {
            tree,
            one_thread: PhantomData,
        }
    }
}

impl Deref for OwnedTree<'_> {
    type Target = Tree;
    #[inline]
    fn deref(&self) -> &Tree {
        self.tree
    }
}

impl TreeView for OwnedTree<'_> {
    const SHARED: bool = false;

    #[inline]
    fn shared(&self) -> SharedTree<'_> {
        SharedTree::new(self.tree)
    }

    #[inline]
    fn add_visits(&self, node: &Node, n: u32) {
        debug_assert!(self.tree.holds(node));
        node.add_visits::<false>(n);
    }

    #[inline]
    fn add_value(&self, node: &Node, r: u64) {
        debug_assert!(self.tree.holds(node));
        node.add_value::<false>(r);
    }

    #[inline]
    fn add_amaf(&self, node: &Node, r: u64) {
        debug_assert!(self.tree.holds(node));
        node.add_amaf::<false>(r);
    }
}
