//! The exact search: fail-soft negamax with alpha-beta on the final margin.
//!
//! Values are half points (so a half-point komi is exact) for the colour to
//! move: `2·(own − opponent) − komi` for White, the negation for Black.
//! Step by step, a node
//! 1. closes positions with at most three free squares by formula;
//! 2. bounds the value by what each side can still add (its stones plus
//!    every free square, scored, minus its current score) and cuts when the
//!    window lies outside, or returns when both bounds meet;
//! 3. probes the transposition table for bounds and a best move; with many
//!    free squares, also its children's entries, for a move already known
//!    to refute the window (an enhanced transposition cutoff);
//! 4. plays the moves: the table move first (before the others are even
//!    scored, as it often cuts), then by how much the square is
//!    worth to either side now (own gain plus the opponent's gain there, which
//!    the move denies), then by what it is worth to either side's bound
//!    (its gain with every other free square filled), then by the history
//!    of refutations; with many free squares the heuristic's move value
//!    replaces the gain keys (measured: about half the nodes of gains alone on
//!    18-20 free squares). Of the *dead* squares (in no run of three any colour
//!    can still complete) only one is tried: they never score, so they are
//!    interchangeable tempo moves. The moves are picked best-first one at a
//!    time rather than sorted, as most nodes cut after the first or second.

use std::time::Instant;

use super::node::{
    closed_by_formula, live, pick_next, raise_best, result_bounds, settled, worth_trying,
};
use super::tt::TranspositionTable;
use crate::game::bitboard::Bitboard;
use crate::game::outcome::MoveCode;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::rng::mix64;
use crate::game::scoring::{gain, score};

/// Larger than any value: scores are below 2 · 16 · 246 points per side.
pub(crate) const INF: i32 = i32::MAX / 4;

/// Positions with fewer free squares are not stored: recomputing them is
/// cheaper than a table probe.
const TT_MIN_EMPTIES: u32 = 5;

/// Below this many free squares, moves are ordered by immediate gains
/// and history only.
const POTENTIAL_MIN_EMPTIES: u32 = 6;

/// From this many free squares, moves are ordered by the line-potential
/// heuristic's move value (fewer nodes and less time than the gain keys;
/// experiments/solver-speed/ has the measurements of where it starts).
const HEURISTIC_MIN_EMPTIES: u32 = 10;

/// From this many free squares, a node first looks up its children in the
/// table (enhanced transposition cutoffs; where it starts is measured in
/// experiments/solver-speed/).
const ETC_MIN_EMPTIES: u32 = 10;

/// Free squares where no colour can ever score again (see the module docs).
#[inline]
pub(crate) fn dead_squares(pos: &Position) -> Bitboard {
    let e = pos.empty();
    let lw = live(e | pos.stones(Player::White));
    let lb = live(e | pos.stones(Player::Black));
    e & !(lw | lb)
}

/// Why a search stopped before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// The node budget ran out.
    Nodes,
    /// The deadline passed.
    Time,
    /// The run was interrupted ([`crate::interrupt`]).
    Interrupted,
}

/// One search's state: the table, counters and limits.
pub(crate) struct Search<'t> {
    tt: &'t mut TranspositionTable,
    /// Komi in half points (added to Black).
    komi: i32,
    /// Mixed into every table key: the hash covers holes and stones only,
    /// so positions of other sizes, komi or pie setting must key apart.
    rules_key: u64,
    /// Nodes visited so far.
    pub nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    /// Set once a limit is hit; every value computed after it is garbage
    /// and nothing more is stored.
    pub stopped: Option<Stop>,
    /// History heuristic: how often (weighted by depth) a square refuted
    /// the opponent's play, per colour to move.
    history: [[u32; 64]; 2],
    /// One-ply heuristic values for move ordering in large positions.
    valuer: crate::eval::MoveValuer,
}

