//! Small pieces shared by the one-ply bots: picking the best square with
//! random tie-breaks, and the pie-rule decision.

use crate::eval::{EvalWeights, MoveValuer, evaluate};
use crate::game::bitboard::Bitboard;
use crate::game::position::Position;
use crate::game::rng::FastRng;
use crate::game::square::Square;

/// The square of `candidates` with the highest `value`, ties broken
/// uniformly at random from `rng` (reservoir sampling over the ties, so no
/// allocation). `None` when there is no candidate.
#[inline]
pub fn best_square<T: PartialOrd + Copy>(
    candidates: Bitboard,
    rng: &mut FastRng,
    mut value: impl FnMut(Square) -> T,
) -> Option<(Square, T)> {
    let mut best: Option<(Square, T)> = None;
    let mut ties = 0u32;
    for sq in candidates {
        let v = value(sq);
        match best {
            Some((_, b)) if v < b => {}
            Some((_, b)) if v == b => {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = Some((sq, v));
                }
            }
            _ => {
                best = Some((sq, v));
                ties = 1;
            }
        }
    }
    best
}

/// The square of `candidates` with the highest `value`, ties broken by a
/// scan that starts at a random square and keeps the first maximum: one
/// random word per choice, for the playouts and self-play that choose at
/// every ply. `None` when there is no candidate.
#[inline(always)]
pub fn best_from_random_start<T: PartialOrd + Copy>(
    candidates: Bitboard,
    rng: &mut FastRng,
    mut value: impl FnMut(Square) -> T,
) -> Option<(Square, T)> {
    let r = (rng.next_word() & 63) as u32;
    let mut rot = candidates.0.rotate_right(r);
    let mut best: Option<(Square, T)> = None;
    while rot != 0 {
        let b = rot.trailing_zeros();
        rot &= rot - 1;
        let sq = Square::from_index_unchecked(((b + r) & 63) as u8);
        let v = value(sq);
        if best.is_none_or(|(_, top)| v > top) {
            best = Some((sq, v));
        }
    }
    best
}

/// The highest-valued square by [`crate::eval::move_value`] and its value, the first
/// one in square order on ties (deterministic: the swap decision below
/// and the `mcts` evaluation leaves).
pub fn first_best(pos: &Position, valuer: &MoveValuer) -> Option<(Square, i32)> {
    let mut best: Option<(Square, i32)> = None;
    for sq in pos.empty() {
        let v = valuer.value(pos, sq);
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((sq, v));
        }
    }
    best
}

/// How much the position after White's first stone favours White, by the
/// shared heuristic: the pie decision of [`heuristic_swap`] is `>= 0`.
///
/// Both choices lead to the same board: whoever ends up as Black answers
/// White's stone, and the heuristic picks the same answer `m` either way.
/// So the question is only whether the position after `m` favours White.
/// A static evaluation there is biased towards Black (White is to move and
/// that tempo is not counted), and one ply further towards White; the score
/// averages the two: `evaluate(P + m) + evaluate(P + m + r)`, `r` being
/// White's best reply, both by `w`.
pub fn swap_score(pos: &Position, w: &EvalWeights) -> i32 {
    let valuer = MoveValuer::with_table(w, pos.size());
    let Some((m, _)) = first_best(pos, &valuer) else {
        return evaluate(pos, w);
    };
    let mut q = *pos;
    q.play_unchecked(m);
    let mut total = evaluate(&q, w);
    if let Some((r, _)) = first_best(&q, &valuer) {
        let mut after = q;
        after.play_unchecked(r);
        total += evaluate(&after, w);
    }
    total
}

/// The pie-rule decision of the one-ply bots, called when
/// `pos.can_swap()` (White has placed one stone, Black to decide): swap when
/// [`swap_score`] is at least 0. Ties swap, because owning White keeps the
/// tempo. In self-play of `heuristic` on 7x7 with 5 holes the first mover
/// scores 0.77 without the pie rule, so swapping a good first stone is right.
pub fn heuristic_swap(pos: &Position, w: &EvalWeights) -> bool {
    swap_score(pos, w) >= 0
}

/// White's first stone under the pie rule, for the one-ply bots: the best
/// stone (by [`swap_score`]) that [`heuristic_swap`] would still not take,
/// ties at random; when every stone would be swapped, the one that helps
/// White least. `None` unless it is White's first move with the pie rule on.
///
/// Playing the best square outright just hands it to the opponent, who
/// swaps and keeps it (docs/baselines-history.md, "The first stone under
/// the pie rule").
pub fn pie_opening(pos: &Position, w: &EvalWeights, rng: &mut FastRng) -> Option<Square> {
    if !pos.pie() || pos.stone_count() != 0 || pos.swapped() {
        return None;
    }
    let scored = |sq: Square| {
        let mut p = *pos;
        p.play_unchecked(sq);
        swap_score(&p, w)
    };
    let kept = best_square(pos.empty(), rng, |sq| {
        let s = scored(sq);
        // Stones below 0 are kept by the opponent: prefer them, best first;
        // then stones that would be swapped, least valuable first.
        if s < 0 { (1, s) } else { (0, -s) }
    });
    kept.map(|(sq, _)| sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;

    #[test]
    fn ties_are_spread() {
        let mut rng = FastRng::new(1);
        let mut seen = [0u32; 64];
        let cands = Bitboard::full(3);
        for _ in 0..900 {
            let (sq, _) = best_square(cands, &mut rng, |_| 0).expect("some");
            seen[sq.index()] += 1;
        }
        for sq in cands {
            assert!(seen[sq.index()] > 60, "{sq} {}", seen[sq.index()]);
        }
        let (sq, v) = best_square(cands, &mut rng, |s| s.index()).expect("some");
        assert_eq!((sq.index(), v), (18, 18));
        assert!(best_square(Bitboard::EMPTY, &mut rng, |_| 0).is_none());
    }

    #[test]
    fn swaps_a_centre_stone_not_a_cornered_one() {
        let w = EvalWeights::default();
        let mut centre = Position::new(7, Bitboard::EMPTY, true, Komi::ZERO).expect("pos");
        centre.play("d4".parse().expect("sq"));
        assert!(heuristic_swap(&centre, &w));
        // a1 boxed in by holes on a2 and b1 can never score.
        let holes: Bitboard = ["a2", "b1"]
            .iter()
            .map(|s| s.parse().expect("sq"))
            .collect();
        let mut corner = Position::new(7, holes, true, Komi::ZERO).expect("pos");
        corner.play("a1".parse().expect("sq"));
        assert!(!heuristic_swap(&corner, &w));
    }

    #[test]
    fn pie_opening_is_a_stone_the_swap_rule_keeps() {
        let w = EvalWeights::default();
        let mut rng = FastRng::new(4);
        let start = Position::new(7, Bitboard::EMPTY, true, Komi::ZERO).expect("pos");
        let sq = pie_opening(&start, &w, &mut rng).expect("an opening");
        let mut after = start;
        after.play(sq);
        assert!(!heuristic_swap(&after, &w), "{sq}");
        assert_eq!(pie_opening(&after, &w, &mut rng), None);
        let no_pie = Position::new(7, Bitboard::EMPTY, false, Komi::ZERO).expect("pos");
        assert_eq!(pie_opening(&no_pie, &w, &mut rng), None);
    }
}
