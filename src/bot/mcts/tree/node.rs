//! One tree node: its atomic fields, the proven results it can carry, and
//! the counter adds that threads sharing the tree use.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64};

use super::{NodeId, NodeState, REWARD_ONE};
use crate::game::outcome::{Move, MoveCode, Proof};

/// One tree node: 40 bytes (no padding left). Children of a node are a contiguous range of
/// the arena, `first_child .. first_child + children`. The fields are
/// private and the writing methods private to the tree module: the
/// writes the concurrency contract (`parallel.rs`) allows are made through
/// a [`TreeView`](super::TreeView), which picks the kind of add by how the
/// tree is held, so no other module can break the contract.
#[derive(Debug, Default)]
pub struct Node {
    /// Visits, counted when a thread passes on its way down (so a visit in
    /// flight is a virtual loss until its reward arrives).
    visits: AtomicU32,
    /// First child (EXPANDED) or White's exact margin (TERMINAL).
    first_child: AtomicU32,
    /// Sum of rewards, fixed point ([`REWARD_ONE`]).
    value: AtomicU64,
    /// Sum of AMAF rewards: playouts through the parent in which the
    /// chooser of this node ended up with a stone on its square.
    amaf_value: AtomicU64,
    /// Number of those playouts.
    amaf_visits: AtomicU32,
    /// Heuristic value of the move, scaled to `[0, 1]` (`f32` bits).
    prior: AtomicU32,
    /// Implicit minimax value for the chooser, `[0, 1]` (`f32` bits):
    /// the heuristic value of the leaf backed up by minimax (Lanctot et
    /// al. 2014); meaningful once the node has a visit. With `mix=`
    /// (which excludes `minimax=`) instead the policy-value network's
    /// value of the node's position as White's reward, from its expansion.
    minimax: AtomicU32,
    /// The move, as [`MoveCode`]'s byte.
    mv: AtomicU8,
    /// Number of children.
    children: AtomicU8,
    /// A [`NodeState`] as `u8`.
    state: AtomicU8,
    /// A [`Proof`] as `u8`.
    proof: AtomicU8,
}

/// A node's fields as plain values, for moving nodes between places.
#[derive(Copy, Clone, Debug)]
pub(super) struct Saved {
    pub(super) visits: u32,
    pub(super) first_child: u32,
    pub(super) value: u64,
    pub(super) amaf_value: u64,
    pub(super) amaf_visits: u32,
    pub(super) prior: u32,
    pub(super) minimax: u32,
    pub(super) mv: u8,
    pub(super) children: u8,
    pub(super) state: u8,
    pub(super) proof: u8,
}

/// Adds to a counter: one atomic read-modify-write when threads share the
/// tree, a plain load and store (no bus lock) when one thread owns it
/// (which of the two, the tree's views decide: `view.rs`).
#[inline]
fn add32<const SHARED: bool>(a: &AtomicU32, v: u32) {
    if SHARED {
        a.fetch_add(v, Relaxed);
    } else {
        a.store(a.load(Relaxed).wrapping_add(v), Relaxed);
    }
}

/// As [`add32`], for 64-bit sums.
#[inline]
fn add64<const SHARED: bool>(a: &AtomicU64, v: u64) {
    if SHARED {
        // A zero reward (a loss under `reward=win`, half the path of every
        // decided playout) is not added: it changes nothing, and a locked
        // add serialises the core's memory operations all the same
        // (experiments/speed/, "Two threads"). One thread's plain add is
        // left without the test.
        if v != 0 {
            a.fetch_add(v, Relaxed);
        }
    } else {
        a.store(a.load(Relaxed).wrapping_add(v), Relaxed);
    }
}

impl Node {
    /// Writes a fresh child (before it is published).
    #[inline]
    pub(super) fn init(&self, mv: MoveCode, prior: f32) {
        self.restore(&Saved {
            visits: 0,
            first_child: 0,
            value: 0,
            amaf_value: 0,
            amaf_visits: 0,
            prior: prior.to_bits(),
            minimax: 0.5f32.to_bits(),
            mv: mv.byte(),
            children: 0,
            state: NodeState::Leaf as u8,
            proof: Proof::Unknown as u8,
        });
    }

