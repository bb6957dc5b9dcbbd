//! `heuristic`: one ply of the line-potential evaluation.

use super::choose::{best_square, heuristic_swap, pie_opening};
use super::spec::{BotKind, Params, SpecError};
use super::{Bot, BotFault, SearchInfo};
use crate::eval::{EvalWeights, MOVE_VALUE_SCALE, MoveValuer};
use crate::game::outcome::Move;
use crate::game::record::Game;
use crate::game::rng::FastRng;

/// Plays the square with the highest [`move_value`](crate::eval::move_value): the potential it adds
/// to its own open row and column segments plus the opponent potential it
/// spoils (`defence` weighs the latter). Ties are broken at random from the
/// bot's seed. Under the pie rule it swaps by [`heuristic_swap`] and opens
/// with [`pie_opening`].
///
/// This is the baseline of K. Górnicki, "Using heuristics for Monte Carlo
/// Tree Search" (MSc thesis, York, 2012), where a heuristic of this kind
/// beat plain UCT with 100,000 random rollouts in 399 of 400 games.
#[derive(Clone, Debug)]
pub struct HeuristicBot {
    name: String,
    weights: EvalWeights,
    rng: FastRng,
    last: Option<SearchInfo>,
}

impl HeuristicBot {
    /// A heuristic bot with `weights`.
    pub fn new(name: impl Into<String>, weights: EvalWeights, seed: u64) -> HeuristicBot {
        HeuristicBot {
            name: name.into(),
            weights,
            rng: FastRng::new(seed),
            last: None,
        }
    }
}

impl Bot for HeuristicBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        let pos = game.position();
        if pos.can_swap() && heuristic_swap(pos, &self.weights) {
            self.last = None;
            return Ok(Move::Swap);
        }
        if let Some(sq) = pie_opening(pos, &self.weights, &mut self.rng) {
            self.last = None;
            return Ok(Move::Place(sq));
        }
        let valuer = MoveValuer::with_table(&self.weights, pos.size());
        let (sq, v) = best_square(pos.empty(), &mut self.rng, |sq| valuer.value(pos, sq))
            .ok_or_else(|| BotFault::Illegal("no free square".into()))?;
        self.last = Some(SearchInfo {
            nodes: pos.empty().count() as u64,
            depth: 1,
            eval: Some(v as f64 / MOVE_VALUE_SCALE as f64),
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

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "heuristic",
    summary: "one ply of line potential: own open segments built plus opponent segments spoiled",
    keys: &crate::bot::spec::WEIGHT_KEYS,
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        let w = crate::bot::spec::weights_from_params(params)?;
        Ok(Box::new(HeuristicBot::new(params.label(), w, seed)))
    },
};
