//! PUCT search on the policy-value network: the tree, one batched
//! iteration step, and the root's choice.
//!
//! # Perspective
//! As in `mcts`, a node's value is kept from the view of the owner of the
//! colour *not* to move in its position: the player who moved into it (for
//! the pie swap too, whose chooser then owns White, the colour not to
//! move). One level up is always the other player, so values change sign
//! from level to level and the swap needs no case of its own.
//!
//! # Batches and virtual loss
//! An iteration step descends `batch` times before the network is asked.
//! Each descent adds a virtual loss to every node on its path (a visit
//! that counts as a loss for the node's mover), so the next descent of the
//! step is steered elsewhere (Chaslot et al. 2008; AlphaGo's batched
//! evaluation). The leaves are evaluated together (over threads), then
//! expanded and backed up, and the virtual losses taken back. A descent
//! that meets a leaf already waiting in this step ends the step early: it
//! would only evaluate the same position twice. The tree is changed by the
//! calling thread alone, and each position's evaluation does not depend on
//! the batch or the threads, so a search is the same for any `threads`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::outcome::{Move, MoveCode, Proof};
use crate::game::position::Position;
use crate::net::PvNet;

mod step;

/// Not yet expanded.
const FRESH: u8 = 0;
/// Waiting for its evaluation in the current step.
const WAITING: u8 = 1;
/// Expanded: its children are `first..first + count`.
const EXPANDED: u8 = 2;
/// Its game-theoretic result is known (`proof`), from the end of the
/// game, the exact solver or its children.
const PROVEN: u8 = 3;

/// One node of the tree.
#[derive(Clone, Copy, Debug)]
pub struct PuctNode {
    /// Sum of the backed-up values, the mover's view.
    value: f32,
    /// The network's prior of the move into this node.
    prior: f32,
    visits: u32,
    /// Visits in flight (virtual losses).
    virtual_visits: u32,
    first: u32,
    count: u16,
    code: MoveCode,
    state: u8,
    /// With `PROVEN`: the result for the mover.
    proof: Proof,
}

impl PuctNode {
    fn new(code: MoveCode, prior: f32) -> PuctNode {
        PuctNode {
            value: 0.0,
            prior,
            visits: 0,
            virtual_visits: 0,
            first: 0,
            count: 0,
            code,
            state: FRESH,
            proof: Proof::Unknown,
        }
    }

    /// Visits backed up.
    pub fn visits(&self) -> u32 {
        self.visits
    }

    /// The move into the node.
    pub fn mv(&self) -> Move {
        self.code.to_move()
    }

    /// The mean value for the mover, 0 before any visit.
    pub fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.0
        } else {
            self.value / self.visits as f32
        }
    }

    /// The proven result for the mover, if known.
    pub fn proven(&self) -> Option<Proof> {
        (self.state == PROVEN).then_some(self.proof)
    }

    /// The network's prior of the move into the node.
    pub fn prior(&self) -> f32 {
        self.prior
    }
}

/// The settings of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The exploration constant of PUCT.
    pub cpuct: f32,
    /// First-play urgency: an unvisited child is valued at its parent's
    /// mean minus this.
    pub fpu: f32,
    /// Leaves evaluated together.
    pub batch: usize,
    /// Positions with at most this many free squares are solved (result
    /// only) instead of evaluated.
    pub exact: u32,
    /// The share of Dirichlet noise in the root's priors (0: none).
    pub noise: f32,
    /// The Dirichlet concentration, for the whole root: each move gets
    /// `alpha / moves`.
    pub alpha: f32,
}

/// Evaluates a slice of positions into logits and values (the
/// [`PvNet::evaluate_batch`] layout), on this thread or over a pool.
pub type Evaluate<'a> = dyn FnMut(&PvNet, &[Position], &mut [f32], &mut [f32]) + 'a;

/// The largest tree, in nodes (about 100 MB): a time-budgeted search stops
/// growing it there.
pub const MAX_NODES: usize = 1 << 22;

/// The search tree and its working memory.
#[derive(Debug, Default)]
pub struct PuctTree {
    nodes: Vec<PuctNode>,
    /// The root's position.
    root: Option<Position>,
    /// Per waiting leaf of a step: its node, the path to it, its position.
    paths: Vec<Vec<u32>>,
    /// Path buffers for reuse, so that a descent allocates nothing.
    spare: Vec<Vec<u32>>,
    leaves: Vec<Position>,
    logits: Vec<f32>,
    values: Vec<f32>,
    priors: Vec<(usize, f32)>,
    /// The root child every descent takes (Gumbel's sequential halving
    /// spends a share of the budget on each candidate); `None`: PUCT's.
    forced: Option<u32>,
    /// The network's value of the root for its side to move, when the
    /// root was expanded as the root (a reused root was not).
    root_value: Option<f32>,
}

/// What a search did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepTotals {
    /// Leaves backed up (the iterations).
    pub iterations: u64,
    /// Network evaluations.
    pub evaluations: u64,
    /// Descents that met a leaf already waiting.
    pub collisions: u64,
}

impl StepTotals {
    /// Adds another part of the search.
    pub fn add(&mut self, o: &StepTotals) {
        self.iterations += o.iterations;
        self.evaluations += o.evaluations;
        self.collisions += o.collisions;
    }
}

impl PuctTree {
    /// An empty tree.
    pub fn new() -> PuctTree {
        PuctTree::default()
    }

