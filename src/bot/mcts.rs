//! `mcts`: Monte Carlo tree search, serial and parallel.
//!
//! UCT (Kocsis and Szepesvári 2006) with the enhancements the literature
//! names for placement games: RAVE/GRAVE, progressive bias or pruning by
//! a one-ply heuristic, margin-shaped rewards, MCTS-Solver with exact
//! endgames, tree reuse, and tree or root parallelism, and a model of an
//! opponent that plays the heuristic's moves (`model=`). Keys and defaults
//! are in [`config`]; the search steps in `search.rs`; the concurrency
//! contract at the top of `parallel.rs`.
//!
//! # The policy-value network (`prior=pv`, `mix=`)
//! AlphaGo's hybrid (Silver et al. 2016), the default engine since it
//! passed the gate (`experiments/learned-search/`): playouts stay, and
//! the network of `zero` (`pvnet=`) adds what it knows. `prior=pv` ranks a node's
//! children by its policy (each legal move's probability over the
//! best's) for progressive unpruning and bias, as `prune` does with the
//! heuristic's values. `mix=lambda` backs up `(1 - lambda) * playout +
//! lambda * v` from each simulated leaf, `v` the network's value of the
//! leaf's parent (the deepest node it evaluated) as White's reward
//! `(1 + v) / 2` (negated for Black); exact leaves keep their result. The
//! network runs once per node, at its expansion (`expand=` spaces the
//! evaluations out), with any number of threads; `search/pv.rs` has the
//! details.
//!
//! # The pie rule
//! When the side to move may swap, the swap is one more root child
//! ([`MoveCode::SWAP`](crate::game::outcome::MoveCode::SWAP), placed first with the top prior so that
//! pruning never hides it). Its position is the same board with the
//! same colour to move; what changes is that the chooser now owns White.
//! Node statistics are kept from the view of the owner of the colour
//! *not* to move, and rewards are given per colour, so the swap child's
//! value is automatically "White's prospects with Black to move", which
//! is exactly what swapping buys; search decides between it and every
//! placement like between any two moves.
//!
//! One step up, the first stone's statistics are likewise White's
//! prospects after it, swap or not. But the first player keeps White only
//! if the second player does not swap, and the second player swaps
//! exactly when White's side is the better one. So at the empty board
//! selection and the final choice fold each child's value `q` to
//! `min(q, 1 - q)` (`SelectParams::fold`): the first player looks for the
//! stone that leaves both sides alike, not the best stone it would keep.
//! Every visit through the stone estimates `q`, so the fold needs no
//! converged choice below it.

pub mod config;

mod endgame;
mod model;
mod parallel;
mod rollout;
mod root;
mod search;
mod select;
mod tree;

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use self::config::{Budget, MctsConfig, Parallel};
use self::search::Root;
use self::tree::{NodeId, NodeState, Proof};
use super::clock::Clock;
use super::spec::{BotKind, Params, SpecError};
use super::{Bot, BotFault, SearchInfo};
use crate::eval::EvalWeights;
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::solve::SolveLimits;

pub use config::KEYS;
pub use root::{RootMove, SearchReport};
pub use tree::{Padded, Tree};

use self::endgame::ExactStep;
use self::model::modelled_colour;
use self::root::{choose, principal_variation};

/// Longest principal variation reported.
const PV_LEN: usize = 12;

/// Nodes of a time-budgeted search's first arena (a few MiB, set up in
/// about a millisecond); it doubles as the search fills it.
const FIRST_ARENA: u32 = 1 << 16;
/// A time budget's part for the root proof (`prove=`): one part in this
/// many.
const PROVE_SHARE: u64 = 8;
/// Root children listed in reports.
const TOP: usize = 5;

/// The MCTS player.
#[derive(Debug)]
pub struct MctsBot {
    name: String,
    cfg: MctsConfig,
    seed: u64,
    trees: Vec<Tree>,
    solver: Option<Box<crate::solve::Solver>>,
    /// The game (start and moves) the trees' roots stand for, and the
    /// colour their search modelled.
    rooted: Option<(Position, Vec<Move>, Option<Player>)>,
    report: Option<SearchReport>,
    /// The search threads besides the caller's when `threads > 1`, kept
    /// between moves: starting threads for every search cost up to a few
    /// milliseconds each, a large share of a short time budget, and left
    /// their caches cold.
    pool: Option<rayon::ThreadPool>,
    /// The clock of a clocked game, shown before each move: while set,
    /// the move's budget is its share of the clock, not `cfg.budget`.
    clock: Option<Clock>,
}

