//! The keys every search bot shares, declared once: `iters=`, `ms=`,
//! `threads=`, `reuse=`, `exact=`, with the one [`Budget`] type and the
//! one rule for `iters=` and `ms=` given together (refused). A key is the
//! same key in every bot: its name, range and meaning are written here;
//! where a bot's work per move or its help line differs (an iteration of
//! `mcts` is a playout, one of `zero` a network evaluation), the bot gives
//! that part to the constructor.

use super::{BudgetKind, KeyInfo, Params, SpecError};

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

/// `iters=`: the work of one move, `1..=hi`, `default` when absent; `help`
/// says what one unit of work is for the bot.
pub const fn iters(hi: u64, default: u64, help: &'static str) -> KeyInfo {
    KeyInfo::int("iters", 1, hi, default, help)
        .bare()
        .budget(BudgetKind::Work)
}

/// Most milliseconds `ms=` gives one move: a day, far above any use.
const MAX_MS: u64 = 86_400_000;

/// `ms=`: a time budget per move instead of `iters=`, none unless given.
pub const MS: KeyInfo = KeyInfo::opt_int(
    "ms",
    1,
    MAX_MS,
    "time budget per move in milliseconds instead of iters (not given: none; not reproducible)",
)
.bare()
.budget(BudgetKind::Time);

/// `ms=` of a bot whose time budget stands beside other budgets
/// (`alphabeta`'s depth and nodes) rather than instead of `iters=`: `0`
/// also means none, as `-` does, and the range is listed with its type.
pub const fn ms_beside_other_budgets(hi: u64, help: &'static str) -> KeyInfo {
    KeyInfo::opt_int("ms", 0, hi, help).budget(BudgetKind::Time)
}

/// One thread: a tournament runs games in parallel instead, and an `mcts`
/// search bounded by iterations is then reproducible
/// (`experiments/parallel-scaling/`).
pub const DEFAULT_THREADS: u64 = 1;

/// `threads=`: search threads, `help` says what they share.
pub const fn threads(help: &'static str) -> KeyInfo {
    KeyInfo::int(
        "threads",
        1,
        crate::bot::MAX_THREADS as u64,
        DEFAULT_THREADS,
        help,
    )
    .bare()
}

/// On: the subtree of the moves played is work already done that the
/// next search would repeat; for `mcts` at every thread count, since the
/// subtree copy keeps node order (docs/mcts-history.md, "Two threads").
pub const DEFAULT_REUSE: bool = true;

/// `reuse=`: keep the subtree of the moves played between searches.
pub const REUSE: KeyInfo = KeyInfo::flag(
    "reuse",
    DEFAULT_REUSE,
    "keep the matching subtree between moves",
)
.bare();

/// Exact search from ten empty squares: there the solver's answer is
/// cheap (less than a network evaluation of each child for `zero`), and
/// larger values changed no game of `mcts` in the screens of
/// docs/mcts-history.md (the points are lost earlier).
pub const DEFAULT_EXACT: u64 = 10;

/// Most empty squares `exact=` takes: the exact search at the root runs
/// inside one move, and its cost grows steeply with the empty squares.
const MAX_EXACT: u64 = 14;

/// `exact=`: positions with at most this many empty squares are solved;
/// `help` says which of the bot's positions.
pub const fn exact(help: &'static str) -> KeyInfo {
    KeyInfo::int("exact", 0, MAX_EXACT, DEFAULT_EXACT, help).bare()
}

super::key_values! {
    /// How a search shares its clock out over its moves (the `alloc=` key).
    pub enum Allocation {
        /// The time left split evenly over every move the bot has left,
        /// plus the increment.
        Even = "even",
        /// The time left split over the moves that need a search: the last
        /// moves, from `exact` empty squares on, are solved in moments and
        /// get no share.
        Searched = "searched",
    }
}

/// Even shares: the plainest allocation, which any other must beat at
/// equal clocks to replace (`experiments/time-management/`).
pub const DEFAULT_ALLOC: Allocation = Allocation::Even;

/// `alloc=`: how a clocked search (`tc=`) shares its time out over the
/// moves it has left.
pub const ALLOC: KeyInfo = KeyInfo::choice::<Allocation>(
    "alloc",
    DEFAULT_ALLOC.name(),
    "with tc=: share the clock over every move left (even) or over the moves before exact= (searched)",
);

/// Off until it passes the gate at equal clocks
/// (`experiments/time-management/`).
pub const DEFAULT_EARLY: bool = false;

/// `early=`: stop a timed search once its most visited move cannot be
/// overtaken in the time left; the saving stays on the clock.
pub const EARLY: KeyInfo = KeyInfo::flag(
    "early",
    DEFAULT_EARLY,
    "with tc=: stop a search when its most visited move can no longer be overtaken (the time saved stays on the clock)",
);
