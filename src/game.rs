//! The rules of Pah Tum: exact, fast, free of I/O. Randomness only comes in
//! through an RNG argument.

pub mod bitboard;
pub mod clock;
pub mod outcome;
pub mod perft;
pub mod player;
pub mod position;
pub mod record;
pub mod rng;
pub mod rules;
pub mod scoring;
pub mod square;
pub mod suite;
pub mod text;
