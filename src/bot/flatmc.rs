//! `flatmc`: flat Monte Carlo with UCB1 at the root.

use std::time::Instant;

use super::choose::best_square;
use super::clock::{Allocation, Clock};
use super::spec::{BotKind, BudgetKind, KeyInfo, Params, SpecError, key_values};
use super::{Bot, BotFault, SearchInfo};
use crate::eval::{EvalWeights, LineValues, MoveValuer};
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::FastRng;

key_values! {
    /// How playouts choose their moves.
    pub enum FlatRollout {
        /// Uniformly random ([`Position::random_playout`]: no moves are played,
        /// the final split of the free squares is drawn directly).
        Random = "random",
        /// Epsilon-greedy on [`crate::eval::move_value`]: a random square with probability
        /// `eps`, else the best square by the heuristic (ties at random).
        Heuristic = "heuristic",
    }
}

/// Settings of [`FlatMcBot`]; each is a key.
#[derive(Clone, Debug, PartialEq)]
pub struct FlatMcConfig {
    /// Playouts per move, shared among the candidate moves.
    pub playouts: u32,
    /// UCB1 exploration `c` in `mean + c·sqrt(ln N / n)`, rewards in [0, 1].
    pub c: f64,
    /// Playout policy.
    pub rollout: FlatRollout,
    /// Probability of a random move in a heuristic playout.
    pub eps: f64,
    /// Share of the reward that follows the score margin rather than the
    /// result: `(1 - margin)·{1, ½, 0} + margin·(½ + ½·tanh(points / 20))`.
    /// Pure win/loss rewards leave every move equal once all playouts are
    /// won (or lost), and the bot then throws points away.
    pub margin: f64,
    /// Weights of the heuristic playouts.
    pub weights: EvalWeights,
}

/// Flat Monte Carlo: every candidate move (every free square, plus the swap
/// when the pie rule offers it) is an arm of a bandit; each playout goes to
/// the arm with the highest UCB1 bound (every arm once first, in random
/// order) and scores 1, ½ or 0 for a win, draw or loss of the side that owns
/// the arm's colour (blended with the margin, see [`FlatMcConfig::margin`]). The most-played arm is chosen (the higher mean on ties).
///
/// The swap is just another arm: after it the bot owns White with Black to
/// move, and its playouts score for White.
#[derive(Clone, Debug)]
pub struct FlatMcBot {
    name: String,
    cfg: FlatMcConfig,
    rng: FastRng,
    last: Option<SearchInfo>,
    /// The clock of a clocked game: its share replaces `playouts=`.
    clock: Option<Clock>,
}

/// One candidate move and its statistics.
#[derive(Copy, Clone, Debug)]
struct Arm {
    mv: Move,
    /// The position after the move.
    pos: Position,
    /// The colour whose result counts.
    owner: Player,
    visits: u32,
    reward: f64,
}

impl FlatMcBot {
    /// A flat Monte Carlo bot.
    pub fn new(name: impl Into<String>, cfg: FlatMcConfig, seed: u64) -> FlatMcBot {
        FlatMcBot {
            name: name.into(),
            cfg,
            rng: FastRng::new(seed),
            last: None,
            clock: None,
        }
    }

    /// White's margin minus komi, in half points, of one playout from `pos`;
    /// `valuer` (built once per move) values squares for heuristic playouts.
    fn playout(&mut self, pos: &Position, valuer: &MoveValuer) -> i32 {
        match self.cfg.rollout {
            FlatRollout::Random => pos.random_playout(&mut self.rng),
            FlatRollout::Heuristic => {
                let mut p = *pos;
                // The same values kept line by line where there are tables.
                let mut lines = LineValues::new(valuer, pos);
                while !p.is_game_over() {
                    let free = p.empty();
                    let sq = if self.rng.unit() < self.cfg.eps {
                        free.nth(self.rng.below(free.count()))
                    } else {
                        best_square(free, &mut self.rng, |sq| match &lines {
                            Some(l) => l.value(p.turn(), sq),
                            None => valuer.value(&p, sq),
                        })
                        .map(|b| b.0)
                    };
                    match sq {
                        Some(sq) => {
                            p.play_unchecked(sq);
                            if let Some(l) = lines.as_mut() {
                                l.played(&p, sq);
                            }
                        }
                        None => break,
                    }
                }
                p.margin_halves()
            }
        }
    }
}

/// Points of margin at which the margin part of the reward is about 0.88
/// (tanh(1)): a typical decisive margin between baseline bots.
const MARGIN_SCALE: f64 = 20.0;