impl<'t> Search<'t> {
    /// A search of `root` and the positions below it.
    pub fn new(
        tt: &'t mut TranspositionTable,
        root: &Position,
        max_nodes: Option<u64>,
        deadline: Option<Instant>,
    ) -> Search<'t> {
        let komi = root.komi().halves();
        let rules = komi as u32 as u64 | (root.size() as u64) << 32 | (root.pie() as u64) << 40;
        Search {
            tt,
            komi,
            rules_key: mix64(0x6b6f_6d69_0000_0000 ^ rules),
            nodes: 0,
            max_nodes: max_nodes.unwrap_or(u64::MAX),
            deadline,
            stopped: None,
            history: [[0; 64]; 2],
            valuer: crate::eval::MoveValuer::with_table(
                &crate::eval::EvalWeights::default(),
                root.size(),
            ),
        }
    }

    /// Komi as seen by `p`: subtracted from its margin.
    #[inline]
    fn komi_for(&self, p: Player) -> i32 {
        match p {
            Player::White => self.komi,
            Player::Black => -self.komi,
        }
    }

    /// Current value of `pos` for the side to move, as the board stands.
    #[inline]
    pub fn static_value(&self, pos: &Position, sc: [i32; 2]) -> i32 {
        let me = pos.turn();
        2 * (sc[me.index()] - sc[(!me).index()]) - self.komi_for(me)
    }

    fn check_limits(&mut self) -> bool {
        if self.nodes >= self.max_nodes {
            self.stopped = Some(Stop::Nodes);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some(Stop::Time);
        } else if crate::interrupt::requested() {
            self.stopped = Some(Stop::Interrupted);
        }
        self.stopped.is_some()
    }

    /// The exact value of `pos` (side to move) when it lies strictly inside
    /// `(alpha, beta)`; otherwise a bound on the same side of the window
    /// (fail-soft). `sc` holds both colours' current line scores, indexed by
    /// [`Player::index`].
    pub fn negamax(&mut self, pos: &Position, sc: [i32; 2], mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 4095 == 0 && self.check_limits() {
            return 0;
        }
        if self.stopped.is_some() {
            return 0;
        }
        let me = pos.turn();
        let (mine, theirs, e) = (pos.stones(me), pos.stones(!me), pos.empty());
        let n = e.count();
        let base = self.static_value(pos, sc);
        let swap = pos.can_swap();

        // Step 1: at most three free squares, by formula.
        if n == 0 {
            return base;
        }
        if !swap && let Some(v) = closed_by_formula(mine, theirs, e, n) {
            return base + 2 * v;
        }

        // Step 2: bounds from what each side can still add. A pie swap
        // hands the position to the other player, so its value can be the
        // negation of anything in the bounds: no bounds then.
        let (mut lo, mut hi) = (-INF, INF);
        if !swap {
            let can_add_me = score(mine | e) as i32 - sc[me.index()];
            let can_add_opp = score(theirs | e) as i32 - sc[(!me).index()];
            (lo, hi) = (base - 2 * can_add_opp, base + 2 * can_add_me);
            if let Some(v) = settled(lo, hi, alpha, beta) {
                return v;
            }
        }

        // Step 3: the table.
        let key = pos.hash() ^ self.rules_key;
        let mut tt_move = MoveCode::NONE;
        if n >= TT_MIN_EMPTIES
            && let Some(t) = self.tt.probe(key)
        {
            (lo, hi) = (lo.max(t.lo), hi.min(t.hi));
            if let Some(v) = settled(lo, hi, alpha, beta) {
                return v;
            }
            tt_move = t.mv;
        }
        (alpha, beta) = (alpha.max(lo), beta.min(hi));
        // With bounds inside the window, a result at a bound settles it.
        let (alpha0, beta0) = (alpha, beta);

        // Step 4: the moves, best-looking first. The table move is tried
        // before the others are scored: when it cuts, their keys are never
        // needed.
        let candidates = worth_trying(mine, theirs, e);
        if n >= ETC_MIN_EMPTIES
            && let Some((v, mv)) = self.transposition_cut(pos, candidates, beta)
        {
            self.tt.store(key, v, hi, mv, n as u8);
            return v;
        }
        let (mut best, mut best_move) = (-INF, MoveCode::NONE);
        let tt_first = tt_move == MoveCode::SWAP && swap
            || tt_move.square().is_some_and(|sq| candidates.contains(sq));
        if tt_first {
            let v = self.play_child(pos, sc, tt_move, alpha, beta);
            if self.stopped.is_some() {
                return 0;
            }
            raise_best(&mut best, &mut best_move, &mut alpha, (v, tt_move), beta);
        }
        if best < beta {
            let skip = if tt_first { tt_move } else { MoveCode::NONE };
            let mut moves = [(0u64, MoveCode::NONE); 65];
            let count = self.scored_moves(pos, candidates, skip, &mut moves);
            // Picked best-first one at a time, in the order a sort by
            // descending key and ascending square would give: most nodes
            // cut after a move or two, so the rest is never ordered.
            let moves = &mut moves[..count];
            for i in 0..count {
                let mv = pick_next(moves, i);
                let v = self.play_child(pos, sc, mv, alpha, beta);
                if self.stopped.is_some() {
                    return 0;
                }
                if raise_best(&mut best, &mut best_move, &mut alpha, (v, mv), beta) {
                    break;
                }
            }
        }
        if best >= beta {
            self.note_refutation(me, best_move, n);
        }

        if n >= TT_MIN_EMPTIES {
            let (blo, bhi) = result_bounds(best, (alpha0, beta0), (lo, hi));
            self.tt.store(key, blo, bhi, best_move, n as u8);
        }
        best
    }

    /// Counts a refutation by `mv` of `who` with `n` free squares in the
    /// history that orders moves (the swap is not a square and has none).
    #[inline(always)]
    fn note_refutation(&mut self, who: Player, mv: MoveCode, n: u32) {
        if mv != MoveCode::SWAP {
            let h = &mut self.history[who.index()][mv.index()];
            *h = h.saturating_add(n * n);
        }
    }

    /// Fills `moves` with the moves of `pos` to try after the table move
    /// `skip` (already tried; [`MoveCode::NONE`] for none), each with its
    /// ordering key: with many free squares the heuristic's move value,
    /// else the square's gain to either side now and to either side's
    /// bound; then the history of refutations. `candidates`: the squares
    /// worth trying. Returns how many it wrote.
    #[inline(always)]
    fn scored_moves(
        &self,
        pos: &Position,
        candidates: Bitboard,
        skip: MoveCode,
        moves: &mut [(u64, MoveCode); 65],
    ) -> usize {
        let me = pos.turn();
        let (mine, theirs, e) = (pos.stones(me), pos.stones(!me), pos.empty());
        let n = e.count();
        let mut count = 0;
        for sq in candidates {
            let code = MoveCode::place(sq);
            if code == skip {
                continue;
            }
            let idx = sq.index();
            // Gains first, then the history of refutations.
            let g = if n >= HEURISTIC_MIN_EMPTIES {
                (self.valuer.value(pos, sq) + (1 << 24)).max(0) as u32
            } else {
                let (pm, pt) = if n >= POTENTIAL_MIN_EMPTIES {
                    (
                        gain(Bitboard((mine | e).0 & !(1u64 << idx)), sq),
                        gain(Bitboard((theirs | e).0 & !(1u64 << idx)), sq),
                    )
                } else {
                    (0, 0)
                };
                8 * (gain(mine, sq) + gain(theirs, sq)) + pm + pt
            };
            let key = ((g as u64) << 32) + self.history[me.index()][idx] as u64;
            moves[count] = (key, code);
            count += 1;
        }
        if pos.can_swap() && skip != MoveCode::SWAP {
            moves[count] = (0, MoveCode::SWAP);
            count += 1;
        }
        count
    }

    /// Enhanced transposition cutoff: a move whose position the table
    /// already knows to be worth at least `beta` (to the side to move in
    /// `pos`) settles the node without a search. Returns that lower bound
    /// and the move.
    fn transposition_cut(
        &self,
        pos: &Position,
        candidates: Bitboard,
        beta: i32,
    ) -> Option<(i32, MoveCode)> {
        for sq in candidates {
            let mut child = *pos;
            child.play_unchecked(sq);
            if let Some(t) = self.tt.probe(child.hash() ^ self.rules_key)
                && -t.hi >= beta
            {
                return Some((-t.hi, MoveCode::place(sq)));
            }
        }
        None
    }

    /// The value for the side to move in `pos` of playing `mv` (a
    /// placement or the swap), searched in the window `(alpha, beta)` of
    /// `pos`.
    #[inline]
    fn play_child(
        &mut self,
        pos: &Position,
        sc: [i32; 2],
        mv: MoveCode,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut child = *pos;
        let mut csc = sc;
        match mv.square() {
            None => {
                if child.try_swap().is_err() {
                    return -INF;
                }
            }
            Some(sq) => {
                let me = pos.turn();
                csc[me.index()] += gain(pos.stones(me), sq) as i32;
                child.play_unchecked(sq);
            }
        }
        -self.negamax(&child, csc, -beta, -alpha)
    }

    /// The exact value of `pos`, known to lie in `lo..=hi`, by MTD(f):
    /// null-window searches from `guess`, each moving one bound, until the
    /// bounds meet.
    pub fn mtdf_between(
        &mut self,
        pos: &Position,
        sc: [i32; 2],
        guess: i32,
        mut lo: i32,
        mut hi: i32,
    ) -> i32 {
        let mut g = guess.clamp(lo, hi);
        while lo < hi {
            let beta = if g == lo { g + 1 } else { g };
            g = self.negamax(pos, sc, beta - 1, beta);
            if self.stopped.is_some() {
                return 0;
            }
            if g < beta {
                hi = g;
            } else {
                lo = g;
            }
        }
        g
    }
}

/// Both colours' line scores, indexed by [`Player::index`].
#[inline]
pub(crate) fn scores_of(pos: &Position) -> [i32; 2] {
    let s = pos.scores();
    [s[Player::White] as i32, s[Player::Black] as i32]
}
