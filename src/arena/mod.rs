//! Playing games between bots: single games, tournaments, their records
//! and statistics.

pub mod bench;
pub mod game;
pub mod merge;
pub mod ordered;
pub mod parallel;
pub mod progress;
pub mod record;
pub mod report;
pub mod rundir;
pub mod runinfo;
pub mod runopts;
pub mod schedule;
pub mod tournament;

pub use game::{GameResult, MoveEvent, Seat, Termination, play_game};
pub use parallel::{RunStatus, play_scheduled, run_games, run_tournament};
pub use record::GameRecord;
pub use report::{PairResult, Report, pair_results, pentanomial_counts};
pub use schedule::{Format, Schedule, Shard};
pub use tournament::{Collect, Observer, TournamentConfig, TournamentError};
