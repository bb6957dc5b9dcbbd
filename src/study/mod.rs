//! Research tools built on the arena: parameter sweeps, sequential A/B
//! tests (SPRT), the first-player-advantage study, and their statistics
//! and plots.

pub mod fpa;
pub mod grid;
pub mod gsprt;
pub mod komi;
pub mod ladder;
pub mod listrun;
pub mod plot;
pub mod sprt;
pub mod sweep;
