//! The `mcts` keys, each declared once: range, typed default (the
//! `DEFAULT_*` of `config.rs`), one line of help, everyday or a research
//! option. The parser (`config/parse.rs`) and `pahtum bots` read them.

use super::*;
use crate::bot::spec::{BudgetKind, KeyInfo};

/// An everyday key (budget, threads, playouts, opponent model, memory),
/// its range listed bare.
const fn key(k: KeyInfo) -> KeyInfo {
    k.bare()
}

/// A research option (for studies of the search itself), its range
/// listed bare.
const fn research(k: KeyInfo) -> KeyInfo {
    k.bare().research()
}

/// `iters=`.
pub const ITERS: KeyInfo = key(KeyInfo::int(
    "iters",
    1,
    MAX_ITERS,
    DEFAULT_ITERS,
    "iterations (playouts) per move; reproducible",
)
.budget(BudgetKind::Work));
/// `ms=`.
pub const MS: KeyInfo = key(KeyInfo::opt_int(
    "ms",
    1,
    86_400_000,
    "time budget per move in milliseconds instead of iters (-: none; not reproducible)",
)
.budget(BudgetKind::Time));
/// `c=`.
pub const C: KeyInfo = research(KeyInfo::real(
    "c",
    0.0,
    10.0,
    DEFAULT_C,
    "UCT exploration constant: mean + c*sqrt(ln N / n)",
));
/// `fpu=`.
pub const FPU: KeyInfo = research(KeyInfo::real(
    "fpu",
    0.0,
    10.0,
    DEFAULT_FPU,
    "score of an unvisited child (first-play urgency)",
));
/// `expand=`.
pub const EXPAND: KeyInfo = research(KeyInfo::int(
    "expand",
    1,
    1000,
    DEFAULT_EXPAND,
    "visits a leaf receives before it is expanded",
));
/// `lazy=`.
pub const LAZY: KeyInfo = research(KeyInfo::int(
    "lazy",
    0,
    1_000_000_000,
    DEFAULT_LAZY,
    "from this many visits a node reuses a thread's choice of child until that child's \
     visits grow by about 1/16, counted per thread (0: off, textbook UCT)",
));
/// `rollout=`.
pub const ROLLOUT: KeyInfo = key(KeyInfo::choice::<Rollout>(
    "rollout",
    DEFAULT_ROLLOUT.name(),
    "playout policy below the tree",
));
/// `eps=`.
pub const EPS: KeyInfo = research(KeyInfo::real(
    "eps",
    0.0,
    1.0,
    DEFAULT_EPS,
    "probability of a random move in greedy, heuristic and net playouts",
));
/// `tempo=`.
pub const TEMPO: KeyInfo = research(KeyInfo::real(
    "tempo",
    0.0,
    4.0,
    DEFAULT_TEMPO,
    "rollout=eval: weight of the side to move's best move value added to the leaf value",
));
/// `reward=`.
pub const REWARD: KeyInfo = research(KeyInfo::choice::<Reward>(
    "reward",
    DEFAULT_REWARD.name(),
    "win: 1/0.5/0; margin: (1+tanh(margin/scale))/2",
));
/// `scale=`.
pub const SCALE: KeyInfo = research(KeyInfo::real(
    "scale",
    0.1,
    1000.0,
    DEFAULT_SCALE,
    "points of margin that count as a clear win (reward=margin)",
));
/// `win_share=`.
pub const WIN_SHARE: KeyInfo = research(KeyInfo::real(
    "win_share",
    0.0,
    1.0,
    DEFAULT_WIN_SHARE,
    "reward=margin: weight of the win/draw/loss step blended into the margin reward",
));
/// `rave=`.
pub const RAVE: KeyInfo = research(KeyInfo::choice::<Rave>(
    "rave",
    DEFAULT_RAVE.name(),
    "all-moves-as-first statistics: none, RAVE or GRAVE",
));
/// `bias=`.
pub const BIAS: KeyInfo = research(KeyInfo::real(
    "bias",
    0.0,
    1.0,
    DEFAULT_BIAS,
    "RAVE beta = m / (m + n + bias*m*n), m AMAF visits, n visits",
));
/// `ref=`.
pub const REF: KeyInfo = research(KeyInfo::int(
    "ref",
    0,
    1_000_000,
    DEFAULT_REF,
    "GRAVE: AMAF of the closest ancestor with >= ref visits",
));
/// `prior=`.
pub const PRIOR: KeyInfo = research(KeyInfo::choice::<Prior>(
    "prior",
    DEFAULT_PRIOR.name(),
    "heuristic move values: progressive bias or prune to k",
));
/// `k=`.
pub const K: KeyInfo = research(KeyInfo::int(
    "k",
    1,
    65,
    DEFAULT_K,
    "prior=prune: children kept per node (best by heuristic)",
));
/// `widen=`.
pub const WIDEN: KeyInfo = research(KeyInfo::zero_or_real(
    "widen",
    1.1,
    100.0,
    DEFAULT_WIDEN,
    "prior=prune: one more child each time visits grow by this factor (0: fixed k)",
));
/// `pw=`.
pub const PW: KeyInfo = research(KeyInfo::real(
    "pw",
    0.0,
    100.0,
    DEFAULT_PW,
    "progressive bias weight: + pw * h / (n + 1)",
));
/// `minimax=`.
pub const MINIMAX: KeyInfo = research(KeyInfo::real(
    "minimax",
    0.0,
    1.0,
    DEFAULT_MINIMAX,
    "implicit minimax weight: q = (1-w)*mean + w*minimax of leaf evaluations",
));
/// `solver=`.
pub const SOLVER: KeyInfo = research(KeyInfo::flag(
    "solver",
    DEFAULT_SOLVER,
    "MCTS-Solver: proven results propagate; exact endgames",
));
/// `exact=`.
pub const EXACT: KeyInfo = research(KeyInfo::int(
    "exact",
    0,
    14,
    DEFAULT_EXACT,
    "solver: search exactly at the root with <= this many empty squares",
));
/// `prove=`.
pub const PROVE: KeyInfo = research(KeyInfo::int(
    "prove",
    0,
    64,
    DEFAULT_PROVE,
    "solver, reward=win: after the search, prove the root's win/draw/loss with <= this many \
     empty squares and play the search's first choice that keeps it (0: off)",
));
/// `prove_nodes=`.
pub const PROVE_NODES: KeyInfo = research(KeyInfo::int(
    "prove_nodes",
    1,
    1_000_000,
    DEFAULT_PROVE_NODES,
    "prove: solver nodes per iteration of an iters= budget (ms=: the last eighth of the time)",
));
/// `reuse=`.
pub const REUSE: KeyInfo = key(KeyInfo::flag(
    "reuse",
    DEFAULT_REUSE,
    "keep the matching subtree between moves",
));
/// `final=`.
pub const FINAL: KeyInfo = research(KeyInfo::choice::<FinalChoice>(
    "final",
    DEFAULT_FINAL.name(),
    "root child played: most visits, or best mean",
));
/// `model=`.
pub const MODEL: KeyInfo = key(KeyInfo::choice::<Model>(
    "model",
    DEFAULT_MODEL.name(),
    "opponent model: in the tree the opponent plays only its moves of best line-potential \
     value (the heuristic's choice); auto: while all its moves this game, at least model_after, \
     were such; never with the pie rule",
));
/// `model_after=`.
pub const MODEL_AFTER: KeyInfo = research(KeyInfo::int(
    "model_after",
    0,
    32,
    DEFAULT_MODEL_AFTER,
    "model=auto: opponent placements, all of best value, before the opponent is modelled",
));
/// `threads=`.
pub const THREADS: KeyInfo = key(KeyInfo::int(
    "threads",
    1,
    MAX_THREADS,
    DEFAULT_THREADS,
    "search threads",
));
/// `parallel=`.
pub const PARALLEL: KeyInfo = key(KeyInfo::choice::<Parallel>(
    "parallel",
    DEFAULT_PARALLEL.name(),
    "shared tree (virtual loss) or one tree per thread",
));
/// `max_nodes=`.
pub const MAX_NODES_KEY: KeyInfo = key(KeyInfo::int(
    "max_nodes",
    128,
    MAX_NODES,
    DEFAULT_MAX_NODES,
    "node bound (shared out among root-parallel trees); when full, leaves stop expanding",
));
/// `mem=`: the node bound as memory.
pub const MEM: KeyInfo = key(KeyInfo::opt_int(
    "mem",
    1,
    MAX_MEM_MIB,
    "memory bound of the trees in MiB, instead of max_nodes (-: max_nodes decides)",
));
/// The heuristic's weights, the keys shared with `heuristic` and
/// `alphabeta`, with mcts's own defaults.
pub const WEIGHTS: [KeyInfo; 3] = crate::bot::spec::weight_keys(&DEFAULT_WEIGHTS);

/// The keys `pahtum bots` lists for `mcts`, in its order; the everyday
/// ones and the research options are listed apart.
pub const KEYS: &[KeyInfo] = &[
    ITERS,
    MS,
    C,
    FPU,
    EXPAND,
    LAZY,
    ROLLOUT,
    // rollout=net|value: the learned network, as for `learned`.
    crate::bot::learned::NET_KEY,
    EPS,
    TEMPO,
    REWARD,
    SCALE,
    WIN_SHARE,
    RAVE,
    BIAS,
    REF,
    PRIOR,
    K,
    WIDEN,
    PW,
    MINIMAX,
    SOLVER,
    EXACT,
    PROVE,
    PROVE_NODES,
    REUSE,
    FINAL,
    MODEL,
    MODEL_AFTER,
    THREADS,
    PARALLEL,
    MAX_NODES_KEY,
    MEM,
    WEIGHTS[0],
    WEIGHTS[1],
    WEIGHTS[2],
];
