//! The weights of the line-potential heuristic: the bot keys `decay`,
//! `reach` and `defence`, shared by every bot that uses the heuristic.

use super::ONE;
use crate::bot::spec::{KeyInfo, Params, SpecError};

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
    /// 7x7 5-hole layouts (tests/strength.rs): a grid over `decay`,
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

    /// The keys of every bot that uses the heuristic, with its defaults.
    pub const KEYS: [KeyInfo; 3] = EvalWeights::keys(&EvalWeights::DEFAULT);

    /// The keys `decay`, `reach` and `defence` with `d` as their defaults,
    /// for a bot tuned apart (`mcts`).
    pub const fn keys(d: &EvalWeights) -> [KeyInfo; 3] {
        [
            KeyInfo::real(
                "decay",
                0.0,
                1.0,
                d.decay,
                "credit per free square of a window still open to a player (0.5 = random fill)",
            )
            .research(),
            KeyInfo::int(
                "reach",
                0,
                8,
                d.reach as u64,
                "windows with more free squares than this count nothing",
            )
            .research(),
            KeyInfo::real(
                "defence",
                0.0,
                4.0,
                d.defence,
                "weight of the opponent's potential a move spoils, relative to its own gain",
            )
            .research(),
        ]
    }

    /// Reads the keys from a spec (defaults when absent).
    ///
    /// # Errors
    /// A value that is not a number or out of range; the message names the
    /// key and its range.
    pub fn from_params(p: &Params) -> Result<EvalWeights, SpecError> {
        EvalWeights::from_params_with(p, &EvalWeights::KEYS)
    }

    /// As [`from_params`](Self::from_params), for a bot whose own defaults
    /// differ from the heuristic's (`mcts` was tuned apart): `keys` is
    /// [`EvalWeights::keys`] of those defaults.
    ///
    /// # Errors
    /// As [`from_params`](Self::from_params).
    pub fn from_params_with(p: &Params, keys: &[KeyInfo; 3]) -> Result<EvalWeights, SpecError> {
        Ok(EvalWeights {
            decay: p.real(&keys[0])?,
            reach: p.int(&keys[1])? as u32,
            defence: p.real(&keys[2])?,
        })
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_their_defaults_and_ranges() {
        let spec = "heuristic:decay=0.25,reach=3".parse().expect("spec");
        let w = EvalWeights::from_params(&Params::new(&spec)).expect("weights");
        assert_eq!((w.decay, w.reach, w.defence), (0.25, 3, 1.3));
        let spec = "heuristic:decay=2".parse().expect("spec");
        let e = EvalWeights::from_params(&Params::new(&spec)).expect_err("range");
        assert!(e.0.contains("decay") && e.0.contains("0..=1"), "{e}");
        let other = EvalWeights {
            decay: 0.3,
            reach: 5,
            defence: 2.0,
        };
        let spec = "mcts".parse().expect("spec");
        let w = EvalWeights::from_params_with(&Params::new(&spec), &EvalWeights::keys(&other));
        assert_eq!(w, Ok(other));
    }
}
