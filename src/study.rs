//! Experiments on the arena: parameter sweeps, sequential A/B tests
//! (SPRT), the first-player-advantage study and SPSA tuning.
//!
//! Every study is a schedule of the arena's tournament runner, so games
//! are a function of (seed, game index) alone, run in parallel, and are
//! handed on in game order whatever the thread count:
//!
//! - [`sweep`]: a grid ([`grid`]) of one bot's keys, each combination a
//!   bot in a gauntlet against one reference; `sweep.csv`, `sweep.svg`.
//! - [`sprt`]: two bots in colour-swapped pairs until the pentanomial GSPRT
//!   ([`crate::stats::gsprt`]) accepts H0 or H1, checked after every pair in pair order.
//! - [`fpa`]: self-play, one layout per game ([`listrun`]), per hole count
//!   and with or without the pie rule; fair komi from [`crate::stats::komi`].
//! - [`tune`]: SPSA ([`spsa`]) over several keys of one bot at once, in
//!   fixed batches of colour-swapped pairs; `tune.csv` ([`tune_csv`]).
//! - [`pool`]: the games of several runs in one Bradley-Terry fit, so
//!   their ratings share one scale, optionally anchored (`rate`).
//!
//! Their statistics (Wilson, Elo, Bradley-Terry, the pentanomial GSPRT,
//! the fair komi) are in [`crate::stats`], shared with the tournament;
//! their figures are drawn by [`crate::plot`]. The solver's studies are in
//! [`crate::judge`], the report page in [`crate::view`].

pub mod fpa;
pub mod grid;
pub mod listrun;
pub mod openings;
pub mod pool;
pub mod sprt;
pub mod spsa;
pub mod sweep;
pub mod tune;
pub mod tune_csv;
