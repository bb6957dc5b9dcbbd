//! The search tree: compact nodes in one preallocated arena, indexed by
//! [`NodeId`]. Every field is an atomic so that several threads can share
//! the tree without `unsafe` (the rules they follow are in `parallel.rs`).
//!
//! A node's statistics are always from the view of the player who chose
//! it, that is the owner of the colour *not* to move in its position (a pie
//! swap changes who owns White, not whose turn it is; see `mcts.rs`).
//!
//! The node itself is in `tree/node.rs`, the reuse of a subtree between
//! moves in `tree/keep.rs`.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use crate::game::outcome::{Move, MoveCode};

mod keep;
mod node;
mod view;

pub use crate::game::outcome::Proof;
pub use node::{Children, Node};
pub use view::{OwnedTree, SharedTree, TreeView};

/// Index of a node in its tree's arena. An id can only come from the
/// tree ([`NodeId::ROOT`], a node's [`Children`], [`Tree::child_by_move`]),
/// so that every id names a node the tree wrote; code outside this module
/// may read the index ([`NodeId::index`]) but not make an id of one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The root is always the first node.
    pub const ROOT: NodeId = NodeId(0);

    /// The arena index: for ordering and hashing ids, and for tests that
    /// check where nodes sit.
    #[inline]
    pub fn index(self) -> u32 {
        self.0
    }

    /// The node `j` places after this one in the same children range
    /// (`j` within the range: the caller holds an offset it got from the
    /// range's own length).
    #[inline]
    pub fn sibling(self, j: u32) -> NodeId {
        NodeId(self.0 + j)
    }
}

/// Fixed-point unit of rewards: a reward `r` in `[0, 1]` is stored as
/// `round(r * REWARD_ONE)`, so sums are exact integers that add with one
/// atomic instruction (2^16 leaves 2^48 visits before a `u64` overflows).
pub const REWARD_ONE: u64 = 1 << 16;

/// A node's life cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum NodeState {
    /// No children (yet): simulated from.
    Leaf = 0,
    /// A thread has claimed the expansion and is writing the children.
    Expanding = 1,
    /// Children written and published.
    Expanded = 2,
    /// The game is over here, or the exact value is known; the node holds
    /// White's final margin ([`Node::terminal_margin`]).
    Terminal = 3,
}

impl NodeState {
    /// The state of a stored byte.
    #[inline]
    pub(crate) fn from_byte(b: u8) -> NodeState {
        match b {
            0 => NodeState::Leaf,
            1 => NodeState::Expanding,
            2 => NodeState::Expanded,
            _ => NodeState::Terminal,
        }
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
        self.nodes[0].init(MoveCode::from_byte(0), 0.0);
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

    /// Whether `iterations` more iterations might not find room under the
    /// bound (each expands at most once, into at most
    /// [`MoveCode::COUNT`] children), with a reserve block besides for
    /// threads sharing the tree: an arena that may grow is grown before
    /// then, so that no expansion fails for want of room it could have
    /// had, and a search of a growing arena is the search of one made as
    /// big at the start.
    #[inline]
    pub fn nearly_full(&self, iterations: u64) -> bool {
        let room = iterations * MoveCode::COUNT as u64 + RESERVE_BLOCK as u64;
        self.next.load(Relaxed) as u64 + room >= self.limit as u64
    }

    /// The node `id`.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// The nodes of `children`, in order, for loops that visit them all
    /// (one bounds check for the lot).
    #[inline]
    pub fn nodes(&self, children: Children) -> &[Node] {
        let (first, n) = (children.first().0, children.len());
        &self.nodes[first as usize..(first + n) as usize]
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

    /// Expands LEAF `id` with `moves` (move, prior) unless another
    /// thread holds it, the arena is full, or there are no moves. Returns
    /// whether the node is now EXPANDED.
    ///
    /// Step 1: claim the node by CAS LEAF -> EXPANDING (losers simulate
    /// from the node instead). Step 2: bump-allocate the children range.
    /// Step 3: write the children, then publish with a `Release` store of
    /// EXPANDED.
    // `#[inline]`: the search loop's copy then does not depend on which
    // code unit the tree module lands in (see Cargo.toml).
    #[inline]
    pub fn expand(
        &self,
        id: NodeId,
        moves: &[(MoveCode, f32)],
        reserve: Option<&mut Reserve>,
    ) -> bool {
        let node = self.node(id);
        if moves.is_empty() {
            return false;
        }
        // Step 1
        if let Err(now) = node.claim() {
            return now == NodeState::Expanded;
        }
        // Step 2
        let k = moves.len() as u32;
        let first = match reserve {
            Some(r) => self.alloc_reserved(k, r),
            None => self.alloc(k),
        };
        let Some(first) = first else {
            node.unclaim();
            return false;
        };
        // Step 3
        for (i, &(mv, prior)) in moves.iter().enumerate() {
            self.nodes[first as usize + i].init(mv, prior);
        }
        node.publish(first, moves.len() as u8);
        true
    }

    /// The child of `id` reached by `mv`, if expanded.
    pub fn child_by_move(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        let node = self.node(id);
        if node.state() != NodeState::Expanded {
            return None;
        }
        node.children().ids().find(|&c| self.node(c).mv() == mv)
    }

    /// Whether `node` is one of this tree's (a check of the views'
    /// writes).
    fn holds(&self, node: &Node) -> bool {
        self.nodes
            .as_ptr_range()
            .contains(&std::ptr::from_ref(node))
    }

    /// Bytes of one node.
    pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::square::Square;

    #[test]
    fn node_is_compact() {
        const { assert!(Tree::NODE_BYTES <= 64) };
        assert_eq!(Tree::NODE_BYTES, 40);
    }

    #[test]
    fn expand_respects_the_bound() {
        let mut t = Tree::new();
        t.reset(10);
        let moves: Vec<(MoveCode, f32)> = (0..6)
            .map(|i| (MoveCode::place(Square::from_index_unchecked(i)), 0.0))
            .collect();
        assert!(t.expand(NodeId::ROOT, &moves, None));
        assert_eq!(t.used(), 7);
        // Six more do not fit in 10.
        assert!(!t.expand(NodeId(1), &moves, None));
        assert_eq!(t.node(NodeId(1)).state(), NodeState::Leaf);
        assert!(t.expand(NodeId(2), &moves[..3], None));
        assert_eq!(t.used(), 10);
    }
}
