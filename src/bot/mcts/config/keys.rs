//! The `mcts` keys, each declared once: range, typed default (the
//! `DEFAULT_*` of `config.rs`), one line of help, everyday or a research
//! option (`.research()`), every range listed bare (`.bare()`). The keys
//! every search bot shares (`iters`, `ms`, `threads`, `reuse`, `exact`)
//! come from `spec::search_keys`. The parser (`config/parse.rs`) and
//! `pahtum bots` read them.

use super::*;
use crate::bot::spec::{KeyInfo, Params, search_keys};

/// `iters=`.
pub const ITERS: KeyInfo = search_keys::iters(
    MAX_ITERS,
    DEFAULT_ITERS,
    "iterations (playouts) per move; reproducible",
);
/// `ms=`.
pub const MS: KeyInfo = search_keys::MS;
/// `c=`.
pub const C: KeyInfo = KeyInfo::real(
    "c",
    0.0,
    10.0,
    DEFAULT_C,
    "UCT exploration constant: mean + c*sqrt(ln N / n)",
)
.bare()
.research();
/// `fpu=`.
pub const FPU: KeyInfo = KeyInfo::real(
    "fpu",
    0.0,
    10.0,
    DEFAULT_FPU,
    "score of an unvisited child (first-play urgency)",
)
.bare()
.research();
/// `expand=`.
pub const EXPAND: KeyInfo = KeyInfo::int(
    "expand",
    1,
    1000,
    DEFAULT_EXPAND,
    "visits a leaf receives before it is expanded",
)
.bare()
.research();
/// `lazy=`.
pub const LAZY: KeyInfo = KeyInfo::int(
    "lazy",
    0,
    1_000_000_000,
    DEFAULT_LAZY,
    "from this many visits a node reuses a thread's choice of child until that child's \
     visits grow by about 1/16, counted per thread (0: off, textbook UCT)",
)
.bare()
.research();
/// `rollout=`.
pub const ROLLOUT: KeyInfo = KeyInfo::choice::<Rollout>(
    "rollout",
    DEFAULT_ROLLOUT.name(),
    "playout policy below the tree",
)
.bare();
/// `eps=`.
pub const EPS: KeyInfo = KeyInfo::real(
    "eps",
    0.0,
    1.0,
    DEFAULT_EPS,
    "probability of a random move in greedy, heuristic and net playouts",
)
.bare()
.research();
/// `tempo=`.
pub const TEMPO: KeyInfo = KeyInfo::real(
    "tempo",
    0.0,
    4.0,
    DEFAULT_TEMPO,
    "rollout=eval: weight of the side to move's best move value added to the leaf value",
)
.bare()
.research();
/// `reward=`.
pub const REWARD: KeyInfo = KeyInfo::choice::<Reward>(
    "reward",
    DEFAULT_REWARD.name(),
    "win: 1/0.5/0; margin: (1+tanh(margin/scale))/2",
)
.bare()
.research();
/// `scale=`.
pub const SCALE: KeyInfo = KeyInfo::real(
    "scale",
    0.1,
    1000.0,
    DEFAULT_SCALE,
    "points of margin that count as a clear win (reward=margin)",
)
.bare()
.research();
/// `win_share=`.
pub const WIN_SHARE: KeyInfo = KeyInfo::real(
    "win_share",
    0.0,
    1.0,
    DEFAULT_WIN_SHARE,
    "reward=margin: weight of the win/draw/loss step blended into the margin reward",
)
.bare()
.research();
/// `rave=`.
pub const RAVE: KeyInfo = KeyInfo::choice::<Rave>(
    "rave",
    DEFAULT_RAVE.name(),
    "all-moves-as-first statistics: none, RAVE or GRAVE",
)
.bare()
.research();
/// `bias=`.
pub const BIAS: KeyInfo = KeyInfo::real(
    "bias",
    0.0,
    1.0,
    DEFAULT_BIAS,
    "RAVE beta = m / (m + n + bias*m*n), m AMAF visits, n visits",
)
.bare()
.research();
/// `ref=`.
pub const REF: KeyInfo = KeyInfo::int(
    "ref",
    0,
    1_000_000,
    DEFAULT_REF,
    "GRAVE: AMAF of the closest ancestor with >= ref visits",
)
.bare()
.research();
/// `prior=`.
pub const PRIOR: KeyInfo = KeyInfo::choice::<Prior>(
    "prior",
    DEFAULT_PRIOR.name(),
    "move priors: heuristic values as progressive bias or prune to k; pv: prune and bias by \
     the policy-value network's policy",
)
.bare()
.research();
/// `k=`.
pub const K: KeyInfo = KeyInfo::int(
    "k",
    1,
    65,
    DEFAULT_K,
    "prior=prune|pv: children kept per node (the best by prior)",
)
.bare()
.research();
/// `widen=`.
pub const WIDEN: KeyInfo = KeyInfo::real(
    "widen",
    1.1,
    100.0,
    DEFAULT_WIDEN,
    "prior=prune|pv: one more child each time visits grow by this factor (0: fixed k)",
)
.or_zero()
.bare()
.research();
/// `pw=`.
pub const PW: KeyInfo = KeyInfo::real(
    "pw",
    0.0,
    100.0,
    DEFAULT_PW,
    "progressive bias weight: + pw * h / (n + 1)",
)
.bare()
.research();
/// `pvnet=`.
pub const PVNET: KeyInfo = KeyInfo::text(
    "pvnet",
    "builtin|FILE",
    "builtin",
    "prior=pv, mix: the policy-value network, the built-in one or a file written by \
     `pahtum train`; it runs once per expanded node",
)
.bare()
.research();
/// `mix=`.
pub const MIX: KeyInfo = KeyInfo::real(
    "mix",
    0.0,
    1.0,
    DEFAULT_MIX,
    "weight of the policy-value network's value in each playout's reward: \
     (1-mix)*playout + mix*v(leaf's parent) (0: off; minimax= above 0 turns the default off)",
)
.bare()
.research()
.implied_by(mix_beside_minimax);

