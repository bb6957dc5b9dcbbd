//! Every statistic the workbench reports, in one place: plain arithmetic on
//! counts, free of I/O, below the arena so that tournaments, sweeps and
//! sequential tests share one implementation, each unit-tested against
//! published values.
//!
//! - [`rating`]: Wilson intervals, Elo from a score rate and back, mean and
//!   spread, maximum-likelihood Bradley-Terry ratings with intervals.
//! - [`gsprt`]: the pentanomial generalised SPRT over colour-swapped pairs
//!   (fishtest, fastchess) and the pair-based score interval.
//! - [`komi`]: the fair komi and its order-statistic interval.

pub mod gsprt;
pub mod komi;
pub mod rating;

pub use rating::{ELO_PER_NAT, Z95, elo_from_score, mean_sd, score_from_elo, wilson};
