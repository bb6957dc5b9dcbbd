//! The fixed positions of `pahtum bench --solver`, for timing the solver
//! one position at a time.
//!
//! `solver_positions [N]` prints the positions with N free squares (default
//! 24) in the board text format, one board per paragraph;
//! `solver_positions N I [MB]` solves position I of them with a fresh
//! table of MB MiB (default: the solver's) and prints the solution line
//! and its node count.

use pahtum::solve::{SolveLimits, Solver};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let empties = args.first().and_then(|a| a.parse().ok()).unwrap_or(24);
    let positions = pahtum::arena::bench::solver_positions(empties);
    let Some(index) = args.get(1).and_then(|a| a.parse::<usize>().ok()) else {
        for pos in positions {
            println!("{pos}");
        }
        return;
    };
    let limits = SolveLimits::default();
    let mb = args
        .get(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(limits.tt_mb);
    match Solver::new(mb).solve(&positions[index], &limits) {
        Ok(s) => println!("{} nodes={}", s.line(), s.nodes),
        Err(e) => println!("error: {e}"),
    }
}
