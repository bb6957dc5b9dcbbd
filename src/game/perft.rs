//! Perft: counting move sequences, the classic check of move generation.

use super::position::Position;

/// Number of move sequences of exactly `depth` placements from `pos` (pie
/// swaps not counted), by walking the tree with play/undo.
///
/// Before the game ends this is the falling factorial E·(E−1)·…·(E−depth+1)
/// of the E free squares; the walk checks that play and undo keep the free
/// squares consistent.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.legal_moves().count() as u64;
    }
    let mut n = 0;
    for sq in pos.legal_moves() {
        pos.play_unchecked(sq);
        n += perft(pos, depth - 1);
        pos.undo_unchecked(sq);
    }
    n
}
