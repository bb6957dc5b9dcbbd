//! The `learned` bot: one ply of the line network of
//! [`crate::net::lines`], and the `net=` key that `learned` and `mcts`
//! read. The network, its file and its inference are in `net/lines.rs`,
//! its trainer in `learn/lines.rs`; this room holds the player.

use crate::game::position::Position;
use crate::game::rng::FastRng;
use crate::game::square::Square;

use super::choose::best_from_random_start;

mod bot;

pub use crate::net::NetError;
use crate::net::lines::{LineNet, NetLines};
pub use bot::{KIND, LearnedBot, NET_KEY, net_param};

/// The side to move's best square by [`NetLines::move_value`] (random
/// among equals: the scan starts at a random square and keeps the first
/// maximum) and its value; no square on a full board. `lines` are those
/// of `pos`.
pub fn best_move(
    lines: &NetLines,
    net: &LineNet,
    pos: &Position,
    rng: &mut FastRng,
) -> (Option<Square>, f32) {
    let base = lines.after_base(net, pos);
    best_from_random_start(pos.empty(), rng, |sq| lines.move_value(net, pos, base, sq))
        .map_or((None, f32::NEG_INFINITY), |(sq, v)| (Some(sq), v))
}
