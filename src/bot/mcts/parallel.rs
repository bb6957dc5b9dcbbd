//! Running a search on one or several threads.
//!
//! # Concurrency contract (tree parallelism)
//!
//! All threads share one [`Tree`] by `&` reference, held as a
//! [`SharedTree`], for the duration of one search: the calling thread searches as thread 0 while the bot's
//! own rayon pool (one thread fewer than the search) runs the others in
//! a scope, which returns only when every thread is done (scoped threads
//! stand in when there is no pool). The pool's threads persist between
//! moves, because starting threads for each search made the later
//! threads begin late in a short search. The caller takes a share rather
//! than waiting for a pool of as many threads as the search, because with
//! such a pool a pool thread often began late too, and the caller
//! searching gave two threads about twice the iterations of one
//! (docs/mcts-history.md, "Thread start-up"). There is no lock anywhere
//! and no `unsafe`. Each field of
//! a node changes only in these ways:
//!
//! - `visits`, `value`, `amaf_visits`, `amaf_value`: only grow, by
//!   `fetch_add(Relaxed)` (a zero reward is not added at all): the only
//!   adds a [`SharedTree`] offers. The plain adds of a one-thread search
//!   are an [`OwnedTree`]'s, which only `&mut Tree` makes and which cannot
//!   leave its thread, so no thread sharing a tree can make one. Readers
//!   may see a visit whose reward has not arrived yet: that is the
//!   *virtual loss* (a visit counted on the way down, its reward added on
//!   the way up), which steers other threads
//!   away from the path in flight. Statistics are approximate while
//!   threads run and exact once they have joined (the end of the
//!   scope is the synchronisation point).
//!   *Hot* nodes (at least `HOT_VISITS` visits) are the exception while
//!   iterations are cheap (`CHEAP_ITERATION` in `search.rs`, on average
//!   over a thread's last 64, as with random playouts): a thread holds back its visits and rewards
//!   to them in a private buffer (`Pending` in `search.rs`) and adds them
//!   with one `fetch_add` per field once they reach 1/64 of the node's
//!   visits, every 64 iterations, and when the thread stops. Other
//!   threads see a hot node's statistics up to 1/64 behind per thread
//!   holding some back, and a hot node carries no virtual loss; nothing
//!   is lost, and the totals are exact after the join. Why: the few nodes
//!   at the top of the tree are on every path, and an atomic add to them
//!   on every iteration moved their cache lines between cores on every
//!   iteration, which made two threads slower than one with cheap
//!   (random-playout) iterations.
//!   With `lazy=N`, at a node with at least `N` visits a thread may
//!   follow its own earlier choice of child (thread-private `Choices` in
//!   `search.rs`) for about 1/16 of that child's visits; neither the
//!   virtual loss nor other threads' updates steer it meanwhile, and
//!   nothing shared is written for it.
//! - `state`: LEAF -> EXPANDING by one `compare_exchange` (the winner owns
//!   the expansion; losers simulate from the node as a leaf instead of
//!   waiting), then EXPANDING -> EXPANDED with a `Release` store after the
//!   children and `first_child`/`children` are written, or back to LEAF
//!   if the arena is full. LEAF -> TERMINAL (`Release`) when the game is
//!   over or the position was solved exactly, with the exact margin in
//!   `first_child`. Readers load `state` with `Acquire` before they read
//!   the children range or any child, so they never see a half-written
//!   child.
//! - children: a contiguous range taken from the claiming thread's private
//!   reserve, which is refilled by one `fetch_add` of a block of nodes on
//!   the tree's bump index (so the shared counter is touched once per
//!   block); a range belongs to one node and is written only by the thread
//!   that claimed it, before publication.
//!   When the arena is full, allocation fails and the node stays a leaf
//!   (the search keeps simulating from leaves: graceful degradation).
//! - `proof`: Unknown -> a proven result, by plain stores. A proof is a
//!   fact about the position, so racing writers store the same value.
//! - `mv`, `prior`: written once before publication, then read-only.
//!
//! Iterations are claimed from a shared counter in batches, so the total
//! is exactly the budget; `stop` (deadline, proven root, interrupt, full
//! arena of a time budget) is a relaxed flag
//! checked before each iteration. Results of tree parallelism depend on
//! thread timing; one thread, or root parallelism with an iteration
//! budget, is deterministic.
//!
//! # Root parallelism
//!
//! One tree per thread, each with its own random stream
//! `derive_seed(seed, &[thread])` and its share of the iterations, run as
//! a one-thread search (no atomics read-modify-write on the hot path, no
//! shared cache lines); the caller merges the roots' children by move.

