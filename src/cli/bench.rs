//! `pahtum bench`: speed figures and a deterministic signature.

use std::hint::black_box;
use std::time::{Duration, Instant};

use clap::Args;

use super::error::CliResult;
use super::num;
use crate::arena::bench::{
    LAZY_BENCH, Speed, bench_position, cpu_seconds, mcts_iters_per_s, mcts_speed_config,
    solver_positions, zero_evals_per_s,
};
use crate::bot::mcts::MctsBot;
use crate::bot::mcts::config::{Budget, MctsConfig, Parallel};
use crate::bot::mcts::{Padded, Tree};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::{FastRng, mix64};
use crate::game::scoring::score;
use crate::solve::{SolveLimits, Solver};

/// What `--seconds` accepts: more than nothing, at most an hour.
const SECONDS: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 3600.0,
    lo_open: true,
    hi_open: false,
};

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Seconds to spend on each timed figure
    #[arg(
        long,
        default_value_t = 1.0,
        value_name = "S",
        allow_hyphen_values = true,
        value_parser = num::float(SECONDS)
    )]
    pub seconds: f64,
    /// Fail (exit 1) unless the signature equals this value, like 48487/3493/48020 mcts=16877:e3 (a value of another shape: exit 2, before any timing)
    #[arg(long, value_name = "SIGNATURE")]
    pub expect: Option<String>,
    /// Thread counts of the figures that take threads, like 1,2,4,8 (each once) [default: 1,2]
    #[arg(
        long,
        value_name = "N,...",
        value_delimiter = ',',
        default_values_t = [1usize, 2],
        hide_default_value = true,
        allow_negative_numbers = true,
        value_parser = num::threads()
    )]
    pub threads: Vec<usize>,
    /// Also time the exact solver on fixed 7x7 positions with 20 and 24
    /// free squares (a minute or more)
    #[arg(long)]
    pub solver: bool,
}

/// Runs `f` in batches until `seconds` have passed; returns calls per second.
fn per_second(seconds: f64, mut f: impl FnMut(u64) -> u64) -> f64 {
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut done = 0u64;
    while start.elapsed() < budget {
        done += f(10_000);
    }
    done as f64 / start.elapsed().as_secs_f64()
}

/// White wins, draws and Black wins of 100,000 random playouts from the
/// bench position with seed 7: a signature that changes if the rules,
/// the RNG or the playout change.
pub fn playout_signature() -> String {
    let pos = bench_position();
    let mut rng = FastRng::new(7);
    let mut c = [0u64; 3];
    for _ in 0..100_000 {
        let m = pos.random_playout(&mut rng);
        c[(1 - m.signum()) as usize] += 1;
    }
    format!("{}/{}/{}", c[0], c[1], c[2])
}

/// Most round trips of [`cache_line_round_trip_ns`], and the time after
/// which it stops short of them.
const ROUND_TRIPS: u64 = 200_000;
const ROUND_TRIP_TIME: Duration = Duration::from_millis(50);

/// Spins on a value before a thread yields its core: the other thread
/// may not be running (more busy threads than cores).
const SPINS_BEFORE_YIELD: u32 = 1 << 10;

