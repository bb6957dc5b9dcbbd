//! The `alphabeta` settings: one field per bot key.

use crate::bot::spec::{BudgetKind, KeyInfo, Params, SpecError, search_keys};
use crate::eval::EvalWeights;

/// Search settings; each is a bot key.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaConfig {
    /// Deepest iteration, in plies.
    pub depth: u32,
    /// Node budget per move (0: none). Deterministic, unlike `ms`.
    pub nodes: u64,
    /// Wall-clock budget per move in milliseconds (0: none).
    pub ms: u64,
    /// Solve exactly once no more than this many squares are free; the
    /// node budget does not bound the solver, a time budget does.
    pub solve: u32,
    /// Transposition table size in MiB.
    pub tt: usize,
    /// Evaluation weights.
    pub weights: EvalWeights,
}

/// Default `depth=`: as many plies as the largest board has squares, so
/// that the node and time budgets end a search, not the depth.
const DEFAULT_DEPTH: u64 = 64;
/// Default `nodes=`: about a second per move in the middlegame on the
/// reference machine (docs/baselines-history.md, "Alpha-beta budgets").
const DEFAULT_NODES: u64 = 1_000_000;
/// Default `solve=`: a 7x7 position from play with this many free
/// squares typically solves in under a second (docs/baselines-history.md,
/// "Alpha-beta budgets").
const DEFAULT_SOLVE: u64 = 18;
/// Default `tt=`.
const DEFAULT_TT: u64 = 16;

/// `depth=`.
const DEPTH: KeyInfo = KeyInfo::int("depth", 1, 64, DEFAULT_DEPTH, "deepest iteration in plies")
    .budget(BudgetKind::Work);
/// `nodes=`.
const NODES: KeyInfo = KeyInfo::int(
    "nodes",
    0,
    10_000_000_000,
    DEFAULT_NODES,
    "node budget per move, deterministic (0 = none); about a second; the default applies only when neither depth nor ms is given",
)
.budget(BudgetKind::Work)
.implied_by(no_nodes_beside_depth_or_ms);

/// `depth=4` or `ms=500` alone means exactly that budget: no node bound
/// unless `nodes=` is given too. `ms=0` (or `-`) is no time budget, so
/// the default node bound stays beside it.
fn no_nodes_beside_depth_or_ms(p: &Params) -> Option<&'static str> {
    let timed = p.opt_int(&MS).ok().flatten().is_some_and(|ms| ms > 0);
    (p.raw(DEPTH.key).is_some() || timed).then_some("0")
}
/// `ms=`: `-` is how every bot lists "no time budget" (ms=0 is
/// accepted and means the same).
const MS: KeyInfo = search_keys::ms_beside_other_budgets(
    3_600_000,
    "time budget per move in milliseconds (0 or not given: none; makes games unrepeatable)",
);
/// `solve=`.
const SOLVE: KeyInfo = KeyInfo::int(
    "solve",
    0,
    30,
    DEFAULT_SOLVE,
    "play exactly (solver, best margin) once no more squares than this are free, whatever nodes=; only ms= bounds it (half the move's time, then the search plays)",
);
/// `tt=`.
const TT: KeyInfo = KeyInfo::int("tt", 1, 1024, DEFAULT_TT, "transposition table size in MiB");

/// The keys, for `pahtum bots`.
pub(super) const KEYS: &[KeyInfo] = &[
    DEPTH,
    NODES,
    MS,
    SOLVE,
    TT,
    crate::bot::spec::WEIGHT_KEYS[0],
    crate::bot::spec::WEIGHT_KEYS[1],
    crate::bot::spec::WEIGHT_KEYS[2],
];

impl AlphaBetaConfig {
    /// Reads the keys from a spec.
    ///
    /// # Errors
    /// A value out of range or of the wrong type.
    pub fn from_params(p: &Params) -> Result<AlphaBetaConfig, SpecError> {
        Ok(AlphaBetaConfig {
            depth: p.int(&DEPTH)? as u32,
            nodes: p.int(&NODES)?,
            ms: p.opt_int(&MS)?.unwrap_or(0),
            solve: p.int(&SOLVE)? as u32,
            tt: p.int(&TT)? as usize,
            weights: crate::bot::spec::weights_from_params(p)?,
        })
    }
}

impl Default for AlphaBetaConfig {
    fn default() -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth: DEFAULT_DEPTH as u32,
            nodes: DEFAULT_NODES,
            ms: 0,
            solve: DEFAULT_SOLVE as u32,
            tt: DEFAULT_TT as usize,
            weights: EvalWeights::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::alphabeta::KIND;

    #[test]
    fn keys_are_checked() {
        let c = crate::bot::spec::Catalog::new(vec![KIND]);
        assert!(
            c.parse("alphabeta:depth=4,nodes=0,ms=100,solve=12,tt=8")
                .is_ok()
        );
        let e = c.parse("alphabeta:depth=0").expect_err("range");
        assert!(e.0.contains("depth") && e.0.contains("1..=64"), "{e}");
        assert!(c.parse("alphabeta:decay=2").is_err());
        // A depth or time budget alone drops the default node budget.
        let cfg = |spec: &str| {
            let parsed = c.parse(spec).unwrap_or_else(|e| unreachable!("{e}"));
            AlphaBetaConfig::from_params(&Params::new(&parsed))
                .unwrap_or_else(|e| unreachable!("{e}"))
        };
        assert_eq!(cfg("alphabeta").nodes, DEFAULT_NODES);
        assert_eq!(cfg("alphabeta:depth=5").nodes, 0);
        assert_eq!(cfg("alphabeta:ms=300").nodes, 0);
        assert_eq!(cfg("alphabeta:ms=300,nodes=9").nodes, 9);
    }
}
