//! MCTS parameters: one flat struct with one comment per field, in the
//! model of KataGo's `SearchParams`, and one named default per key.
//!
//! Each default says why it is what it is and, where one exists, which
//! experiment measured it (a folder of `experiments/`, rerun on today's
//! engine by its `run.sh`). A default changes only through the gate of the
//! shared rules (an equal-time `pahtum sprt`), recorded in such an
//! experiment. The hand screens on earlier engines that chose the earlier
//! defaults are kept in `docs/mcts-history.md`; they are a record, not
//! rerunnable today.
//!
//! The keys (range, default, help) are declared in `config/keys.rs`,
//! read into the struct by `config/parse.rs`.

mod keys;
mod parse;

pub use keys::KEYS;

use crate::bot::spec::{key_values, search_keys};
use crate::eval::EvalWeights;
use crate::net::PvNet;
use crate::net::lines::LineNet;
use std::sync::Arc;

pub use crate::bot::spec::Budget;

key_values! {
    /// How a playout chooses its moves below the tree.
    pub enum Rollout {
        /// Uniformly random (`Position::random_split`: the final split of the
        /// free squares drawn at once, the cheapest playout).
        Random = "random",
        /// Each move takes the square with the largest immediate score change
        /// (own line gain plus the opponent gain it blocks), random among
        /// equals; with probability `eps` a random square instead.
        Greedy = "greedy",
        /// Each move takes the square with the best line-potential value
        /// (`eval::move_value`); `eps` as for greedy.
        Heuristic = "heuristic",
        /// No playout: the leaf is scored by the line-potential evaluation
        /// (`eval::evaluate`, exact on a finished board) as if it were
        /// the final margin. AMAF statistics then come from a uniformly random
        /// fill of the leaf.
        Eval = "eval",
        /// Each move takes the square with the best one-ply value of the
        /// learned line network (`bot::learned`, the `net=` key); `eps` as for
        /// greedy. The heuristic priors (`prior=prune|bias`) rank children by
        /// the same values. Boards the network was not trained for get
        /// heuristic playouts and priors.
        Net = "net",
        /// No playout: the leaf is scored by the learned line network's
        /// predicted margin (boards it does not cover: heuristic playouts).
        /// AMAF statistics then come from a uniformly random fill.
        Value = "value",
    }
}

key_values! {
    /// How a finished playout is turned into a reward in `[0, 1]`.
    pub enum Reward {
        /// 1 for a win, ½ for a draw, 0 for a loss.
        Win = "win",
        /// `(1 + tanh(margin / scale)) / 2`, margin in points from the player's
        /// view: a big win counts more than a narrow one.
        Margin = "margin",
    }
}

key_values! {
    /// All-moves-as-first statistics.
    pub enum Rave {
        /// Plain UCT.
        Off = "off",
        /// RAVE (Gelly and Silver 2007): each child's own AMAF statistics.
        Rave = "rave",
        /// GRAVE (Cazenave 2015): the AMAF statistics of the closest ancestor
        /// with at least `ref` visits.
        Grave = "grave",
    }
}

key_values! {
    /// The move prior inside the tree: the heuristic move value (or the
    /// line network's, with `rollout=net|value`) or the policy-value
    /// network's policy.
    pub enum Prior {
        /// None.
        Off = "off",
        /// Progressive bias (Chaslot et al. 2008): `pw * h / (n + 1)` added to
        /// a child's score, `h` the heuristic value scaled to `[0, 1]`.
        Bias = "bias",
        /// Progressive unpruning (Chaslot et al. 2008): children are ordered
        /// by heuristic value and selection only sees the best
        /// `k + floor(log_widen(1 + N / 50))` of them, `N` the node's visits
        /// (`widen=0`: exactly the best `k` moves become children). The bias
        /// term is added as for `bias`.
        Prune = "prune",
        /// Progressive unpruning and bias as `prune`, ranked and weighted by
        /// the policy-value network's policy (`pvnet=`) instead of the
        /// heuristic: `h` is a move's probability over the node's legal
        /// moves divided by the best one's. The network runs once per node,
        /// when the node is expanded (`expand=` visits).
        Pv = "pv",
    }
}

key_values! {
    /// Which root child is played.
    pub enum FinalChoice {
        /// Most visits (ties: higher mean).
        Visits = "visits",
        /// Highest mean among children with at least a tenth of the most visits.
        Value = "value",
    }
}

