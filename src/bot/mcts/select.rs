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
use super::tree::{Children, Node, NodeId, Proof, REWARD_ONE, Tree};
use crate::game::outcome::MoveCode;

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
            k: if cfg.prunes() && cfg.widen > 0.0 {
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
    /// `map[mv]` the offset from it of the child with move `mv` (255:
    /// none).
    Ref {
        /// The ancestor's first child.
        first: NodeId,
        /// Move byte to offset among the ancestor's children.
        map: &'a [u8; MoveCode::COUNT],
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
            j => tree.node(first.sibling(j as u32)),
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
        (false, false, false, false) => {
            scan::<false, false, false, false, SCAN_LANES>(tree, node, p, src)
        }
        (false, false, false, true) => {
            scan::<false, false, false, true, SCAN_LANES>(tree, node, p, src)
        }
        (false, false, true, false) => {
            scan::<false, false, true, false, SCAN_LANES>(tree, node, p, src)
        }
        (false, false, true, true) => {
            scan::<false, false, true, true, SCAN_LANES>(tree, node, p, src)
        }
        (false, true, false, false) => {
            scan::<false, true, false, false, SCAN_LANES>(tree, node, p, src)
        }
        (false, true, false, true) => {
            scan::<false, true, false, true, SCAN_LANES>(tree, node, p, src)
        }
        (false, true, true, false) => {
            scan::<false, true, true, false, SCAN_LANES>(tree, node, p, src)
        }
        (false, true, true, true) => {
            scan::<false, true, true, true, SCAN_LANES>(tree, node, p, src)
        }
        (true, false, false, false) => {
            scan::<true, false, false, false, SCAN_LANES>(tree, node, p, src)
        }
        (true, false, false, true) => {
            scan::<true, false, false, true, SCAN_LANES>(tree, node, p, src)
        }
        (true, false, true, false) => {
            scan::<true, false, true, false, SCAN_LANES>(tree, node, p, src)
        }
        (true, false, true, true) => {
            scan::<true, false, true, true, SCAN_LANES>(tree, node, p, src)
        }
        (true, true, false, false) => {
            scan::<true, true, false, false, SCAN_LANES>(tree, node, p, src)
        }
        (true, true, false, true) => {
            scan::<true, true, false, true, SCAN_LANES>(tree, node, p, src)
        }
        (true, true, true, false) => {
            scan::<true, true, true, false, SCAN_LANES>(tree, node, p, src)
        }
        (true, true, true, true) => scan::<true, true, true, true, SCAN_LANES>(tree, node, p, src),
    }
}

/// The children a scan of `node` looks at and the exploration term's
/// factor `c * sqrt(ln N)`.
#[inline(always)]
fn span(t: &Tables, node: &Node, p: &SelectParams) -> (Children, f32) {
    let mut children = node.children();
    let parent = node.visits().max(1) as usize;
    if p.k > 0 {
        let extra = ((1.0 + parent as f32 / 50.0).ln() * p.unprune_rate) as u32;
        children = children.take(p.k + extra);
    }
    let sqrt_ln = if parent < TABLE {
        t.sqrt_ln[parent]
    } else {
        (parent as f32).ln().sqrt()
    };
    (children, p.c * sqrt_ln)
}

/// `(1/n, 1/sqrt(n))` of a visited child, from the table when it is small.
#[inline(always)]
fn inverses(t: &Tables, visits: u32) -> (f32, f32) {
    if (visits as usize) < TABLE {
        t.inv[visits as usize]
    } else {
        let inv = 1.0 / visits as f32;
        (inv, inv.sqrt())
    }
}

/// What selection makes of one child.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Seen {
    /// A proven win for the chooser: taken at once.
    Win,
    /// A proven loss: never taken.
    Skip,
    /// Its score.
    Score(f32),
}

