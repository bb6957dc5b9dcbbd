//! `zero`: PUCT search guided by a policy and value network, the search of
//! AlphaZero (Silver et al. 2018), on the network of [`crate::net`].
//!
//! # Why a bot of its own
//! `mcts`'s tree keeps what its playouts need (RAVE tables, progressive
//! bias, margin rewards, the opponent model), and its iteration is a hot
//! loop whose instruction count CI guards. PUCT needs other things in a
//! node (the network's prior, no playout at all) and spends nearly all its
//! time in the network. A mode of `mcts` would put branches for both into
//! one loop and slow the engine that is the default; a bot of its own
//! keeps each loop as simple as its method. What they share is below the
//! bots: the rules, the exact solver, the key declarations.
//!
//! # The search
//! - **PUCT**: a child is chosen by `Q + cpuct * P * sqrt(N) / (1 + n)`,
//!   `Q` its mean (unvisited: the parent's mean minus `fpu`), `P` the
//!   network's prior, `N` and `n` the parent's and the child's visits.
//! - **Leaves** are valued by the network alone: no playout.
//! - **Batches** (`batch=`) of leaves are evaluated together, spread over
//!   `threads=` threads, with virtual loss (`zero/search.rs` says how); the
//!   search is the same for any number of threads.
//! - **Exact endgame**: with at most `exact=` free squares a leaf's result
//!   is solved (win, draw or loss) and the root's move is the solver's.
//!   Proven results climb the tree as in MCTS-Solver.
//! - **Tree reuse** keeps the subtree of the moves played since the last
//!   search.
//! - **Self-play** settings: Dirichlet noise at the root (`noise=`,
//!   `alpha=`) and, for the first `explore=` plies of a game, a move drawn
//!   by visit share instead of the most visited.
//! - **Gumbel root** (`root=gumbel`, `m=`): the root's move by Gumbel-Top-k
//!   and sequential halving instead of PUCT, and an improved policy for
//!   self-play to learn (`zero/gumbel.rs`).
//! - **Score utility** (`score=`, off by default): the network's margin
//!   head blended into a leaf's value, KataGo's score utility; it did not
//!   pass its gate, so it stays an option.
//!
//! Defaults and their measurements: `experiments/learned-search/`.

pub mod gumbel;
pub mod search;
mod stepwise;
mod turn;

pub use self::gumbel::{M, ROOT, RootSearch};

use std::path::Path;
use std::sync::Arc;

use self::search::{PuctTree, Settings};
use super::clock::Clock;
use super::spec::{BotKind, KeyInfo, Params, SpecError, search_keys};
use super::{Bot, BotFault, SearchInfo};
use crate::game::outcome::Move;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::net::{PvNet, Scratch};
use crate::solve::Solver;
use crate::solve::endgame;

pub use super::spec::Budget;

/// Everything a `zero` bot is set to.
#[derive(Clone, Debug)]
pub struct ZeroConfig {
    /// The network, shared by every bot that plays it: the built-in one
    /// and a file's stay for the process, a trainer's generation goes
    /// with its last bot.
    pub net: Arc<PvNet>,
    /// The margin head's share in a leaf's value (`score=`; the score
    /// utility of [`PvNet::evaluate_slice`]), checked against `net` when
    /// read ([`PvNet::check_score_utility`]).
    pub score: f32,
    /// The budget per move.
    pub budget: Budget,
    /// The search's settings.
    pub settings: Settings,
    /// Threads evaluating a batch.
    pub threads: usize,
    /// Keep the subtree between moves.
    pub reuse: bool,
    /// How a clocked search (`tc=`) shares its time over its moves.
    pub alloc: crate::bot::clock::Allocation,
    /// Plies from the start of the game whose move is drawn by visits.
    pub explore: u32,
    /// The root's search: PUCT, or Gumbel's sequential halving.
    pub root: RootSearch,
    /// With `root=gumbel`: the moves considered at the root.
    pub m: usize,
}

impl ZeroConfig {
    /// Every key at the default its declaration gives (the built-in
    /// network, the `iters=` budget): what `zero` with no keys plays, and
    /// where the trainer starts, so that no default is written twice.
    pub fn defaults() -> ZeroConfig {
        let spec: super::spec::BotSpec = "zero"
            .parse()
            .unwrap_or_else(|e| unreachable!("a bare bot name is a spec: {e}"));
        config_from(&Params::new(&spec))
            .unwrap_or_else(|e| unreachable!("the declared defaults are in range: {e}"))
    }
}

