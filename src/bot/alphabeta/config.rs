//! The `alphabeta` settings: one field per bot key.

use crate::bot::eval::EvalWeights;
use crate::bot::spec::{KeyInfo, Params, SpecError};

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
    pub tt_mb: usize,
    /// Evaluation weights.
    pub weights: EvalWeights,
}

impl AlphaBetaConfig {
    /// Default `depth=`.
    pub const DEFAULT_DEPTH: u32 = 64;
    /// Default `nodes=`: about a second per move in the middlegame on the
    /// reference machine (a 2-core VM shared by several jobs; about 0.3 s
    /// of CPU time), depth 6-7 early, 8-11 later.
    pub const DEFAULT_NODES: u64 = 1_000_000;
    /// Default `solve=`: a 7x7 position from play with 18 free squares
    /// typically solves in one to two million solver nodes (under a second).
    pub const DEFAULT_SOLVE: u32 = 18;

    /// The keys, for `pahtum bots`.
    pub const KEYS: &'static [KeyInfo] = &[
        KeyInfo {
            key: "depth",
            default: "64",
            accepts: "an integer 1..=64",
            help: "deepest iteration in plies",
            research: false,
        },
        KeyInfo {
            key: "nodes",
            default: "1000000",
            accepts: "an integer 0..=10000000000",
            help: "node budget per move, deterministic (0 = none); about a second; the default applies only when neither depth nor ms is given",
            research: false,
        },
        KeyInfo {
            key: "ms",
            // `-` is how every bot lists "no time budget" (ms=0 is accepted
            // and means the same).
            default: "-",
            accepts: "an integer 0..=3600000",
            help: "time budget per move in milliseconds (- or 0: none; makes games unrepeatable)",
            research: false,
        },
        KeyInfo {
            key: "solve",
            default: "18",
            accepts: "an integer 0..=30",
            help: "play exactly (solver, best margin) once no more squares than this are free, whatever nodes=; only ms= bounds it (half the move's time, then the search plays)",
            research: false,
        },
        KeyInfo {
            key: "tt",
            default: "16",
            accepts: "an integer 1..=1024",
            help: "transposition table size in MiB",
            research: false,
        },
        EvalWeights::KEYS[0],
        EvalWeights::KEYS[1],
        EvalWeights::KEYS[2],
    ];

    /// Reads the keys from a spec.
    ///
    /// # Errors
    /// A value out of range or of the wrong type.
    pub fn from_params(p: &Params) -> Result<AlphaBetaConfig, SpecError> {
        let nodes_default = if p.raw("depth").is_some() || p.raw("ms").is_some() {
            0
        } else {
            Self::DEFAULT_NODES
        };
        Ok(AlphaBetaConfig {
            depth: p.int("depth", Self::DEFAULT_DEPTH as u64, 1, 64)? as u32,
            // `depth=4` or `ms=500` alone means exactly that budget.
            nodes: p.int("nodes", nodes_default, 0, 10_000_000_000)?,
            ms: p.int("ms", 0, 0, 3_600_000)?,
            solve: p.int("solve", Self::DEFAULT_SOLVE as u64, 0, 30)? as u32,
            tt_mb: p.int("tt", 16, 1, 1024)? as usize,
            weights: EvalWeights::from_params(p)?,
        })
    }
}

impl Default for AlphaBetaConfig {
    fn default() -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth: Self::DEFAULT_DEPTH,
            nodes: Self::DEFAULT_NODES,
            ms: 0,
            solve: Self::DEFAULT_SOLVE,
            tt_mb: 16,
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
        assert_eq!(cfg("alphabeta").nodes, AlphaBetaConfig::DEFAULT_NODES);
        assert_eq!(cfg("alphabeta:depth=5").nodes, 0);
        assert_eq!(cfg("alphabeta:ms=300").nodes, 0);
        assert_eq!(cfg("alphabeta:ms=300,nodes=9").nodes, 9);
    }
}