    /// Its fields (between searches: no thread writes them). The pattern
    /// names every field, so a field added to `Node` but not here fails
    /// to compile rather than being dropped when a subtree is kept.
    pub(super) fn save(&self) -> Saved {
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
    pub(super) fn restore(&self, s: &Saved) {
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

    /// Counts `n` visits (on the way down: in flight, they are the
    /// virtual loss).
    #[inline]
    pub(super) fn add_visits<const SHARED: bool>(&self, n: u32) {
        add32::<SHARED>(&self.visits, n);
    }

    /// Sum of rewards for the chooser, fixed point ([`REWARD_ONE`]).
    #[inline]
    pub fn value_sum(&self) -> u64 {
        self.value.load(Relaxed)
    }

    /// Adds a reward (fixed point) for the chooser.
    #[inline]
    pub(super) fn add_value<const SHARED: bool>(&self, r: u64) {
        add64::<SHARED>(&self.value, r);
    }

    /// AMAF visits and reward sum.
    #[inline]
    pub fn amaf(&self) -> (u32, u64) {
        (
            self.amaf_visits.load(Relaxed),
            self.amaf_value.load(Relaxed),
        )
    }

    /// Counts one AMAF playout with reward `r`.
    #[inline]
    pub(super) fn add_amaf<const SHARED: bool>(&self, r: u64) {
        add32::<SHARED>(&self.amaf_visits, 1);
        add64::<SHARED>(&self.amaf_value, r);
    }

    /// Heuristic value of the move, in `[0, 1]`.
    #[inline]
    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Relaxed))
    }

    /// Implicit minimax value for the chooser, in `[0, 1]`.
    #[inline]
    pub fn minimax(&self) -> f32 {
        f32::from_bits(self.minimax.load(Relaxed))
    }

    /// Stores a minimax value and says whether it changed. A plain store:
    /// a racing thread may overwrite it with a value one iteration older,
    /// which the next backup that changes the node repairs.
    #[inline]
    pub(super) fn set_minimax(&self, v: f32) -> bool {
        let bits = v.to_bits();
        if self.minimax.load(Relaxed) == bits {
            return false;
        }
        self.minimax.store(bits, Relaxed);
        true
    }

    /// The move that leads here.
    #[inline]
    pub fn node_move(&self) -> MoveCode {
        MoveCode::from_byte(self.mv.load(Relaxed))
    }

    /// The move that leads here, as the game's move.
    #[inline]
    pub fn mv(&self) -> Move {
        self.node_move().to_move()
    }

    /// The proof state.
    #[inline]
    pub fn proof(&self) -> Proof {
        Proof::from_u8(self.proof.load(Relaxed))
    }

    /// Records a proof. Proofs of a position are facts, so two threads
    /// that store one store the same value.
    #[inline]
    pub(super) fn set_proof(&self, p: Proof) {
        self.proof.store(p as u8, Relaxed);
    }

    /// The state, read with `Acquire` so that an `EXPANDED` node's
    /// children range (and the children) are visible.
    #[inline]
    pub fn state(&self) -> NodeState {
        NodeState::from_byte(self.state.load(Acquire))
    }

    /// Claims a LEAF for expansion (LEAF -> EXPANDING by one
    /// `compare_exchange`); on failure, the state another thread left.
    #[inline]
    pub(super) fn claim(&self) -> Result<(), NodeState> {
        let (leaf, expanding) = (NodeState::Leaf as u8, NodeState::Expanding as u8);
        self.state
            .compare_exchange(leaf, expanding, Acquire, Relaxed)
            .map(|_| ())
            .map_err(NodeState::from_byte)
    }

    /// Gives a claim back (the arena was full): EXPANDING -> LEAF.
    #[inline]
    pub(super) fn unclaim(&self) {
        self.state.store(NodeState::Leaf as u8, Release);
    }

    /// Publishes the children written at `first..first + n`: EXPANDING ->
    /// EXPANDED with a `Release` store after the range.
    #[inline]
    pub(super) fn publish(&self, first: u32, n: u8) {
        self.first_child.store(first, Relaxed);
        self.children.store(n, Relaxed);
        self.state.store(NodeState::Expanded as u8, Release);
    }

    /// The children (meaningful once `EXPANDED` was read).
    #[inline]
    pub fn children(&self) -> Children {
        Children {
            first: self.first_child.load(Relaxed),
            len: self.children.load(Relaxed) as u32,
        }
    }

    /// Marks the node terminal with White's exact margin.
    #[inline]
    pub(super) fn set_terminal(&self, margin_halves: i32) {
        self.first_child.store(margin_halves as u32, Relaxed);
        self.state.store(NodeState::Terminal as u8, Release);
    }

    /// White's exact margin of a TERMINAL node.
    #[inline]
    pub fn terminal_margin(&self) -> i32 {
        self.first_child.load(Relaxed) as i32
    }

    /// Sets the visit count (tests that build trees by hand).
    #[cfg(test)]
    pub(crate) fn set_visits(&self, n: u32) {
        self.visits.store(n, Relaxed);
    }

    /// Raw fields for tests comparing trees: (children or first_child,
    /// move, visits, value, state, proof, prior bits).
    #[cfg(test)]
    pub(crate) fn fingerprint(&self) -> (u32, u8, u32, u64, u8, u8, u32) {
        let st = self.state.load(Relaxed);
        let first = if st == NodeState::Expanded as u8 {
            self.children.load(Relaxed) as u32
        } else {
            self.first_child.load(Relaxed)
        };
        (
            first,
            self.mv.load(Relaxed),
            self.visits(),
            self.value_sum(),
            st,
            self.proof.load(Relaxed),
            self.prior.load(Relaxed),
        )
    }
}

/// A node's children: a contiguous range of the arena, handed out by the
/// node so that the ids in it are the tree's own. Loops over the children
/// keep plain offsets into the range and turn the one they settle on into
/// an id ([`Children::nth`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Children {
    first: u32,
    len: u32,
}

impl Children {
    /// How many children.
    #[inline]
    pub fn len(self) -> u32 {
        self.len
    }

    /// Whether there are none.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The first child (where a range would start, even when empty).
    #[inline]
    pub fn first(self) -> NodeId {
        NodeId(self.first)
    }

    /// The child at offset `j` (below [`Children::len`]).
    #[inline]
    pub fn nth(self, j: u32) -> NodeId {
        debug_assert!(j < self.len);
        NodeId(self.first + j)
    }

    /// The first `n` children (all of them when there are fewer).
    #[inline]
    pub fn take(self, n: u32) -> Children {
        Children {
            first: self.first,
            len: self.len.min(n),
        }
    }

    /// The children's ids, in order.
    #[inline]
    pub fn ids(self) -> impl Iterator<Item = NodeId> {
        (self.first..self.first + self.len).map(NodeId)
    }
}