/// Default of `iters=`: 800, AlphaZero's budget per move in self-play;
/// `experiments/learned-search/` measures strength against it.
const DEFAULT_ITERS: u64 = 800;
/// Default of `cpuct=`: 1.5, the usual order for a prior that sums to one
/// (AlphaZero's schedule starts at 1.25; Leela Zero uses 1.5 to 3).
const DEFAULT_CPUCT: f64 = 1.5;
/// Default of `fpu=`: an unvisited move is taken as a little worse than
/// its parent (Leela Zero's first-play reduction), so the prior decides
/// how far the search widens.
const DEFAULT_FPU: f64 = 0.2;
/// Default of `batch=`: 8 leaves per evaluation, enough to keep a few
/// threads busy with little of the search's order lost to virtual losses.
const DEFAULT_BATCH: usize = 8;

/// The batch when `batch=` is not given: 8 leaves (`DEFAULT_BATCH`) up to 4
/// threads, 4 leaves per thread above, so that every thread has a share
/// of each batch even when a step ends early on a collision, and the
/// threads' start and finish at each batch is shared out over several
/// evaluations (`experiments/parallel-scaling/`, "Many cores"). The search
/// is the same for any number of threads at a given `batch=`; it is only
/// the default that follows `threads=`.
pub fn default_batch(threads: usize) -> usize {
    if threads <= 4 {
        DEFAULT_BATCH
    } else {
        4 * threads
    }
}
/// Default of `alpha=`: AlphaZero's 0.3 for chess's ~35 moves is a total
/// concentration near 10.
const DEFAULT_ALPHA: f64 = 10.0;

/// `net=`.
pub const NET: KeyInfo = KeyInfo::text(
    "net",
    "builtin|FILE",
    "builtin",
    "the policy-value network: the built-in one (trained on 7x7), or a file written by `pahtum train`",
)
.bare();
/// `iters=`.
pub const ITERS: KeyInfo = search_keys::iters(
    100_000_000,
    DEFAULT_ITERS,
    "leaves evaluated per move; reproducible",
);
/// `ms=`.
pub const MS: KeyInfo = search_keys::MS;
/// `threads=`.
pub const THREADS: KeyInfo = search_keys::threads(
    "threads evaluating each batch (the search is the same for any number at a given batch=)",
);
/// `batch=`.
pub const BATCH: KeyInfo = KeyInfo::opt_int(
    "batch",
    1,
    256,
    "leaves evaluated together, with virtual loss (not given: 8, or 4 per thread above 4 threads)",
)
.bare()
.research();
/// `cpuct=`.
pub const CPUCT: KeyInfo = KeyInfo::real(
    "cpuct",
    0.0,
    100.0,
    DEFAULT_CPUCT,
    "PUCT exploration constant",
)
.bare()
.research();
/// `fpu=`.
pub const FPU: KeyInfo = KeyInfo::real(
    "fpu",
    0.0,
    2.0,
    DEFAULT_FPU,
    "an unvisited move's value: its parent's mean minus this",
)
.bare()
.research();
/// `exact=`.
pub const EXACT: KeyInfo = search_keys::exact(
    "solve positions with <= this many empty squares (the root's move, leaves' results)",
);
/// `reuse=`.
pub const REUSE: KeyInfo = search_keys::REUSE;
/// `alloc=`.
pub const ALLOC: KeyInfo = search_keys::ALLOC;
/// `noise=`.
pub const NOISE: KeyInfo = KeyInfo::real(
    "noise",
    0.0,
    1.0,
    0.0,
    "share of Dirichlet noise in the root's priors (self-play: 0.25)",
)
.bare()
.research();
/// `alpha=`.
pub const ALPHA: KeyInfo = KeyInfo::real(
    "alpha",
    0.01,
    1000.0,
    DEFAULT_ALPHA,
    "Dirichlet concentration of the root noise, summed over the moves",
)
.bare()
.research();
/// `explore=`.
pub const EXPLORE: KeyInfo = KeyInfo::int(
    "explore",
    0,
    64,
    0,
    "plies from the game's start whose move is drawn by visit share (self-play)",
)
.bare()
.research();
/// `score=`.
pub const SCORE: KeyInfo = KeyInfo::real(
    "score",
    0.0,
    1.0,
    0.0,
    "share of the network's margin head in a leaf's value (KataGo's score utility): (1-score)*value + score*(2/pi)*atan(margin/10 points)",
)
.bare()
.research();

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "zero",
    summary: "PUCT search on a policy-value network trained by self-play (AlphaZero's method)",
    keys: &[
        NET, ITERS, MS, THREADS, EXACT, REUSE, ALLOC, BATCH, CPUCT, FPU, NOISE, ALPHA, EXPLORE,
        ROOT, M, SCORE,
    ],
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        let cfg = config_from(params)?;
        Ok(Box::new(ZeroBot::new(params.label(), cfg, seed)))
    },
};

