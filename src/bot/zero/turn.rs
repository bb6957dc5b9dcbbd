//! What a `zero` move costs before its search (the exact endgame's move
//! with few squares left, and the budget of the move: its share of the
//! clock in a clocked game), and what it leaves after (its report and its
//! policy target).

use std::time::{Duration, Instant};

use super::search::{PuctNode, StepTotals};
use super::{Budget, PV_LEN, RootSearch, ZeroBot, endgame, gumbel};
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

    /// This move's deadline (a time budget) and simulations (`u64::MAX`
    /// under a time budget), from the search's start.
    pub(super) fn limits(&self, pos: &Position, started: Instant) -> (Option<Instant>, u64) {
        match self.move_budget(pos) {
            Budget::Millis(ms) => (Some(started + Duration::from_millis(ms)), u64::MAX),
            Budget::Iters(n) => (None, n),
        }
    }

    /// Records the search that chose `node`: its report, and with
    /// `root=gumbel` its improved policy.
    pub(super) fn record(&mut self, node: &PuctNode, o: &StepTotals) {
        self.target = if self.cfg.root == RootSearch::Gumbel {
            gumbel::improved_policy(&self.tree)
        } else {
            Vec::new()
        };
        let root_mean = self.tree.root().map_or(0.0, |r| -r.mean());
        let pv = self.tree.principal_variation(PV_LEN);
        self.last = Some(SearchInfo {
            nodes: o.iterations,
            depth: pv.len() as u32,
            eval: Some(f64::from(root_mean)),
            // The value head's tanh: -1 a loss, 1 a win.
            expect: Some((1.0 + f64::from(root_mean)) / 2.0),
            pv,
            extra: format!(
                "evals={} collisions={} prior={:.3} visits={}",
                o.evaluations,
                o.collisions,
                node.prior(),
                node.visits()
            ),
        });
    }

    /// Whether the last move came from the exact solver, not a search.
    pub(super) fn solved(&self) -> bool {
        self.last
            .as_ref()
            .is_some_and(|l| l.extra.starts_with("exact"))
    }

    /// The policy the last search recommends, a share per root move in
    /// the tree's order that sums to one: the visit shares with
    /// `root=puct`, the improved policy with `root=gumbel` (what
    /// self-play learns from). Empty when the move came from the exact
    /// solver or the root has no visit.
    pub fn policy_target(&self) -> Vec<(Move, f32)> {
        if self.solved() {
            return Vec::new();
        }
        if self.cfg.root == RootSearch::Gumbel {
            return self.target.clone();
        }
        let visits = self.root_visits();
        let total: u32 = visits.iter().map(|v| v.1).sum();
        if total == 0 {
            return Vec::new();
        }
        visits
            .into_iter()
            .map(|(m, v)| (m, v as f32 / total as f32))
            .collect()
    }
}
