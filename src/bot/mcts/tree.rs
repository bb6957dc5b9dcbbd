//! The search tree: compact nodes in one preallocated arena, indexed by
//! [`NodeId`]. Every field is an atomic so that several threads can share
//! the tree without `unsafe` (the rules they follow are in `parallel.rs`).
//!
//! A node's statistics are always from the view of the player who chose
//! it, that is the owner of the colour *not* to move in its position (a pie
//! swap changes who owns White, not whose turn it is; see `mod.rs`).

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64};

use crate::game::outcome::{Move, Outcome};
use crate::game::player::Player;
use crate::game::square::Square;

/// Index of a node in its tree's arena.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The root is always the first node.
    pub const ROOT: NodeId = NodeId(0);
}

/// Fixed-point unit of rewards: a reward `r` in `[0, 1]` is stored as
/// `round(r * REWARD_ONE)`, so sums are exact integers that add with one
/// atomic instruction (2^16 leaves 2^48 visits before a `u64` overflows).
pub const REWARD_ONE: u64 = 1 << 16;

/// The `mv` byte of a pie-swap child (squares use 0..=63).
pub const SWAP: u8 = 64;

/// Node life cycle, stored in [`Node::state`].
pub mod state {
    /// No children (yet): simulated from.
    pub const LEAF: u8 = 0;
    /// A thread has claimed the expansion and is writing the children.
    pub const EXPANDING: u8 = 1;
    /// Children written and published.
    pub const EXPANDED: u8 = 2;
    /// The game is over here, or the exact value is known; `first_child`
    /// holds White's final margin in half points (as `i32` bits).
    pub const TERMINAL: u8 = 3;
}

/// A proven game result for the player who chose the node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Proof {
    /// Not proven.
    Unknown = 0,
    /// The chooser loses with best play.
    Loss = 1,
    /// Best play draws.
    Draw = 2,
    /// The chooser wins with best play.
    Win = 3,
}

impl Proof {
    #[inline]
    fn from_u8(v: u8) -> Proof {
        match v {
            1 => Proof::Loss,
            2 => Proof::Draw,
            3 => Proof::Win,
            _ => Proof::Unknown,
        }
    }

    /// The same result seen by the other player.
    #[inline]
    pub fn flip(self) -> Proof {
        match self {
            Proof::Loss => Proof::Win,
            Proof::Win => Proof::Loss,
            p => p,
        }
    }

    /// The proof for `chooser` of a game whose exact final result is
    /// `outcome`.
    #[inline]
    pub fn of_outcome(outcome: Outcome, chooser: Player) -> Proof {
        match outcome.winner() {
            None => Proof::Draw,
            Some(w) if w == chooser => Proof::Win,
            Some(_) => Proof::Loss,
        }
    }
}

/// One tree node: 40 bytes (no padding left). Children of a node are a contiguous range of
/// the arena, `first_child .. first_child + children`.
#[derive(Debug, Default)]
pub struct Node {
    /// Visits, counted when a thread passes on its way down (so a visit in
    /// flight is a virtual loss until its reward arrives).
    pub visits: AtomicU32,
    /// First child (EXPANDED) or White's exact margin (TERMINAL).
    pub first_child: AtomicU32,
    /// Sum of rewards, fixed point ([`REWARD_ONE`]).
    pub value: AtomicU64,
    /// Sum of AMAF rewards: playouts through the parent in which the
    /// chooser of this node ended up with a stone on its square.
    pub amaf_value: AtomicU64,
    /// Number of those playouts.
    pub amaf_visits: AtomicU32,
    /// Heuristic value of the move, scaled to `[0, 1]` (`f32` bits).
    pub prior: AtomicU32,
    /// Implicit minimax value for the chooser, `[0, 1]` (`f32` bits):
    /// the heuristic value of the leaf backed up by minimax (Lanctot et
    /// al. 2014); meaningful once the node has a visit.
    pub minimax: AtomicU32,
    /// The move: a square index, or [`SWAP`].
    pub mv: AtomicU8,
    /// Number of children.
    pub children: AtomicU8,
    /// A [`state`] constant.
    pub state: AtomicU8,
    /// A [`Proof`] as `u8`.
    pub proof: AtomicU8,
}

/// A node's fields as plain values, for moving nodes between places.
#[derive(Copy, Clone, Debug)]
struct Saved {
    visits: u32,
    first_child: u32,
    value: u64,
    amaf_value: u64,
    amaf_visits: u32,
    prior: u32,
    minimax: u32,
    mv: u8,
    children: u8,
    state: u8,
    proof: u8,
}

