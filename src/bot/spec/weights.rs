//! The bot keys of the line-potential heuristic's weights (`decay`,
//! `reach`, `defence`), shared by every bot that uses the heuristic.

use super::{KeyInfo, Params, SpecError};
use crate::eval::EvalWeights;

/// The keys of every bot that uses the heuristic, with its defaults.
pub const WEIGHT_KEYS: [KeyInfo; 3] = weight_keys(&EvalWeights::DEFAULT);

/// The keys `decay`, `reach` and `defence` with `d` as their defaults,
/// for a bot tuned apart (`mcts`).
pub const fn weight_keys(d: &EvalWeights) -> [KeyInfo; 3] {
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
pub fn weights_from_params(p: &Params) -> Result<EvalWeights, SpecError> {
    weights_from_params_with(p, &WEIGHT_KEYS)
}

/// As [`from_params`](weights_from_params), for a bot whose own defaults
/// differ from the heuristic's (`mcts` was tuned apart): `keys` is
/// [`weight_keys`] of those defaults.
///
/// # Errors
/// As [`from_params`](weights_from_params).
pub fn weights_from_params_with(p: &Params, keys: &[KeyInfo; 3]) -> Result<EvalWeights, SpecError> {
    Ok(EvalWeights {
        decay: p.real(&keys[0])?,
        reach: p.int(&keys[1])? as u32,
        defence: p.real(&keys[2])?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_their_defaults_and_ranges() {
        let spec = "heuristic:decay=0.25,reach=3".parse().expect("spec");
        let w = weights_from_params(&Params::new(&spec)).expect("weights");
        assert_eq!((w.decay, w.reach, w.defence), (0.25, 3, 1.3));
        let spec = "heuristic:decay=2".parse().expect("spec");
        let e = weights_from_params(&Params::new(&spec)).expect_err("range");
        assert!(e.0.contains("decay") && e.0.contains("0..=1"), "{e}");
        let other = EvalWeights {
            decay: 0.3,
            reach: 5,
            defence: 2.0,
        };
        let spec = "mcts".parse().expect("spec");
        let w = weights_from_params_with(&Params::new(&spec), &weight_keys(&other));
        assert_eq!(w, Ok(other));
    }
}