/// The reward in [0, 1] of `owner` for White's margin in half points: the
/// result (1, ½, 0) blended with a squashed margin by `weight`.
#[inline]
fn reward(margin_halves: i32, owner: Player, weight: f64) -> f64 {
    let result = match margin_halves.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    };
    let points = margin_halves as f64 / 2.0;
    let white = (1.0 - weight) * result + weight * (0.5 + 0.5 * (points / MARGIN_SCALE).tanh());
    if owner == Player::White {
        white
    } else {
        1.0 - white
    }
}

/// One arm per legal move of `pos`, the pie swap included.
fn arms_of(pos: &Position) -> Vec<Arm> {
    let mut arms: Vec<Arm> = Vec::with_capacity(pos.empty().count() as usize + 1);
    for sq in pos.empty() {
        let mut after = *pos;
        after.play_unchecked(sq);
        arms.push(Arm {
            mv: Move::Place(sq),
            pos: after,
            owner: pos.turn(),
            visits: 0,
            reward: 0.0,
        });
    }
    if pos.can_swap() {
        let mut after = *pos;
        if after.try_swap().is_ok() {
            arms.push(Arm {
                mv: Move::Swap,
                pos: after,
                owner: Player::White,
                visits: 0,
                reward: 0.0,
            });
        }
    }
    arms
}

impl Bot for FlatMcBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    fn is_timed(&self) -> bool {
        self.clock.is_some()
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        let pos = *game.position();
        let valuer = MoveValuer::with_table(&self.cfg.weights, pos.size());
        let mut arms = arms_of(&pos);
        if arms.is_empty() {
            return Err(BotFault::Illegal("no free square".into()));
        }
        // Step 1: every arm once, in random order (Fisher-Yates), so that a
        // budget smaller than the arm count is not biased to low squares.
        for i in (1..arms.len()).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            arms.swap(i, j);
        }
        // In a clocked game the budget is the move's share of the clock.
        let deadline = self
            .clock
            .map(|c| Instant::now() + c.allot(&pos, Allocation::Even, 0));
        let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
        let budget = match deadline {
            Some(_) => usize::MAX,
            None => self.cfg.playouts as usize,
        };
        let mut played = 0u64;
        for i in 0..budget.min(arms.len()) {
            if i > 0 && i % 16 == 0 && out_of_time() {
                break;
            }
            played += 1;
            let m = self.playout(&arms[i].pos, &valuer);
            arms[i].visits = 1;
            arms[i].reward = reward(m, arms[i].owner, self.cfg.margin);
        }
        // Step 2: UCB1 for the rest of the budget.
        for t in arms.len()..budget {
            // An interrupted run drops this game: stop at once.
            if t % 256 == 0 && crate::interrupt::requested() {
                break;
            }
            if t % 16 == 0 && out_of_time() {
                break;
            }
            played += 1;
            let ln_n = (t as f64).ln();
            let c = self.cfg.c;
            let mut best = 0;
            let mut best_bound = f64::NEG_INFINITY;
            for (i, a) in arms.iter().enumerate() {
                let n = a.visits as f64;
                let bound = a.reward / n + c * (ln_n / n).sqrt();
                if bound > best_bound {
                    best_bound = bound;
                    best = i;
                }
            }
            let m = self.playout(&arms[best].pos, &valuer);
            let margin_weight = self.cfg.margin;
            let a = &mut arms[best];
            a.visits += 1;
            a.reward += reward(m, a.owner, margin_weight);
        }
        // Step 3: the most-played arm, the higher mean on ties.
        let mean = |a: &Arm| {
            if a.visits == 0 {
                0.0
            } else {
                a.reward / a.visits as f64
            }
        };
        let chosen = arms
            .iter()
            .max_by(|a, b| a.visits.cmp(&b.visits).then(mean(a).total_cmp(&mean(b))))
            .copied()
            .ok_or_else(|| BotFault::Illegal("no candidate".into()))?;
        self.last = Some(SearchInfo {
            nodes: played,
            depth: 1,
            eval: Some(mean(&chosen)),
            // Rewards are the mover's share of the score.
            expect: Some(mean(&chosen)),
            pv: vec![chosen.mv],
            extra: format!("visits={} arms={}", chosen.visits, arms.len()),
        });
        Ok(chosen.mv)
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.last.clone()
    }
}

/// Default of `playouts`.
const DEFAULT_PLAYOUTS: u64 = 2000;

/// Default of `margin`.
const DEFAULT_MARGIN: f64 = 0.1;

/// Default of `rollout`.
const DEFAULT_ROLLOUT: FlatRollout = FlatRollout::Random;