/// The `mix=` of a spec that gives none: off beside a `minimax=` above 0,
/// since the two share a node field (a `mix=` above 0 given beside it is
/// refused by the parser).
fn mix_beside_minimax(p: &Params) -> Option<&'static str> {
    p.real(&MINIMAX).is_ok_and(|m| m > 0.0).then_some("0")
}
/// `minimax=`.
pub const MINIMAX: KeyInfo = KeyInfo::real(
    "minimax",
    0.0,
    1.0,
    DEFAULT_MINIMAX,
    "implicit minimax weight: q = (1-w)*mean + w*minimax of leaf evaluations",
)
.bare()
.research();
/// `solver=`.
pub const SOLVER: KeyInfo = KeyInfo::flag(
    "solver",
    DEFAULT_SOLVER,
    "MCTS-Solver: proven results propagate; exact endgames",
)
.bare()
.research();
/// `exact=`.
pub const EXACT: KeyInfo =
    search_keys::exact("solver: search exactly at the root with <= this many empty squares")
        .research();
/// `prove=`.
pub const PROVE: KeyInfo = KeyInfo::int(
    "prove",
    0,
    64,
    DEFAULT_PROVE,
    "solver, reward=win: after the search, prove the root's win/draw/loss with <= this many \
     empty squares and play the search's first choice that keeps it (0: off)",
)
.bare()
.research();
/// `prove_nodes=`.
pub const PROVE_NODES: KeyInfo = KeyInfo::int(
    "prove_nodes",
    1,
    1_000_000,
    DEFAULT_PROVE_NODES,
    "prove: solver nodes per iteration of an iters= budget (ms=: the last eighth of the time)",
)
.bare()
.research();
/// `reuse=`.
pub const REUSE: KeyInfo = search_keys::REUSE;
/// `alloc=`.
pub const ALLOC: KeyInfo = search_keys::ALLOC;
/// `early=`.
pub const EARLY: KeyInfo = search_keys::EARLY;
/// `final=`.
pub const FINAL: KeyInfo = KeyInfo::choice::<FinalChoice>(
    "final",
    DEFAULT_FINAL.name(),
    "root child played: most visits, or best mean",
)
.bare()
.research();
/// `model=`.
pub const MODEL: KeyInfo = KeyInfo::choice::<Model>(
    "model",
    DEFAULT_MODEL.name(),
    "opponent model: in the tree the opponent plays only its moves of best line-potential \
     value (the heuristic's choice); auto: while all its moves this game, at least model_after, \
     were such; never with the pie rule",
)
.bare();
/// `model_after=`.
pub const MODEL_AFTER: KeyInfo = KeyInfo::int(
    "model_after",
    0,
    32,
    DEFAULT_MODEL_AFTER,
    "model=auto: opponent placements, all of best value, before the opponent is modelled",
)
.bare()
.research();
/// `threads=`.
pub const THREADS: KeyInfo = search_keys::threads("search threads");
/// `parallel=`.
pub const PARALLEL: KeyInfo = KeyInfo::choice::<Parallel>(
    "parallel",
    DEFAULT_PARALLEL.name(),
    "shared tree (virtual loss) or one tree per thread",
)
.bare();
/// `max_nodes=`.
pub const MAX_NODES_KEY: KeyInfo = KeyInfo::int(
    "max_nodes",
    128,
    MAX_NODES,
    DEFAULT_MAX_NODES,
    "node bound (shared out among root-parallel trees); when full, leaves stop expanding",
)
.bare();
/// `mem=`: the node bound as memory.
pub const MEM: KeyInfo = KeyInfo::opt_int(
    "mem",
    1,
    MAX_MEM_MIB,
    "memory bound of the trees in MiB, instead of max_nodes (not given: max_nodes decides)",
)
.bare();
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
    PVNET,
    MIX,
    MINIMAX,
    SOLVER,
    EXACT,
    PROVE,
    PROVE_NODES,
    REUSE,
    ALLOC,
    EARLY,
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