/// Nanoseconds for a cache line to go from this thread to another and
/// back (the other thread answers each value written with the next);
/// `None` with fewer than two cores.
///
/// Why it is a figure: when two threads share a tree they pass cache
/// lines back and forth, and on a virtual machine this time moves with
/// where the host places the cores, and the two-thread figures with it
/// (docs/speed-history.md); printed beside them, it says which kind of
/// run they came from. With more busy threads than cores it measures
/// the scheduler instead, and is large: the two-thread figures then mean
/// little either.
fn cache_line_round_trip_ns() -> Option<f64> {
    use std::sync::atomic::AtomicU64;
    use std::sync::atomic::Ordering::{Acquire, Release};
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        return None;
    }
    const DONE: u64 = u64::MAX;
    let line = Padded(AtomicU64::new(0));
    // Waits until `ready(value)`, yielding now and then; returns the value.
    let wait = |ready: &dyn Fn(u64) -> bool| {
        let mut spins = 0u32;
        loop {
            let v = line.load(Acquire);
            if ready(v) {
                return v;
            }
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(SPINS_BEFORE_YIELD) {
                std::thread::yield_now();
            }
            std::hint::spin_loop();
        }
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            // Answers each odd value with the next even one, until DONE
            // (odd too, so tested first).
            loop {
                match wait(&|v| v == DONE || v % 2 == 1) {
                    DONE => break,
                    v => line.store(v + 1, Release),
                }
            }
        });
        let trip = |i: u64| {
            line.store(2 * i + 1, Release);
            wait(&|v| v == 2 * i + 2);
        };
        // The first trip waits for the thread to start: not timed.
        trip(0);
        let start = Instant::now();
        let mut trips = 0u64;
        while trips < ROUND_TRIPS && start.elapsed() < ROUND_TRIP_TIME {
            for _ in 0..1024 {
                trips += 1;
                trip(trips);
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / trips as f64;
        line.store(DONE, Release);
        Some(ns)
    })
}

/// Prints a speed figure and, when known, its per-CPU-second and CPU
/// utilisation companions.
fn print_speed(key: &str, speed: Speed) {
    println!("{key}={:.0}", speed.per_s);
    if let Some(c) = speed.per_cpu_s {
        println!("{key}_cpu={c:.0}");
    }
    if let Some(u) = speed.cpu_util {
        println!("{key}_cpu_util={u:.2}");
    }
}

/// The key of a figure at `threads` threads: `STEM_tT`, except the
/// default engine's one-thread figure, which keeps the name
/// docs/CONTRACT.md gives it (`mcts_default_iters_per_s`; older builds
/// printed it with `_t1`, which the speed experiments' scripts still
/// accept, so no key may take that name again).
fn key(stem: &str, threads: usize) -> String {
    if stem == "mcts_default_iters_per_s" && threads == 1 {
        stem.to_string()
    } else {
        format!("{stem}_t{threads}")
    }
}

/// Checks `--threads`: clap has checked each count; a count given twice
/// would print its keys twice.
fn check_threads(threads: &[usize]) -> CliResult {
    for (i, t) in threads.iter().enumerate() {
        if threads[..i].contains(t) {
            return Err(super::error::usage(format!(
                "--threads: {t} is given twice (each thread count once, like 1,2,4)"
            )));
        }
    }
    Ok(())
}

/// Tree nodes and chosen move of a one-thread, fixed-seed search with the
/// default engine: deterministic, so part of the signature.
pub fn mcts_signature() -> String {
    let cfg = MctsConfig {
        budget: Budget::Iters(5_000),
        ..MctsConfig::default()
    };
    let mut bot = MctsBot::new("bench", cfg, 9);
    match bot.search(&Game::new(bench_position())) {
        Ok(mv) => format!("{}:{mv}", bot.report().map_or(0, |r| r.nodes)),
        Err(e) => format!("error:{e}"),
    }
}

/// The solver figures of one set of positions.
struct SolveFigures {
    /// Median wall-clock milliseconds.
    ms: f64,
    /// Median CPU milliseconds (when known): the figure that does not
    /// depend on other load.
    cpu_ms: Option<f64>,
    /// Nodes of all solves together: the same for every run of one build.
    nodes: u64,
    /// A digest of the solutions' lines, which no change of speed may move.
    answers: u64,
}

/// The median of `v` (not empty).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A full solve (outcome, margin and both move lists, as `pahtum solve`
/// prints them) of each position, each with a fresh 64 MiB table.
fn solve_figures(positions: &[Position]) -> SolveFigures {
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let (mut nodes, mut answers) = (0u64, 0u64);
    for pos in positions {
        let mut solver = Solver::new(SolveLimits::default().tt_mb);
        let (t0, c0) = (Instant::now(), cpu_seconds());
        let line = match solver.solve(pos, &SolveLimits::default()) {
            Ok(s) => {
                nodes += s.nodes;
                s.line()
            }
            Err(e) => format!("error:{e}"),
        };
        wall.push(t0.elapsed().as_secs_f64() * 1e3);
        if let Some(c) = cpu_seconds().zip(c0).map(|(b, a)| (b - a) * 1e3) {
            cpu.push(c);
        }
        answers = mix64(answers ^ line.bytes().fold(0u64, |h, b| mix64(h ^ b as u64)));
    }
    SolveFigures {
        ms: median(wall),
        cpu_ms: (cpu.len() == positions.len()).then(|| median(cpu)),
        nodes,
        answers,
    }
}

