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
    /// The tuned defaults. Chosen by paired games of `heuristic` on random
    /// 7x7 5-hole layouts (tests/strength.rs): a grid over decay 0.15..0.65,
    /// defence 0.7..2 and reach 2..8 against `greedy` and against
    /// `heuristic:decay=0.35`, then a round robin of the six best. These
    /// won or tied every pairing (0.40/1.3/3 against the first draft
    /// 0.5/1/8 score 0.886 over 2000 games); against `greedy` 0.998 over
    /// 2000 games. `decay = 0.5` (a random fill) over-credits long windows
    /// and loses to greedy blocking more often. `experiments/tuning/heuristic-decay/`
    /// sweeps `decay` against these defaults on today's engine.
    fn default() -> EvalWeights {
        EvalWeights {
            decay: 0.4,
            reach: 3,
            defence: 1.3,
        }
    }
}

impl EvalWeights {
    /// The keys, for `BotKind.keys` of every bot that uses the heuristic.
    pub const KEYS: &'static [KeyInfo] = &[
        KeyInfo {
            key: "decay",
            default: "0.4",
            accepts: "a number 0..=1",
            help: "credit per free square of a window still open to a player (0.5 = random fill)",
            research: true,
        },
        KeyInfo {
            key: "reach",
            default: "3",
            accepts: "an integer 0..=8",
            help: "windows with more free squares than this count nothing",
            research: true,
        },
        KeyInfo {
            key: "defence",
            default: "1.3",
            accepts: "a number 0..=4",
            help: "weight of the opponent's potential a move spoils, relative to its own gain",
            research: true,
        },
    ];

    /// Reads the keys from a spec (defaults when absent).
    ///
    /// # Errors
    /// A value that is not a number or out of range; the message names the
    /// key and its range.
    pub fn from_params(p: &Params) -> Result<EvalWeights, SpecError> {
        EvalWeights::from_params_or(p, &EvalWeights::default())
    }

    /// As [`from_params`](Self::from_params), for a bot whose own defaults
    /// differ from the heuristic's (`mcts` was tuned apart).
    ///
    /// # Errors
    /// As [`from_params`](Self::from_params).
    pub fn from_params_or(p: &Params, d: &EvalWeights) -> Result<EvalWeights, SpecError> {
        Ok(EvalWeights {
            decay: p.float("decay", d.decay, 0.0, 1.0)?,
            reach: p.int("reach", d.reach as u64, 0, 8)? as u32,
            defence: p.float("defence", d.defence, 0.0, 4.0)?,
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
    fn keys_match_defaults() {
        let d = EvalWeights::default();
        for k in EvalWeights::KEYS {
            let v: f64 = k.default.parse().expect("numeric default");
            let field = match k.key {
                "decay" => d.decay,
                "reach" => d.reach as f64,
                "defence" => d.defence,
                other => panic!("unknown key {other}"),
            };
            assert_eq!(v, field, "{}", k.key);
        }
        let spec = "heuristic:decay=0.25,reach=3".parse().expect("spec");
        let w = EvalWeights::from_params(&Params::new(&spec)).expect("weights");
        assert_eq!((w.decay, w.reach, w.defence), (0.25, 3, 1.3));
        let spec = "heuristic:decay=2".parse().expect("spec");
        let e = EvalWeights::from_params(&Params::new(&spec)).expect_err("range");
        assert!(e.0.contains("decay") && e.0.contains("0..=1"), "{e}");
    }
}