impl MctsBot {
    /// A bot called `name` with configuration `cfg` and random seed `seed`.
    /// Allocates nothing until its first move.
    pub fn new(name: impl Into<String>, cfg: MctsConfig, seed: u64) -> MctsBot {
        MctsBot {
            name: name.into(),
            cfg,
            seed,
            trees: Vec::new(),
            solver: None,
            rooted: None,
            report: None,
            pool: None,
            clock: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MctsConfig {
        &self.cfg
    }

    /// What the last search did.
    pub fn report(&self) -> Option<&SearchReport> {
        self.report.as_ref()
    }

    /// Searches `game`'s position and returns the chosen move.
    ///
    /// # Errors
    /// [`BotFault::Illegal`] if the game is over.
    pub fn search(&mut self, game: &Game) -> Result<Move, BotFault> {
        let pos = *game.position();
        if pos.is_game_over() {
            return Err(BotFault::Illegal("the game is over".into()));
        }
        let started = Instant::now();
        // Step 1: with few squares left, the exact search decides which
        // moves keep the game-theoretic result.
        let (keep, exact_margin) = match self.exact_moves(&pos) {
            ExactStep::Decided(mv) => return Ok(mv),
            ExactStep::Search { keep, margin } => (keep, margin),
        };
        // A result-only proof follows the search (step 5) where the exact
        // search above did not decide.
        let prove = keep.is_none() && endgame::proves(&pos, &self.cfg);
        // Step 2: budget and trees.
        let k = match self.cfg.parallel {
            Parallel::Root => self.cfg.threads,
            Parallel::Tree => 1,
        };
        let budget = self.move_budget(&pos);
        let iters = match budget {
            Budget::Iters(n) => n,
            Budget::Millis(_) => u64::MAX,
        };
        let cap = self.node_limit((iters / k as u64).saturating_add(1), k);
        // The arena starts small (or at what earlier moves grew it to) and
        // grows while the search runs (`parallel::run_tree`), up to the
        // bound: a time budget is wall time for the whole move, setup
        // included, so filling memory the search may never use would eat
        // it, and an iteration budget's bound is what its iterations could
        // use at most, far more than they do. Growth never changes what a
        // search computes (see `Tree::nearly_full`).
        let have = self.trees.first().map_or(0, Tree::capacity);
        let limit = have.max(FIRST_ARENA).min(cap);
        self.trees.resize_with(k, Tree::new);
        let modelled = modelled_colour(game, &self.cfg);
        let reused = self.prepare_trees(game, limit, modelled);
        if self.cfg.threads > 1 && self.pool.is_none() {
            self.pool = parallel::pool_for(self.cfg.threads);
        }
        let (deadline, prove_limits) = self.deadlines(budget, started, prove);
        // Step 3: search.
        let seed = derive_seed(self.seed, &[game.moves().len() as u64]);
        let req = parallel::SearchRequest {
            cfg: &self.cfg,
            root: Root { pos, modelled },
            iters,
            deadline,
            seed,
            threads: self.cfg.threads,
            pool: self.pool.as_ref(),
            grow_to: cap,
            early: self.clock.is_some() && self.cfg.early,
        };
        let run = match self.cfg.parallel {
            Parallel::Root if k > 1 => parallel::run_root(&mut self.trees, &req),
            _ => parallel::run_tree(&mut self.trees[0], &req),
        };
        // Step 4: choose.
        let moves = self.candidate_moves(&pos, keep.as_deref());
        let Some(mut chosen) = choose(&moves, self.cfg.r#final) else {
            return fallback(&pos, &self.cfg.weights);
        };
        // Step 5: the first move in the search's order that keeps the
        // root's game-theoretic result, where the proof finishes in time.
        let mut proven = None;
        if prove && let Some((mv, sign)) = self.prove_move(&pos, &moves, chosen, &prove_limits) {
            chosen = mv;
            proven = Some(sign);
        }
        let mut pv = vec![chosen];
        if let Some(c) = self.trees[0].child_by_move(NodeId::ROOT, chosen) {
            principal_variation(&self.trees[0], c, &mut pv);
        }
        self.report = Some(SearchReport {
            iterations: run.iterations,
            nodes: self.trees.iter().map(|t| t.used() as u64).sum(),
            depth: run.depth,
            moves,
            pv,
            exact_margin,
            exact_share: exact_margin.map(|m| endgame::exact_share(&pos, chosen, m)),
            proven,
            reused,
            modelled,
        });
        self.rooted = Some((*game.start(), game.moves().to_vec(), modelled));
        Ok(chosen)
    }

    /// The search's deadline and the root proof's limits. With a proof to
    /// follow, a time budget's last eighth is the proof's: half of it made
    /// the engine weaker at equal time on 7x7, where proofs from 22
    /// squares seldom finish (`experiments/perfect-play-5x5/`).
    fn deadlines(
        &self,
        budget: Budget,
        started: Instant,
        prove: bool,
    ) -> (Option<Instant>, SolveLimits) {
        match budget {
            Budget::Iters(n) => (
                None,
                SolveLimits {
                    max_nodes: Some(n.saturating_mul(self.cfg.prove_nodes)),
                    ..Default::default()
                },
            ),
            Budget::Millis(ms) => {
                let end = started + Duration::from_millis(ms);
                let search_ms = if prove { ms - ms / PROVE_SHARE } else { ms };
                (
                    Some(started + Duration::from_millis(search_ms)),
                    SolveLimits {
                        deadline: Some(end),
                        ..Default::default()
                    },
                )
            }
        }
    }

    /// This move's budget: its share of the clock in a clocked game
    /// ([`Clock::allot`] by `alloc=`), else the spec's.
    fn move_budget(&self, pos: &Position) -> Budget {
        match self.clock {
            Some(c) => {
                let ms = c.allot(pos, self.cfg.alloc, self.cfg.exact).as_millis() as u64;
                Budget::Millis(ms.max(1))
            }
            None => self.cfg.budget,
        }
    }

    /// The root moves to choose from: all the trees' root children, or
    /// with `keep` (the exact search's result-keeping moves, the
    /// margin-best first) only those of them, the first at least.
    fn candidate_moves(&self, pos: &Position, keep: Option<&[Move]>) -> Vec<RootMove> {
        let mut moves = self.root_moves(pos.swap_follows());
        if let Some(keep) = keep {
            moves.retain(|m| keep.contains(&m.mv) && m.proof != Proof::Loss);
            if moves.is_empty() {
                moves.push(RootMove {
                    mv: keep[0],
                    visits: 0,
                    mean: 0.0,
                    proof: Proof::Unknown,
                });
            }
        }
        moves
    }

    /// Nodes each of `k` trees may use for `iters` iterations: an
    /// expansion needs `expand` leaf visits and adds at most 65 nodes.
    fn node_limit(&self, iters: u64, k: usize) -> u32 {
        let cap = (self.cfg.max_nodes as u64 / k as u64).max(128);
        let need = (iters / self.cfg.expand as u64)
            .saturating_add(2)
            .saturating_mul(66);
        cap.min(need) as u32
    }

    /// Keeps the subtree of the current position when `reuse` is on and
    /// the game continues the one searched last; clears the trees
    /// otherwise. Returns whether a subtree was kept.
    ///
    /// A tree that modelled a colour holds only that colour's modelled
    /// moves at its nodes, so it is kept only for a search that models the
    /// same colour: one bot that plays both sides (the engine server's)
    /// would otherwise search its own moves among the model's.
    fn prepare_trees(&mut self, game: &Game, limit: u32, modelled: Option<Player>) -> bool {
        let k = self.trees.len().max(1);
        let path = match (&self.rooted, self.cfg.reuse) {
            (Some((start, moves, before)), true)
                if start == game.start()
                    && (before.is_none() || *before == modelled)
                    && game.moves().len() >= moves.len()
                    && game.moves()[..moves.len()] == moves[..] =>
            {
                Some(&game.moves()[moves.len()..])
            }
            _ => None,
        };
        let mut kept = path.is_some();
        if let Some(path) = path {
            let targets: Option<Vec<NodeId>> = self
                .trees
                .iter()
                .map(|t| {
                    path.iter()
                        .try_fold(NodeId::ROOT, |id, &mv| t.child_by_move(id, mv))
                })
                .collect();
            match targets {
                Some(ids) => {
                    for (t, id) in self.trees.iter_mut().zip(ids) {
                        t.keep_subtree(id);
                        // Room for this search's growth on top of what was
                        // kept, within the memory bound.
                        let cap = (self.cfg.max_nodes as u64 / k as u64).max(128);
                        t.ensure((t.used() as u64 + limit as u64).min(cap) as u32);
                    }
                }
                None => kept = false,
            }
        }
        if !kept {
            for t in &mut self.trees {
                t.reset(limit);
            }
        }
        kept
    }

    /// Root children of every tree, merged by move, most visited first;
    /// with `fold` (the first stone under the pie rule), each mean is what
    /// the first player keeps after the second player's choice.
    fn root_moves(&self, fold: bool) -> Vec<RootMove> {
        let mut out: Vec<(Move, u64, f64, Proof)> = Vec::new();
        for t in &self.trees {
            let root = t.root();
            if root.state() != NodeState::Expanded {
                continue;
            }
            for ch in t.nodes(root.children()) {
                let (mv, v) = (ch.mv(), ch.visits() as u64);
                let sum = ch.mean().unwrap_or(0.0) * v as f64;
                match out.iter_mut().find(|e| e.0 == mv) {
                    Some(e) => {
                        e.1 += v;
                        e.2 += sum;
                        e.3 = e.3.max(ch.proof());
                    }
                    None => out.push((mv, v, sum, ch.proof())),
                }
            }
        }
        let mut moves: Vec<RootMove> = out
            .into_iter()
            .map(|(mv, visits, sum, proof)| RootMove {
                mv,
                visits,
                mean: match (visits, fold) {
                    (0, _) => 0.0,
                    (_, false) => sum / visits as f64,
                    (_, true) => (sum / visits as f64).min(1.0 - sum / visits as f64),
                },
                proof,
            })
            .collect();
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.mean.total_cmp(&a.mean)));
        moves
    }
}

