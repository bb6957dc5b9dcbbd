//! The root's moves after a search: their statistics, the move played, the
//! principal variation and the report of the search.

use super::PV_LEN;
use super::config::FinalChoice;
use super::tree::{NodeId, NodeState, Proof, Tree};
use crate::game::outcome::Move;
use crate::game::player::Player;

/// Statistics of one root move (merged over trees with root parallelism).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Visits.
    pub visits: u64,
    /// Mean reward for the side to move, `[0, 1]`.
    pub mean: f64,
    /// Proven result for the side to move, if any.
    pub proof: Proof,
}

/// What the last search did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchReport {
    /// Iterations run.
    pub iterations: u64,
    /// Tree nodes in use, all trees together.
    pub nodes: u64,
    /// Deepest path, in plies.
    pub depth: u32,
    /// Root moves, most visited first.
    pub moves: Vec<RootMove>,
    /// Principal variation, the chosen move first.
    pub pv: Vec<Move>,
    /// Set when the move came from the exact endgame search: White's
    /// final margin in half points.
    pub exact_margin: Option<i32>,
    /// With `exact_margin`: the mover's expected score that result gives
    /// (1 a win, ½ a draw, 0 a loss; a swapper's as White's owner).
    pub exact_share: Option<f64>,
    /// Set when the move came from the root's result-only proof (`prove=`):
    /// the result it keeps for the side to move, `1` win, `0` draw, `-1`
    /// loss.
    pub proven: Option<i32>,
    /// Whether the search started from the subtree kept from the last move.
    pub reused: bool,
    /// The colour the search modelled as `heuristic` (`model=`), if any.
    pub modelled: Option<Player>,
}

/// The move to play: a proven win if there is one; never a proven loss
/// unless every move is one; else by `final`.
pub(super) fn choose(moves: &[RootMove], how: FinalChoice) -> Option<Move> {
    if let Some(m) = moves.iter().find(|m| m.proof == Proof::Win) {
        return Some(m.mv);
    }
    let live: Vec<&RootMove> = moves.iter().filter(|m| m.proof != Proof::Loss).collect();
    let pool: Vec<&RootMove> = if live.is_empty() {
        moves.iter().collect()
    } else {
        live
    };
    match how {
        // `moves` is sorted by visits, then mean.
        FinalChoice::Visits => pool.first().map(|m| m.mv),
        FinalChoice::Value => {
            let most = pool.first().map_or(0, |m| m.visits);
            pool.iter()
                .filter(|m| m.visits * 10 >= most && m.visits > 0)
                .max_by(|a, b| a.mean.total_cmp(&b.mean))
                .map(|m| m.mv)
        }
    }
}

/// Follows the most visited children below `from` into `pv`.
pub(super) fn principal_variation(tree: &Tree, from: NodeId, pv: &mut Vec<Move>) {
    let mut id = from;
    while pv.len() < PV_LEN {
        let node = tree.node(id);
        if node.state() != NodeState::Expanded {
            break;
        }
        let Some(best) = node
            .children()
            .ids()
            .max_by_key(|&c| (tree.node(c).visits(), std::cmp::Reverse(c.index())))
        else {
            break;
        };
        if tree.node(best).visits() == 0 {
            break;
        }
        pv.push(tree.node(best).mv());
        id = best;
    }
}
