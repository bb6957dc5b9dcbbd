//! `random`: a uniformly random legal move.

use super::spec::{BotKind, Params, SpecError};
use super::{Bot, BotFault};
use crate::game::outcome::Move;
use crate::game::record::Game;
use crate::game::rng::FastRng;

/// Plays a uniformly random free square; under the pie rule it swaps with
/// probability one half.
#[derive(Clone, Debug)]
pub struct RandomBot {
    name: String,
    rng: FastRng,
}

impl RandomBot {
    /// A random bot with its own stream.
    pub fn new(name: impl Into<String>, seed: u64) -> RandomBot {
        RandomBot {
            name: name.into(),
            rng: FastRng::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        let pos = game.position();
        if pos.can_swap() && self.rng.next_word() & 1 == 1 {
            return Ok(Move::Swap);
        }
        let free = pos.legal_moves();
        let k = self.rng.below(free.count());
        free.nth(k)
            .map(Move::Place)
            .ok_or_else(|| BotFault::Illegal("no free square".into()))
    }
}

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "random",
    summary: "a uniformly random legal move (swaps with probability 1/2 under the pie rule)",
    keys: &[],
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        Ok(Box::new(RandomBot::new(params.label(), seed)))
    },
};
