//! The `learned` bot: one ply of the line network, and the `net=` key that
//! `learned` and `mcts` read.

use std::path::Path;

use super::{LineNet, NetLines};
use crate::bot::choose::{best_square, heuristic_swap, pie_opening};
use crate::bot::spec::{BotKind, KeyInfo, Params, SpecError};
use crate::bot::{Bot, BotFault, SearchInfo};
use crate::eval::{EvalWeights, MOVE_VALUE_SCALE, MoveValuer};
use crate::game::outcome::Move;
use crate::game::record::Game;
use crate::game::rng::FastRng;

/// `learned`: one ply of the learned network, the [`HeuristicBot`]'s
/// counterpart with a learned value in place of the line-potential one.
/// Ties are broken at random from the bot's seed. Boards the network was
/// not trained for are played by the heuristic's move value; the pie rule
/// is handled as `heuristic` does.
///
/// [`HeuristicBot`]: crate::bot::heuristic::HeuristicBot
#[derive(Clone, Debug)]
pub struct LearnedBot {
    name: String,
    net: Option<&'static LineNet>,
    weights: EvalWeights,
    rng: FastRng,
    last: Option<SearchInfo>,
}

impl LearnedBot {
    /// A bot playing by `net` (`None`: the built-in network).
    pub fn new(name: impl Into<String>, net: Option<&'static LineNet>, seed: u64) -> LearnedBot {
        LearnedBot {
            name: name.into(),
            net,
            weights: EvalWeights::default(),
            rng: FastRng::new(seed),
            last: None,
        }
    }
}

impl Bot for LearnedBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        let pos = game.position();
        self.last = None;
        if pos.can_swap() && heuristic_swap(pos, &self.weights) {
            return Ok(Move::Swap);
        }
        if let Some(sq) = pie_opening(pos, &self.weights, &mut self.rng) {
            return Ok(Move::Place(sq));
        }
        let net = self
            .net
            .or_else(|| LineNet::builtin(pos.size()))
            .filter(|n| n.size() == pos.size());
        let (sq, eval, extra) = match net {
            Some(net) => {
                let (sq, v) = super::best_move(&NetLines::new(net, pos), net, pos, &mut self.rng);
                (sq, v as f64, String::new())
            }
            None => {
                let valuer = MoveValuer::with_table(&self.weights, pos.size());
                let best = best_square(pos.empty(), &mut self.rng, |sq| valuer.value(pos, sq));
                (
                    best.map(|b| b.0),
                    best.map_or(0.0, |b| b.1 as f64 / MOVE_VALUE_SCALE as f64),
                    // Said where `play --verbose` shows it.
                    "value=heuristic".to_string(),
                )
            }
        };
        let sq = sq.ok_or_else(|| BotFault::Illegal("no free square".into()))?;
        self.last = Some(SearchInfo {
            nodes: pos.empty().count() as u64,
            depth: 1,
            eval: Some(eval),
            expect: None,
            pv: vec![Move::Place(sq)],
            extra,
        });
        Ok(Move::Place(sq))
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.last.clone()
    }
}

/// The `net=` key of the bots that use a network.
pub const NET_KEY: KeyInfo = KeyInfo::text(
    "net",
    "builtin|FILE",
    BUILTIN,
    "the learned line network: the built-in one (7x7), or a file written by \
     examples/train_lines; boards of another size are valued by the heuristic",
);

/// The `net=` value of the built-in network.
const BUILTIN: &str = "builtin";

/// Reads the `net=` key: `None` for the built-in network.
///
/// # Errors
/// The file cannot be read or is not a network; the message names the
/// spec and the file.
pub fn net_param(p: &Params) -> Result<Option<&'static LineNet>, SpecError> {
    match p.text(&NET_KEY)? {
        BUILTIN => Ok(None),
        path => LineNet::load(Path::new(path))
            .map(Some)
            .map_err(|e| SpecError(format!("bot spec '{}': {e}", p.spec()))),
    }
}

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "learned",
    summary: "one ply of a learned line network (n-tuple, TD self-play); a stronger one-ply baseline than heuristic",
    keys: &[NET_KEY],
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        let net = net_param(params)?;
        Ok(Box::new(LearnedBot::new(params.label(), net, seed)))
    },
};
