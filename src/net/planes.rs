//! The input planes of the policy-value network and the policy's move
//! indices: how a position is put to the network and how its answer maps
//! back to moves.

use crate::game::bitboard::Bitboard;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::scoring::{gain, score};
use crate::game::square::Square;

/// Input planes per square ([`encode`]).
pub const PLANES: usize = 11;

/// The policy's index of the swap: after the `size * size` squares.
pub fn swap_index(size: u8) -> usize {
    size as usize * size as usize
}

/// The policy's index of `sq` on a board of side `size`: `row * size +
/// col`, the layout of the planes.
#[inline]
pub fn square_index(sq: Square, size: u8) -> usize {
    sq.row() as usize * size as usize + sq.col() as usize
}

/// The square of policy index `i` (below `size * size`).
#[inline]
pub fn index_square(i: usize, size: u8) -> Square {
    let s = size as usize;
    Square::new((i % s) as u8, (i / s) as u8)
}

/// Komi, scores and gains are given to the network in units of this many
/// points, so that usual values are inputs of the order of one.
pub const POINTS_UNIT: f32 = 10.0;

/// What the input planes are made of: a position from the side to move's
/// view, small enough to keep by the hundred thousand (`pahtum train`'s
/// replay buffer) and turned into planes by [`Features::write`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    /// The side to move's stones.
    pub mine: Bitboard,
    /// The other side's stones.
    pub theirs: Bitboard,
    /// The holes.
    pub holes: Bitboard,
    /// Board side.
    pub size: u8,
    /// Whether the side to move is White.
    pub white: bool,
    /// Whether the pie swap is offered.
    pub swap: bool,
    /// Komi for the side to move, in half points (positive: in its favour).
    pub komi_halves: i32,
}

impl Features {
    /// The features of `pos`.
    pub fn of(pos: &Position) -> Features {
        let me = pos.turn();
        // Komi goes to Black.
        let k = pos.komi().halves();
        Features {
            mine: pos.stones(me),
            theirs: pos.stones(!me),
            holes: pos.holes(),
            size: pos.size(),
            white: me == Player::White,
            swap: pos.can_swap(),
            komi_halves: if me == Player::Black { k } else { -k },
        }
    }

    /// The same position under symmetry `sym` of the square (0..8, as
    /// [`Square::transform`]).
    pub fn transform(&self, sym: u8) -> Features {
        Features {
            mine: self.mine.transform(sym, self.size),
            theirs: self.theirs.transform(sym, self.size),
            holes: self.holes.transform(sym, self.size),
            ..*self
        }
    }

    /// Writes the input planes into `out` (`size * size * PLANES` numbers,
    /// square by square, the planes of a square contiguous).
    pub fn write(&self, out: &mut [f32]) {
        let n = self.size as usize * self.size as usize;
        debug_assert_eq!(out.len(), n * PLANES);
        let white = f32::from(u8::from(self.white));
        let swap = f32::from(u8::from(self.swap));
        let komi = self.komi_halves as f32 / 2.0 / POINTS_UNIT;
        let lead = (score(self.mine) as f32 - score(self.theirs) as f32) / POINTS_UNIT;
        for (i, cell) in out.chunks_exact_mut(PLANES).enumerate() {
            let sq = index_square(i, self.size);
            let (m, t, h) = (
                self.mine.contains(sq),
                self.theirs.contains(sq),
                self.holes.contains(sq),
            );
            cell[0] = f32::from(u8::from(m));
            cell[1] = f32::from(u8::from(t));
            cell[2] = f32::from(u8::from(h));
            cell[3] = f32::from(u8::from(!(m || t || h)));
            cell[4] = 1.0;
            cell[5] = white;
            cell[6] = swap;
            cell[7] = komi;
            let free = cell[3] != 0.0;
            cell[8] = if free {
                gain(self.mine, sq) as f32 / POINTS_UNIT
            } else {
                0.0
            };
            cell[9] = if free {
                gain(self.theirs, sq) as f32 / POINTS_UNIT
            } else {
                0.0
            };
            cell[10] = lead;
        }
    }
}

/// Writes the input planes of `pos` into `out` (`size * size * PLANES`
/// numbers, square by square, the planes of a square contiguous), from the
/// side to move's view.
pub fn encode(pos: &Position, out: &mut [f32]) {
    Features::of(pos).write(out);
}