use std::sync::Mutex;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use super::config::MctsConfig;
use super::search::{Root, SearchContext, Worker};
use super::tree::{OwnedTree, Proof, SharedTree, Tree, TreeView};
use crate::game::rng::derive_seed;

/// Iterations a thread claims at once when threads share a tree: large
/// enough that the shared counter is rarely touched, small enough that a
/// deadline or proven root is noticed quickly.
const SHARED_BATCH: u64 = 16;
/// The same for a tree owned by one thread (only the deadline check).
const SERIAL_BATCH: u64 = 64;

/// What a search did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Iterations run, all threads together.
    pub iterations: u64,
    /// Deepest path, in plies.
    pub depth: u32,
}

/// Runs `job(t)` for `t` in `0..threads` at once: `job(0)` on the
/// calling thread, the others on `pool` when given (its threads persist
/// between searches; it must have `threads - 1` threads) or on scoped
/// threads started for the occasion; the results in order.
///
/// Why the caller takes a share: it is already running, while a woken
/// pool thread could begin milliseconds late (see the contract above).
fn on_threads<R: Send>(
    threads: usize,
    pool: Option<&rayon::ThreadPool>,
    job: impl Fn(usize) -> R + Sync,
) -> Vec<R> {
    let job = &job;
    let mut out: Vec<Option<R>> = (0..threads).map(|_| None).collect();
    let Some((own, rest)) = out.split_first_mut() else {
        return Vec::new();
    };
    match pool {
        Some(pool) if pool.current_num_threads() + 1 == threads => {
            pool.in_place_scope(|scope| {
                for (i, slot) in rest.iter_mut().enumerate() {
                    scope.spawn(move |_| *slot = Some(job(i + 1)));
                }
                *own = Some(job(0));
            });
        }
        _ => std::thread::scope(|scope| {
            let handles: Vec<_> = rest
                .iter_mut()
                .enumerate()
                .map(|(i, slot)| scope.spawn(move || *slot = Some(job(i + 1))))
                .collect();
            *own = Some(job(0));
            for h in handles {
                if let Err(e) = h.join() {
                    std::panic::resume_unwind(e);
                }
            }
        }),
    }
    // Every slot was filled: each job ran to completion or its panic
    // propagated above.
    out.into_iter().flatten().collect()
}

/// The pool for a bot searching with `threads` threads: the calling
/// thread is one of them (see `on_threads`), so the pool holds the
/// others; `None` for one thread, or if the system refuses threads (the
/// search then starts scoped threads).
pub fn pool_for(threads: usize) -> Option<rayon::ThreadPool> {
    if threads <= 1 {
        return None;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads - 1)
        .thread_name(|i| format!("pahtum-mcts-{}", i + 1))
        .build()
        .ok()
}

/// What one search is asked: the position, the budget, the seed and the
/// threads, for [`run_tree`] and [`run_root`].
#[derive(Copy, Clone)]
pub struct SearchRequest<'a> {
    /// The search settings.
    pub cfg: &'a MctsConfig,
    /// The position searched.
    pub root: Root,
    /// Iterations in all (`u64::MAX` under a time budget).
    pub iters: u64,
    /// When to stop, under a time budget.
    pub deadline: Option<Instant>,
    /// The search's seed; thread `t` draws from `derive_seed(seed, &[t])`.
    pub seed: u64,
    /// Threads sharing the tree ([`run_tree`]; [`run_root`] runs one per
    /// tree).
    pub threads: usize,
    /// The bot's pool for threads other than the caller's.
    pub pool: Option<&'a rayon::ThreadPool>,
    /// Grow the arena on demand up to this many nodes (a bound at or
    /// below the arena's own never grows it).
    pub grow_to: u32,
    /// Stop before the deadline once the most visited root move cannot
    /// be overtaken (`early=`, clocked games).
    pub early: bool,
}

