//! One MCTS iteration and the loop that runs them on one tree. The same
//! code serves one thread (an [`OwnedTree`]: plain loads and stores) and
//! several threads sharing the tree (a [`SharedTree`]: atomic adds; the
//! rules are in `parallel.rs`). The children of an expanded leaf are in
//! `search/expand.rs`, minimax and proof backup in `search/backup.rs`, lazy
//! selection in `search/choices.rs`, the held-back updates of hot nodes in
//! `search/pending.rs`, the policy-value network's priors and values
//! (`prior=pv`, `mix=`) in `search/pv.rs`.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::time::Instant;

use super::config::{MctsConfig, Rave, Rollout};
use super::rollout::Rewarder;
use super::select::{AmafSource, SelectParams, fill_map, select_child};
use super::tree::{Node, NodeId, NodeState, Padded, Reserve, Tree, TreeView};
#[cfg(doc)]
use super::tree::{OwnedTree, SharedTree};
use crate::eval;
use crate::game::outcome::MoveCode;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::rng::FastRng;
use crate::net::PvNet;
use crate::net::lines::LineNet;
use crate::solve::Solver;

mod backup;
mod choices;
mod expand;
mod leaf;
mod pending;
mod pv;

use choices::Choices;
use pending::Pending;
use pv::PvBuffers;

/// In-tree leaves with at most this many empty squares are solved exactly
/// when the solver is on (a few hundred alpha-beta nodes at most).
const LEAF_EXACT: u32 = 6;

/// The leaf solver's table in MiB: its smallest, ample for six squares.
const LEAF_TABLE_MB: usize = 1;

/// Visits after which a node is *hot*: a thread sharing the tree batches
/// its updates of that node's statistics (see `Pending` in this file).
///
/// Lower thresholds with a larger lag were faster with random playouts
/// but showed no gain, and some loss, in games of the default engine at
/// two threads, so the threshold stays high; the timings and games are in
/// docs/mcts-history.md, "Hot nodes and held-back updates".
pub const HOT_VISITS: u32 = 256;

/// A hot node's held-back visits are added once they reach
/// `visits >> LAG_SHIFT` (at least 4 with [`HOT_VISITS`] = 256), so what
/// other threads see of a node lags by under 1/64 of its visits per
/// thread holding some back (and by no more than [`FLUSH_EVERY`]
/// iterations).
const LAG_SHIFT: u32 = 6;

/// Mean iteration time below which a sharing thread holds back updates
/// of hot nodes: random playouts stay under it, heuristic playouts are
/// above it early in a game and fall under it as the board fills. A lower
/// line scored no better (docs/mcts-history.md, "Hot nodes and held-back
/// updates").
const CHEAP_ITERATION: std::time::Duration = std::time::Duration::from_micros(3);

/// Iterations between a sharing thread's flushes of all its held-back
/// updates, so that rarely revisited nodes do not lag for long.
const FLUSH_EVERY: u64 = 64;

/// Where a search starts: the position, and the colour whose moves the
/// tree models as `heuristic`'s (`model=`), if any.
#[derive(Copy, Clone, Debug)]
pub struct Root {
    /// The position at the root.
    pub pos: Position,
    /// The modelled colour: at its nodes only its moves of best
    /// line-potential value become children.
    pub modelled: Option<Player>,
}

impl From<Position> for Root {
    /// A root with no opponent model.
    fn from(pos: Position) -> Root {
        Root {
            pos,
            modelled: None,
        }
    }
}

