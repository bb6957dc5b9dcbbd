//! A PUCT search taken step by step, so that its caller evaluates the
//! leaves: [`ZeroBot::search`] with its own network, or the trainer with
//! many games' leaves in one batch (`pahtum train --parallel-games`). Both
//! go through the same steps, so a search's moves do not depend on who
//! evaluates its leaves: each position's numbers do not depend on its
//! batch.
//!
//! ```text
//! begin(game) -> Some(move): decided at once (the exact endgame)
//!             -> None: then, while next_leaves() > 0,
//!                      evaluate leaves() and absorb() the outputs
//!                      (or evaluate_own()); then conclude(game)
//! ```

use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use super::search::{PuctNode, Settings, StepTotals, noise_rng};
use super::{ZeroBot, endgame};
use crate::bot::BotFault;
use crate::game::outcome::Move;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::solve::Solver;

/// Where a search stands between its steps.
#[derive(Debug)]
pub(super) struct Pending {
    /// The root noise's and the exploring move's draws.
    pub(super) rng: ChaCha8Rng,
    pub(super) totals: StepTotals,
    /// The move's budget: iterations, and a deadline with `ms=` or a clock.
    pub(super) iters: u64,
    pub(super) deadline: Option<Instant>,
    /// Whether the root's noise is in (once the root is expanded).
    noised: bool,
}

impl ZeroBot {
    /// Begins the search of `game`'s position: the move at once where the
    /// exact endgame decides it, else `None` and the search's steps
    /// follow (see the module). Steps search the PUCT root
    /// (`root=puct`); `root=gumbel` is [`ZeroBot::search`]'s alone.
    ///
    /// # Errors
    /// [`BotFault::Illegal`] if the game is over.
    pub fn begin(&mut self, game: &Game) -> Result<Option<Move>, BotFault> {
        self.pending = None;
        let pos = *game.position();
        if pos.is_game_over() {
            return Err(BotFault::Illegal("the game is over".into()));
        }
        let started = Instant::now();
        if pos.empty().count() <= self.cfg.settings.exact
            && !pos.swap_follows()
            && let Some(mv) = self.solved_move(&pos)
        {
            return Ok(Some(mv));
        }
        self.prepare_tree(game);
        let (deadline, iters) = self.limits(&pos, started);
        self.pending = Some(Pending {
            rng: noise_rng(derive_seed(self.seed, &[game.moves().len() as u64])),
            totals: StepTotals::default(),
            iters,
            deadline,
            noised: false,
        });
        Ok(None)
    }

    /// Descends for the search's next step and says how many leaves now
    /// wait for the network ([`ZeroBot::leaves`]): 0 once the search is
    /// over (its budget spent, its root proven, its tree full, or an
    /// interrupt). The root is expanded first, alone, so that its noise is
    /// in place before the search proper.
    pub fn next_leaves(&mut self) -> usize {
        let Some(p) = self.pending.as_mut() else {
            return 0;
        };
        let s = self.cfg.settings;
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(Solver::new(endgame::TABLE_MB)));
        loop {
            if !p.noised {
                let one = Settings { batch: 1, ..s };
                if self.tree.children(0).is_empty()
                    && !self.tree.root_proven()
                    && p.totals.iterations < 1
                    && self.tree.has_room(&one)
                {
                    let k = self.tree.gather(&one, solver, &mut p.totals);
                    if k > 0 {
                        return k;
                    }
                    continue;
                }
                self.tree.add_noise(s.noise, s.alpha, &mut p.rng);
                p.noised = true;
            }
            let more = p.totals.iterations < p.iters
                && p.deadline.is_none_or(|d| Instant::now() < d)
                && !crate::interrupt::requested();
            if self.tree.root_proven() || !more || !self.tree.has_room(&s) {
                return 0;
            }
            let k = self.tree.gather(&s, solver, &mut p.totals);
            if k > 0 {
                return k;
            }
        }
    }

    /// The leaves of the step that [`ZeroBot::next_leaves`] counted.
    pub fn leaves(&self) -> &[Position] {
        self.tree.leaves()
    }

    /// The network's outputs for [`ZeroBot::leaves`], in their order
    /// (`logits`: `size * size + 1` per leaf): the leaves are expanded
    /// and their values backed up.
    pub fn absorb(&mut self, logits: &[f32], values: &[f32]) {
        let Some(p) = self.pending.as_mut() else {
            unreachable!("leaves wait only in a search begun")
        };
        self.tree.absorb(logits, values, &mut p.totals);
    }

    /// The move of the search once [`ZeroBot::next_leaves`] says it is
    /// over: drawn by visit share in the first `explore=` plies, else the
    /// most visited (a proven result first).
    pub fn conclude(&mut self, game: &Game) -> Move {
        let chosen = match self.pending.as_mut() {
            Some(p) if game.moves().len() < self.cfg.explore as usize => {
                self.tree.sample(&mut p.rng).copied()
            }
            _ => self.tree.best().copied(),
        };
        self.finish(chosen, game)
    }

    /// Records the search that chose `node` for `game` and ends it.
    pub(super) fn finish(&mut self, node: Option<PuctNode>, game: &Game) -> Move {
        let Some(node) = node else {
            unreachable!("a position not over has a move and its root was expanded")
        };
        let totals = self.pending.take().map(|p| p.totals).unwrap_or_default();
        self.record(&node, &totals);
        self.rooted = Some((*game.start(), game.moves().to_vec()));
        node.mv()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{bot, game};
    use crate::net::{Scratch, swap_index};

    /// Leaves evaluated outside the bot, each alone, give the search the
    /// bot makes with its own batches: the same moves and root visits over
    /// several moves of a game (the kept subtree, the root noise and the
    /// exploring plies included).
    #[test]
    fn steps_evaluated_outside_equal_the_bots_own_search() {
        for (seed, stones, pie) in [(1, 0, true), (2, 9, false), (5, 3, true)] {
            let spec = "zero:iters=120,batch=3,noise=0.25,explore=2";
            let (mut own, mut outside) = (bot(spec, seed), bot(spec, seed));
            let net = std::sync::Arc::clone(&own.config().net);
            let mut scratch = Scratch::default();
            let mut g = game(seed, stones, pie);
            let mut searched = 0;
            for _ in 0..5 {
                if g.is_over() {
                    break;
                }
                let a = own.search(&g).expect("a move");
                let b = match outside.begin(&g).expect("a search") {
                    Some(mv) => mv,
                    None => {
                        loop {
                            let k = outside.next_leaves();
                            if k == 0 {
                                break;
                            }
                            let ps = outside.leaves().to_vec();
                            let w = swap_index(ps[0].size()) + 1;
                            let (mut l, mut v) = (vec![0.0; k * w], vec![0.0; k]);
                            for (i, p) in ps.iter().enumerate() {
                                net.evaluate_slice(
                                    std::slice::from_ref(p),
                                    &mut scratch,
                                    &mut l[i * w..(i + 1) * w],
                                    &mut v[i..=i],
                                    own.config().score,
                                );
                            }
                            outside.absorb(&l, &v);
                        }
                        searched += 1;
                        outside.conclude(&g)
                    }
                };
                assert_eq!(a, b);
                assert_eq!(own.root_visits(), outside.root_visits());
                g.try_play(a).expect("legal");
            }
            assert!(searched >= 4, "the moves were searched, not solved");
        }
    }
}