/// Searches `tree` from `req.root` with `req.threads` threads sharing it:
/// thread 0 on the caller, the others on the pool's threads when given.
///
/// The arena starts at its current bound and doubles (up to `grow_to`
/// nodes) each time it fills before the deadline: the search
/// pauses, the threads join, the arena grows and a new round starts on
/// the same tree. Why: filling a big arena up front took longer than a
/// short time budget, and the first move of every game overran it; grown
/// on demand, the arena costs what the search uses, inside its budget.
pub fn run_tree(tree: &mut Tree, req: &SearchRequest<'_>) -> RunStats {
    if req.threads <= 1 {
        let mut w = Worker::new(derive_seed(req.seed, &[0]));
        return run_serial(tree, req, req.iters, &mut w);
    }
    let mut stats = RunStats::default();
    for round in 0u64.. {
        let shared = rounds_shared(SharedTree::new(tree), req, req.iters, &stats);
        let seed = if round == 0 {
            req.seed
        } else {
            derive_seed(req.seed, &[u64::MAX, round])
        };
        let sh = &shared;
        stats.iterations += on_threads(req.threads, req.pool, |t| {
            let mut w = Worker::new(derive_seed(seed, &[t as u64]));
            w.run(sh, SHARED_BATCH);
            w.iterations
        })
        .into_iter()
        .sum::<u64>();
        stats.depth = stats.depth.max(shared.depth.load(Relaxed));
        let full = shared.full.load(Relaxed);
        if !grow(tree, full, req) {
            break;
        }
    }
    stats
}

/// The shared state of one round of a search of `iters` iterations that
/// has run `so_far`.
fn rounds_shared<'a, V: TreeView>(
    tree: V,
    req: &SearchRequest<'a>,
    iters: u64,
    so_far: &RunStats,
) -> SearchContext<'a, V> {
    let iters = iters.saturating_sub(so_far.iterations);
    let grow = tree.limit() < req.grow_to;
    let mut shared = SearchContext::new(tree, req.cfg, req.root, iters, req.deadline);
    shared.grow = grow;
    shared.early = req.early;
    shared
}

/// After a round: grows the arena and says whether to search on, when the
/// round paused on a full arena with time left, no interrupt and the root
/// unproven.
fn grow(tree: &mut Tree, full: bool, req: &SearchRequest<'_>) -> bool {
    let cap = req.grow_to;
    if !full
        || tree.limit() >= cap
        || crate::interrupt::requested()
        || req.deadline.is_some_and(|d| Instant::now() >= d)
        || tree.root().proof() != Proof::Unknown
    {
        return false;
    }
    tree.ensure(tree.limit().saturating_mul(2).min(cap));
    true
}

/// A one-thread search of `iters` iterations of `tree` by worker `w`, in
/// rounds as [`run_tree`]'s when the arena may grow.
fn run_serial(tree: &mut Tree, req: &SearchRequest<'_>, iters: u64, w: &mut Worker) -> RunStats {
    let mut stats = RunStats::default();
    loop {
        let before = w.iterations;
        let shared = rounds_shared(OwnedTree::new(tree), req, iters, &stats);
        w.run(&shared, SERIAL_BATCH);
        stats.iterations += w.iterations - before;
        stats.depth = stats.depth.max(shared.depth.load(Relaxed));
        let full = shared.full.load(Relaxed);
        if !grow(tree, full, req) {
            break;
        }
    }
    stats
}