/// What every thread of one search shares (read-only but for atomics).
#[derive(Debug)]
pub struct SearchContext<'a, V> {
    /// The tree, held as one thread's ([`OwnedTree`]) or as threads share
    /// it ([`SharedTree`]).
    pub tree: V,
    /// The configuration.
    pub cfg: &'a MctsConfig,
    /// The position at the root.
    pub root: Position,
    /// The colour modelled as `heuristic` (see [`Root`]).
    pub modelled: Option<Player>,
    /// Selection numbers.
    pub sel: SelectParams,
    /// Selection numbers at the root: `sel`, but at the empty board under
    /// the pie rule values folded and no prior: there a child's statistics
    /// are White's prospects after the first stone (rewards are per
    /// colour), and what the first player keeps is the smaller of those
    /// and the other side's (see [`Position::swap_follows`]).
    pub sel_root: SelectParams,
    /// Reward function.
    pub rewarder: Rewarder,
    /// Move values by `cfg.weights` (priors, heuristic playouts), with the
    /// line tables of the root's board size.
    pub valuer: eval::MoveValuer,
    /// The learned network of `rollout=net|value` when it fits the root's
    /// board size (otherwise those playouts are heuristic ones).
    pub net: Option<&'static LineNet>,
    /// The policy-value network of `prior=pv` and `mix=`.
    pub pv: Option<&'a PvNet>,
    /// Iterations this tree may run in all.
    pub iters: u64,
    /// Wall-clock end, for `ms=` budgets.
    pub deadline: Option<Instant>,
    /// Iterations claimed so far (threads claim them in batches).
    pub claimed: Padded<AtomicU64>,
    /// Set when the search must end (deadline, proven root, interrupt)
    /// or pause for the arena to grow (`full`).
    pub stop: Padded<AtomicBool>,
    /// Whether the arena may grow when it fills (time budgets: it starts
    /// small, so that its setup fits the budget).
    pub grow: bool,
    /// Set with `stop` when the search paused because the arena filled.
    pub full: AtomicBool,
    /// Deepest path seen, in plies.
    pub depth: Padded<AtomicU32>,
    /// Visits from which a node reuses a thread's choice of child (0:
    /// never; see `Choices`).
    pub lazy: u32,
    /// Whether to stop before the deadline once the most visited root
    /// move cannot be overtaken ([`SearchContext::settled`]).
    pub early: bool,
    /// When this round of the search began, for its rate.
    pub begun: Instant,
}

impl<'a, V: TreeView> SearchContext<'a, V> {
    /// A search of `tree` from `root` for `iters` iterations (or until
    /// `deadline`).
    pub fn new(
        tree: V,
        cfg: &'a MctsConfig,
        root: Root,
        iters: u64,
        deadline: Option<Instant>,
    ) -> SearchContext<'a, V> {
        SearchContext {
            tree,
            cfg,
            root: root.pos,
            modelled: root.modelled,
            sel: SelectParams::new(cfg),
            sel_root: if root.pos.swap_follows() {
                SelectParams {
                    fold: true,
                    pw: 0.0,
                    k: 0,
                    ..SelectParams::new(cfg)
                }
            } else {
                SelectParams::new(cfg)
            },
            rewarder: Rewarder::new(cfg.reward, cfg.scale, cfg.win_share),
            valuer: eval::MoveValuer::with_table(&cfg.weights, root.pos.size()),
            net: match cfg.rollout {
                Rollout::Net | Rollout::Value => cfg
                    .net
                    .or_else(|| LineNet::builtin(root.pos.size()))
                    .filter(|n| n.size() == root.pos.size()),
                _ => None,
            },
            pv: cfg.pvnet.as_deref(),
            iters,
            deadline,
            claimed: Padded(AtomicU64::new(0)),
            stop: Padded(AtomicBool::new(false)),
            grow: false,
            full: AtomicBool::new(false),
            depth: Padded(AtomicU32::new(0)),
            lazy: cfg.lazy,
            early: false,
            begun: Instant::now(),
        }
    }

    /// Whether the most visited root child leads the next by more visits
    /// than the iterations the time left would run at this round's rate:
    /// then no other move can become the most visited, and the rest of
    /// the time is better kept on the clock (Baier and Winands' early
    /// stop for MCTS time management).
    pub fn settled(&self, deadline: Instant) -> bool {
        let now = Instant::now();
        let done = self.claimed.load(Relaxed);
        if now >= deadline || done < SETTLE_AFTER {
            return false;
        }
        let rate = done as f64 / now.duration_since(self.begun).as_secs_f64().max(1e-9);
        let more = rate * deadline.duration_since(now).as_secs_f64();
        let tree: &Tree = &self.tree;
        let (mut best, mut second) = (0u32, 0u32);
        for c in tree.node(NodeId::ROOT).children().ids() {
            let v = tree.node(c).visits();
            if v > best {
                second = best;
                best = v;
            } else if v > second {
                second = v;
            }
        }
        f64::from(best - second) > more
    }
}

