//! The weights of the line-potential heuristic. Every bot that uses the
//! heuristic takes them as the keys `decay`, `reach` and `defence`,
//! declared in `bot/spec/weights.rs`.

use super::ONE;

/// Weights of the line-potential heuristic; each is a bot key (heuristic,
/// alphabeta, mcts priors).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalWeights {
    /// Credit per free square of an alive window: a window with `f` free
    /// squares counts `decay^f` of its weight. 0.5 is a random fill.
    pub decay: f64,
    /// Windows with more free squares than this count nothing (0 credits
    /// only finished windows, i.e. the score as it stands).
    pub reach: u32,
    /// Weight, in [`move_value`](super::move_value), of the opponent's potential spoiled
    /// relative to the mover's own potential gained.
    pub defence: f64,
}

impl Default for EvalWeights {
    fn default() -> EvalWeights {
        EvalWeights::DEFAULT
    }
}

impl EvalWeights {
    /// The tuned defaults, chosen by paired games of `heuristic` on random
    /// 7x7 5-hole layouts (tests/integration/strength.rs): a grid over `decay`,
    /// `defence` and `reach` against `greedy` and a weaker `decay`, then a
    /// round robin of the best (docs/baselines-history.md, "The heuristic's
    /// weights"). `decay = 0.5` (a random fill) over-credits long windows
    /// and loses to greedy blocking more often.
    /// `experiments/tuning/heuristic-decay/` sweeps `decay` against these
    /// defaults on today's engine.
    pub const DEFAULT: EvalWeights = EvalWeights {
        decay: 0.4,
        reach: 3,
        defence: 1.3,
    };

    /// `decay^f` in fixed point for `f = 0..=8`, zero beyond `reach`.
    #[inline]
    pub(super) fn credits(&self) -> [i64; 9] {
        let mut c = [0i64; 9];
        let mut x = 1.0f64;
        for (f, slot) in c.iter_mut().enumerate() {
            if f as u32 > self.reach {
                break;
            }
            *slot = if f == 0 {
                ONE
            } else {
                (x * ONE as f64).round() as i64
            };
            x *= self.decay;
        }
        c
    }
}