/// The score of child `ch` (see the module's formula); `explore` is
/// `c * sqrt(ln N)` of its parent.
#[inline(always)]
fn child_score<const AMAF: bool, const SOLVER: bool, const PRIOR: bool, const MINIMAX: bool>(
    tree: &Tree,
    t: &Tables,
    ch: &Node,
    p: &SelectParams,
    src: AmafSource<'_>,
    explore: f32,
) -> Seen {
    let proof = if SOLVER { ch.proof() } else { Proof::Unknown };
    if SOLVER {
        match proof {
            Proof::Win => return Seen::Win,
            Proof::Loss => return Seen::Skip,
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
        let (inv, inv_sqrt) = inverses(t, visits);
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
    Seen::Score(score)
}

/// Children a scan takes at a step (see [`scan`]): four ran faster than
/// two and as fast as eight (`experiments/speed/`).
const SCAN_LANES: usize = 4;

/// The child of `node` to follow: the first of the best scores, or the
/// first proven win. Children are scored `LANES` at a time ([`SCAN_LANES`]
/// in the search; one lane is the plain scan in order, which the tests
/// hold the lanes to).
#[inline(always)]
fn scan<
    const AMAF: bool,
    const SOLVER: bool,
    const PRIOR: bool,
    const MINIMAX: bool,
    const LANES: usize,
>(
    tree: &Tree,
    node: &Node,
    p: &SelectParams,
    src: AmafSource<'_>,
) -> NodeId {
    let t: &Tables = &TABLES;
    let (children, explore) = span(t, node, p);
    // Children are taken LANES at a time, each lane keeping its own best:
    // the running maximum is then several short chains of comparisons,
    // not one long chain that every child waits on. The lanes' bests are
    // merged with ties to the lower offset, so the child chosen is the
    // first best one, as in a plain scan in order. Offsets stay plain
    // numbers in the loop; the one chosen becomes an id at the end.
    let mut best = [f32::NEG_INFINITY; LANES];
    let mut at = [0u32; LANES];
    let mut visit = |l: usize, i: u32, ch: &Node| -> Option<u32> {
        match child_score::<AMAF, SOLVER, PRIOR, MINIMAX>(tree, t, ch, p, src, explore) {
            Seen::Win => return Some(i),
            Seen::Skip => {}
            Seen::Score(score) => {
                if score > best[l] {
                    best[l] = score;
                    at[l] = i;
                }
            }
        }
        None
    };
    let mut groups = tree.nodes(children).chunks_exact(LANES);
    let mut base = 0;
    for group in &mut groups {
        for (l, ch) in group.iter().enumerate() {
            if let Some(win) = visit(l, base + l as u32, ch) {
                return children.nth(win);
            }
        }
        base += LANES as u32;
    }
    for (l, ch) in groups.remainder().iter().enumerate() {
        if let Some(win) = visit(l, base + l as u32, ch) {
            return children.nth(win);
        }
    }
    let mut pick = 0;
    for l in 1..LANES {
        if best[l] > best[pick] || (best[l] == best[pick] && at[l] < at[pick]) {
            pick = l;
        }
    }
    children.nth(at[pick])
}

/// Records in `map` which child of `node` plays each move, for GRAVE, as
/// its offset from the first child, which it returns.
pub fn fill_map(tree: &Tree, node: &Node, map: &mut [u8; MoveCode::COUNT]) -> NodeId {
    map.fill(255);
    let children = node.children();
    for (i, c) in children.ids().enumerate() {
        map[tree.node(c).node_move().index()] = i as u8;
    }
    children.first()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::mcts::tree::{OwnedTree, TreeView};
    use crate::game::rng::FastRng;
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
        let moves: Vec<(MoveCode, f32)> = (0..3)
            .map(|i| (MoveCode::place(Square::from_index_unchecked(i)), 0.0))
            .collect();
        assert!(t.expand(NodeId::ROOT, &moves, None));
        let p = params();
        let w = OwnedTree::new(&mut t);
        let root = w.root();
        w.add_visits(root, 30);
        let kids = root.children();
        for (ch, wins) in w.nodes(kids).iter().zip([2u64, 8, 5]) {
            w.add_visits(ch, 10);
            w.add_value(ch, wins * REWARD_ONE);
        }
        assert_eq!(select_child(&w, root, &p, AmafSource::Own), kids.nth(1));
        w.set_proof(w.node(kids.nth(1)), Proof::Loss);
        assert_eq!(select_child(&w, root, &p, AmafSource::Own), kids.nth(2));
        w.set_proof(w.node(kids.nth(0)), Proof::Win);
        assert_eq!(select_child(&w, root, &p, AmafSource::Own), kids.nth(0));
    }

    /// A root with 1 to 49 children whose statistics come from few
    /// values, so that ties between children are common.
    fn random_tree(rng: &mut FastRng) -> Tree {
        let mut t = Tree::new();
        t.reset(64);
        let n = 1 + rng.below(49);
        let moves: Vec<(MoveCode, f32)> = (0..n)
            .map(|i| {
                let prior = rng.below(3) as f32 / 2.0;
                (
                    MoveCode::place(Square::from_index_unchecked(i as u8)),
                    prior,
                )
            })
            .collect();
        assert!(t.expand(NodeId::ROOT, &moves, None));
        let w = OwnedTree::new(&mut t);
        w.add_visits(w.root(), [1, 40, 900, 5000][rng.below(4) as usize]);
        for ch in w.nodes(w.root().children()) {
            let visits = [0, 1, 2, 4, 1500][rng.below(5) as usize];
            w.add_visits(ch, visits);
            w.add_value(ch, visits as u64 * rng.below(5) as u64 * REWARD_ONE / 4);
            for _ in 0..rng.below(3) {
                w.add_amaf(ch, rng.below(2) as u64 * REWARD_ONE);
            }
            w.set_minimax(ch, rng.below(3) as f32 / 2.0);
            w.set_proof(
                ch,
                match rng.below(12) {
                    0 => Proof::Win,
                    1 | 2 => Proof::Loss,
                    3 => Proof::Draw,
                    _ => Proof::Unknown,
                },
            );
        }
        t
    }

    /// `scan`, lanes and all, against the scan in order (one lane), on one
    /// tree with both AMAF sources.
    fn agrees<const A: bool, const S: bool, const P: bool, const M: bool>(
        t: &Tree,
        p: &SelectParams,
    ) {
        let root = t.root();
        let mut map = [255; MoveCode::COUNT];
        let first = fill_map(t, root, &mut map);
        for src in [AmafSource::Own, AmafSource::Ref { first, map: &map }] {
            assert_eq!(
                scan::<A, S, P, M, SCAN_LANES>(t, root, p, src),
                scan::<A, S, P, M, 1>(t, root, p, src),
                "features amaf={A} solver={S} prior={P} minimax={M}, {p:?}"
            );
        }
    }

    #[test]
    fn lanes_choose_the_child_a_scan_in_order_chooses() {
        let mut rng = FastRng::new(11);
        for round in 0..3000 {
            let t = random_tree(&mut rng);
            let p = SelectParams {
                c: [0.0, 0.2, 1.0][rng.below(3) as usize],
                fpu: [0.0, 0.5, 10.0][rng.below(3) as usize],
                bias: 0.01,
                pw: 0.5,
                minimax: 0.25,
                fold: round % 2 == 0,
                k: [0, 3][rng.below(2) as usize],
                unprune_rate: 1.0,
                ..params()
            };
            agrees::<false, false, false, false>(&t, &p);
            agrees::<false, false, false, true>(&t, &p);
            agrees::<false, false, true, false>(&t, &p);
            agrees::<false, false, true, true>(&t, &p);
            agrees::<false, true, false, false>(&t, &p);
            agrees::<false, true, false, true>(&t, &p);
            agrees::<false, true, true, false>(&t, &p);
            agrees::<false, true, true, true>(&t, &p);
            agrees::<true, false, false, false>(&t, &p);
            agrees::<true, false, false, true>(&t, &p);
            agrees::<true, false, true, false>(&t, &p);
            agrees::<true, false, true, true>(&t, &p);
            agrees::<true, true, false, false>(&t, &p);
            agrees::<true, true, false, true>(&t, &p);
            agrees::<true, true, true, false>(&t, &p);
            agrees::<true, true, true, true>(&t, &p);
        }
    }
}
