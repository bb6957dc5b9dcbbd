//! The solver's root: the moves grouped into classes that share one
//! value (symmetric squares, dead squares), so each class is solved once.

use super::search::{INF, dead_squares};
use crate::game::bitboard::Bitboard;
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;

/// A root move class: equivalent moves solved once.
#[derive(Clone, Debug)]
pub(super) struct RootClass {
    pub moves: Vec<Move>,
    /// Bounds on the class's value for the side to move.
    pub lo: i32,
    pub hi: i32,
    pub order: u32,
}
/// The symmetries (see [`crate::game::square::Square::transform`]) that map holes and both
/// colours' stones onto themselves, the identity included.
fn stabilizer(pos: &Position) -> Vec<u8> {
    let size = pos.size();
    (0..8u8)
        .filter(|&sym| {
            [
                pos.holes(),
                pos.stones(Player::White),
                pos.stones(Player::Black),
            ]
            .iter()
            .all(|&b| b.transform(sym, size) == b)
        })
        .collect()
}

/// The root moves grouped into classes of equal value, most promising
/// class first: squares that a symmetry of the position maps onto each
/// other, all dead squares together, and the swap alone.
pub(super) fn root_classes(pos: &Position) -> Vec<RootClass> {
    let syms = stabilizer(pos);
    let dead = dead_squares(pos);
    let me = pos.turn();
    let mut seen = Bitboard::EMPTY;
    let mut classes = Vec::new();
    for sq in pos.empty() {
        if seen.contains(sq) {
            continue;
        }
        let mut members = Bitboard::EMPTY;
        let mut frontier = vec![sq];
        while let Some(x) = frontier.pop() {
            if members.contains(x) {
                continue;
            }
            members.insert(x);
            if dead.contains(x) {
                frontier.extend(dead & !members);
            }
            for &sym in &syms {
                let y = x.transform(sym, pos.size());
                if !members.contains(y) {
                    frontier.push(y);
                }
            }
        }
        seen |= members;
        let order = 4 * (pos.gain_for(me, sq) + pos.gain_for(!me, sq)) + 1;
        classes.push(RootClass {
            moves: members.map(Move::Place).collect(),
            lo: -INF,
            hi: INF,
            order,
        });
    }
    if pos.can_swap() {
        classes.push(RootClass {
            moves: vec![Move::Swap],
            lo: -INF,
            hi: INF,
            order: 0,
        });
    }
    classes.sort_by_key(|c| std::cmp::Reverse(c.order));
    classes
}