/// Adds to a counter: one atomic read-modify-write when threads share the
/// tree, a plain load and store (no bus lock) when one thread owns it.
#[inline]
pub fn add32<const SHARED: bool>(a: &AtomicU32, v: u32) {
    if SHARED {
        a.fetch_add(v, Relaxed);
    } else {
        a.store(a.load(Relaxed).wrapping_add(v), Relaxed);
    }
}

/// As [`add32`], for 64-bit sums.
#[inline]
pub fn add64<const SHARED: bool>(a: &AtomicU64, v: u64) {
    if SHARED {
        a.fetch_add(v, Relaxed);
    } else {
        a.store(a.load(Relaxed).wrapping_add(v), Relaxed);
    }
}

impl Node {
    /// Writes a fresh child (before it is published).
    #[inline]
    fn init(&self, mv: u8, prior: f32) {
        self.restore(&Saved {
            visits: 0,
            first_child: 0,
            value: 0,
            amaf_value: 0,
            amaf_visits: 0,
            prior: prior.to_bits(),
            minimax: 0.5f32.to_bits(),
            mv,
            children: 0,
            state: state::LEAF,
            proof: Proof::Unknown as u8,
        });
    }

    /// Its fields (between searches: no thread writes them). The pattern
    /// names every field, so a field added to `Node` but not here fails
    /// to compile rather than being dropped when a subtree is kept.
    fn save(&self) -> Saved {
        let Node {
            visits,
            first_child,
            value,
            amaf_value,
            amaf_visits,
            prior,
            minimax,
            mv,
            children,
            state,
            proof,
        } = self;
        Saved {
            visits: visits.load(Relaxed),
            first_child: first_child.load(Relaxed),
            value: value.load(Relaxed),
            amaf_value: amaf_value.load(Relaxed),
            amaf_visits: amaf_visits.load(Relaxed),
            prior: prior.load(Relaxed),
            minimax: minimax.load(Relaxed),
            mv: mv.load(Relaxed),
            children: children.load(Relaxed),
            state: state.load(Relaxed),
            proof: proof.load(Relaxed),
        }
    }

    /// Overwrites its fields with `s`.
    fn restore(&self, s: &Saved) {
        self.visits.store(s.visits, Relaxed);
        self.first_child.store(s.first_child, Relaxed);
        self.value.store(s.value, Relaxed);
        self.amaf_value.store(s.amaf_value, Relaxed);
        self.amaf_visits.store(s.amaf_visits, Relaxed);
        self.prior.store(s.prior, Relaxed);
        self.minimax.store(s.minimax, Relaxed);
        self.mv.store(s.mv, Relaxed);
        self.children.store(s.children, Relaxed);
        self.state.store(s.state, Relaxed);
        self.proof.store(s.proof, Relaxed);
    }

    /// Visits so far (in-flight ones included).
    #[inline]
    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Mean reward for the chooser, in `[0, 1]`; `None` before any visit.
    #[inline]
    pub fn mean(&self) -> Option<f64> {
        let n = self.visits();
        (n > 0).then(|| self.value.load(Relaxed) as f64 / (n as f64 * REWARD_ONE as f64))
    }

    /// The move that leads here.
    #[inline]
    pub fn mv(&self) -> Move {
        match self.mv.load(Relaxed) {
            SWAP => Move::Swap,
            i => Move::Place(Square::from_index_unchecked(i)),
        }
    }

    /// The proof state.
    #[inline]
    pub fn proof(&self) -> Proof {
        Proof::from_u8(self.proof.load(Relaxed))
    }

    /// Records a proof. Proofs of a position are facts, so two threads
    /// that store one store the same value.
    #[inline]
    pub fn set_proof(&self, p: Proof) {
        self.proof.store(p as u8, Relaxed);
    }

    /// The state, read with `Acquire` so that an `EXPANDED` node's
    /// children range (and the children) are visible.
    #[inline]
    pub fn state(&self) -> u8 {
        self.state.load(Acquire)
    }

    /// The children range (meaningful once `EXPANDED` was read).
    #[inline]
    pub fn child_range(&self) -> (u32, u32) {
        (
            self.first_child.load(Relaxed),
            self.children.load(Relaxed) as u32,
        )
    }

    /// Marks the node terminal with White's exact margin.
    #[inline]
    pub fn set_terminal(&self, margin_halves: i32) {
        self.first_child.store(margin_halves as u32, Relaxed);
        self.state.store(state::TERMINAL, Release);
    }

    /// White's exact margin of a TERMINAL node.
    #[inline]
    pub fn terminal_margin(&self) -> i32 {
        self.first_child.load(Relaxed) as i32
    }
}

