//! The key list of `pahtum bots` for `mcts`: defaults as text, accepted
//! values and one line of help, each key everyday or a research option.

use crate::bot::eval::EvalWeights;
use crate::bot::spec::KeyInfo;

/// The keys `pahtum bots` lists for `mcts`, with defaults and ranges. The
/// everyday keys (budget, threads, playouts, opponent model, memory) are
/// built with `key`, the research options (for studies of the search
/// itself) with `research`; `pahtum bots` lists the two groups apart.
pub const KEYS: &[KeyInfo] = &[
    key(
        "iters",
        "20000",
        "1..=1000000000",
        "iterations (playouts) per move; reproducible",
    ),
    key(
        "ms",
        "-",
        "1..=86400000",
        "time budget per move in milliseconds instead of iters (-: none; not reproducible)",
    ),
    research(key(
        "c",
        "0.205444",
        "0..=10",
        "UCT exploration constant: mean + c*sqrt(ln N / n)",
    )),
    research(key(
        "fpu",
        "1.002448",
        "0..=10",
        "score of an unvisited child (first-play urgency)",
    )),
    research(key(
        "expand",
        "2",
        "1..=1000",
        "visits a leaf receives before it is expanded",
    )),
    research(key(
        "lazy",
        "0",
        "0..=1000000000",
        "from this many visits a node reuses a thread's choice of child until that child's \
         visits grow by about 1/16, counted per thread (0: off, textbook UCT)",
    )),
    key(
        "rollout",
        "net",
        "random|greedy|heuristic|eval|net|value",
        "playout policy below the tree",
    ),
    // rollout=net|value: the learned network, as for `learned`.
    crate::bot::learned::NET_KEY,
    research(key(
        "eps",
        "0.030753",
        "0..=1",
        "probability of a random move in greedy, heuristic and net playouts",
    )),
    research(key(
        "mix",
        "0",
        "0..=1",
        "rollout=eval: weight of a random fill's margin blended into the static value",
    )),
    research(key(
        "tempo",
        "0.5",
        "0..=4",
        "rollout=eval: weight of the side to move's best move value added to the leaf value",
    )),
    research(key(
        "lookahead",
        "0",
        "0..=8",
        "rollout=eval: plies of greedy heuristic moves played before the leaf is evaluated",
    )),
    research(key(
        "reward",
        "win",
        "win|margin",
        "win: 1/0.5/0; margin: (1+tanh(margin/scale))/2",
    )),
    research(key(
        "scale",
        "10",
        "0.1..=1000",
        "points of margin that count as a clear win (reward=margin)",
    )),
    research(key(
        "win_share",
        "0",
        "0..=1",
        "reward=margin: weight of the win/draw/loss step blended into the margin reward",
    )),
    research(key(
        "rave",
        "off",
        "off|rave|grave",
        "all-moves-as-first statistics: none, RAVE or GRAVE",
    )),
    research(key(
        "bias",
        "0.001",
        "0..=1",
        "RAVE beta = m / (m + n + bias*m*n), m AMAF visits, n visits",
    )),
    research(key(
        "ref",
        "50",
        "0..=1000000",
        "GRAVE: AMAF of the closest ancestor with >= ref visits",
    )),
    research(key(
        "prior",
        "prune",
        "off|bias|prune",
        "heuristic move values: progressive bias or prune to k",
    )),
    research(key(
        "k",
        "5",
        "1..=65",
        "prior=prune: children kept per node (best by heuristic)",
    )),
    research(key(
        "widen",
        "2.030568",
        "0|1.1..=100",
        "prior=prune: one more child each time visits grow by this factor (0: fixed k)",
    )),
    research(key(
        "pw",
        "1.069962",
        "0..=100",
        "progressive bias weight: + pw * h / (n + 1)",
    )),
    research(key(
        "minimax",
        "0.008409",
        "0..=1",
        "implicit minimax weight: q = (1-w)*mean + w*minimax of leaf evaluations",
    )),
    research(key(
        "solver",
        "true",
        "true|false",
        "MCTS-Solver: proven results propagate; exact endgames",
    )),
    research(key(
        "exact",
        "10",
        "0..=14",
        "solver: search exactly at the root with <= this many empty squares",
    )),
    key(
        "reuse",
        "true",
        "true|false",
        "keep the matching subtree between moves",
    ),
    research(key(
        "final",
        "visits",
        "visits|value",
        "root child played: most visits, or best mean",
    )),
    key(
        "model",
        "auto",
        "off|auto|on",
        "opponent model: in the tree the opponent plays only its moves of best line-potential \
         value (the heuristic's choice); auto: while all its moves this game, at least model_after, \
         were such; never with the pie rule",
    ),
    research(key(
        "model_after",
        "2",
        "0..=32",
        "model=auto: opponent placements, all of best value, before the opponent is modelled",
    )),
    key("threads", "1", "1..=256", "search threads"),
    key(
        "parallel",
        "tree",
        "tree|root",
        "shared tree (virtual loss) or one tree per thread",
    ),
    key(
        "max_nodes",
        "4000000",
        "128..=2147483648",
        "node bound (shared out among root-parallel trees); when full, leaves stop expanding",
    ),
    // The heuristic's weights, the keys shared with `heuristic` and
    // `alphabeta`; mcts's own defaults (`DEFAULT_WEIGHTS`).
    KeyInfo {
        default: "0.403497",
        ..EvalWeights::KEYS[0]
    },
    EvalWeights::KEYS[1],
    KeyInfo {
        default: "1.298178",
        ..EvalWeights::KEYS[2]
    },
];

/// An everyday key.
const fn key(
    key: &'static str,
    default: &'static str,
    accepts: &'static str,
    help: &'static str,
) -> KeyInfo {
    KeyInfo {
        key,
        default,
        accepts,
        help,
        research: false,
    }
}

/// A research option: `k` marked as one.
const fn research(k: KeyInfo) -> KeyInfo {
    KeyInfo {
        research: true,
        ..k
    }
}
