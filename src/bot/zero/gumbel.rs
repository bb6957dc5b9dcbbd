//! Gumbel root search (`root=gumbel`): the root of Danihelka et al.
//! 2022, "Policy improvement by planning with Gumbel" (mctx's
//! `gumbel_muzero_policy`), over the PUCT tree below the root.
//!
//! # The search
//! - **Gumbel-Top-k**: each legal root move `a` draws `g(a) ~ Gumbel(0, 1)`
//!   from the bot's stream for this ply (its seed's); the `m` moves of largest
//!   `g(a) + logits(a)` are the candidates. Sampling without replacement
//!   this way is what explores, so the Dirichlet noise and the moves drawn
//!   by visits (`noise=`, `explore=`) are not used.
//! - **Sequential halving**: `ceil(log2(m))` phases share the budget
//!   equally; in a phase the candidates share its simulations equally,
//!   each descending from its root child ([`PuctTree::force_root_child`])
//!   by the ordinary batched PUCT step below. After a phase the better
//!   half by `g(a) + logits(a) + sigma(q(a))` stays. A candidate gets at
//!   least one simulation a phase while the budget lasts; an `iters=`
//!   budget is never overrun, and one too small for every phase (under about
//!   `m * log2(m)`) cuts the halving short, the move then being the best
//!   of the most visited candidates left, as in mctx.
//! - **The move** is the last survivor: with the seed's Gumbel draw the
//!   same procedure serves self-play and match play.
//! - **The improved policy** (the self-play target) is
//!   `softmax(logits + sigma(completedQ))` over every legal move, where an
//!   unvisited move's value is the mixed value `v_mix` (mctx's
//!   `qtransform_completed_by_mix_value`).
//!
//! `sigma(q) = (c_visit + max_b N(b)) * c_scale * q`, with `q` taken from
//! the value head's `[-1, 1]` to `[0, 1]`. A logit is the log of the
//! network's prior (the softmax over the legal moves): a constant apart
//! from the raw logit, which neither the top-k nor a softmax sees.
//!
//! A time budget (`ms=`, `tc=`) is shared the same way, by time instead
//! of simulations: each phase gets an equal share of the time left, each
//! candidate an equal share of its phase's.

use std::time::Instant;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::search::{Evaluate, PuctNode, PuctTree, Settings, StepTotals};
use crate::bot::spec::{KeyInfo, key_values};
use crate::game::outcome::Move;
use crate::net::PvNet;
use crate::solve::Solver;

key_values! {
    /// How the root's move is searched (`root=`).
    pub enum RootSearch {
        /// PUCT at the root as below it; the most visited move.
        Puct = "puct",
        /// Gumbel-Top-k and sequential halving (this module).
        Gumbel = "gumbel",
    }
}

/// `root=`.
pub const ROOT: KeyInfo = KeyInfo::choice::<RootSearch>(
    "root",
    RootSearch::Puct.name(),
    "the root's search: PUCT, or Gumbel-Top-k with sequential halving (ignores noise= and explore=)",
)
.research();
/// Default of `m=`: 16, mctx's default `max_num_considered_actions`.
const DEFAULT_M: u64 = 16;
/// `m=`.
pub const M: KeyInfo = KeyInfo::int(
    "m",
    1,
    64,
    DEFAULT_M,
    "with root=gumbel: moves considered at the root (halved log2(m) times)",
)
.bare()
.research();

/// `c_visit` of `sigma`: the paper's and mctx's 50.
const C_VISIT: f32 = 50.0;
/// `c_scale` of `sigma`: the paper's and mctx's 1.0.
const C_SCALE: f32 = 1.0;

/// How much a Gumbel root search may spend.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    /// Simulations in all, those already done counted.
    Iters(u64),
    /// Until this instant.
    Until(Instant),
}

/// A draw of Gumbel(0, 1).
fn gumbel(rng: &mut ChaCha8Rng) -> f32 {
    let u: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    (-(-u.ln()).ln()) as f32
}

/// The log of a prior, finite for a prior that underflowed.
fn logit(c: &PuctNode) -> f32 {
    c.prior().max(f32::MIN_POSITIVE).ln()
}

/// The chooser's value of a root child in `[-1, 1]`: its proven result,
/// else its mean; `None` before a visit.
fn q(c: &PuctNode) -> Option<f32> {
    match c.proven() {
        Some(p) => Some(p.value()),
        None => (c.visits() > 0).then(|| c.mean()),
    }
}