/// Iterations a round runs before [`SearchContext::settled`] trusts its
/// rate (the first iterations pay for the arena's setup).
const SETTLE_AFTER: u64 = 256;

/// One step of the path of an iteration.
#[derive(Copy, Clone, Debug)]
struct Step {
    id: NodeId,
    /// The colour to move at the node (its children's chooser).
    turn: Player,
    /// Whether its children are all the legal moves (not pruned), so that
    /// "every child proven" proves the node.
    full: bool,
    /// Whether [`Pending`] holds this visit's statistics.
    deferred: bool,
}

/// A thread's private state: its random stream and reusable buffers, so
/// that an iteration allocates nothing.
#[derive(Debug)]
pub struct Worker {
    rng: FastRng,
    path: Vec<Step>,
    moves: Vec<(MoveCode, f32)>,
    map: [u8; MoveCode::COUNT],
    /// The exact solver of leaves with few squares left, made at the
    /// first such leaf (its table is the only allocation it needs).
    solver: Option<Box<Solver>>,
    /// Arena nodes reserved by this thread (tree parallelism).
    reserve: Reserve,
    /// Held-back updates of hot nodes (tree parallelism).
    pending: Pending,
    /// Whether updates of hot nodes are held back now (iterations are
    /// cheap), and when that was last decided.
    defer: bool,
    clock: Instant,
    /// Iterations this worker ran.
    pub iterations: u64,
    /// Recent choices at heavily visited nodes (lazy selection).
    choices: Choices,
    /// Network evaluations' buffers (`prior=pv`, `mix=`).
    pv: PvBuffers,
}

impl Worker {
    /// A worker with its own random stream.
    pub fn new(seed: u64) -> Worker {
        Worker {
            rng: FastRng::new(seed),
            path: Vec::with_capacity(80),
            moves: Vec::with_capacity(66),
            map: [255; MoveCode::COUNT],
            solver: None,
            reserve: Reserve::default(),
            pending: Pending::new(),
            defer: false,
            clock: Instant::now(),
            iterations: 0,
            choices: Choices::new(),
            pv: PvBuffers::default(),
        }
    }

