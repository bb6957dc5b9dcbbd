//! The integration tests, one module per area, in one test binary: each
//! binary links the whole library and its dependencies again, so one binary
//! instead of thirty keeps `cargo test --release` on a fresh clone short.
//! Run one area with `cargo test --release --test integration AREA::`.

mod common;

mod accuracy;
mod alloc;
mod bot_keys;
mod bots;
mod browser;
mod cli_numbers;
mod cli_play;
mod cli_score;
mod cli_unattended;
mod clocks;
mod docs;
mod engine_runs;
mod exact;
mod exact_versus;
mod interrupt;
mod mcts;
mod mcts_pv;
mod openings;
mod perft;
mod properties;
mod protocol;
mod rate;
mod report;
mod resume;
mod review;
mod scoring;
mod serve;
mod solver;
mod sprt;
mod strength;
mod study;
mod time_budget;
mod tournament;
mod train;
mod tune;
mod zero;