/// `sigma` of a value in `[-1, 1]`, with `max_n` the most visits of a
/// root child.
fn sigma(q: f32, max_n: u32) -> f32 {
    (C_VISIT + max_n as f32) * C_SCALE * (q + 1.0) / 2.0
}

/// The completed values of the root's children: a visited child's own,
/// an unvisited one's the mixed value of the root's network value and
/// the prior-weighted mean of the visited children.
fn completed_q(tree: &PuctTree) -> Vec<f32> {
    let kids = tree.children(0);
    // A reused root was expanded below another: its mean, which mixes
    // its network value with its subtree's, stands in for the value.
    let raw = tree
        .root_value()
        .unwrap_or_else(|| tree.root().map_or(0.0, |r| -r.mean()));
    let (mut sum_n, mut sum_p, mut sum_pq) = (0f32, 0f32, 0f32);
    for c in kids {
        if let Some(v) = q(c) {
            sum_n += c.visits() as f32;
            sum_p += c.prior();
            sum_pq += c.prior() * v;
        }
    }
    let v_mix = if sum_p > 0.0 {
        (raw + sum_n * sum_pq / sum_p) / (1.0 + sum_n)
    } else {
        raw
    };
    kids.iter().map(|c| q(c).unwrap_or(v_mix)).collect()
}

/// The most visits of a root child.
fn max_visits(tree: &PuctTree) -> u32 {
    tree.children(0)
        .iter()
        .map(PuctNode::visits)
        .max()
        .unwrap_or(0)
}

/// The improved policy: `softmax(logits + sigma(completedQ))` over the
/// root's moves, in the tree's order (empty before the root's expansion).
pub fn improved_policy(tree: &PuctTree) -> Vec<(Move, f32)> {
    let kids = tree.children(0);
    let max_n = max_visits(tree);
    let scores: Vec<f32> = kids
        .iter()
        .zip(completed_q(tree))
        .map(|(c, v)| logit(c) + sigma(v, max_n))
        .collect();
    let top = scores.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exps: Vec<f32> = scores.iter().map(|s| (s - top).exp()).collect();
    let total: f32 = exps.iter().sum();
    kids.iter()
        .zip(exps)
        .map(|(c, e)| (c.mv(), e / total))
        .collect()
}

/// `ceil(log2(n))`: the phases of a halving from `n` candidates to one.
fn phases(n: usize) -> u32 {
    n.next_power_of_two().trailing_zeros()
}

/// The engine of the PUCT steps a candidate's simulations run on.
pub struct Steps<'a, 'e> {
    /// The network.
    pub net: &'a PvNet,
    /// The search's settings.
    pub settings: &'a Settings,
    /// The exact solver of the leaves.
    pub solver: &'a mut Solver,
    /// The network's evaluation of a batch.
    pub evaluate: &'a mut Evaluate<'e>,
}

/// Runs simulations through the root's child `c` until `limit`: exactly
/// `n` with [`Limit::Iters`] (batches cut to what is left), at least one
/// with [`Limit::Until`].
fn simulate(tree: &mut PuctTree, e: &mut Steps<'_, '_>, c: usize, limit: Limit) -> StepTotals {
    let mut out = StepTotals::default();
    tree.force_root_child(Some(c));
    match limit {
        Limit::Iters(n) => {
            while out.iterations < n && !crate::interrupt::requested() {
                let one = Settings {
                    batch: e.settings.batch.min((n - out.iterations) as usize).max(1),
                    ..*e.settings
                };
                let o = tree.run(e.net, &one, e.solver, e.evaluate, &mut |it| it == 0);
                out.add(&o);
                // A full tree or a proven root does no more.
                if o.iterations == 0 {
                    break;
                }
            }
        }
        Limit::Until(until) => {
            out = tree.run(e.net, e.settings, e.solver, e.evaluate, &mut |it| {
                it < 1 || (Instant::now() < until && !crate::interrupt::requested())
            });
        }
    }
    tree.force_root_child(None);
    out
}

