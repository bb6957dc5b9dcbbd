//! The tree policy: which child an iteration follows.
//!
//! A child's score is
//! `q + c * sqrt(ln N / n) + pw * h / (n + 1)` where `q` is its mean reward,
//! blended with AMAF as `q + beta * (q_amaf - q)`,
//! `beta = m / (m + n + bias * m * n)` (Gelly and Silver 2007; `m` AMAF
//! visits), and the last term is progressive bias (Chaslot et al. 2008)
//! by the heuristic value `h` in `[0, 1]`. A child with no visits scores
//! its AMAF mean plus the full exploration term when it has AMAF visits,
//! else `fpu`. With the solver on, a proven win is taken at once, a proven
//! loss never, and a proven draw counts as ½.

use super::config::{MctsConfig, Prior};
use super::tree::{Node, NodeId, NodeMove, Proof, REWARD_ONE, Tree};

/// The numbers selection needs, converted once per search.
#[derive(Copy, Clone, Debug)]
pub struct SelectParams {
    /// Exploration constant.
    pub c: f32,
    /// First-play urgency.
    pub fpu: f32,
    /// Whether AMAF statistics blend into `q`.
    pub amaf: bool,
    /// RAVE bias.
    pub bias: f32,
    /// Progressive-bias weight (0 when off).
    pub pw: f32,
    /// Whether proofs steer selection.
    pub solver: bool,
    /// Implicit minimax weight.
    pub minimax: f32,
    /// The `k` key where progressive unpruning is on (`prior=prune` and
    /// `widen` above 0): children visible at first; 0 otherwise (all).
    pub k: u32,
    /// `1 / ln(widen)`.
    pub unprune_rate: f32,
    /// Fold each child's value to `min(q, 1 - q)`: at the empty board under
    /// the pie rule, where a child's value is White's prospects after the
    /// first stone and the second player will take whichever side is
    /// better (see `mcts.rs`, the pie rule).
    pub fold: bool,
}

impl SelectParams {
    /// From a configuration.
    pub fn new(cfg: &MctsConfig) -> SelectParams {
        SelectParams {
            c: cfg.c,
            fpu: cfg.fpu,
            amaf: cfg.uses_amaf(),
            bias: cfg.bias,
            pw: if cfg.prior == Prior::Off { 0.0 } else { cfg.pw },
            solver: cfg.solver,
            minimax: cfg.minimax,
            k: if cfg.prior == Prior::Prune && cfg.widen > 0.0 {
                cfg.k
            } else {
                0
            },
            unprune_rate: if cfg.widen > 0.0 {
                1.0 / cfg.widen.ln()
            } else {
                0.0
            },
            fold: false,
        }
    }
}

/// Where a node's children find their AMAF statistics.
#[derive(Copy, Clone, Debug)]
pub enum AmafSource<'a> {
    /// In the children themselves (RAVE, or GRAVE at a node with enough
    /// visits).
    Own,
    /// In the children of an ancestor: `first` is its first child and
    /// `map[mv]` the index of the child with move `mv` (255: none).
    Ref {
        /// The ancestor's first child.
        first: u32,
        /// Move byte to child index.
        map: &'a [u8; NodeMove::COUNT],
    },
}

const INV_ONE: f32 = 1.0 / REWARD_ONE as f32;

/// Entries of the small-count tables.
const TABLE: usize = 1024;

/// `1/n`, `1/sqrt(n)` and `sqrt(ln n)` for small counts: selection needs
/// them for every child at every level, and below about a thousand visits
/// (most nodes) a table load replaces a division and a square root.
struct Tables {
    /// `(1/n, 1/sqrt(n))` side by side: one load for both.
    inv: [(f32, f32); TABLE],
    sqrt_ln: [f32; TABLE],
}

static TABLES: std::sync::LazyLock<Box<Tables>> = std::sync::LazyLock::new(|| {
    let mut t = Box::new(Tables {
        inv: [(0.0, 0.0); TABLE],
        sqrt_ln: [0.0; TABLE],
    });
    for n in 1..TABLE {
        let f = n as f32;
        t.inv[n] = (1.0 / f, 1.0 / f.sqrt());
        t.sqrt_ln[n] = f.ln().sqrt();
    }
    t
});

/// A reward sum as a float. Sums stay below 2^48 (see [`REWARD_ONE`]), so
/// going through `i64` gives the same float as from `u64`, in one
/// instruction instead of the several an unsigned conversion takes.
#[inline(always)]
fn fixed(sum: u64) -> f32 {
    debug_assert!(sum < 1 << 62);
    sum as i64 as f32
}

/// AMAF visits and value sum of the child `ch` under `src`.
#[inline(always)]
fn amaf<'t>(tree: &'t Tree, ch: &'t Node, src: AmafSource<'_>) -> (u32, u64) {
    let n = match src {
        AmafSource::Own => ch,
        AmafSource::Ref { first, map } => match map[ch.node_move().index()] {
            255 => return (0, 0),
            j => tree.node(NodeId(first + j as u32)),
        },
    };
    n.amaf()
}

