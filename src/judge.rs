//! The exact solver applied to games: perfect play against the bots, the
//! bots' accuracy on solved positions, and one game reviewed move by move.
//!
//! - [`exact`]: the first-player advantage under perfect play per hole
//!   count (`exact.csv`, `exact.svg`), and bots against the solver.
//! - [`accuracy`]: suites of solved positions and how often a bot finds a
//!   best move.
//! - [`review`]: one game move by move, each move judged by a bot's search
//!   and, near the end, by the solver.
//! - [`ordered`]: the solver's jobs on the arena's ordered runner, one
//!   transposition table per thread.

pub mod accuracy;
pub mod exact;
pub mod ordered;
pub mod review;