/// Runs the Gumbel root search on `tree`, whose root is expanded, with
/// at most `m` candidates, until `limit` (`done` simulations already
/// spent). Returns the root child to play (an index into the root's
/// children) and what the search did. A root proven on the way stops
/// it; the caller then plays the proof.
///
/// A candidate gets at least one simulation a phase while the budget
/// lasts; a budget too small for every phase stops the halving early,
/// and the move is then the best of the most visited candidates left
/// (mctx's choice).
pub fn sequential_halving(
    tree: &mut PuctTree,
    e: &mut Steps<'_, '_>,
    m: usize,
    limit: Limit,
    done: u64,
    rng: &mut ChaCha8Rng,
) -> (usize, StepTotals) {
    let mut out = StepTotals::default();
    let kids = tree.children(0);
    let g: Vec<f32> = kids.iter().map(|_| gumbel(rng)).collect();
    let base: Vec<f32> = kids.iter().zip(&g).map(|(c, g)| g + logit(c)).collect();
    let mut cand: Vec<usize> = (0..kids.len()).collect();
    // Stable: equal scores keep the tree's order.
    cand.sort_by(|&a, &b| base[b].total_cmp(&base[a]));
    cand.truncate(m.max(1));
    let all = phases(cand.len());
    let score = |tree: &PuctTree, cand: &mut Vec<usize>| {
        let max_n = max_visits(tree);
        let cq = completed_q(tree);
        let score = |c: usize| base[c] + sigma(cq[c], max_n);
        cand.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
    };
    'phases: for p in 0..all {
        let phases_left = u64::from(all - p);
        let now = Instant::now();
        let phase = match limit {
            Limit::Iters(n) => Limit::Iters(n.saturating_sub(done + out.iterations) / phases_left),
            Limit::Until(d) => Limit::Until(now + d.saturating_duration_since(now) / (all - p)),
        };
        let mut spent = 0u64;
        for k in 0..cand.len() {
            let c = cand[k];
            if tree.children(0)[c].proven().is_some() {
                continue;
            }
            let share = (cand.len() - k) as u64;
            let left = match limit {
                Limit::Iters(total) => total.saturating_sub(done + out.iterations),
                Limit::Until(_) => u64::MAX,
            };
            if left == 0 || crate::interrupt::requested() {
                break 'phases;
            }
            let mine = match phase {
                Limit::Iters(n) => Limit::Iters((n.saturating_sub(spent) / share).clamp(1, left)),
                Limit::Until(end) => {
                    let now = Instant::now();
                    Limit::Until(now + end.saturating_duration_since(now) / share as u32)
                }
            };
            let o = simulate(tree, e, c, mine);
            spent += o.iterations;
            out.add(&o);
            if tree.root().and_then(PuctNode::proven).is_some() {
                return (cand[0], out);
            }
        }
        score(tree, &mut cand);
        cand.truncate(cand.len().div_ceil(2));
    }
    // The halving cut short: the best of the most visited left.
    score(tree, &mut cand);
    let kids = tree.children(0);
    let most = cand.iter().map(|&c| kids[c].visits()).max().unwrap_or(0);
    let pick = cand
        .iter()
        .copied()
        .find(|&c| kids[c].visits() == most)
        .unwrap_or(0);
    (pick, out)
}

#[cfg(test)]
mod tests {
    use super::super::search::{PuctTree, Settings, noise_rng};
    use super::super::{ZeroBot, ZeroConfig};
    use super::{Limit, PvNet, Solver, Steps, improved_policy, sequential_halving};
    use crate::bot::Bot;
    use crate::game::outcome::{Komi, Move};
    use crate::game::player::Player;
    use crate::game::position::Position;
    use crate::game::record::Game;
    use crate::game::square::Square;
    use crate::game::text::parse_boards;

    fn bot(spec: &str, seed: u64) -> ZeroBot {
        crate::bot::zero::tests::bot(spec, seed)
    }

    fn game(seed: u64, stones: u32) -> Game {
        crate::bot::zero::tests::game(seed, stones, false)
    }

    /// A tiny budget still gives a legal move, the same for the same
    /// seed, and an improved policy that shares one over the legal moves.
    #[test]
    fn a_tiny_budget_gives_a_legal_move_the_seed_repeats() {
        for (seed, stones) in [(1, 0), (2, 9), (3, 20)] {
            let g = game(seed, stones);
            let legal = g.position().legal_moves();
            let mut a = bot("zero:root=gumbel,iters=4,m=4", 7);
            let mut b = bot("zero:root=gumbel,iters=4,m=4", 7);
            let mv = a.search(&g).expect("move");
            assert!(matches!(mv, Move::Place(sq) if legal.contains(sq)), "{mv}");
            assert_eq!(b.search(&g), Ok(mv));
            let target = a.policy_target();
            assert_eq!(target, b.policy_target());
            assert_eq!(target.len() as u32, legal.count());
            assert!(
                target.iter().all(|&(m, p)| {
                    matches!(m, Move::Place(sq) if legal.contains(sq)) && p > 0.0
                })
            );
            let sum: f32 = target.iter().map(|t| t.1).sum();
            assert!((sum - 1.0).abs() < 1e-4, "{sum}");
            // The budget is kept: the root's expansion and three
            // simulations, the halving cut short.
            assert!(
                a.last_search().is_some_and(|i| i.nodes == 4),
                "{:?}",
                a.last_search()
            );
        }
    }

