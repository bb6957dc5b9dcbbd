//! Heap allocations of a search: once a first search has sized its
//! buffers, the default engine, plain UCT and `zero` allocate a fixed
//! small number of times per search, never per iteration. An allocation
//! per expansion or playout costs more the more threads share the
//! allocator, so it would make iterations dearer with threads.
//!
//! The count is process-wide (a search's other threads allocate too), so
//! it is taken in a child process of this test binary that runs nothing
//! but the measurement (`measure` below): the other tests of the binary,
//! running at the same time in the parent, cannot add to it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::Command;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

use pahtum::{FastRng, Game, Rules, builtin_catalog};

/// The test binary's allocator: the system's, counting allocations
/// (growths by `realloc` included) while [`COUNTING`] is set. Outside a
/// measurement it costs one relaxed load per allocation.
struct Counting;

/// Whether allocations are counted now.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Allocations counted.
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

#[global_allocator]
static ALLOCATOR: Counting = Counting;

// The only `unsafe` of the project: a global allocator is an unsafe trait.
// It forwards every call unchanged to `System`, whose contract is the
// caller's; the library and the binary keep `#![forbid(unsafe_code)]`.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `alloc`, passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` came from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[inline]
fn count() {
    if COUNTING.load(Relaxed) {
        ALLOCATIONS.fetch_add(1, Relaxed);
    }
}

/// The environment variable that makes [`measure`] run, with the spec to
/// measure (without its budget) as its value.
const SPEC_VAR: &str = "PAHTUM_ALLOC_SPEC";
/// The environment variable with the smaller budget `N` of [`measure`].
const ITERS_VAR: &str = "PAHTUM_ALLOC_ITERS";

/// At most this many more allocations in a search of `2N` iterations than
/// in one of `N`: growing buffers that double (a tree's node vector) add
/// one now and then, and the thread pool's job queue allocates a block per
/// 63 jobs. An allocation per iteration, expansion or batch adds hundreds.
const SLACK: u64 = 4;

/// Allocations of a search of `game` by a bot of `spec` with budget
/// `iters`, all threads together: the fewer of its second and third
/// searches (the first sizes its buffers; a buffer that a thread sizes
/// only when the scheduler first gives it work is not counted twice).
fn allocations(spec: &str, iters: u64, game: &Game) -> u64 {
    let catalog = builtin_catalog();
    let parsed = catalog
        .parse(&with(spec, &format!("iters={iters}")))
        .expect("valid spec");
    let mut bot = catalog.build(&parsed, 7).expect("bot");
    bot.select_move(game).expect("move");
    let mut fewest = u64::MAX;
    for _ in 0..2 {
        ALLOCATIONS.store(0, Relaxed);
        COUNTING.store(true, Relaxed);
        let mv = bot.select_move(game);
        COUNTING.store(false, Relaxed);
        mv.expect("move");
        fewest = fewest.min(ALLOCATIONS.load(Relaxed));
    }
    fewest
}

/// `spec` with `key=value` added.
fn with(spec: &str, kv: &str) -> String {
    let sep = if spec.contains(':') { ',' } else { ':' };
    format!("{spec}{sep}{kv}")
}

/// A 7x7 game after a few random plies: a position with many moves to
/// search, far from the exact solver's reach.
fn opening() -> Game {
    let mut rng = FastRng::new(46);
    let start = Rules::default().new_game(&mut rng).expect("game");
    let mut game = Game::new(start);
    for _ in 0..6 {
        let free = game.position().empty();
        let sq = free.nth(rng.below(free.count())).expect("free");
        game.try_play(pahtum::Move::Place(sq)).expect("legal");
    }
    game
}

/// The child's side: counts the allocations of searches of `N` and `2N`
/// iterations at one and two threads and prints them, one line each:
/// `allocations threads=T N A(N) 2N A(2N)`. Without [`SPEC_VAR`] (a run of
/// all ignored tests) it does nothing: it is the parent tests' helper.
#[test]
#[ignore = "the tests below run it in a child process"]
fn measure() {
    let Ok(spec) = std::env::var(SPEC_VAR) else {
        return;
    };
    let n: u64 = std::env::var(ITERS_VAR)
        .expect("iterations given")
        .parse()
        .expect("a number");
    let game = opening();
    for threads in [1, 2] {
        let spec = with(&spec, &format!("threads={threads}"));
        let (one, two) = (
            allocations(&spec, n, &game),
            allocations(&spec, 2 * n, &game),
        );
        println!("allocations threads={threads} {n} {one} {} {two}", 2 * n);
    }
}

/// Runs [`measure`] for `spec` in a child process and checks that its
/// searches of `2N` iterations allocate at most [`SLACK`] more times than
/// those of `N`, at one thread and at two.
fn allocates_nothing_per_iteration(spec: &str, n: u64) {
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new(exe)
        .args([
            "alloc::measure",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(SPEC_VAR, spec)
        .env(ITERS_VAR, n.to_string())
        .output()
        .expect("the child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout
        .lines()
        // The harness prints the test's name on the line of its first output.
        .filter_map(|l| l.find("allocations ").map(|i| &l[i..]))
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    for line in lines {
        println!("{spec}: {line}");
        let f: Vec<u64> = line
            .split(' ')
            .skip(2)
            .map(|x| x.parse().expect("a count"))
            .collect();
        let (one, two) = (f[1], f[3]);
        assert!(
            two <= one + SLACK,
            "{spec}: {two} allocations in a search of {} iterations, {one} in one of {n} ({line})",
            2 * n
        );
    }
}

#[test]
fn the_default_engine_allocates_nothing_per_iteration() {
    allocates_nothing_per_iteration("mcts", 3000);
}

#[test]
fn the_default_engine_in_root_mode_allocates_nothing_per_iteration() {
    allocates_nothing_per_iteration("mcts:parallel=root", 3000);
}

#[test]
fn plain_uct_allocates_nothing_per_iteration() {
    allocates_nothing_per_iteration(
        "mcts:rollout=random,reward=win,rave=off,prior=off,mix=0,expand=2,solver=false,reuse=false",
        10_000,
    );
}

#[test]
fn zero_allocates_nothing_per_iteration() {
    allocates_nothing_per_iteration("zero", 400);
}
