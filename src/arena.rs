//! Playing games between bots: single games, tournaments, their records
//! and statistics.

pub mod bench;
pub mod game;
pub mod games_csv;
pub mod merge;
pub mod moves_csv;
pub mod moves_resume;
pub mod ordered;
pub mod parallel;
pub mod progress;
pub mod report;
pub mod run_dir_error;
pub mod rundir;
pub mod runinfo;
pub mod runopts;
pub mod schedule;
pub mod suite_file;
pub mod tournament;

pub use game::{GameResult, MoveEvent, Seat, Termination, play_game};
pub use games_csv::GameRecord;
pub use parallel::{RunStatus, play_scheduled, run_games, run_tournament};
pub use report::{PairResult, Report, pair_results, pentanomial_counts};
pub use schedule::{Format, Schedule, Shard};
pub use tournament::{ArenaError, Collect, Observer, TournamentConfig};