/// `playouts=`.
const PLAYOUTS: KeyInfo = KeyInfo::int(
    "playouts",
    1,
    100_000_000,
    DEFAULT_PLAYOUTS,
    "playouts per move, shared among the candidate moves by UCB1",
)
.budget(BudgetKind::Work);
/// `c=`.
const C: KeyInfo = KeyInfo::real(
    "c",
    0.0,
    10.0,
    DEFAULT_C,
    "UCB1 exploration constant (rewards are 1/0.5/0)",
)
.research();
/// `rollout=`.
const ROLLOUT: KeyInfo = KeyInfo::choice::<FlatRollout>(
    "rollout",
    DEFAULT_ROLLOUT.name(),
    "playout policy: uniform, or epsilon-greedy on the line-potential heuristic",
);
/// `eps=`.
const EPS: KeyInfo = KeyInfo::real(
    "eps",
    0.0,
    1.0,
    DEFAULT_EPSILON,
    "chance of a random move in a heuristic playout (also spelled epsilon=)",
)
.research();
/// `margin=`.
const MARGIN: KeyInfo = KeyInfo::real(
    "margin",
    0.0,
    1.0,
    DEFAULT_MARGIN,
    "share of the reward that follows the score margin (0 = win/draw/loss only)",
)
.research();

/// Default of `c`: with random playouts and the default budget, lower
/// and much higher values were weaker, values near it level
/// (docs/baselines-history.md, "Flat Monte Carlo").
const DEFAULT_C: f64 = 0.4;

/// Default of `eps`: in heuristic playouts random moves mostly add
/// noise, since random tie-breaks already vary the playouts; every
/// share tried scored lower than none (docs/baselines-history.md, "Flat Monte
/// Carlo").
const DEFAULT_EPSILON: f64 = 0.0;

/// Own keys followed by the heuristic's (used by `rollout=heuristic`).
const KEYS: [KeyInfo; 8] = [
    PLAYOUTS,
    C,
    ROLLOUT,
    EPS,
    MARGIN,
    crate::bot::spec::WEIGHT_KEYS[0],
    crate::bot::spec::WEIGHT_KEYS[1],
    crate::bot::spec::WEIGHT_KEYS[2],
];

impl FlatMcConfig {
    /// Reads the keys from a spec (defaults when absent).
    ///
    /// # Errors
    /// A value out of range or of the wrong type, named with its range.
    pub fn from_params(p: &Params) -> Result<FlatMcConfig, SpecError> {
        Ok(FlatMcConfig {
            playouts: p.int(&PLAYOUTS)? as u32,
            c: p.real(&C)?,
            rollout: p.pick(&ROLLOUT)?,
            eps: p.real(&EPS)?,
            margin: p.real(&MARGIN)?,
            weights: crate::bot::spec::weights_from_params(p)?,
        })
    }
}

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "flatmc",
    summary: "flat Monte Carlo: playouts shared among the moves by UCB1, random or heuristic playouts",
    keys: &KEYS,
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        let cfg = FlatMcConfig::from_params(params)?;
        Ok(Box::new(FlatMcBot::new(params.label(), cfg, seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;

    fn spec_params(s: &str) -> Params {
        Params::new(&s.parse().expect("spec"))
    }

    #[test]
    fn keys_defaults_agree() {
        let d = FlatMcConfig::from_params(&spec_params("flatmc")).expect("cfg");
        assert_eq!(
            (d.playouts, d.c, d.rollout, d.eps),
            (2000, 0.4, FlatRollout::Random, 0.0)
        );
        assert_eq!(KEYS.len(), 8);
        assert_eq!(d.margin, 0.1);
        assert!(FlatMcConfig::from_params(&spec_params("flatmc:rollout=smart")).is_err());
        // `epsilon=` is the old spelling of `eps=` (the key mcts uses too).
        let e = FlatMcConfig::from_params(&spec_params("flatmc:epsilon=0.25")).expect("cfg");
        assert_eq!(e.eps, 0.25);
        assert!(FlatMcConfig::from_params(&spec_params("flatmc:playouts=0")).is_err());
    }

    #[test]
    fn finds_the_winning_square_at_the_end() {
        // 3x3, White to move, c1 and a3 free: c1 completes a1-b1-c1 and
        // wins 3-0; a3 gives a 0-0 draw.
        let board = crate::game::text::parse_boards("BBW\nB#B\nWW.\n").expect("board");
        let sq = |s: &str| s.parse().expect("sq");
        let mut b = board[0];
        b.black.remove(sq("a3"));
        let pos = b.to_position(false, Komi::ZERO).expect("pos");
        assert_eq!(pos.empty().count(), 2);
        for rollout in ["random", "heuristic"] {
            let cfg = FlatMcConfig::from_params(&spec_params(&format!(
                "flatmc:playouts=50,rollout={rollout}"
            )))
            .expect("cfg");
            let mut bot = FlatMcBot::new("f", cfg, 3);
            assert_eq!(bot.select_move(&Game::new(pos)), Ok(Move::Place(sq("c1"))));
            let info = bot.last_search().expect("info");
            assert_eq!(info.nodes, 50);
        }
    }
}
