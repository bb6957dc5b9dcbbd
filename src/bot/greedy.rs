//! `greedy`: the move with the best immediate change in line scores.

use super::choose::{best_square, heuristic_swap, pie_opening};
use super::spec::{BotKind, KeyInfo, Params, SpecError};
use super::{Bot, BotFault, SearchInfo};
use crate::eval::EvalWeights;
use crate::game::outcome::Move;
use crate::game::record::Game;
use crate::game::rng::FastRng;

/// Plays the square that raises its own line score the most as the lines
/// stand. Placing a stone never changes the opponent's score (the square was
/// empty and so already broke the opponent's runs), so plain greedy never
/// blocks; with `block > 0` the opponent's gain on the square (what it would
/// score there next) counts too, weighted by `block`. Ties are broken at
/// random from the bot's seed.
///
/// Under the pie rule it uses the shared heuristic, because scores alone are
/// all zero after one stone: as Black it swaps by [`heuristic_swap`], as
/// White it opens with [`pie_opening`] (the best stone the swap rule would
/// leave alone).
#[derive(Clone, Debug)]
pub struct GreedyBot {
    name: String,
    block: f64,
    rng: FastRng,
    last: Option<SearchInfo>,
}

impl GreedyBot {
    /// A greedy bot; `block` weighs the opponent's gain on a square.
    pub fn new(name: impl Into<String>, block: f64, seed: u64) -> GreedyBot {
        GreedyBot {
            name: name.into(),
            block,
            rng: FastRng::new(seed),
            last: None,
        }
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        let pos = game.position();
        if pos.can_swap() && heuristic_swap(pos, &EvalWeights::default()) {
            self.last = None;
            return Ok(Move::Swap);
        }
        if let Some(sq) = pie_opening(pos, &EvalWeights::default(), &mut self.rng) {
            self.last = None;
            return Ok(Move::Place(sq));
        }
        let me = pos.turn();
        let block = self.block;
        let (sq, v) = best_square(pos.empty(), &mut self.rng, |sq| {
            pos.gain(sq) as f64 + block * pos.gain_for(!me, sq) as f64
        })
        .ok_or_else(|| BotFault::Illegal("no free square".into()))?;
        self.last = Some(SearchInfo {
            nodes: pos.empty().count() as u64,
            depth: 1,
            eval: Some(v),
            expect: None,
            pv: vec![Move::Place(sq)],
            extra: String::new(),
        });
        Ok(Move::Place(sq))
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.last.clone()
    }
}

/// Default of `block`: without blocking, greedy never stops a line and
/// loses games even to `random`; any weight up to 1 blocks, and one below
/// 1 makes the own line win a tie against an equal block, which is the
/// whole difference (docs/baselines-history.md, "Greedy blocking").
const DEFAULT_BLOCK: f64 = 0.5;

/// `block=`.
pub(crate) const BLOCK: KeyInfo = KeyInfo::real(
    "block",
    0.0,
    4.0,
    DEFAULT_BLOCK,
    "weight of what the opponent would score on the square (0 = never block)",
)
.research();

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "greedy",
    summary: "the square that raises its own line score most right now (ties at random)",
    keys: &[BLOCK],
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        let block = params.real(&BLOCK)?;
        Ok(Box::new(GreedyBot::new(params.label(), block, seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Komi;
    use crate::game::position::Position;

    #[test]
    fn completes_a_line_and_blocks_one() {
        // White has a1 b1 (c1 free); Black has a3 b3 c3 (d3 free); White to move.
        let sq = |s: &str| s.parse().expect("sq");
        let white: Bitboard = ["a1", "b1", "g7"].iter().map(|s| sq(s)).collect();
        let black: Bitboard = ["a3", "b3", "c3"].iter().map(|s| sq(s)).collect();
        let pos =
            Position::with_stones(7, Bitboard::EMPTY, white, black, false, Komi::ZERO).expect("p");
        let game = Game::new(pos);
        let mut plain = GreedyBot::new("g", 0.0, 1);
        assert_eq!(plain.select_move(&game), Ok(Move::Place(sq("c1"))));
        // Black's d3 would turn 3 into 10 (gain 7) > White's c1 (gain 3).
        let mut blocker = GreedyBot::new("g", DEFAULT_BLOCK, 1);
        assert_eq!(blocker.select_move(&game), Ok(Move::Place(sq("d3"))));
    }
}