key_values! {
    /// Whether the search models the opponent as `heuristic` inside the tree.
    pub enum Model {
        /// Every opponent move is searched as usual.
        Off = "off",
        /// The opponent is modelled while every one of its placements in this
        /// game so far, at least `model_after` of them, was a move of best
        /// line-potential value (by `weights`), the move `heuristic` with
        /// the same weights would choose; one placement that was not turns
        /// the model off for the rest of the game. Never under the pie rule,
        /// where the opening and the swap follow other rules.
        Auto = "auto",
        /// The opponent is always modelled (but never under the pie rule, as
        /// with `Auto`).
        On = "on",
    }
}

key_values! {
    /// How several threads share the work.
    pub enum Parallel {
        /// One shared tree, statistics in atomics, virtual loss.
        Tree = "tree",
        /// One tree per thread, merged at the root by visit counts.
        Root = "root",
    }
}

// The defaults, which the key declarations of `config/keys.rs` read; the
// shared keys' defaults (`threads`, `reuse`, `exact`) are those of
// `spec::search_keys`. Each says why it is what it is and where it was
// measured: an experiment of today's engine, or the screens on earlier
// engines in docs/mcts-history.md.

/// Iterations a move: a fixed count keeps games reproducible, and this one
/// keeps a move under a second on one core (`pahtum bench` reports the
/// rate, `mcts_default_iters_per_s`).
const DEFAULT_ITERS: u64 = 20_000;
/// Low exploration, because the prior already orders and prunes the
/// children; tuned with nine other keys by SPSA and gated on the engine
/// with the heuristic's prior (`experiments/tuning/mcts-spsa/`), and kept
/// by the hybrid default; `experiments/uct-exploration/` sweeps it.
const DEFAULT_C: f64 = 0.205444;
/// An unvisited child counts as about a win, so children are tried early;
/// the tune kept it there (`experiments/tuning/mcts-spsa/`).
const DEFAULT_FPU: f64 = 1.002448;
/// Six visits before a leaf grows children: each expansion runs the
/// policy-value network once (`prior=pv`), and six visits a node keep that
/// cost to a small share of an iteration while the tree still grows close
/// to the play. Gated with `prior=pv` and `mix=0.5` at equal time against
/// `expand=2` with `prior=prune` (`experiments/learned-search/`, "The
/// default gate"); `experiments/hybrid-mcts/` screens 6 and 16.
const DEFAULT_EXPAND: u64 = 6;
/// Off: textbook UCT, which the baselines and speed figures name; with
/// heuristic playouts the child choice is a small part of an iteration
/// (docs/mcts-history.md, "Lazy selection"; `pahtum bench`'s `mcts_lazy_*`).
const DEFAULT_LAZY: u64 = 0;
/// Playouts guided by the learned line network (on 7x7; other sizes fall
/// back to the heuristic): they play out the blocking contest of the
/// middle game that a static value cannot see, and the network judges
/// lines better than the hand-set potential. It replaced `heuristic` by
/// the gate at equal time (`experiments/tuning/equal-time/`);
/// `experiments/learned-lines/` compares `net` and `value`.
const DEFAULT_ROLLOUT: Rollout = Rollout::Net;
/// A little noise in the playouts; more lets through lines that no
/// sensible opponent allows. The one key the tune moved far
/// (`experiments/tuning/mcts-spsa/`).
const DEFAULT_EPS: f64 = 0.030753;
/// With `eval` leaves, half the side to move's best one-ply move value is
/// credited to it: it claims or blocks the best window next, which the
/// static value leaves out, and twice that weight over-credits the mover
/// (screens in docs/mcts-history.md, "Leaf evaluation"); unused by other
/// playouts.
const DEFAULT_TEMPO: f64 = 0.5;
/// Result only: the margin reward gives away drawn and won games against
/// best replies; `reward=win` passed the equal-time gate
/// (`experiments/result-reward/`, `experiments/perfect-play/`).
const DEFAULT_REWARD: Reward = Reward::Win;
/// Points of margin that count as a clear win under `reward=margin`;
/// smaller and larger scales were weaker (screens in docs/mcts-history.md).
const DEFAULT_SCALE: f64 = 10.0;
/// Off: blending the result step into the margin reward turned wins into
/// draws, since chasing the margin is what makes a weaker opponent's small
/// errors add up to a win (screens in docs/mcts-history.md).
const DEFAULT_WIN_SHARE: f64 = 0.0;
/// Off: AMAF hurt with heuristic leaves, whose final stones are no real
/// playout (docs/mcts-history.md; `experiments/uct-exploration/` sweeps
/// GRAVE against `c`).
const DEFAULT_RAVE: Rave = Rave::Off;
/// Used only with `rave=rave`, off by default.
const DEFAULT_BIAS: f64 = 0.001;
/// Used only with `rave=grave`, off by default.
const DEFAULT_REF: u64 = 50;
/// Pruning to the policy-value network's best moves (`prior=pv`): pruning
/// is what turned plain UCT around (`prune`, by the heuristic's ranking;
/// screens in docs/mcts-history.md), and the self-play network ranks the
/// moves better than the heuristic. With `mix=0.5` and `expand=6` it passed
/// the gate at equal time against `prior=prune` (`experiments/learned-search/`,
/// "The default gate"). Boards of every size get the one network.
const DEFAULT_PRIOR: Prior = Prior::Pv;
/// Five children first, widened from there: eight was weaker, four and
/// six no better (screens in docs/mcts-history.md).
const DEFAULT_K: u64 = 5;
/// One more child about each time the visits double; the tune kept it
/// near 2 (`experiments/tuning/mcts-spsa/`; other factors in
/// docs/mcts-history.md).
const DEFAULT_WIDEN: f64 = 2.030568;
/// About full progressive bias, where the tune left it
/// (`experiments/tuning/mcts-spsa/`).
const DEFAULT_PW: f64 = 1.069962;
/// Half the playout's result, half the network's value of the leaf
/// (AlphaGo's mixing): a playout sees the blocking contest a static value
/// misses, the value sees what one noisy playout does not. Per iteration
/// one half was the best weight screened (`experiments/hybrid-mcts/`); with
/// `prior=pv` and `expand=6` it passed the gate at equal time
/// (`experiments/learned-search/`, "The default gate").
const DEFAULT_MIX: f64 = 0.5;
/// Off: implicit minimax was no better than the plain mean, the tune kept
/// it near zero, and at equal time the static evaluation it needs at every
/// leaf costs more than it earns: the key check and then the gate of
/// `minimax=0` against the tuned defaults both said so
/// (`experiments/tuning/mcts-spsa/`, costly keys).
const DEFAULT_MINIMAX: f64 = 0.0;
/// The line-potential weights of the priors and heuristic playouts: the
/// heuristic's own (`EvalWeights::default`), moved a little by the tune
/// (`experiments/tuning/mcts-spsa/`), so `mcts` keeps its own copy.
pub const DEFAULT_WEIGHTS: EvalWeights = EvalWeights {
    decay: 0.403497,
    reach: 3,
    defence: 1.298178,
};
/// On: a proven result is exact, so the search never plays a proven loss
/// while some move is not one.
const DEFAULT_SOLVER: bool = true;
/// A result-only root proof from the 22 free squares of a 5x5 board with
/// 3 holes: there a won layout often has a single winning first stone
/// that the tree search misses (`experiments/perfect-play-5x5/`).
const DEFAULT_PROVE: u64 = 22;
/// Solver nodes per iteration of the budget for that proof: enough to
/// prove the won 5x5 openings, while an unproven root costs only a
/// bounded multiple of the search (`experiments/perfect-play-5x5/`).
const DEFAULT_PROVE_NODES: u64 = 1000;
/// Most visits: the best mean was weaker or level, never better (screens
/// in docs/mcts-history.md).
const DEFAULT_FINAL: FinalChoice = FinalChoice::Visits;
/// Model a heuristic-playing opponent only while it shows it is one:
/// strong against `heuristic`, level against others
/// (`experiments/black-ceiling/`; docs/mcts-history.md, "a model of the
/// opponent").
const DEFAULT_MODEL: Model = Model::Auto;
/// Two placements seen: waiting longer costs against `heuristic` more than
/// it saves against searching opponents (docs/mcts-history.md, "a model
/// of the opponent").
const DEFAULT_MODEL_AFTER: u64 = 2;
/// A shared tree: every thread's visits in one tree. One tree per thread
/// did not pass the gate against it at equal time
/// (`experiments/parallel-scaling/`).
const DEFAULT_PARALLEL: Parallel = Parallel::Tree;
/// A memory bound that long many-thread searches do not reach
/// (`experiments/parallel-scaling/`, "The node bound"). Nodes are
/// allocated as the tree grows, so a short search uses what it needs, not
/// the bound.
const DEFAULT_MAX_NODES: u64 = 1 << 26;

