//! What a self-play game records beyond its visit shares: the value and
//! margin targets of a position (the game's end, or the exact solver's
//! where few squares are left, `--exact-targets`), and which moves are
//! searched in full and recorded (playout cap randomisation,
//! `--full-share`, after KataGo: Wu, "Accelerating Self-Play Learning in
//! Go", 2019).

use super::{Sample, TargetConfig};
use crate::bot::zero::Budget;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::rng::FastRng;
use crate::net::Features;
use crate::solve::Solver;
use crate::solve::endgame;

/// A value for White as one for `turn`.
fn for_side(turn: Player, white: i32) -> i32 {
    if turn == Player::White { white } else { -white }
}

/// The sign of a margin as a result: 1 a win, 0 a draw, -1 a loss.
fn result_of(margin_halves: i32) -> f32 {
    margin_halves.signum() as f32
}

/// Makes a game's samples from its recorded positions: each takes the
/// game's end (`end`, the final position) as its targets, or the exact
/// solver's result where it has at most `cfg.exact` free squares.
pub struct Targets {
    exact: u32,
    /// Made at the first position to solve, so that a run without exact
    /// targets allocates no table.
    solver: Option<Box<Solver>>,
}

impl Targets {
    /// The targets of a game under `cfg`.
    pub fn new(cfg: &TargetConfig) -> Targets {
        Targets {
            exact: cfg.exact,
            solver: None,
        }
    }

    /// White's exact final margin of `pos` in half points, where it is to
    /// be solved: at most `exact` free squares, the game not over, and no
    /// pie choice still to come (the solver knows a pending swap, not one
    /// that follows the first stone, as `zero` itself).
    fn solved(&mut self, pos: &Position) -> Option<i32> {
        if self.exact == 0
            || pos.is_game_over()
            || pos.swap_follows()
            || pos.empty().count() > self.exact
        {
            return None;
        }
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(Solver::new(endgame::TABLE_MB)));
        Some(endgame::solve(pos, solver).margin_halves)
    }

    /// The sample of `pos` with visit shares `policy` in a game whose
    /// final position is `end`.
    pub fn sample(&mut self, pos: &Position, policy: Vec<f32>, end: &Position) -> Sample {
        let white = self.solved(pos);
        let turn = pos.turn();
        let mine = for_side(turn, white.unwrap_or_else(|| end.margin_halves()));
        let z = match (white, end.outcome().winner()) {
            (Some(_), _) => result_of(mine),
            (None, None) => 0.0,
            (None, Some(w)) if w == turn => 1.0,
            (None, Some(_)) => -1.0,
        };
        Sample {
            features: Features::of(pos),
            policy,
            z,
            margin: mine as f32 / 2.0,
        }
    }
}

/// Which moves of a self-play game are searched in full and recorded:
/// each with probability `full_share`, drawn from the game's own seed,
/// the others searched at `fast_iters` without noise and only played.
pub struct PlayoutCap {
    share: f64,
    full: Budget,
    fast: Budget,
    noise: f32,
    rng: FastRng,
}

impl PlayoutCap {
    /// The cap of a game searching `iters` with root noise `noise` in
    /// full, its draws from `seed`.
    pub fn new(cfg: &TargetConfig, iters: u64, noise: f32, seed: u64) -> PlayoutCap {
        PlayoutCap {
            share: cfg.full_share,
            full: Budget::Iters(iters),
            fast: Budget::Iters(cfg.fast_iters),
            noise,
            rng: FastRng::new(seed),
        }
    }

