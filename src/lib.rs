#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod arena;
pub mod bot;
pub mod cli;
pub mod csv_rows;
pub mod eval;
pub mod game;
pub mod interrupt;
pub mod judge;
pub mod learn;
pub mod net;
pub mod plot;
pub mod protocol;
pub mod solve;
pub mod stats;
pub mod study;
pub mod view;

pub use bot::{Bot, BotFault, BotSpec, Catalog, SearchInfo, builtin_catalog};
pub use game::bitboard::Bitboard;
pub use game::outcome::{Komi, Move, Outcome};
pub use game::player::{ByPlayer, Player};
pub use game::position::{MoveError, Position, PositionError};
pub use game::record::Game;
pub use game::rng::{FastRng, derive_seed};
pub use game::rules::{HoleSetup, Rules, layout_rng};
pub use game::scoring::{RUN_POINTS, gain, score};
pub use game::square::Square;
pub use game::text::{Board, BoardParseError, parse_boards};