/// The move when no tree could be grown (cannot happen with the minimum
/// `max_nodes`): the best one-ply move.
fn fallback(pos: &Position, w: &EvalWeights) -> Result<Move, BotFault> {
    pos.empty()
        .max_by_key(|&sq| crate::eval::move_value(pos, sq, w))
        .map(Move::Place)
        .ok_or_else(|| BotFault::Illegal("no free square".into()))
}

impl Bot for MctsBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        self.search(game)
    }

    fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    fn last_search(&self) -> Option<SearchInfo> {
        let r = self.report.as_ref()?;
        let mut extra = format!("iters={}", r.iterations);
        if let Some(m) = r.exact_margin {
            let _ = write!(extra, " exact_margin={}", m as f64 / 2.0);
        }
        if let Some(sign) = r.proven {
            let _ = write!(
                extra,
                " proven={}",
                ["loss", "draw", "win"][(sign + 1) as usize]
            );
        }
        if let Some(p) = r.modelled {
            // Its values are the model's: the opponent's best replies
            // are assumed to be the heuristic's.
            let _ = write!(extra, " model={p}");
        }
        if !r.moves.is_empty() {
            extra.push_str(" top=");
            for (i, m) in r.moves.iter().take(TOP).enumerate() {
                let sep = if i > 0 { "," } else { "" };
                let proof = match m.proof {
                    Proof::Unknown => "",
                    Proof::Win => "!win",
                    Proof::Loss => "!loss",
                    Proof::Draw => "!draw",
                };
                let _ = write!(extra, "{sep}{}:{}:{:.3}{proof}", m.mv, m.visits, m.mean);
            }
        }
        // The top move's mean reward, where the search visited it (a move
        // the exact search kept but the tree never reached has none).
        let mean = r.moves.first().filter(|m| m.visits > 0).map(|m| m.mean);
        Some(SearchInfo {
            nodes: r.nodes,
            depth: r.depth,
            eval: mean,
            // A mean reward is the mover's share of the score; a result
            // proven by the root proof or the exact endgame search is worth
            // its points (the top move's mean is then no estimate of it).
            expect: match (r.proven, r.exact_share) {
                (Some(sign), _) => Some(f64::from(sign + 1) / 2.0),
                (None, Some(share)) => Some(share),
                (None, None) => mean,
            },
            pv: r.pv.clone(),
            extra,
        })
    }

    fn is_timed(&self) -> bool {
        matches!(self.cfg.budget, Budget::Millis(_)) || self.clock.is_some()
    }

    fn is_replayable(&self) -> bool {
        // Threads sharing one tree race for its statistics.
        !self.is_timed() && (self.cfg.threads == 1 || self.cfg.parallel == config::Parallel::Root)
    }
}

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "mcts",
    summary: "Monte Carlo tree search: UCT with heuristic or learned-network leaves and progressive unpruning, RAVE/GRAVE, MCTS-Solver and exact endgames, tree reuse, tree/root parallelism, an opponent model",
    keys: KEYS,
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        let cfg = MctsConfig::from_params(params)?;
        Ok(Box::new(MctsBot::new(params.label(), cfg, seed)))
    },
};