    /// The next move's search: its budget, its root noise, and whether it
    /// is recorded. With every move in full nothing is drawn.
    pub fn next(&mut self) -> (Budget, f32, bool) {
        if self.share >= 1.0 || self.rng.unit() < self.share {
            (self.full, self.noise, true)
        } else {
            (self.fast, 0.0, false)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;
    use crate::game::rules::{HoleSetup, Rules, layout_rng};

    /// A 7x7 position with `free` squares left, played at random.
    fn position(free: u32, seed: u64, komi: i32, pie: bool) -> Position {
        let rules = Rules {
            size: 7,
            holes: HoleSetup::Random(5),
            pie,
            komi: Komi::from_halves(komi),
        };
        let mut p = rules.new_game(&mut layout_rng(seed)).expect("rules");
        let mut rng = FastRng::new(seed);
        while p.empty().count() > free {
            let k = rng.below(p.empty().count());
            p.play(p.empty().nth(k).expect("free"));
        }
        p
    }

    /// A game's end from `pos`: its free squares filled in order.
    fn played_out(pos: &Position) -> Position {
        let mut p = *pos;
        while let Some(sq) = p.empty().into_iter().next() {
            p.play(sq);
        }
        p
    }

    #[test]
    fn a_position_with_few_free_squares_gets_the_solvers_result() {
        let on = TargetConfig {
            exact: 10,
            ..TargetConfig::off(64)
        };
        let mut differs = 0;
        for seed in 0..12 {
            let pos = position(10, seed, 3, false);
            let end = played_out(&pos);
            let mut solver = Solver::new(endgame::TABLE_MB);
            let white = endgame::margin(&pos, &mut solver);
            let mine = for_side(pos.turn(), white);
            let s = Targets::new(&on).sample(&pos, vec![0.0; 50], &end);
            assert_eq!(s.z, result_of(mine), "seed {seed}");
            assert_eq!(s.margin, mine as f32 / 2.0);
            // Off, or with more free squares than `exact`: the game's end.
            let g = Targets::new(&TargetConfig::off(64)).sample(&pos, vec![0.0; 50], &end);
            let game_mine = for_side(pos.turn(), end.margin_halves());
            assert_eq!(
                (g.z, g.margin),
                (result_of(game_mine), game_mine as f32 / 2.0)
            );
            let far = position(11, seed, 3, false);
            let f = Targets::new(&on).sample(&far, vec![0.0; 50], &end);
            let far_mine = for_side(far.turn(), end.margin_halves());
            assert_eq!(f.margin, far_mine as f32 / 2.0);
            differs += usize::from(s.z != g.z);
        }
        // Filling squares in order is no best play: the solver's result
        // differs somewhere.
        assert!(differs > 0);
    }

    #[test]
    fn a_pending_swap_is_solved_and_one_to_come_is_not() {
        let on = TargetConfig {
            exact: 40,
            ..TargetConfig::off(64)
        };
        let rules = Rules {
            size: 4,
            holes: HoleSetup::Random(3),
            pie: true,
            komi: Komi::from_halves(1),
        };
        let start = rules.new_game(&mut layout_rng(4)).expect("rules");
        assert!(start.swap_follows());
        assert_eq!(Targets::new(&on).solved(&start), None);
        let mut pending = start;
        pending.play(start.empty().into_iter().next().expect("free"));
        assert!(pending.can_swap());
        let mut solver = Solver::new(endgame::TABLE_MB);
        assert_eq!(
            Targets::new(&on).solved(&pending),
            Some(endgame::solve(&pending, &mut solver).margin_halves)
        );
    }

    #[test]
    fn half_the_moves_are_recorded_at_a_share_of_one_half_the_same_for_a_seed() {
        let cfg = TargetConfig {
            full_share: 0.5,
            ..TargetConfig::off(64)
        };
        let draws = |seed| {
            let mut cap = PlayoutCap::new(&cfg, 64, 0.25, seed);
            (0..1000).map(|_| cap.next()).collect::<Vec<_>>()
        };
        let a = draws(7);
        assert_eq!(a, draws(7));
        assert_ne!(a, draws(8));
        let full = a.iter().filter(|d| d.2).count();
        assert!((450..=550).contains(&full), "{full} of 1000");
        for d in &a {
            let want = if d.2 {
                (Budget::Iters(64), 0.25)
            } else {
                (Budget::Iters(16), 0.0)
            };
            assert_eq!((d.0, d.1), want);
        }
        let mut every = PlayoutCap::new(&TargetConfig::off(64), 64, 0.25, 7);
        assert!((0..100).all(|_| every.next() == (Budget::Iters(64), 0.25, true)));
    }
}