    /// The root's position, if the tree has one.
    pub fn root_position(&self) -> Option<&Position> {
        self.root.as_ref()
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is empty.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root node.
    pub fn root(&self) -> Option<&PuctNode> {
        self.nodes.first()
    }

    /// The root's children.
    pub fn children(&self, id: usize) -> &[PuctNode] {
        let n = &self.nodes[id];
        if n.state == EXPANDED || (n.state == PROVEN && n.count > 0) {
            &self.nodes[n.first as usize..n.first as usize + n.count as usize]
        } else {
            &[]
        }
    }

    /// Index of the first child of node `id`.
    pub fn first_child(&self, id: usize) -> usize {
        self.nodes[id].first as usize
    }

    /// Starts a new tree at `pos`.
    pub fn reset(&mut self, pos: Position) {
        self.nodes.clear();
        self.nodes.push(PuctNode::new(MoveCode::NONE, 1.0));
        self.root = Some(pos);
        self.root_value = None;
    }

    /// Makes every descent take the root's child `child` (an index into
    /// [`PuctTree::children`] of the root), or PUCT's choice with `None`.
    pub fn force_root_child(&mut self, child: Option<usize>) {
        self.forced = child.map(|c| c as u32);
    }

    /// The network's value of the root for its side to move, if the
    /// root was expanded in this tree as the root.
    pub fn root_value(&self) -> Option<f32> {
        self.root_value
    }

    /// Moves the root down along `moves` (from the current root), keeping
    /// the subtree found there; a fresh root where the tree does not reach.
    pub fn descend(&mut self, moves: &[Move], pos: Position) {
        let mut at = 0usize;
        for &mv in moves {
            let code = MoveCode::from(mv);
            let found = self
                .children(at)
                .iter()
                .position(|c| c.code == code)
                .map(|i| self.nodes[at].first as usize + i);
            match found {
                Some(i) => at = i,
                None => {
                    self.reset(pos);
                    return;
                }
            }
        }
        if at == 0 {
            self.root = Some(pos);
            return;
        }
        self.root_value = None;
        // Copy the subtree breadth first into a fresh arena.
        let old = std::mem::take(&mut self.nodes);
        let mut nodes = Vec::with_capacity(old.len());
        let mut root = old[at];
        root.virtual_visits = 0;
        nodes.push(root);
        let mut next = 0;
        while next < nodes.len() {
            let n = nodes[next];
            if n.count > 0 && (n.state == EXPANDED || n.state == PROVEN) {
                let first = nodes.len() as u32;
                nodes
                    .extend_from_slice(&old[n.first as usize..n.first as usize + n.count as usize]);
                nodes[next].first = first;
            }
            next += 1;
        }
        self.nodes = nodes;
        self.root = Some(pos);
    }

    /// Mixes Dirichlet noise into the root children's priors (the root
    /// must be expanded).
    pub fn add_noise(&mut self, share: f32, alpha: f32, rng: &mut ChaCha8Rng) {
        let kids = self.nodes[0].count as usize;
        if share <= 0.0 || kids == 0 || self.nodes[0].state != EXPANDED {
            return;
        }
        let a = f64::from(alpha) / kids as f64;
        let gamma = rand_distr::Gamma::new(a, 1.0)
            .unwrap_or_else(|e| unreachable!("a positive concentration is valid: {e}"));
        let draws: Vec<f64> = (0..kids).map(|_| rng.sample(gamma)).collect();
        let total: f64 = draws.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        let first = self.nodes[0].first as usize;
        for (i, d) in draws.iter().enumerate() {
            let n = &mut self.nodes[first + i];
            n.prior = (1.0 - share) * n.prior + share * (*d / total) as f32;
        }
    }

    /// The root's move with the most visits, a proven win first and a
    /// proven loss last; ties go to the better mean, then the earlier
    /// child. `None` before the root is expanded.
    pub fn best(&self) -> Option<&PuctNode> {
        let key = |c: &PuctNode| {
            let proof = match c.proven() {
                Some(Proof::Win) => 2,
                Some(Proof::Loss) => -2,
                Some(_) | None => 0,
            };
            // A proven win is played at once; a proven draw or an open
            // move by visits.
            (proof, if proof == 2 { 0 } else { c.visits }, c.mean())
        };
        let mut best: Option<&PuctNode> = None;
        for c in self.children(0) {
            if best.is_none_or(|b| {
                let (kb, kc) = (key(b), key(c));
                (kc.0, kc.1) > (kb.0, kb.1) || ((kc.0, kc.1) == (kb.0, kb.1) && kc.2 > kb.2)
            }) {
                best = Some(c);
            }
        }
        best
    }

    /// A root move drawn with probability proportional to its visits
    /// (self-play's temperature 1).
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Option<&PuctNode> {
        let kids = self.children(0);
        let total: u64 = kids.iter().map(|c| u64::from(c.visits)).sum();
        if total == 0 {
            return self.best();
        }
        let mut pick = rng.random_range(0..total);
        for c in kids {
            if pick < u64::from(c.visits) {
                return Some(c);
            }
            pick -= u64::from(c.visits);
        }
        self.best()
    }

    /// The moves of most visits from the root, at most `len`.
    pub fn principal_variation(&self, len: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut at = 0;
        while pv.len() < len {
            let Some((i, c)) = self
                .children(at)
                .iter()
                .enumerate()
                .max_by_key(|(_, c)| c.visits)
            else {
                break;
            };
            if c.visits == 0 {
                break;
            }
            pv.push(c.mv());
            at = self.first_child(at) + i;
        }
        pv
    }
}

/// A seeded stream for the root's noise and sampling.
pub fn noise_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