/// The child of EXPANDED `node` to follow.
#[inline]
pub fn select_child(tree: &Tree, node: &Node, p: &SelectParams, src: AmafSource<'_>) -> NodeId {
    // One copy of the loop per feature set, so the plain-UCT loop carries
    // no tests for features that are off.
    match (p.amaf, p.solver, p.pw > 0.0, p.minimax > 0.0 || p.fold) {
        (false, false, false, false) => scan::<false, false, false, false>(tree, node, p, src),
        (false, false, false, true) => scan::<false, false, false, true>(tree, node, p, src),
        (false, false, true, false) => scan::<false, false, true, false>(tree, node, p, src),
        (false, false, true, true) => scan::<false, false, true, true>(tree, node, p, src),
        (false, true, false, false) => scan::<false, true, false, false>(tree, node, p, src),
        (false, true, false, true) => scan::<false, true, false, true>(tree, node, p, src),
        (false, true, true, false) => scan::<false, true, true, false>(tree, node, p, src),
        (false, true, true, true) => scan::<false, true, true, true>(tree, node, p, src),
        (true, false, false, false) => scan::<true, false, false, false>(tree, node, p, src),
        (true, false, false, true) => scan::<true, false, false, true>(tree, node, p, src),
        (true, false, true, false) => scan::<true, false, true, false>(tree, node, p, src),
        (true, false, true, true) => scan::<true, false, true, true>(tree, node, p, src),
        (true, true, false, false) => scan::<true, true, false, false>(tree, node, p, src),
        (true, true, false, true) => scan::<true, true, false, true>(tree, node, p, src),
        (true, true, true, false) => scan::<true, true, true, false>(tree, node, p, src),
        (true, true, true, true) => scan::<true, true, true, true>(tree, node, p, src),
    }
}

#[inline(always)]
fn scan<const AMAF: bool, const SOLVER: bool, const PRIOR: bool, const MINIMAX: bool>(
    tree: &Tree,
    node: &Node,
    p: &SelectParams,
    src: AmafSource<'_>,
) -> NodeId {
    let t: &Tables = &TABLES;
    let (first, mut n) = node.child_range();
    let parent = node.visits().max(1) as usize;
    if p.k > 0 {
        let extra = ((1.0 + parent as f32 / 50.0).ln() * p.unprune_rate) as u32;
        n = n.min(p.k + extra);
    }
    let sqrt_ln = if parent < TABLE {
        t.sqrt_ln[parent]
    } else {
        (parent as f32).ln().sqrt()
    };
    let explore = p.c * sqrt_ln;
    let mut best = f32::NEG_INFINITY;
    let mut best_id = first;
    for (ch, i) in tree.nodes(first, n).iter().zip(first..) {
        let proof = if SOLVER { ch.proof() } else { Proof::Unknown };
        if SOLVER {
            match proof {
                Proof::Win => return NodeId(i),
                Proof::Loss => continue,
                _ => {}
            }
        }
        let visits = ch.visits();
        let (m, mv) = if AMAF { amaf(tree, ch, src) } else { (0, 0) };
        let mut score = if visits == 0 {
            if AMAF && m > 0 {
                fixed(mv) * INV_ONE / m as f32 + explore
            } else {
                p.fpu
            }
        } else {
            let (inv, inv_sqrt) = if (visits as usize) < TABLE {
                t.inv[visits as usize]
            } else {
                let inv = 1.0 / visits as f32;
                (inv, inv.sqrt())
            };
            let mut q = fixed(ch.value_sum()) * INV_ONE * inv;
            if AMAF && m > 0 {
                let (mf, nf) = (m as f32, visits as f32);
                let beta = mf / (mf + nf + p.bias * mf * nf);
                q += beta * (fixed(mv) * INV_ONE / mf - q);
            }
            if MINIMAX {
                if p.minimax > 0.0 {
                    q += p.minimax * (ch.minimax() - q);
                }
                if p.fold {
                    q = q.min(1.0 - q);
                }
            }
            if SOLVER && proof == Proof::Draw {
                q = 0.5;
            }
            q + explore * inv_sqrt
        };
        if PRIOR {
            score += p.pw * ch.prior() / (visits + 1) as f32;
        }
        if score > best {
            best = score;
            best_id = i;
        }
    }
    NodeId(best_id)
}

/// Records in `map` which child of `node` plays each move, for GRAVE.
pub fn fill_map(tree: &Tree, node: &Node, map: &mut [u8; NodeMove::COUNT]) -> u32 {
    map.fill(255);
    let (first, n) = node.child_range();
    for i in 0..n {
        map[tree.node(NodeId(first + i)).node_move().index()] = i as u8;
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::square::Square;

    fn params() -> SelectParams {
        SelectParams {
            c: 0.5,
            fpu: 10.0,
            amaf: false,
            bias: 0.0,
            pw: 0.0,
            solver: true,
            minimax: 0.0,
            k: 0,
            unprune_rate: 0.0,
            fold: false,
        }
    }

    #[test]
    fn unvisited_first_then_best_mean_and_proofs() {
        let mut t = Tree::new();
        t.reset(16);
        let moves: Vec<(NodeMove, f32)> = (0..3)
            .map(|i| (NodeMove::place(Square::from_index_unchecked(i)), 0.0))
            .collect();
        assert!(t.expand(NodeId::ROOT, &moves, None));
        let p = params();
        let root = t.root();
        root.add_visits::<false>(30);
        for (i, wins) in [(1u32, 2u64), (2, 8), (3, 5)] {
            let ch = t.node(NodeId(i));
            ch.add_visits::<false>(10);
            ch.add_value::<false>(wins * REWARD_ONE);
        }
        assert_eq!(select_child(&t, root, &p, AmafSource::Own), NodeId(2));
        t.node(NodeId(2)).set_proof(Proof::Loss);
        assert_eq!(select_child(&t, root, &p, AmafSource::Own), NodeId(3));
        t.node(NodeId(1)).set_proof(Proof::Win);
        assert_eq!(select_child(&t, root, &p, AmafSource::Own), NodeId(1));
    }
}
