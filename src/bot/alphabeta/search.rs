//! The tree search of `alphabeta`: negamax with alpha-beta pruning, a
//! transposition table and move ordering, within the node and time budget.

use std::time::Instant;

use super::{
    AlphaBetaBot, CHEAP_ORDER_DEPTH, EXACT, INF, LOWER, MAX_PLY, TtEntry, UPPER, play, rules_key,
    static_value,
};
use crate::game::outcome::{Move, MoveCode};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::solve::raise_best;

impl AlphaBetaBot {
    fn tt_index(&self, key: u64) -> usize {
        key as usize & (self.tt.len() - 1)
    }

    fn out_of_budget(&mut self) -> bool {
        if !self.stopped
            && (self.nodes >= self.node_limit
                || (self.nodes & 1023 == 0
                    && (crate::interrupt::requested()
                        || self.deadline.is_some_and(|d| Instant::now() >= d))))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Legal moves of `pos` in search order: `first` (table move), the
    /// killers of `ply`, then by one-ply value plus history.
    fn ordered_moves(
        &self,
        pos: &Position,
        first: MoveCode,
        ply: usize,
        cheap: bool,
        out: &mut [(i64, MoveCode); 65],
    ) -> usize {
        let mut count = 0;
        let me = pos.turn().index();
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let valuer = &self.valuer;
        for sq in pos.empty() {
            let code = MoveCode::place(sq);
            let idx = sq.index();
            let key = if code == first {
                i64::MAX
            } else if code == killers[0] {
                i64::MAX - 1
            } else if code == killers[1] {
                i64::MAX - 2
            } else if cheap {
                let g = pos.gain_for(pos.turn(), sq) + pos.gain_for(!pos.turn(), sq);
                g as i64 * (1 << 20) + self.history[me][idx].min((1 << 20) - 1) as i64
            } else {
                valuer.value(pos, sq) as i64 * 1024 + self.history[me][idx].min(1023) as i64
            };
            out[count] = (key, code);
            count += 1;
        }
        if pos.can_swap() {
            let key = if first == MoveCode::SWAP { i64::MAX } else { 0 };
            out[count] = (key, MoveCode::SWAP);
            count += 1;
        }
        out[..count].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        count
    }

    /// Principal-variation search of `pos` to `depth` plies: the exact
    /// value inside `(alpha, beta)`, else a bound on that side.
    pub(super) fn search(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if pos.is_game_over() {
            let m = pos.margin_halves();
            return if pos.turn() == Player::White { m } else { -m };
        }
        if depth == 0 {
            return static_value(pos, &self.cfg.weights);
        }
        let key = pos.hash() ^ rules_key(pos);
        let slot = self.tt_index(key);
        let e = self.tt[slot];
        let mut first = MoveCode::NONE;
        if e.used && e.key == key {
            first = e.mv;
            if e.depth as u32 >= depth {
                match e.kind {
                    EXACT => return e.value,
                    LOWER if e.value >= beta => return e.value,
                    UPPER if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let mut buf = [(0i64, MoveCode::NONE); 65];
        let count = self.ordered_moves(pos, first, ply, depth <= CHEAP_ORDER_DEPTH, &mut buf);
        let moves = &buf[..count];
        let mut best = -INF;
        let mut best_move = MoveCode::NONE;
        for (i, &(_, mv)) in moves.iter().enumerate() {
            let child = play(pos, mv);
            let v = if i == 0 {
                -self.search(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let v = -self.search(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if v > alpha && v < beta && !self.stopped {
                    -self.search(&child, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    v
                }
            };
            if self.stopped {
                return 0;
            }
            if raise_best(&mut best, &mut best_move, &mut alpha, (v, mv), beta) {
                if mv != MoveCode::SWAP {
                    let me = pos.turn().index();
                    let h = &mut self.history[me][mv.index()];
                    *h = h.saturating_add(depth * depth);
                    let k = &mut self.killers[ply.min(MAX_PLY - 1)];
                    if k[0] != mv {
                        k[1] = k[0];
                        k[0] = mv;
                    }
                }
                break;
            }
        }
        let kind = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        if !e.used || e.key == key || e.generation != self.generation || depth as u8 >= e.depth {
            self.tt[slot] = TtEntry {
                key,
                value: best,
                depth: depth as u8,
                kind,
                mv: best_move,
                used: true,
                generation: self.generation,
            };
        }
        best
    }

    /// The line the table predicts from `pos`, at most `len` moves.
    pub(super) fn principal_variation(&self, pos: &Position, len: u32) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut p = *pos;
        while pv.len() < len as usize && !p.is_game_over() {
            let key = p.hash() ^ rules_key(&p);
            let e = self.tt[self.tt_index(key)];
            if !e.used || e.key != key || e.mv == MoveCode::NONE {
                break;
            }
            let mv = e.mv.to_move();
            if p.try_play_move(mv).is_err() {
                break;
            }
            pv.push(mv);
        }
        pv
    }
}
