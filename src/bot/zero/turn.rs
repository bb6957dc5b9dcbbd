//! What a `zero` move costs before its search: the exact endgame's move
//! with few squares left, and the budget of the move (its share of the
//! clock in a clocked game).

use super::{Budget, ZeroBot, endgame};
use crate::bot::SearchInfo;
use crate::game::outcome::Move;
use crate::game::position::Position;
use crate::solve::Solver;

impl ZeroBot {
    /// The exact endgame's move for `pos` (few squares left), reported as
    /// this move's search.
    pub(super) fn solved_move(&mut self, pos: &Position) -> Option<Move> {
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(Solver::new(endgame::TABLE_MB)));
        let ex = endgame::solve(pos, solver);
        let mv = ex.best?;
        self.rooted = None;
        self.last = Some(SearchInfo {
            nodes: 0,
            depth: pos.empty().count(),
            eval: None,
            expect: None,
            pv: vec![mv],
            extra: format!("exact margin_halves={}", ex.margin_halves),
        });
        Some(mv)
    }

    /// This move's budget: its share of the clock in a clocked game, else
    /// the spec's.
    pub(super) fn move_budget(&self, pos: &Position) -> Budget {
        match self.clock {
            Some(c) => {
                let share = c.allot(pos, self.cfg.alloc, self.cfg.settings.exact);
                Budget::Millis((share.as_millis() as u64).max(1))
            }
            None => self.cfg.budget,
        }
    }
}
