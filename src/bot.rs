//! Players: the [`Bot`] interface, bot specs and the built-in bots.

pub mod alphabeta;
pub mod choose;
pub mod clock;
pub mod flatmc;
pub mod greedy;
pub mod heuristic;
pub mod human;
pub mod learned;
pub mod mcts;
pub mod random;
pub mod spec;
pub mod zero;

use crate::game::outcome::Move;
use crate::game::record::Game;

pub use spec::{BotKind, BotSpec, Catalog, KeyInfo, KeyType, Params, SpecError};

/// What a search reports about its last move, for `play --verbose` and
/// experiments. Every field is optional in spirit: bots fill what they have.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Positions visited (nodes, iterations or playouts, as the bot counts).
    pub nodes: u64,
    /// Depth reached (plies).
    pub depth: u32,
    /// The bot's evaluation for the side to move, in its own units.
    pub eval: Option<f64>,
    /// The mover's expected score in `[0, 1]` (1 a win, ½ a draw), for
    /// bots whose value is a share of the score; a swap's is for the
    /// swapper, who then owns White.
    pub expect: Option<f64>,
    /// Principal variation, first move first.
    pub pv: Vec<Move>,
    /// Anything else worth a line, as `key=value` pairs.
    pub extra: String,
}

/// Why a bot produced no move. The arena scores it as a loss for the bot
/// with the matching `termination` (`crash`, `timeout`, `illegal_move`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotFault {
    /// The bot (an external process) died or could not be reached.
    #[error("crash: {0}")]
    Crash(String),
    /// No answer within the move time limit.
    #[error("timeout: {0}")]
    Timeout(String),
    /// An answer that is not a legal move (garbage, occupied square...).
    #[error("illegal move: {0}")]
    Illegal(String),
    /// The input ended (a human closed the terminal): the game stops.
    #[error("no more input")]
    EndOfInput,
    /// The run was interrupted ([`crate::interrupt`]) while the bot waited for an
    /// external engine; the game is dropped, not scored.
    #[error("interrupted")]
    Interrupted,
}

impl BotFault {
    /// The `termination` column value for this fault.
    pub fn termination(&self) -> &'static str {
        match self {
            BotFault::Crash(_) => "crash",
            BotFault::Timeout(_) => "timeout",
            BotFault::Illegal(_) => "illegal_move",
            BotFault::EndOfInput | BotFault::Interrupted => "aborted",
        }
    }
}

/// A player. It owns its random stream, seeded when it is built, so a game
/// replays from its seeds alone (docs/CONTRACT.md, Determinism).
pub trait Bot: Send {
    /// The name written to outputs (the spec's `label=`, else the spec
    /// with `;` for each `,`).
    fn name(&self) -> &str;

    /// Chooses a move for the side to move of `game`, never called on a
    /// finished game. When `game.position().can_swap()`, [`Move::Swap`] is
    /// also allowed.
    ///
    /// # Errors
    /// A [`BotFault`] when no move can be produced (external engines).
    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault>;

    /// Shows the bot its clock before a move of a clocked game (`tc=`),
    /// or `None` in a game without one. A search bot shares its time out
    /// over the game ([`clock::Clock::allot`]) instead of its own budget;
    /// the others ignore it. Called before every
    /// [`Bot::select_move`] when the game has clocks.
    fn set_clock(&mut self, clock: Option<clock::Clock>) {
        let _ = clock;
    }

    /// Statistics of the last search, if the bot searches.
    fn last_search(&self) -> Option<SearchInfo> {
        None
    }

    /// Whether the bot's moves depend on wall-clock time (an `ms=` budget),
    /// which makes a run impossible to replay exactly.
    fn is_timed(&self) -> bool {
        false
    }

    /// Whether the same seed and position always give the same move: not
    /// with a time budget, nor where threads race (a shared search tree).
    /// Studies whose rows must replay byte for byte refuse other bots.
    fn is_replayable(&self) -> bool {
        !self.is_timed()
    }
}

/// The most threads any option may ask for: `--threads` (games at once)
/// and a search's `threads=` key. Far above any machine's cores, low enough
/// that starting them all takes moments rather than wedging the process.
pub const MAX_THREADS: usize = 256;

/// The catalogue of built-in bots, in the order `pahtum bots` lists them.
pub fn builtin_catalog() -> Catalog {
    Catalog::new(vec![
        random::KIND,
        greedy::KIND,
        heuristic::KIND,
        learned::KIND,
        flatmc::KIND,
        mcts::KIND,
        zero::KIND,
        alphabeta::KIND,
        human::KIND,
    ])
}