/// Reads a spec's keys.
///
/// # Errors
/// A key out of range, a network file that cannot be read, or `score=`
/// on a network without the margin head.
pub fn config_from(p: &Params) -> Result<ZeroConfig, SpecError> {
    let net = match p.text(&NET)? {
        "builtin" => PvNet::builtin(),
        path => PvNet::load(Path::new(path))
            .map_err(|e| SpecError(format!("bot spec '{}': {e}", p.spec())))?,
    };
    let score = p.real(&SCORE)? as f32;
    net.check_score_utility(score)
        .map_err(|e| SpecError(format!("bot spec '{}': score=: {e}", p.spec())))?;
    let budget = Budget::from_params(p, &ITERS, &MS)?;
    Ok(ZeroConfig {
        net,
        score,
        budget,
        settings: Settings {
            cpuct: p.real(&CPUCT)? as f32,
            fpu: p.real(&FPU)? as f32,
            batch: match p.opt_int(&BATCH)? {
                Some(b) => b as usize,
                None => default_batch(p.int(&THREADS)? as usize),
            },
            exact: p.int(&EXACT)? as u32,
            noise: p.real(&NOISE)? as f32,
            alpha: p.real(&ALPHA)? as f32,
        },
        threads: p.int(&THREADS)? as usize,
        reuse: p.flag(&REUSE)?,
        alloc: p.pick(&ALLOC)?,
        explore: p.int(&EXPLORE)? as u32,
        root: p.pick(&ROOT)?,
        m: p.int(&M)? as usize,
    })
}

/// The `zero` player.
pub struct ZeroBot {
    name: String,
    cfg: ZeroConfig,
    seed: u64,
    tree: PuctTree,
    solver: Option<Box<Solver>>,
    scratch: Scratch,
    /// The game (start and moves) the tree's root stands for.
    rooted: Option<(Position, Vec<Move>)>,
    last: Option<SearchInfo>,
    pool: Option<rayon::ThreadPool>,
    /// The clock of a clocked game: its share replaces `cfg.budget`.
    clock: Option<Clock>,
    /// With `root=gumbel`: the improved policy of the last search.
    target: Vec<(Move, f32)>,
    /// The search in progress between its steps ([`ZeroBot::begin`]).
    pending: Option<stepwise::Pending>,
}

impl std::fmt::Debug for ZeroBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZeroBot")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// Principal variation length reported.
const PV_LEN: usize = 12;

/// The pool that evaluates a batch with `threads` threads: all of them
/// its own, while the calling thread waits for the batch.
///
/// Why not the caller as one of them, as `mcts` does: handing a share of
/// a batch to each pool thread by `install` and parallel chunks takes no
/// allocation, where spawning a task per share (so that the caller could
/// keep one) allocates at every batch. The caller waits asleep, so its
/// core is free for a pool thread.
fn evaluation_pool(threads: usize) -> Option<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("pahtum-zero-{}", i + 1))
        .build()
        .ok()
}

/// Where a bot's network is evaluated, and how its values are read.
struct Evaluator<'a> {
    pool: Option<&'a rayon::ThreadPool>,
    threads: usize,
    scratch: &'a mut Scratch,
    /// The score utility ([`ZeroConfig::score`]).
    score: f32,
}

