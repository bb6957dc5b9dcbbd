//! One batched iteration step of the PUCT search (descents, the
//! network's evaluation of their leaves, expansion and backup) and the loop
//! that runs them; the batching and the virtual loss are described in
//! `search.rs`.

use super::{
    EXPANDED, Evaluate, MAX_NODES, PROVEN, PuctNode, PuctTree, Settings, StepTotals, WAITING,
};
use crate::game::outcome::{MoveCode, Proof};
use crate::game::position::Position;
use crate::net::{self, PvNet};
use crate::solve::{SolveLimits, Solver};

impl PuctTree {
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
        while !self.root_proven() && more(out.iterations) {
            if !self.has_room(s) {
                break;
            }
            let k = self.gather(s, solver, &mut out);
            if k == 0 {
                continue;
            }
            self.evaluate_step(&mut out, |ps, l, v| evaluate(net, ps, l, v));
        }
        out
    }

    /// Logits per position of the root's board: its squares and the swap.
    fn width(&self) -> usize {
        let root = self
            .root
            .unwrap_or_else(|| unreachable!("a search has a root"));
        net::swap_index(root.size()) + 1
    }

    /// Whether the root's result is proven (nothing left to search).
    pub fn root_proven(&self) -> bool {
        self.nodes[0].state == PROVEN
    }

    /// Whether another step of `s.batch` leaves fits under [`MAX_NODES`].
    pub fn has_room(&self, s: &Settings) -> bool {
        self.nodes.len() + 2 * self.width() * s.batch <= MAX_NODES
    }

    /// The descents of one step (up to `s.batch`): returns how many leaves
    /// now wait for the network ([`PuctTree::leaves`]); the others ended
    /// at proven results and are backed up already.
    pub fn gather(&mut self, s: &Settings, solver: &mut Solver, out: &mut StepTotals) -> usize {
        let root_pos = self
            .root
            .unwrap_or_else(|| unreachable!("a search has a root"));
        // Appended, not taken: `paths` keeps its capacity, so a step
        // allocates nothing.
        self.spare.append(&mut self.paths);
        self.leaves.clear();
        self.descend_batch(root_pos, s, solver, out);
        self.leaves.len()
    }

    /// The leaves the last [`PuctTree::gather`] left waiting.
    pub fn leaves(&self) -> &[Position] {
        &self.leaves
    }

    /// Evaluates the waiting leaves by `f` (given the leaves and their
    /// logits' and values' buffers, sized), expands them and backs up
    /// their values.
    pub fn evaluate_step(
        &mut self,
        out: &mut StepTotals,
        f: impl FnOnce(&[Position], &mut [f32], &mut [f32]),
    ) {
        let (k, width) = (self.leaves.len(), self.width());
        self.logits.resize(k * width, 0.0);
        self.values.resize(k, 0.0);
        f(
            &self.leaves,
            &mut self.logits[..k * width],
            &mut self.values[..k],
        );
        out.evaluations += k as u64;
        self.expand_leaves(width, out);
    }

    /// Expands the waiting leaves with the network's `logits` and
    /// `values` for them, evaluated elsewhere (a batch shared with other
    /// searches), and backs up the values.
    pub fn absorb(&mut self, logits: &[f32], values: &[f32], out: &mut StepTotals) {
        self.evaluate_step(out, |_, l, v| {
            l.copy_from_slice(logits);
            v.copy_from_slice(values);
        });
    }

    /// The descents of one step from `root_pos`: each ends at a leaf
    /// that waits for the network (its path in `paths`, its position in
    /// `leaves`) or at a proven one, backed up at once. The step ends
    /// early at a leaf already waiting, or when the root is proven.
    fn descend_batch(
        &mut self,
        root_pos: Position,
        s: &Settings,
        solver: &mut Solver,
        out: &mut StepTotals,
    ) {
        for _ in 0..s.batch.max(1) {
            let mut pos = root_pos;
            let mut path = self.spare.pop().unwrap_or_default();
            path.clear();
            path.push(0);
            let mut at = 0usize;
            self.nodes[0].virtual_visits += 1;
            while self.nodes[at].state == EXPANDED {
                at = match self.forced {
                    Some(c) if at == 0 => self.nodes[0].first as usize + c as usize,
                    _ => self.select(at, s),
                };
                let code = self.nodes[at].code;
                play(&mut pos, code);
                self.nodes[at].virtual_visits += 1;
                path.push(at as u32);
            }
            let node = self.nodes[at];
            let known = match node.state {
                PROVEN => Some(node.proof),
                WAITING => {
                    out.collisions += 1;
                    self.take_back(&path);
                    self.spare.push(path);
                    return;
                }
                _ => self.exact_result(&pos, s.exact, solver),
            };
            match known {
                Some(r) => {
                    self.nodes[at].state = PROVEN;
                    self.nodes[at].proof = r;
                    self.backup(&path, r.value());
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
                return;
            }
        }
    }

    /// Expands the step's waiting leaves with the network's priors
    /// (`logits`, `width` per leaf) and backs up its values.
    fn expand_leaves(&mut self, width: usize, out: &mut StepTotals) {
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
                self.nodes.push(PuctNode::new(code, p));
            }
            if leaf == 0 {
                self.root_value = Some(self.values[i]);
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
            if c.state == PROVEN && c.proof == Proof::Loss {
                continue;
            }
            let n = c.visits + c.virtual_visits;
            let q = if c.state == PROVEN {
                c.proof.value()
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
        let mut best = Proof::Unknown;
        let mut all = true;
        for c in kids {
            if c.state == PROVEN {
                best = best.max(c.proof);
                if c.proof == Proof::Win {
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
        node.proof = best.flip();
        true
    }

    /// The game-theoretic result for the mover into `pos` when it is known
    /// cheaply: the game is over, or few squares are left (no swap then).
    fn exact_result(&self, pos: &Position, exact: u32, solver: &mut Solver) -> Option<Proof> {
        if pos.is_game_over() {
            // The mover is the colour not to move.
            return Some(Proof::of_outcome(pos.outcome(), !pos.turn()));
        }
        let free = pos.empty().count();
        if free > exact || pos.can_swap() || pos.swap_follows() {
            return None;
        }
        // The solver's sign is the side to move's, the mover's opposite.
        solver
            .result_sign(pos, &SolveLimits::default())
            .ok()
            .map(|r| Proof::of_sign(-r))
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
