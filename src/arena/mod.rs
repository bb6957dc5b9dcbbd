//! Playing games between bots: single games, tournaments, their records
//! and statistics.

pub mod game;

pub use game::{GameResult, MoveEvent, Seat, Termination, play_game};