    /// Another seed draws other candidates: the Gumbel draw is the seed's.
    #[test]
    fn the_seed_draws_the_candidates() {
        let g = game(4, 3);
        let mut moves: Vec<_> = (0..12)
            .map(|seed| {
                bot("zero:root=gumbel,iters=2,m=2", seed)
                    .search(&g)
                    .expect("move")
            })
            .collect();
        moves.dedup();
        assert!(moves.len() > 1, "{moves:?}");
    }

    /// With a flat prior (the network's is sure of the move here) and the
    /// score's margin for a value, every move a candidate and budget
    /// enough, the halving keeps the move that completes a row of seven,
    /// and it leads the improved policy.
    #[test]
    fn the_winning_move_survives_a_flat_prior() {
        let b = &parse_boards("B.B.B.B\n.......\n.......\n.......\n.......\nB.B....\nWWW.WWW\n")
            .expect("board")[0];
        let pos = b.to_position(false, Komi::ZERO).expect("position");
        let win = Move::Place(Square::new(3, 0));
        let net = PvNet::builtin();
        let mut eval = |_: &PvNet, ps: &[Position], l: &mut [f32], v: &mut [f32]| {
            l.fill(0.0);
            for (p, v) in ps.iter().zip(v.iter_mut()) {
                let m = p.margin_halves() as f32 / 100.0;
                *v = if p.turn() == Player::White { m } else { -m }.tanh();
            }
        };
        let mut solver = Solver::new(1);
        let s = ZeroConfig::defaults().settings;
        for seed in 0..4 {
            let mut tree = PuctTree::new();
            tree.reset(pos);
            let one = Settings { batch: 1, ..s };
            tree.run(&net, &one, &mut solver, &mut eval, &mut |it| it < 1);
            assert!(
                tree.children(0)
                    .iter()
                    .all(|c| c.prior() == tree.children(0)[0].prior())
            );
            let mut rng = noise_rng(seed);
            let mut e = Steps {
                net: &net,
                settings: &s,
                solver: &mut solver,
                evaluate: &mut eval,
            };
            let (c, o) = sequential_halving(&mut tree, &mut e, 64, Limit::Iters(200), 1, &mut rng);
            assert_eq!(tree.children(0)[c].mv(), win, "seed {seed}");
            assert_eq!(o.iterations, 199);
            let target = improved_policy(&tree);
            let top = target
                .iter()
                .max_by(|a, b| a.1.total_cmp(&b.1))
                .map(|t| t.0);
            assert_eq!(top, Some(win), "{target:?}");
        }
    }

    /// Threads do not change the search, and a time budget gives a
    /// legal move.
    #[test]
    fn threads_do_not_change_it_and_a_time_budget_works() {
        let g = game(6, 5);
        let mut one = bot("zero:root=gumbel,iters=60,m=8,threads=1", 3);
        let mut two = bot("zero:root=gumbel,iters=60,m=8,threads=2", 3);
        assert_eq!(one.search(&g), two.search(&g));
        assert_eq!(one.policy_target(), two.policy_target());
        let mv = bot("zero:root=gumbel,ms=20", 3).search(&g).expect("move");
        assert!(matches!(mv, Move::Place(sq) if g.position().legal_moves().contains(sq)));
    }

    /// `root=puct`'s target is the visit shares.
    #[test]
    fn puct_s_target_is_the_visit_shares() {
        let g = game(5, 6);
        let mut z = bot("zero:iters=50", 1);
        z.search(&g).expect("move");
        let visits = z.root_visits();
        let total: u32 = visits.iter().map(|v| v.1).sum();
        let shares: Vec<_> = visits
            .iter()
            .map(|&(m, v)| (m, v as f32 / total as f32))
            .collect();
        assert_eq!(z.policy_target(), shares);
    }
}