    /// Runs iterations until the budget is spent, the deadline passes or
    /// the root is proven. Iterations are claimed `batch` at a time.
    pub fn run<V: TreeView>(&mut self, s: &SearchContext<'_, V>, batch: u64) {
        let mut depth = 0u32;
        'outer: loop {
            let start = if V::SHARED {
                s.claimed.fetch_add(batch, Relaxed)
            } else {
                let c = s.claimed.load(Relaxed);
                s.claimed.store(c + batch, Relaxed);
                c
            };
            let end = (start + batch).min(s.iters);
            if start >= end {
                break;
            }
            for _ in start..end {
                if s.stop.load(Relaxed) {
                    break 'outer;
                }
                depth = depth.max(self.iterate(s));
                self.iterations += 1;
                if V::SHARED && self.iterations.is_multiple_of(FLUSH_EVERY) {
                    self.pending.flush(s.tree.shared());
                    // Hold back only while iterations are cheap: then the
                    // cache-line traffic is the cost, and an iteration is
                    // in flight too briefly for its virtual loss to matter.
                    // With slow iterations (heuristic playouts) the traffic
                    // is negligible and the virtual loss at hot nodes keeps
                    // the threads on different paths.
                    let now = Instant::now();
                    let per_iter = now.duration_since(self.clock) / FLUSH_EVERY as u32;
                    self.defer = per_iter < CHEAP_ITERATION;
                    self.clock = now;
                }
            }
            if crate::interrupt::requested()
                || s.deadline
                    .is_some_and(|d| Instant::now() >= d || (s.early && s.settled(d)))
            {
                s.stop.store(true, Relaxed);
            }
            if s.grow && s.tree.nearly_full(batch) {
                // A time budget's arena grows between rounds (see
                // `parallel::run_tree`): stop this round, not the search.
                s.full.store(true, Relaxed);
                s.stop.store(true, Relaxed);
            }
        }
        if V::SHARED {
            self.pending.flush(s.tree.shared());
        }
        s.depth.fetch_max(depth, Relaxed);
    }

    /// One iteration; returns the depth of its path.
    fn iterate<V: TreeView>(&mut self, s: &SearchContext<'_, V>) -> u32 {
        let view = &s.tree;
        let tree: &Tree = view;
        let cfg = s.cfg;
        let mut grave = GraveRef {
            on: cfg.rave == Rave::Grave,
            reference: None,
            mapped: None,
        };
        let mut pos = s.root;
        let mut id = NodeId::ROOT;
        self.path.clear();
        // Step 1: descend, counting each visit on the way down (virtual loss).
        let leaf = loop {
            let node = tree.node(id);
            let before = node.visits();
            let deferred = V::SHARED && self.defer && before >= HOT_VISITS;
            if deferred {
                self.pending.visit(view.shared(), id, before);
            } else {
                view.add_visits(node, 1);
            }
            let mut st = node.state();
            if st == NodeState::Leaf
                && (id == NodeId::ROOT || before >= cfg.expand)
                && !pos.is_game_over()
                && !(cfg.solver && pos.empty().count() <= LEAF_EXACT.min(cfg.exact))
            {
                // Step 2: expand (or find another thread expanding it).
                let modelled = s.modelled == Some(pos.turn()) && !pos.can_swap();
                let pv = s.pv.is_some()
                    && self.evaluate_pv(s, node, &pos, modelled || pos.swap_follows());
                self.child_moves(&pos, cfg, &s.valuer, s.net, modelled, pv);
                let reserve = if V::SHARED {
                    Some(&mut self.reserve)
                } else {
                    None
                };
                if tree.expand(id, &self.moves, reserve) {
                    st = NodeState::Expanded;
                }
            }
            let full_count = pos.empty().count() + pos.can_swap() as u32;
            self.path.push(Step {
                id,
                turn: pos.turn(),
                full: node.children().len() == full_count,
                deferred,
            });
            if st == NodeState::Expanded {
                let child = self.next_child(s, id, node, before, &mut grave);
                match tree.node(child).node_move().square() {
                    Some(sq) => pos.play_unchecked(sq),
                    None => {
                        let _ = pos.try_swap();
                    }
                }
                id = child;
                continue;
            }
            // Step 3: the leaf's value, exact where known, else simulated.
            break self.leaf_value(s, node, st, &pos);
        };
        // Step 4: back up rewards, AMAF and proofs.
        self.back_up_rewards(s, &leaf);
        if cfg.minimax > 0.0 {
            self.back_up_minimax(view.shared(), s.rewarder.both(leaf.minimax_margin));
        }
        if cfg.solver {
            self.propagate_proofs(view.shared(), &s.stop);
        }
        self.path.len() as u32 - 1
    }

    /// The child of EXPANDED `node` (`id`, with `before` visits when the
    /// iteration arrived) that the iteration follows: chosen afresh by
    /// the tree policy, or with lazy selection a recent choice. The AMAF
    /// source (and GRAVE's map of the reference's children) is found
    /// only when the choice is made afresh.
    #[inline(always)]
    fn next_child<V: TreeView>(
        &mut self,
        s: &SearchContext<'_, V>,
        id: NodeId,
        node: &Node,
        before: u32,
        grave: &mut GraveRef,
    ) -> NodeId {
        let tree: &Tree = &s.tree;
        if grave.on && before >= s.cfg.r#ref {
            grave.reference = Some(id);
        }
        let map = &mut self.map;
        let mut choose = || {
            let src = match grave.reference {
                Some(r) if grave.on && r != id => {
                    if grave.mapped != Some(r) {
                        fill_map(tree, tree.node(r), map);
                        grave.mapped = Some(r);
                    }
                    AmafSource::Ref {
                        first: tree.node(r).children().first(),
                        map,
                    }
                }
                _ => AmafSource::Own,
            };
            let sel = if id == NodeId::ROOT {
                &s.sel_root
            } else {
                &s.sel
            };
            select_child(tree, node, sel, src)
        };
        if s.lazy > 0 && before >= s.lazy {
            self.choices.child(tree, id, choose)
        } else {
            choose()
        }
    }
}

/// GRAVE's state along one descent.
#[derive(Copy, Clone, Debug)]
struct GraveRef {
    /// Whether the search uses GRAVE (`rave=grave`).
    on: bool,
    /// The closest ancestor with enough visits (`ref=`).
    reference: Option<NodeId>,
    /// The node whose children `Worker::map` describes.
    mapped: Option<NodeId>,
}