/// A value alone on its cache line, so that a counter one thread writes
/// does not evict the read-mostly fields around it from the other
/// threads' caches.
#[derive(Debug, Default)]
#[repr(align(64))]
pub struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Nodes a thread reserves at once when threads share a tree.
pub const RESERVE_BLOCK: u32 = 1024;

/// A thread's private stock of arena nodes (tree parallelism).
#[derive(Copy, Clone, Debug, Default)]
pub struct Reserve {
    next: u32,
    end: u32,
}

/// A tree: an arena of nodes (reused across searches) and a bump index.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    /// Next free node; may run past `limit` once when the arena fills.
    /// On its own cache line: threads bump it while every node access
    /// reads `nodes`.
    next: Padded<AtomicU32>,
    /// Nodes this search may use (`<= nodes.len()`).
    limit: u32,
}

impl Tree {
    /// An empty tree; memory comes with the first [`Tree::reset`].
    pub fn new() -> Tree {
        Tree::default()
    }

    /// Clears the tree to a lone root and makes room for `limit` nodes
    /// (the arena only grows, so later searches allocate nothing).
    pub fn reset(&mut self, limit: u32) {
        self.ensure(limit);
        self.nodes[0].init(0, 0.0);
        self.next.store(1, Relaxed);
    }

    /// Makes room for `limit` nodes without clearing the tree.
    pub fn ensure(&mut self, limit: u32) {
        let limit = limit.max(1);
        if self.nodes.len() < limit as usize {
            self.nodes.resize_with(limit as usize, Node::default);
        }
        self.limit = limit.max(self.used());
    }