/// Most iterations one search may take.
pub const MAX_ITERS: u64 = 1_000_000_000;
/// Most worker threads.
pub const MAX_THREADS: u64 = crate::bot::MAX_THREADS as u64;
/// Most tree nodes (node ids are `u32`).
pub const MAX_NODES: u64 = 1 << 31;
/// Most memory `mem=` may give the trees: [`MAX_NODES`] nodes.
pub const MAX_MEM_MIB: u64 = (MAX_NODES * NODE_BYTES as u64) >> 20;

/// Bytes of one tree node: what `mem=` divides by.
const NODE_BYTES: usize = super::tree::Tree::NODE_BYTES;

/// Nodes that fit in `mib` MiB, at least the smallest bound `max_nodes=`
/// takes.
pub fn nodes_in_mib(mib: u64) -> u32 {
    ((mib << 20) / NODE_BYTES as u64).clamp(128, MAX_NODES) as u32
}

/// Every parameter of the search. `Default` is the tuned engine.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations or milliseconds per move (`iters=`, `ms=`).
    pub budget: Budget,
    /// UCT exploration constant `c` in `mean + c * sqrt(ln N / n)`.
    pub c: f32,
    /// Score of a child with no visits (and no AMAF statistics); a value
    /// above `1 + c * sqrt(ln N)` visits every child once first.
    pub fpu: f32,
    /// Visits a leaf gets (each with a playout from it) before its children
    /// are created: trades memory for tree growth.
    pub expand: u32,
    /// Visits from which a node reuses a thread's last choice of child
    /// (lazy selection, `search::Choices`; 0: off, every visit chooses).
    pub lazy: u32,
    /// Playout policy.
    pub rollout: Rollout,
    /// Random-move probability in greedy, heuristic and network playouts.
    pub eps: f64,
    /// With `eval` leaves: weight of the side to move's best one-ply move
    /// value added to the static value (a tempo term).
    pub tempo: f64,
    /// Reward of a playout.
    pub reward: Reward,
    /// Margin scale in points for [`Reward::Margin`].
    pub scale: f64,
    /// Weight of the win/draw/loss step in [`Reward::Margin`]: the reward
    /// is `(1 - w) * margin reward + w * win reward`.
    pub win_share: f64,
    /// AMAF mode.
    pub rave: Rave,
    /// RAVE bias `b` in `beta = m / (m + n + b m n)`.
    pub bias: f32,
    /// GRAVE reference: visits an ancestor needs for its AMAF values to be
    /// used below it (0 makes GRAVE equal RAVE). The key's own name,
    /// raw because `ref` is a Rust keyword.
    pub r#ref: u32,
    /// Heuristic prior mode.
    pub prior: Prior,
    /// Children kept per node with [`Prior::Prune`].
    pub k: u32,
    /// Progressive unpruning base: one more child each time a node's
    /// visits grow by this factor (0: fixed `k`).
    pub widen: f32,
    /// Progressive-bias weight.
    pub pw: f32,
    /// Weight of the implicit minimax value in a child's `q` (0: off).
    pub minimax: f32,
    /// MCTS-Solver and exact endgames.
    pub solver: bool,
    /// With the solver on, positions with at most this many empty squares
    /// are searched exactly at the root.
    pub exact: u32,
    /// With the solver on and `reward=win`, roots with more than `exact`
    /// and at most this many empty squares get a result-only proof after
    /// the search (0: never).
    pub prove: u32,
    /// Solver nodes that proof may visit per iteration of an `iters=`
    /// budget (an `ms=` budget gives it the last eighth of the time).
    pub prove_nodes: u64,
    /// Keep the subtree of the position reached between two moves.
    pub reuse: bool,
    /// How a clocked search (`tc=`) shares its time over its moves.
    pub alloc: crate::bot::clock::Allocation,
    /// Whether a clocked search stops once its most visited move cannot
    /// be overtaken.
    pub early: bool,
    /// Which root child is played. The key's own name, raw because
    /// `final` is a reserved word.
    pub r#final: FinalChoice,
    /// Opponent model.
    pub model: Model,
    /// With [`Model::Auto`]: opponent placements seen, every one of best
    /// line-potential value, before the opponent is modelled.
    pub model_after: u32,
    /// Worker threads.
    pub threads: usize,
    /// How threads share work.
    pub parallel: Parallel,
    /// Most nodes a tree may hold; when full, leaves stop expanding.
    pub max_nodes: u32,
    /// Weights of the line-potential heuristic (priors, `eval` leaves,
    /// heuristic playouts; `decay=`, `reach=`, `defence=`, shared with
    /// `heuristic` and `alphabeta`).
    pub weights: EvalWeights,
    /// The learned network of `rollout=net|value`, read from the `net=`
    /// file; `None`: the built-in one.
    pub net: Option<&'static LineNet>,
    /// The policy-value network of `prior=pv` and `mix=` (`pvnet=`), loaded
    /// only when one of them reads it; `None` otherwise.
    pub pvnet: Option<Arc<PvNet>>,
    /// Weight `lambda` of the policy-value network's value in a playout's
    /// reward: `(1 - lambda) * playout + lambda * v`, `v` the value of the
    /// leaf's parent (0: off).
    pub mix: f32,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            budget: Budget::Iters(DEFAULT_ITERS),
            c: DEFAULT_C as f32,
            fpu: DEFAULT_FPU as f32,
            expand: DEFAULT_EXPAND as u32,
            lazy: DEFAULT_LAZY as u32,
            rollout: DEFAULT_ROLLOUT,
            eps: DEFAULT_EPS,
            tempo: DEFAULT_TEMPO,
            reward: DEFAULT_REWARD,
            scale: DEFAULT_SCALE,
            win_share: DEFAULT_WIN_SHARE,
            rave: DEFAULT_RAVE,
            bias: DEFAULT_BIAS as f32,
            r#ref: DEFAULT_REF as u32,
            prior: DEFAULT_PRIOR,
            k: DEFAULT_K as u32,
            widen: DEFAULT_WIDEN as f32,
            pw: DEFAULT_PW as f32,
            minimax: DEFAULT_MINIMAX as f32,
            solver: DEFAULT_SOLVER,
            exact: search_keys::DEFAULT_EXACT as u32,
            prove: DEFAULT_PROVE as u32,
            prove_nodes: DEFAULT_PROVE_NODES,
            reuse: search_keys::DEFAULT_REUSE,
            alloc: search_keys::DEFAULT_ALLOC,
            early: search_keys::DEFAULT_EARLY,
            r#final: DEFAULT_FINAL,
            model: DEFAULT_MODEL,
            model_after: DEFAULT_MODEL_AFTER as u32,
            threads: search_keys::DEFAULT_THREADS as usize,
            parallel: DEFAULT_PARALLEL,
            max_nodes: DEFAULT_MAX_NODES as u32,
            weights: DEFAULT_WEIGHTS,
            net: None,
            // The default reads the network (`prior=pv`, `mix=`): the
            // built-in one, as a spec without `pvnet=` gets.
            pvnet: (DEFAULT_PRIOR == Prior::Pv || DEFAULT_MIX > 0.0).then(PvNet::builtin),
            mix: DEFAULT_MIX as f32,
        }
    }
}

impl MctsConfig {
    /// Whether AMAF statistics are kept.
    #[inline]
    pub fn uses_amaf(&self) -> bool {
        self.rave != Rave::Off
    }

    /// Whether the heuristic move value is computed at expansion.
    #[inline]
    pub fn uses_prior(&self) -> bool {
        self.prior != Prior::Off
    }

    /// Whether children are ordered by their prior and unpruned
    /// progressively (`prior=prune` and `prior=pv`).
    #[inline]
    pub fn prunes(&self) -> bool {
        matches!(self.prior, Prior::Prune | Prior::Pv)
    }

    /// Whether the policy-value network runs at expansions (`prior=pv` or
    /// `mix=` above 0).
    #[inline]
    pub fn uses_pvnet(&self) -> bool {
        self.prior == Prior::Pv || self.mix > 0.0
    }
}