/// Searches one tree per thread (`trees.len()` threads: thread 0 on the
/// caller, the others on `pool`'s when given), thread `t` with seed
/// `derive_seed(seed, &[t])` and `iters / threads` iterations (the first
/// `iters % threads` threads one more); each arena grows as
/// [`run_tree`]'s.
pub fn run_root(trees: &mut [Tree], req: &SearchRequest<'_>) -> RunStats {
    let k = trees.len().max(1) as u64;
    let share = |t: u64| req.iters / k + u64::from(t < req.iters % k);
    // Each job takes its own tree; the locks are uncontended.
    let cells: Vec<Mutex<&mut Tree>> = trees.iter_mut().map(Mutex::new).collect();
    let per = on_threads(cells.len(), req.pool, |t| {
        let mut tree = cells[t].lock().unwrap_or_else(|p| p.into_inner());
        let mut w = Worker::new(derive_seed(req.seed, &[t as u64]));
        run_serial(&mut tree, req, share(t as u64), &mut w)
    });
    RunStats {
        iterations: per.iter().map(|r| r.iterations).sum(),
        depth: per.iter().map(|r| r.depth).max().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::mcts::config::{Prior, Reward, Rollout};
    use crate::bot::mcts::tree::NodeId;
    use crate::game::position::Position;
    use crate::game::rules::Rules;

    /// The start of a standard game on layout `seed`.
    fn standard_start(seed: u64) -> Position {
        Rules::default()
            .new_game(&mut crate::game::rules::layout_rng(seed))
            .expect("standard rules")
    }

    /// An iteration-bounded request without arena growth.
    fn request<'a>(
        cfg: &'a MctsConfig,
        root: Position,
        iters: u64,
        seed: u64,
        threads: usize,
        pool: Option<&'a rayon::ThreadPool>,
    ) -> SearchRequest<'a> {
        SearchRequest {
            cfg,
            root: root.into(),
            iters,
            deadline: None,
            seed,
            threads,
            pool,
            grow_to: 0,
            early: false,
        }
    }

    /// Job 0 runs on the caller, every job runs exactly once, and the
    /// results come back in job order, with the pool and without it (and
    /// with a pool of the wrong size, which falls back to scoped threads).
    #[test]
    fn on_threads_runs_each_job_once_with_the_caller_as_thread_0() {
        let caller = std::thread::current().id();
        let pool = pool_for(3).expect("pool");
        assert_eq!(pool.current_num_threads(), 2);
        let wrong = pool_for(2).expect("pool");
        for pool in [None, Some(&pool), Some(&wrong)] {
            let runs = std::sync::atomic::AtomicUsize::new(0);
            let out = on_threads(3, pool, |t| {
                runs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                (t, std::thread::current().id() == caller)
            });
            assert_eq!(out, vec![(0, true), (1, false), (2, false)]);
            assert_eq!(runs.into_inner(), 3);
        }
        assert!(pool_for(1).is_none());
        assert_eq!(on_threads(1, None, |t| t * 10), vec![0]);
    }

    /// Everything below `id`, depth first in child order: what keeping a
    /// subtree must preserve.
    fn snapshot(tree: &Tree, id: NodeId, out: &mut Vec<(u32, u8, u32, u64, u8, u8, u32)>) {
        let n = tree.node(id);
        out.push(n.fingerprint());
        if n.state() == crate::bot::mcts::tree::NodeState::Expanded {
            for c in n.children().ids() {
                snapshot(tree, c, out);
            }
        }
    }

    /// A subtree grown by two threads (children ranges from per-thread
    /// reserves, so a child can sit below its parent) is kept exactly.
    #[test]
    fn keeping_a_tree_parallel_subtree_preserves_it() {
        let cfg = MctsConfig::default();
        let root = standard_start(5);
        let pool = pool_for(2).expect("pool");
        // Whether some kept subtree had a node below its root's index: the
        // case keeping used to get wrong. It needs the two threads to
        // expand nodes at the same time, which a loaded machine may deny
        // a search (a debug build under `cargo test` did in 8 seeds of 8):
        // so at least 8 seeds, and more until the case has come up.
        let mut below = false;
        for seed in 0..64 {
            if below && seed >= 8 {
                break;
            }
            let mut tree = Tree::new();
            tree.reset(1 << 20);
            run_tree(&mut tree, &request(&cfg, root, 6000, seed, 2, Some(&pool)));
            // A grandchild of the root with over 100 visits, preferably one
            // with a descendant below its own index (the case keeping used
            // to get wrong), else the most visited.
            let grandchildren: Vec<NodeId> = tree
                .root()
                .children()
                .ids()
                .flat_map(|c| tree.node(c).children().ids())
                .filter(|&g| tree.node(g).visits() > 100)
                .collect();
            let keep = grandchildren
                .iter()
                .copied()
                .find(|&g| lowest_index(&tree, g) < g.index())
                .or_else(|| {
                    grandchildren
                        .iter()
                        .copied()
                        .max_by_key(|&g| tree.node(g).visits())
                })
                .expect("a grandchild with over 100 visits");
            below |= lowest_index(&tree, keep) < keep.index();
            let mut before = Vec::new();
            snapshot(&tree, keep, &mut before);
            tree.keep_subtree(keep);
            let mut after = Vec::new();
            snapshot(&tree, NodeId::ROOT, &mut after);
            assert!(before.len() > 100, "seed {seed}: {} nodes", before.len());
            assert_eq!(before.len(), after.len(), "seed {seed}");
            for (i, (a, b)) in before.iter().zip(&after).enumerate() {
                assert_eq!(a, b, "seed {seed}: node {i} of {}", before.len());
            }
            assert_eq!(tree.used() as usize, after.len());
        }
        assert!(below, "no subtree had a node below its root");
    }

    /// An arena that starts small and grows while one thread searches
    /// holds, node for node, the tree of an arena made as big at the
    /// start: growth never makes an expansion fail, so it never changes
    /// the search (for iteration budgets, which now grow too). A bound
    /// smaller than the search needs still stops the growth there.
    #[test]
    fn a_growing_arena_searches_as_one_made_big_at_the_start() {
        let cfg = MctsConfig::default();
        let root = standard_start(7);
        let iters = 20_000;
        let mut big = Tree::new();
        big.reset(1 << 20);
        run_tree(&mut big, &request(&cfg, root, iters, 3, 1, None));
        let mut grown = Tree::new();
        grown.reset(2048);
        let req = SearchRequest {
            grow_to: 1 << 20,
            ..request(&cfg, root, iters, 3, 1, None)
        };
        let run = run_tree(&mut grown, &req);
        assert_eq!(run.iterations, iters);
        assert!(grown.limit() > 2048 && grown.used() > 2048, "it grew");
        let (mut a, mut b) = (Vec::new(), Vec::new());
        snapshot(&big, NodeId::ROOT, &mut a);
        snapshot(&grown, NodeId::ROOT, &mut b);
        assert_eq!(a, b);
        let mut capped = Tree::new();
        capped.reset(2048);
        let req = SearchRequest {
            grow_to: 8192,
            ..request(&cfg, root, iters, 3, 1, None)
        };
        assert_eq!(run_tree(&mut capped, &req).iterations, iters);
        assert_eq!(capped.limit(), 8192);
    }

    /// The lowest arena index in the subtree of `id`.
    fn lowest_index(tree: &Tree, id: NodeId) -> u32 {
        let n = tree.node(id);
        let mut low = id.index();
        if n.state() == crate::bot::mcts::tree::NodeState::Expanded {
            for c in n.children().ids() {
                low = low.min(lowest_index(tree, c));
            }
        }
        low
    }

    /// Held-back updates of hot nodes all arrive: after the join the root
    /// and its children count every iteration exactly once.
    #[test]
    fn tree_parallel_statistics_are_exact_after_the_join() {
        let cfg = MctsConfig {
            rollout: Rollout::Random,
            reward: Reward::Win,
            prior: Prior::Off,
            mix: 0.0,
            pvnet: None,
            expand: 2,
            solver: false,
            ..MctsConfig::default()
        };
        let root = standard_start(5);
        let pool = pool_for(2).expect("pool");
        for pool in [None, Some(&pool)] {
            check_exact(&cfg, root, pool);
        }
    }

    fn check_exact(cfg: &MctsConfig, root: Position, pool: Option<&rayon::ThreadPool>) {
        let mut tree = Tree::new();
        tree.reset(1 << 20);
        let iters = 30_000;
        let run = run_tree(&mut tree, &request(cfg, root, iters, 1, 2, pool));
        assert_eq!(run.iterations, iters);
        assert_eq!(tree.root().visits() as u64, iters);
        let kids = tree.nodes(tree.root().children());
        let (visits, value) = kids.iter().fold((0u64, 0u64), |(v, w), ch| {
            (v + ch.visits() as u64, w + ch.value_sum())
        });
        assert_eq!(visits, iters);
        assert!(value > 0);
        // Some child is hot, so the test passes through the held-back path.
        let hot = kids.iter().any(|ch| ch.visits() >= 1024);
        assert!(hot);
    }
}
