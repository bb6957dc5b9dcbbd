//! A search node's arithmetic, apart from the search that drives it:
//! closing a position by formula, settling it by its bounds, the squares
//! worth trying and the order to try them, and what a result tells the
//! window and the table.

use crate::game::bitboard::Bitboard;
use crate::game::outcome::MoveCode;
use crate::game::scoring::gain;
use crate::game::square::Square;

/// Window starts where a run of three fits across (columns 0..=5).
const ACROSS_STARTS: u64 = 0x3f3f_3f3f_3f3f_3f3f;

/// Squares of `avail` that lie in some run of three squares of `avail`,
/// across or down: where stones of a colour whose usable squares are
/// `avail` can still score.
#[inline]
pub(crate) fn live(avail: Bitboard) -> Bitboard {
    let a = avail.0;
    let h = a & (a >> 1) & (a >> 2) & ACROSS_STARTS;
    let v = a & (a >> 8) & (a >> 16);
    Bitboard(h | (h << 1) | (h << 2) | v | (v << 8) | (v << 16))
}

/// What the side to move (stones `mine`) gains over the opponent (stones
/// `theirs`) in points when the three free squares `e` are filled under
/// minimax play: it takes one, the opponent one, it gets the last.
#[inline]
fn three_left(mine: Bitboard, theirs: Bitboard, e: Bitboard) -> i32 {
    let mut sq = [Square::from_index_unchecked(0); 3];
    for (slot, s) in sq.iter_mut().zip(e) {
        *slot = s;
    }
    let opp_gain = sq.map(|s| gain(theirs, s) as i32);
    let mut best = i32::MIN;
    for x in 0..3 {
        let (y, z) = ((x + 1) % 3, (x + 2) % 3);
        let with_x = mine | Bitboard::from_square(sq[x]);
        // The opponent takes y (leaving z to us) or z (leaving y).
        let reply = (gain(with_x, sq[z]) as i32 - opp_gain[y])
            .min(gain(with_x, sq[y]) as i32 - opp_gain[z]);
        best = best.max(gain(mine, sq[x]) as i32 + reply);
    }
    best
}

/// The value of a position with one to three free squares and no swap to
/// the side to move, on top of its static value (in half points, so
/// doubled by the caller), by formula; `None` with more free squares.
#[inline(always)]
pub(super) fn closed_by_formula(
    mine: Bitboard,
    theirs: Bitboard,
    e: Bitboard,
    n: u32,
) -> Option<i32> {
    if n <= 2 {
        let mut it = e;
        let a = it.next().unwrap_or(Square::from_index_unchecked(0));
        if n == 1 {
            return Some(gain(mine, a) as i32);
        }
        let b = it.next().unwrap_or(a);
        let va = gain(mine, a) as i32 - gain(theirs, b) as i32;
        let vb = gain(mine, b) as i32 - gain(theirs, a) as i32;
        return Some(va.max(vb));
    }
    // Three free squares: exact by formula, cheaper than the bounds.
    (n == 3).then(|| three_left(mine, theirs, e))
}

/// The free squares `e` worth trying: every live one and, of the dead
/// squares (in no run of three any colour can still complete), which are
/// all worth the same, only the first.
#[inline(always)]
pub(super) fn worth_trying(mine: Bitboard, theirs: Bitboard, e: Bitboard) -> Bitboard {
    let dead = e & !(live(e | mine) | live(e | theirs));
    (e & !dead) | dead.first().map_or(Bitboard::EMPTY, Bitboard::from_square)
}

/// The bounds the table keeps of a node's result `best` searched in the
/// window `alpha0..beta0` its own bounds `lo..=hi` narrowed: an upper
/// bound when it failed low, a lower bound when it failed high, else the
/// exact value.
#[inline(always)]
pub(super) fn result_bounds(
    best: i32,
    (alpha0, beta0): (i32, i32),
    (lo, hi): (i32, i32),
) -> (i32, i32) {
    if best <= alpha0 {
        (lo, best)
    } else if best >= beta0 {
        (best, hi)
    } else {
        (best, best)
    }
}

/// The node's value when its bounds `lo..=hi` settle it against the
/// window `alpha..beta`: a lower bound at or above `beta`, bounds that
/// meet, or an upper bound at or below `alpha`.
#[inline(always)]
pub(super) fn settled(lo: i32, hi: i32, alpha: i32, beta: i32) -> Option<i32> {
    if lo >= beta || lo == hi {
        Some(lo)
    } else if hi <= alpha {
        Some(hi)
    } else {
        None
    }
}

/// Moves the best-looking of `moves[i..]` to `i` and returns its move:
/// the highest key, the lowest move among equal keys, as a sort by
/// descending key and ascending move would place it.
#[inline(always)]
pub(super) fn pick_next(moves: &mut [(u64, MoveCode)], i: usize) -> MoveCode {
    let mut pick = i;
    for j in i + 1..moves.len() {
        let (a, b) = (moves[j], moves[pick]);
        if a.0 > b.0 || a.0 == b.0 && a.1 < b.1 {
            pick = j;
        }
    }
    moves.swap(i, pick);
    moves[i].1
}

/// Takes a move's value `v` into a node's fail-soft bookkeeping: a new
/// best raises `best` (with its move) and `alpha`; returns whether the move
/// refutes the window (`v >= beta`), so the caller stops trying moves. The
/// solver and the alpha-beta bot keep their nodes the same way.
#[inline(always)]
pub(crate) fn raise_best(
    best: &mut i32,
    best_move: &mut MoveCode,
    alpha: &mut i32,
    (v, mv): (i32, MoveCode),
    beta: i32,
) -> bool {
    if v > *best {
        *best = v;
        *best_move = mv;
        if v > *alpha {
            *alpha = v;
            return v >= beta;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_squares() {
        // A row of three free squares is live; two are not.
        let three = Bitboard(0b111);
        assert_eq!(live(three), three);
        assert_eq!(live(Bitboard(0b11)), Bitboard::EMPTY);
        // Down as well; no wrap from column 6 of one row into the next.
        let down = Bitboard(1 | 1 << 8 | 1 << 16);
        assert_eq!(live(down), down);
        let wrap = Bitboard(1 << 6 | 1 << 7 | 1 << 8);
        assert_eq!(live(wrap), Bitboard::EMPTY);
    }
}
