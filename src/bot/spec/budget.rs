//! The budget of one move of a search bot, and the one rule for its two
//! keys, `iters=` and `ms=`, which every bot that takes both follows.

use super::{KeyInfo, Params, SpecError};

/// How long one search runs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A fixed amount of work (iterations, leaves evaluated):
    /// reproducible.
    Iters(u64),
    /// Wall-clock milliseconds per move: not reproducible.
    Millis(u64),
}

impl Budget {
    /// The budget of a spec's `iters` and `ms` keys: `ms=` when given,
    /// else `iters=` (its default when absent).
    ///
    /// # Errors
    /// A value out of range, or both keys given: a spec that names a work
    /// budget and a time budget says two things, and which one wins would
    /// be a guess.
    pub fn from_params(p: &Params, iters: &KeyInfo, ms: &KeyInfo) -> Result<Budget, SpecError> {
        let work = p.int(iters)?;
        match (p.raw(iters.key), p.opt_int(ms)?) {
            (Some(_), Some(_)) => Err(SpecError(format!(
                "bot spec '{}': give {}= or {}=, not both",
                p.spec(),
                iters.key,
                ms.key
            ))),
            (_, Some(t)) => Ok(Budget::Millis(t)),
            (_, None) => Ok(Budget::Iters(work)),
        }
    }
}
