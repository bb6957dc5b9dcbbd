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

use crate::game::outcome::{Move, MoveCode};
use crate::game::position::Position;
use crate::net::{self, PvNet};
use crate::solve::{SolveLimits, Solver};

/// Not yet expanded.
const FRESH: u8 = 0;
/// Waiting for its evaluation in the current step.
const WAITING: u8 = 1;
/// Expanded: its children are `first..first + count`.
const EXPANDED: u8 = 2;
/// Its game-theoretic result is known (`proven`), from the end of the
/// game, the exact solver or its children.
const PROVEN: u8 = 3;

/// One node of the tree.
#[derive(Clone, Copy, Debug)]
pub struct Node {
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
    /// With `PROVEN`: 1 the mover wins, 0 a draw, -1 the mover loses.
    proven: i8,
}

impl Node {
    fn new(code: MoveCode, prior: f32) -> Node {
        Node {
            value: 0.0,
            prior,
            visits: 0,
            virtual_visits: 0,
            first: 0,
            count: 0,
            code,
            state: FRESH,
            proven: 0,
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
    pub fn proven(&self) -> Option<i8> {
        (self.state == PROVEN).then_some(self.proven)
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
pub struct Tree {
    nodes: Vec<Node>,
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
}

/// What a search did.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTotals {
    /// Leaves backed up (the iterations).
    pub iterations: u64,
    /// Network evaluations.
    pub evaluations: u64,
    /// Descents that met a leaf already waiting.
    pub collisions: u64,
}

impl Tree {
    /// An empty tree.
    pub fn new() -> Tree {
        Tree::default()
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
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// The root's children.
    pub fn children(&self, id: usize) -> &[Node] {
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
        self.nodes.push(Node::new(MoveCode::NONE, 1.0));
        self.root = Some(pos);
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

    /// Runs iteration steps until `more` says stop (it is given the
    /// iterations so far) or the root is proven, evaluating leaves with
    /// `net` (through `evaluate`, which fills logits and values for a
    /// slice of positions).
    pub fn run(
        &mut self,
        net: &PvNet,
        s: &Settings,
        solver: &mut Solver,
        evaluate: &mut Evaluate<'_>,
        more: &mut dyn FnMut(u64) -> bool,
    ) -> StepTotals {
        let mut out = StepTotals {
            iterations: 0,
            evaluations: 0,
            collisions: 0,
        };
        let root_pos = self
            .root
            .unwrap_or_else(|| unreachable!("a search has a root"));
        let width = net::swap_index(root_pos.size()) + 1;
        while self.nodes[0].state != PROVEN && more(out.iterations) {
            if self.nodes.len() + 2 * width * s.batch > MAX_NODES {
                break;
            }
            // Appended, not taken: `paths` keeps its capacity, so a step
            // allocates nothing.
            self.spare.append(&mut self.paths);
            self.leaves.clear();
            for _ in 0..s.batch.max(1) {
                let mut pos = root_pos;
                let mut path = self.spare.pop().unwrap_or_default();
                path.clear();
                path.push(0);
                let mut at = 0usize;
                self.nodes[0].virtual_visits += 1;
                while self.nodes[at].state == EXPANDED {
                    at = self.select(at, s);
                    let code = self.nodes[at].code;
                    play(&mut pos, code);
                    self.nodes[at].virtual_visits += 1;
                    path.push(at as u32);
                }
                let node = self.nodes[at];
                let known = match node.state {
                    PROVEN => Some(node.proven),
                    WAITING => {
                        out.collisions += 1;
                        self.take_back(&path);
                        self.spare.push(path);
                        break;
                    }
                    _ => self.exact_result(&pos, s.exact, solver),
                };
                match known {
                    Some(r) => {
                        self.nodes[at].state = PROVEN;
                        self.nodes[at].proven = r;
                        self.backup(&path, f32::from(r));
                        self.spare.push(path);
                        out.iterations += 1;
                    }
                    None => {
                        self.nodes[at].state = WAITING;
                        self.paths.push(path);
                        self.leaves.push(pos);
                    }
                }
                if self.nodes[0].state == PROVEN {
                    break;
                }
            }
            let k = self.leaves.len();
            if k == 0 {
                continue;
            }
            self.logits.resize(k * width, 0.0);
            self.values.resize(k, 0.0);
            evaluate(
                net,
                &self.leaves,
                &mut self.logits[..k * width],
                &mut self.values[..k],
            );
            out.evaluations += k as u64;
            let paths = std::mem::take(&mut self.paths);
            for (i, path) in paths.iter().enumerate() {
                let leaf = *path.last().unwrap_or(&0) as usize;
                let pos = self.leaves[i];
                net::legal_priors(
                    &pos,
                    &self.logits[i * width..(i + 1) * width],
                    &mut self.priors,
                );
                let first = self.nodes.len() as u32;
                for &(idx, p) in &self.priors {
                    let code = if idx == width - 1 {
                        MoveCode::SWAP
                    } else {
                        MoveCode::place(net::index_square(idx, pos.size()))
                    };
                    self.nodes.push(Node::new(code, p));
                }
                let n = &mut self.nodes[leaf];
                n.first = first;
                n.count = self.priors.len() as u16;
                n.state = EXPANDED;
                // The network values the leaf for its side to move, the
                // other player from the leaf's mover.
                self.backup(path, -self.values[i]);
                out.iterations += 1;
            }
            self.paths = paths;
        }
        out
    }

    /// The child of `at` that PUCT picks, virtual losses counted.
    fn select(&self, at: usize, s: &Settings) -> usize {
        let parent = &self.nodes[at];
        let total = parent.visits + parent.virtual_visits;
        let sqrt_n = (total.max(1) as f32).sqrt();
        // The parent's mean from the chooser's view (its mover's opposite).
        let parent_q = if parent.visits > 0 {
            -parent.value / parent.visits as f32
        } else {
            0.0
        };
        let fpu = parent_q - s.fpu;
        let first = parent.first as usize;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for (i, c) in self.nodes[first..first + parent.count as usize]
            .iter()
            .enumerate()
        {
            // A proven loss for the chooser is never worth a visit while
            // anything else is open (when nothing is, the node is proven
            // and not descended).
            if c.state == PROVEN && c.proven == -1 {
                continue;
            }
            let n = c.visits + c.virtual_visits;
            let q = if c.state == PROVEN {
                f32::from(c.proven)
            } else if n == 0 {
                fpu
            } else {
                (c.value - c.virtual_visits as f32) / n as f32
            };
            let score = q + s.cpuct * c.prior * sqrt_n / (1 + n) as f32;
            if score > best_score {
                best_score = score;
                best = first + i;
            }
        }
        best
    }

    /// Takes back the virtual losses of a descent that was not completed.
    fn take_back(&mut self, path: &[u32]) {
        for &i in path {
            self.nodes[i as usize].virtual_visits -= 1;
        }
    }

    /// Adds `value` (the leaf mover's view) up the path, changing sign at
    /// each level, takes back its virtual losses, and proves what the
    /// children now prove.
    fn backup(&mut self, path: &[u32], value: f32) {
        let mut v = value;
        let leaf = path.last().map_or(0, |&i| i as usize);
        let mut proving = self.nodes[leaf].state == PROVEN;
        for (depth, &i) in path.iter().enumerate().rev() {
            let i = i as usize;
            if proving && depth + 1 < path.len() {
                proving = self.prove(i);
            }
            let n = &mut self.nodes[i];
            n.virtual_visits -= 1;
            n.visits += 1;
            n.value += v;
            v = -v;
        }
    }

    /// Marks `at` proven when a child wins for its chooser or every child
    /// is proven; says whether it did.
    fn prove(&mut self, at: usize) -> bool {
        let n = self.nodes[at];
        if n.state != EXPANDED {
            return n.state == PROVEN;
        }
        let kids = &self.nodes[n.first as usize..n.first as usize + n.count as usize];
        let mut best = i8::MIN;
        let mut all = true;
        for c in kids {
            if c.state == PROVEN {
                best = best.max(c.proven);
                if c.proven == 1 {
                    all = true;
                    break;
                }
            } else {
                all = false;
            }
        }
        if !all {
            return false;
        }
        let node = &mut self.nodes[at];
        node.state = PROVEN;
        node.proven = -best;
        true
    }

    /// The game-theoretic result for the mover into `pos` when it is known
    /// cheaply: the game is over, or few squares are left (no swap then).
    fn exact_result(&self, pos: &Position, exact: u32, solver: &mut Solver) -> Option<i8> {
        if pos.is_game_over() {
            let m = pos.margin_halves();
            // The mover is the colour not to move.
            let white_moved = pos.turn() == crate::game::player::Player::Black;
            let r = m.signum() as i8;
            return Some(if white_moved { r } else { -r });
        }
        let free = pos.empty().count();
        if free > exact || pos.can_swap() || pos.swap_follows() {
            return None;
        }
        solver
            .result_sign(pos, &SolveLimits::default())
            .ok()
            .map(|r| -(r as i8))
    }

    /// The root's move with the most visits, a proven win first and a
    /// proven loss last; ties go to the better mean, then the earlier
    /// child. `None` before the root is expanded.
    pub fn best(&self) -> Option<&Node> {
        let key = |c: &Node| {
            let proof = match c.proven() {
                Some(1) => 2,
                Some(-1) => -2,
                Some(_) => 0,
                None => 0,
            };
            // A proven win is played at once; a proven draw or an open
            // move by visits.
            (proof, if proof == 2 { 0 } else { c.visits }, c.mean())
        };
        let mut best: Option<&Node> = None;
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
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Option<&Node> {
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

/// Plays a code on `pos`.
fn play(pos: &mut Position, code: MoveCode) {
    match code.square() {
        Some(sq) => pos.play_unchecked(sq),
        None => pos.try_swap().unwrap_or_else(|e| {
            unreachable!("the tree offers the swap only where it is legal: {e}")
        }),
    }
}

/// A seeded stream for the root's noise and sampling.
pub fn noise_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}