impl<'a> Evaluator<'a> {
    /// How a bot set to `cfg`, with its `pool` and `scratch`, evaluates
    /// its leaves.
    fn new(
        cfg: &ZeroConfig,
        pool: &'a Option<rayon::ThreadPool>,
        scratch: &'a mut Scratch,
    ) -> Evaluator<'a> {
        Evaluator {
            pool: pool.as_ref(),
            threads: cfg.threads,
            scratch,
            score: cfg.score,
        }
    }

    /// `net`'s outputs for `ps`: split over `pool`'s `threads` threads when
    /// there are several and more than one position, else on this thread.
    fn evaluate(&mut self, net: &PvNet, ps: &[Position], l: &mut [f32], v: &mut [f32]) {
        match self.pool {
            Some(pool) if self.threads > 1 && ps.len() > 1 => {
                let chunk = ps.len().div_ceil(self.threads);
                pool.install(|| net.evaluate_batch(ps, chunk, l, v, self.score));
            }
            _ => net.evaluate_slice(ps, self.scratch, l, v, self.score),
        }
    }
}

impl ZeroBot {
    /// A bot called `name` with configuration `cfg` and seed `seed`.
    pub fn new(name: impl Into<String>, cfg: ZeroConfig, seed: u64) -> ZeroBot {
        ZeroBot {
            name: name.into(),
            cfg,
            seed,
            tree: PuctTree::new(),
            solver: None,
            scratch: Scratch::default(),
            rooted: None,
            last: None,
            pool: None,
            clock: None,
            target: Vec::new(),
            pending: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ZeroConfig {
        &self.cfg
    }

    /// Sets the budget and the root noise of the searches to come, so
    /// that a self-play game may change them from move to move (the
    /// trainer's playout cap randomisation).
    pub fn set_search(&mut self, budget: Budget, noise: f32) {
        self.cfg.budget = budget;
        self.cfg.settings.noise = noise;
    }

    /// The root's moves and their visits after the last search, in the
    /// tree's order (empty when the move came from the exact solver).
    pub fn root_visits(&self) -> Vec<(Move, u32)> {
        if self.solved() {
            return Vec::new();
        }
        self.tree
            .children(0)
            .iter()
            .map(|c| (c.mv(), c.visits()))
            .collect()
    }

    /// Searches `game`'s position and returns the chosen move.
    ///
    /// # Errors
    /// [`BotFault::Illegal`] if the game is over.
    pub fn search(&mut self, game: &Game) -> Result<Move, BotFault> {
        if let Some(mv) = self.begin(game)? {
            return Ok(mv);
        }
        if self.cfg.root == RootSearch::Gumbel {
            if self.cfg.threads > 1 && self.pool.is_none() {
                self.pool = evaluation_pool(self.cfg.threads);
            }
            return Ok(self.gumbel_search(game));
        }
        while self.next_leaves() > 0 {
            self.evaluate_own();
        }
        Ok(self.conclude(game))
    }

    /// The waiting leaves ([`ZeroBot::next_leaves`]) evaluated by the
    /// bot's own network (over its pool with `threads=`), expanded and
    /// backed up.
    pub fn evaluate_own(&mut self) {
        if self.cfg.threads > 1 && self.pool.is_none() {
            self.pool = evaluation_pool(self.cfg.threads);
        }
        let net = &self.cfg.net;
        let mut e = Evaluator::new(&self.cfg, &self.pool, &mut self.scratch);
        let Some(p) = self.pending.as_mut() else {
            unreachable!("leaves wait only in a search begun")
        };
        self.tree
            .evaluate_step(&mut p.totals, |ps, l, v| e.evaluate(net, ps, l, v));
    }

    /// `root=gumbel`: the root expanded alone, then Gumbel-Top-k with
    /// sequential halving; its move.
    fn gumbel_search(&mut self, game: &Game) -> Move {
        let Some(mut p) = self.pending.take() else {
            unreachable!("a search begun")
        };
        let s = self.cfg.settings;
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(Solver::new(endgame::TABLE_MB)));
        let mut e = Evaluator::new(&self.cfg, &self.pool, &mut self.scratch);
        let mut evaluate = |net: &PvNet, ps: &[Position], l: &mut [f32], v: &mut [f32]| {
            e.evaluate(net, ps, l, v);
        };
        if self.tree.children(0).is_empty() {
            let one = Settings { batch: 1, ..s };
            let o = self
                .tree
                .run(&self.cfg.net, &one, solver, &mut evaluate, &mut |it| it < 1);
            p.totals.add(&o);
        }
        let limit = match p.deadline {
            Some(d) => gumbel::Limit::Until(d),
            None => gumbel::Limit::Iters(p.iters),
        };
        let mut steps = gumbel::Steps {
            net: &self.cfg.net,
            settings: &s,
            solver,
            evaluate: &mut evaluate,
        };
        let (c, o) = gumbel::sequential_halving(
            &mut self.tree,
            &mut steps,
            self.cfg.m,
            limit,
            p.totals.iterations,
            &mut p.rng,
        );
        p.totals.add(&o);
        // A proven root plays its proof, as PUCT's does.
        let chosen = match self.tree.root().and_then(|r| r.proven()) {
            None => self.tree.children(0).get(c),
            Some(_) => self.tree.best(),
        };
        self.pending = Some(p);
        self.finish(chosen.copied(), game)
    }

    /// Roots the tree at `game`'s position, keeping the subtree of the
    /// moves since the last search when reuse is on.
    fn prepare_tree(&mut self, game: &Game) {
        let pos = *game.position();
        let moves = game.moves();
        match &self.rooted {
            Some((start, before))
                if self.cfg.reuse
                    && start == game.start()
                    && moves.len() >= before.len()
                    && moves[..before.len()] == before[..]
                    && self.tree.root_position().is_some() =>
            {
                let since = moves[before.len()..].to_vec();
                self.tree.descend(&since, pos);
            }
            _ => self.tree.reset(pos),
        }
    }
}

impl Bot for ZeroBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        self.search(game)
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.last.clone()
    }

    fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    fn is_timed(&self) -> bool {
        matches!(self.cfg.budget, Budget::Millis(_)) || self.clock.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::spec::Catalog;
    use crate::game::outcome::Komi;
    use crate::game::rules::{HoleSetup, Rules, layout_rng};

    pub(super) fn bot(spec: &str, seed: u64) -> ZeroBot {
        let catalog = Catalog::new(vec![KIND]);
        let spec = catalog.parse(spec).expect("spec");
        let params = Params::new(&spec);
        ZeroBot::new("zero", config_from(&params).expect("config"), seed)
    }

    /// `iters=` and `ms=` together are refused, as by every search bot
    /// (the one budget rule of `spec::search_keys`).
    #[test]
    fn iters_and_ms_together_are_refused() {
        let catalog = Catalog::new(vec![KIND]);
        let err = catalog.parse("zero:iters=10,ms=5").expect_err("both");
        assert!(err.0.contains("give iters= or ms=, not both"), "{}", err.0);
        let spec = catalog.parse("zero:ms=5").expect("spec");
        let cfg = config_from(&Params::new(&spec)).expect("ms alone");
        assert_eq!(cfg.budget, Budget::Millis(5));
    }

    /// The defaults come from the key declarations: the values the
    /// trainer wrote out by hand before it took them from here.
    #[test]
    fn defaults_are_the_declared_keys() {
        let d = ZeroConfig::defaults();
        let s = d.settings;
        assert_eq!(
            (s.cpuct, s.fpu, s.batch, s.exact, s.noise, s.alpha),
            (1.5, 0.2, 8, 10, 0.0, 10.0)
        );
        assert_eq!((d.threads, d.reuse), (1, true));
        assert!(matches!(d.budget, Budget::Iters(DEFAULT_ITERS)));
    }

    /// The default batch gives every thread four leaves above 4 threads
    /// and is 8 up to 4; a batch given is kept at any thread count.
    #[test]
    fn the_default_batch_follows_the_threads_and_a_given_one_is_kept() {
        for (threads, batch) in [(1, 8), (2, 8), (4, 8), (5, 20), (16, 64)] {
            let b = bot(&format!("zero:threads={threads}"), 1);
            assert_eq!(b.config().settings.batch, batch, "threads={threads}");
        }
        let b = bot("zero:threads=16,batch=3", 1);
        assert_eq!(b.config().settings.batch, 3);
    }

    /// A 7x7 game with 5 random holes and `stones` random stones played,
    /// from `seed`: the test positions of `zero` and its root searches.
    pub(super) fn game(seed: u64, stones: u32, pie: bool) -> Game {
        let rules = Rules {
            size: 7,
            holes: HoleSetup::Random(5),
            pie,
            komi: Komi::ZERO,
        };
        let mut g = Game::new(rules.new_game(&mut layout_rng(seed)).expect("rules"));
        let mut rng = crate::game::rng::FastRng::new(seed);
        for _ in 0..stones {
            let e = g.position().empty();
            g.try_play(Move::Place(e.nth(rng.below(e.count())).expect("free")))
                .expect("legal");
        }
        g
    }

    #[test]
    fn the_search_is_the_same_for_any_number_of_threads() {
        for (seed, stones, pie) in [(1, 0, true), (2, 7, false), (3, 1, true)] {
            let g = game(seed, stones, pie);
            let mut one = bot("zero:iters=300,batch=8,threads=1", 4);
            let mut three = bot("zero:iters=300,batch=8,threads=3", 4);
            assert_eq!(one.search(&g), three.search(&g));
            assert_eq!(one.root_visits(), three.root_visits());
            assert!(one.root_visits().iter().map(|v| v.1).sum::<u32>() >= 290);
        }
    }

    #[test]
    fn leaves_evaluated_one_by_one_or_in_a_batch_give_the_same_tree() {
        let g = game(5, 9, false);
        let net = PvNet::builtin();
        let s = Settings {
            cpuct: 1.5,
            fpu: 0.2,
            batch: 16,
            exact: 10,
            noise: 0.0,
            alpha: 10.0,
        };
        let run = |batched: bool| {
            let mut tree = PuctTree::new();
            tree.reset(*g.position());
            let mut solver = Solver::new(1);
            let mut scratch = Scratch::default();
            let mut eval = |net: &PvNet, ps: &[Position], l: &mut [f32], v: &mut [f32]| {
                if batched {
                    net.evaluate_batch(ps, 3, l, v, 0.0);
                } else {
                    let w = l.len() / ps.len();
                    for (i, p) in ps.iter().enumerate() {
                        let e = net.evaluate(p, &mut scratch);
                        l[i * w..(i + 1) * w].copy_from_slice(&e.logits);
                        v[i] = e.value;
                    }
                }
            };
            tree.run(&net, &s, &mut solver, &mut eval, &mut |it| it < 400);
            tree.children(0)
                .iter()
                .map(|c| (c.mv(), c.visits(), c.mean().to_bits()))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(true), run(false));
    }

    #[test]
    fn reuse_keeps_the_subtree_of_the_moves_played() {
        let mut g = game(6, 4, false);
        let mut b = bot("zero:iters=400", 1);
        let mv = b.search(&g).expect("move");
        let child_visits = b
            .root_visits()
            .iter()
            .find(|v| v.0 == mv)
            .map_or(0, |v| v.1);
        g.try_play(mv).expect("legal");
        b.prepare_tree(&g);
        assert_eq!(b.tree.root().map(|r| r.visits()), Some(child_visits));
        assert!(child_visits > 0);
    }

    #[test]
    fn with_few_squares_left_the_move_is_the_solvers() {
        let g = game(7, 34, false);
        assert!(g.position().empty().count() <= 10);
        let mut b = bot("zero:iters=50", 1);
        let mv = b.search(&g).expect("move");
        let mut solver = Solver::new(1);
        let ex = endgame::solve(g.position(), &mut solver);
        assert_eq!(Some(mv), ex.best);
        assert!(
            b.last_search()
                .is_some_and(|i| i.extra.starts_with("exact"))
        );
    }

    #[test]
    fn the_root_is_proven_where_the_tree_reaches_the_exact_endgame() {
        // 12 free squares: every leaf two plies down is solved, so the
        // root is proven and its move keeps the solver's result.
        let g = game(8, 32, false);
        let pos = *g.position();
        assert_eq!(pos.empty().count(), 12);
        let mut b = bot("zero:iters=5000", 1);
        let mv = b.search(&g).expect("move");
        let proven = b.tree.root().and_then(|r| r.proven());
        let kids: Vec<_> = b
            .tree
            .children(0)
            .iter()
            .map(|c| (c.mv(), c.visits(), c.proven()))
            .collect();
        assert!(
            proven.is_some(),
            "not proven: {kids:?} {:?}",
            b.last_search()
        );
        let mut solver = Solver::new(1);
        let best = solver
            .result_sign(&pos, &crate::solve::SolveLimits::default())
            .expect("solved");
        let mut after = pos;
        after.try_play_move(mv).expect("legal");
        let kept = -solver
            .result_sign(&after, &crate::solve::SolveLimits::default())
            .expect("solved");
        assert_eq!(kept, best);
    }
}