/// Whether `sig` has the shape of a signature, `W/D/B mcts=NODES:MOVE`
/// (three playout counts, then the search's node count and move).
fn is_signature(sig: &str) -> bool {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let Some((playouts, mcts)) = sig.split_once(" mcts=") else {
        return false;
    };
    let counts: Vec<&str> = playouts.split('/').collect();
    counts.len() == 3
        && counts.iter().all(|c| digits(c))
        && mcts.split_once(':').is_some_and(|(nodes, mv)| {
            digits(nodes) && !mv.is_empty() && mv.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Prints the MCTS figures, thread count by thread count: tree and root
/// parallelism, lazy selection, and the default engine. Returns the
/// cache line's round trip, measured just before the first
/// multi-threaded figure, which it explains (or after the one-thread
/// figures, when there is none).
fn mcts_figures(threads: &[usize], seconds: f64) -> Option<f64> {
    // A fixed iteration budget for every MCTS search, about the requested
    // seconds at a million iterations per second.
    let iters = ((seconds * 1e6) as u64).clamp(20_000, 20_000_000);
    let mut round_trip = None;
    let mut measure_round_trip = || {
        if round_trip.is_none() {
            round_trip = Some(cache_line_round_trip_ns());
        }
    };
    for &t in threads {
        if t > 1 {
            measure_round_trip();
        }
        print_speed(
            &key("mcts_iters_per_s", t),
            mcts_iters_per_s(mcts_speed_config(iters, t, Parallel::Tree)),
        );
    }
    measure_round_trip();
    // Root parallelism at one thread is the one-thread search itself.
    for &t in threads.iter().filter(|&&t| t > 1) {
        print_speed(
            &key("mcts_root_iters_per_s", t),
            mcts_iters_per_s(mcts_speed_config(iters, t, Parallel::Root)),
        );
    }
    // The same search with lazy selection (`lazy=64`): an option, not
    // the textbook UCT the figures above measure.
    for &t in threads {
        print_speed(
            &key("mcts_lazy_iters_per_s", t),
            mcts_iters_per_s(MctsConfig {
                lazy: LAZY_BENCH,
                ..mcts_speed_config(iters, t, Parallel::Tree)
            }),
        );
    }
    // The default engine plays learned-network playouts and evaluates
    // each expanded node with the policy-value network, several times
    // slower than random playouts on the empty board: a smaller budget
    // keeps these figures short.
    let default_engine = |threads, parallel| MctsConfig {
        budget: Budget::Iters(iters / 12),
        reuse: false,
        threads,
        parallel,
        ..MctsConfig::default()
    };
    for &t in threads {
        print_speed(
            &key("mcts_default_iters_per_s", t),
            mcts_iters_per_s(default_engine(t, Parallel::Tree)),
        );
    }
    for &t in threads.iter().filter(|&&t| t > 1) {
        print_speed(
            &key("mcts_default_root_iters_per_s", t),
            mcts_iters_per_s(default_engine(t, Parallel::Root)),
        );
    }
    round_trip.flatten()
}

/// The `zero` bot's network (the built-in one) on 64 positions of random
/// partial games from `pos` (drawn from `rng`), `batch` at a time on one
/// thread, for `seconds`: positions a second, its cost per position,
/// which bounds zero's iterations a second. Batch 1 is a search that
/// asks for one leaf at a time; a batch shares each row of weights
/// between its positions (`net/kernel.rs`).
fn net_evals_per_s(pos: &Position, rng: &mut FastRng, seconds: f64, batch: usize) -> f64 {
    let mut net_positions = Vec::with_capacity(64);
    while net_positions.len() < 64 {
        let mut p = *pos;
        let plies = rng.below(p.empty().count() - 1);
        for _ in 0..plies {
            let e = p.empty();
            p.play_unchecked(
                e.nth(rng.below(e.count()))
                    .unwrap_or_else(|| unreachable!("free")),
            );
        }
        net_positions.push(p);
    }
    let net = crate::net::PvNet::builtin();
    let width = crate::net::swap_index(pos.size()) + 1;
    let (mut logits, mut values) = (vec![0f32; batch * width], vec![0f32; batch]);
    let mut scratch = crate::net::Scratch::default();
    let net_evals = per_second(seconds, |_| {
        for group in net_positions.chunks_exact(batch) {
            net.evaluate_slice(group, &mut scratch, &mut logits, &mut values, 0.0);
        }
        64
    });
    black_box(&values);
    net_evals
}

/// Prints the figures.
///
/// # Errors
/// An `--expect` that is no signature or a thread count given twice
/// (exit 2, before any work); a signature that differs from `--expect`
/// (exit 1, after the figures); clap checks `--seconds` and each count
/// of `--threads`.
pub fn run(args: BenchArgs) -> CliResult {
    check_threads(&args.threads)?;
    if let Some(expect) = &args.expect
        && !is_signature(expect.trim())
    {
        return Err(super::error::usage(format!(
            "--expect: '{}' is not a bench signature (like 48487/3493/48020 mcts=16877:e3)",
            expect.trim()
        )));
    }
    let pos = bench_position();
    let mut rng = FastRng::new(2);
    let mut white_wins = 0u64;
    let playouts = per_second(args.seconds, |n| {
        for _ in 0..n {
            white_wins += (black_box(&pos).random_playout(&mut rng) > 0) as u64;
        }
        n
    });
    black_box(white_wins);
    println!("random_playouts_per_s={playouts:.0}");

    let boards: Vec<Position> = (0..1024).map(|_| pos.random_fill(&mut rng)).collect();
    let mut i = 0usize;
    let mut sum = 0u64;
    let evals = per_second(args.seconds, |n| {
        for _ in 0..n {
            let b = &boards[i & 1023];
            i += 1;
            sum += score(black_box(b.stones(Player::White))) as u64;
        }
        n
    });
    black_box(sum);
    println!("score_evals_per_s={evals:.0}");

    let round_trip = mcts_figures(&args.threads, args.seconds);
    // `zero` with its defaults: network evaluations a second of whole
    // searches (batches, threads and the tree), where `net_evals_per_s`
    // below is the network alone. A few thousand a second on one thread.
    let zero_iters = ((args.seconds * 2_000.0) as u64).clamp(300, 1_000_000);
    for &t in &args.threads {
        print_speed(&key("zero_evals_per_s", t), zero_evals_per_s(zero_iters, t));
    }
    for batch in [1, 8] {
        let mut net_rng = rng.clone();
        let net_evals = net_evals_per_s(&pos, &mut net_rng, args.seconds, batch);
        println!("net_evals_per_s_b{batch}={net_evals:.0}");
    }
    println!("mcts_bytes_per_node={}", Tree::NODE_BYTES);
    if let Some(ns) = round_trip {
        println!("cache_line_round_trip_ns={ns:.0}");
    }

    if args.solver {
        for empties in [20, 24] {
            let f = solve_figures(&solver_positions(empties));
            println!("solve{empties}_ms={:.0}", f.ms);
            if let Some(c) = f.cpu_ms {
                println!("solve{empties}_cpu_ms={c:.0}");
            }
            println!("solve{empties}_nodes={}", f.nodes);
            println!("solve{empties}_answers={:016x}", f.answers);
        }
    }

    let sig = format!("{} mcts={}", playout_signature(), mcts_signature());
    println!("signature={sig}");
    if let Some(expect) = args.expect
        && expect.trim() != sig
    {
        return Err(super::error::CliError::CheckFailed(format!(
            "bench signature mismatch: expected {}, got {sig}",
            expect.trim()
        )));
    }
    Ok(())
}