    /// Nodes the arena holds (the most a search may use without growing it).
    pub fn capacity(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// Whether the next reserve block would not fit under the bound: the
    /// search is about to stop adding nodes.
    #[inline]
    pub fn nearly_full(&self) -> bool {
        self.next.load(Relaxed) as u64 + RESERVE_BLOCK as u64 >= self.limit as u64
    }

    /// The node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// The root.
    #[inline]
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// Nodes in use.
    #[inline]
    pub fn used(&self) -> u32 {
        self.next.load(Relaxed).min(self.limit).max(1)
    }

    /// The node bound of this search.
    #[inline]
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Claims `k` consecutive nodes, or `None` when the arena is full. A
    /// full arena costs one load per attempt: the counter is only bumped
    /// when the range fits (or once per thread, racing at the very end).
    #[inline]
    fn alloc(&self, k: u32) -> Option<u32> {
        let limit = self.limit as u64;
        if self.next.load(Relaxed) as u64 + k as u64 > limit {
            return None;
        }
        let start = self.next.fetch_add(k, Relaxed);
        (start as u64 + k as u64 <= limit).then_some(start)
    }

    /// Claims `k` nodes from a thread's reserve, refilling it with a block
    /// of [`RESERVE_BLOCK`] nodes from the shared bump index when it runs
    /// low (so threads touch the shared counter once per block, not once
    /// per expansion); near the bound, straight from the shared index.
    #[inline]
    fn alloc_reserved(&self, k: u32, r: &mut Reserve) -> Option<u32> {
        if r.end - r.next < k {
            match self.alloc(RESERVE_BLOCK) {
                Some(s) => {
                    r.next = s;
                    r.end = s + RESERVE_BLOCK;
                }
                None => return self.alloc(k),
            }
        }
        let s = r.next;
        r.next += k;
        Some(s)
    }

    /// Expands LEAF `id` with `moves` (move byte, prior) unless another
    /// thread holds it, the arena is full, or there are no moves. Returns
    /// whether the node is now EXPANDED.
    ///
    /// Step 1: claim the node by CAS LEAF -> EXPANDING (losers simulate
    /// from the node instead). Step 2: bump-allocate the children range.
    /// Step 3: write the children, then publish with a `Release` store of
    /// EXPANDED.
    pub fn expand(&self, id: NodeId, moves: &[(u8, f32)], reserve: Option<&mut Reserve>) -> bool {
        let node = self.node(id);
        if moves.is_empty() {
            return false;
        }
        // Step 1
        if node
            .state
            .compare_exchange(state::LEAF, state::EXPANDING, Acquire, Relaxed)
            .is_err()
        {
            return node.state() == state::EXPANDED;
        }
        // Step 2
        let k = moves.len() as u32;
        let first = match reserve {
            Some(r) => self.alloc_reserved(k, r),
            None => self.alloc(k),
        };
        let Some(first) = first else {
            node.state.store(state::LEAF, Release);
            return false;
        };
        // Step 3
        for (i, &(mv, prior)) in moves.iter().enumerate() {
            self.nodes[first as usize + i].init(mv, prior);
        }
        node.first_child.store(first, Relaxed);
        node.children.store(moves.len() as u8, Relaxed);
        node.state.store(state::EXPANDED, Release);
        true
    }

    /// The child of `id` reached by `mv`, if expanded.
    pub fn child_by_move(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        let node = self.node(id);
        if node.state() != state::EXPANDED {
            return None;
        }
        let (first, n) = node.child_range();
        (first..first + n)
            .map(NodeId)
            .find(|&c| self.node(c).mv() == mv)
    }

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
            if kept[i].state == state::EXPANDED {
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

    /// Bytes of one node.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_compact() {
        const { assert!(Tree::NODE_BYTES <= 64) };
        assert_eq!(Tree::NODE_BYTES, 40);
    }

    #[test]
    fn expand_respects_the_bound() {
        let mut t = Tree::new();
        t.reset(10);
        let moves: Vec<(u8, f32)> = (0..6).map(|i| (i, 0.0)).collect();
        assert!(t.expand(NodeId::ROOT, &moves, None));
        assert_eq!(t.used(), 7);
        // Six more do not fit in 10.
        assert!(!t.expand(NodeId(1), &moves, None));
        assert_eq!(t.node(NodeId(1)).state(), state::LEAF);
        assert!(t.expand(NodeId(2), &moves[..3], None));
        assert_eq!(t.used(), 10);
    }

    /// A tree of three-move nodes: the root's children 1..=3, node 1's
    /// 4..=6, node 2's 7..=9, then `extra`'s 10..=12 when given.
    fn three_levels(extra: Option<NodeId>) -> Tree {
        let mut t = Tree::new();
        t.reset(100);
        let moves: Vec<(u8, f32)> = (0..3).map(|i| (i, 0.0)).collect();
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
        t.node(NodeId(9)).first_child.store(4, Relaxed);
        t.node(NodeId(9)).children.store(3, Relaxed);
        t.node(NodeId(9)).state.store(state::EXPANDED, Relaxed);
    }

    #[test]
    fn keep_subtree_finds_children_below_their_parent() {
        // Tree-parallel threads allocate from their own blocks, so a node
        // expanded late can own children at lower indices than itself.
        let mut t = three_levels(Some(NodeId(4))); // 4's children 10..=12
        // Hand node 1's children (4..=6, with 4's own 10..=12) to node 9.
        hand_4_to_6_to_9(&t);
        t.node(NodeId(1)).state.store(state::LEAF, Relaxed);
        t.node(NodeId(11)).visits.store(5, Relaxed);
        t.keep_subtree(NodeId(2));
        // Breadth first: 2 -> 0, its children 7..=9 -> 1..=3, 9's
        // children 4..=6 -> 4..=6, 4's children 10..=12 -> 7..=9.
        assert_eq!(t.used(), 10);
        assert_eq!(t.root().child_range(), (1, 3));
        assert_eq!(t.node(NodeId(3)).child_range(), (4, 3));
        assert_eq!(t.node(NodeId(4)).child_range(), (7, 3));
        assert_eq!(t.node(NodeId(8)).visits(), 5);
    }

    #[test]
    fn keep_subtree_puts_the_new_root_first_when_a_descendant_sits_below_it() {
        // A thread that reserved a block early expands a node late: the
        // new root (9) owns children (4..=6) at lower indices.
        let mut t = three_levels(None);
        hand_4_to_6_to_9(&t);
        t.node(NodeId(9)).visits.store(40, Relaxed);
        t.node(NodeId(5)).visits.store(6, Relaxed);
        t.keep_subtree(NodeId(9));
        assert_eq!(t.used(), 4);
        assert_eq!(t.root().visits(), 40);
        assert_eq!(t.root().child_range(), (1, 3));
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
        let moves: Vec<(u8, f32)> = (0..4).map(|i| (i, 0.0)).collect();
        assert!(t.expand(NodeId::ROOT, &moves, None)); // 1..=4
        assert!(t.expand(NodeId(1), &moves, None)); // 5..=8
        assert!(t.expand(NodeId(3), &moves, None)); // 9..=12
        assert!(t.expand(NodeId(10), &moves, None)); // 13..=16
        t.node(NodeId(11)).visits.store(7, Relaxed);
        t.keep_subtree(NodeId(3));
        assert_eq!(t.used(), 9);
        let (first, n) = t.root().child_range();
        assert_eq!((first, n), (1, 4));
        assert_eq!(t.node(NodeId(3)).visits(), 7);
        assert_eq!(t.node(NodeId(2)).child_range(), (5, 4));
        assert_eq!(
            t.child_by_move(NodeId(2), Move::Place(Square::from_index_unchecked(3))),
            Some(NodeId(8))
        );
    }
}
