//! `alphabeta`: iterative-deepening negamax with alpha-beta pruning, the
//! line-potential evaluation at the horizon, and the exact solver for the
//! endgame.
//!
//! Each move, step by step:
//! 1. with no more than `solve=` free squares, the exact solver picks a move
//!    of the best margin, whatever `nodes=` (only an `ms=` budget stops it,
//!    at half the move's time, and then the search plays);
//! 2. otherwise depths 1, 2, ... are searched until `depth=`, `nodes=` or
//!    `ms=` is spent, or a depth reaches the end of the game; an unfinished
//!    depth counts only for root moves it searched completely. The default
//!    budget is `nodes=1000000` (about a second); a spec giving `depth=` or
//!    `ms=` alone searches by that budget only;
//! 3. a node is a principal-variation search: the transposition table move
//!    first, then the two killer moves of the ply, then the rest by the
//!    one-ply heuristic value of the square plus its history score (within
//!    three plies of the horizon by immediate gains for both sides plus
//!    history instead: measured, as few nodes at half the time);
//! 4. at the horizon the position is scored by [`evaluate`] (White's
//!    potential minus Black's; the exact margin on a finished board).
//!
//! Values are half points for the side to move, komi included, so the
//! search and the solver speak the same units. Root moves are shuffled by
//! the bot's seed before being sorted, so equal moves are chosen by seed,
//! and with a `depth=` or `nodes=` budget a game replays exactly.
//!
//! The tree search is in `alphabeta/search.rs`, the keys in
//! `alphabeta/config.rs`; this file holds the bot: root ordering, the
//! exact endgame, iterative deepening and the budget.

mod config;
mod search;

use std::time::{Duration, Instant};

use super::clock::{Allocation, Clock};
use super::spec::{BotKind, Params, SpecError};
use super::{Bot, BotFault, SearchInfo};
use crate::eval::{EvalWeights, MoveValuer, evaluate};
use crate::game::outcome::{Move, MoveCode};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::FastRng;
use crate::solve::{SolveLimits, Solver};

pub use self::config::AlphaBetaConfig;

/// Larger than any value.
const INF: i32 = i32::MAX / 4;
/// Deepest search (plies); more than any game lasts.
const MAX_PLY: usize = 72;

/// At this remaining depth and below, moves are ordered by immediate gains
/// and history instead of the heuristic's move values.
const CHEAP_ORDER_DEPTH: u32 = 3;

/// Bound kinds of a table entry.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

/// One table entry: a bound from a search of `depth` plies.
#[derive(Clone, Copy, Debug, Default)]
struct TtEntry {
    key: u64,
    value: i32,
    depth: u8,
    kind: u8,
    mv: MoveCode,
    used: bool,
    /// The search (move) that stored it: older entries give way.
    generation: u8,
}

/// The bot.
pub struct AlphaBetaBot {
    name: String,
    cfg: AlphaBetaConfig,
    rng: FastRng,
    /// Allocated at the first move, so building a bot to check a spec is cheap.
    tt: Vec<TtEntry>,
    solver: Option<Solver>,
    history: [[u32; 64]; 2],
    /// Counts searches, for table replacement.
    generation: u8,
    killers: [[MoveCode; 2]; MAX_PLY],
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    last: Option<SearchInfo>,
    /// One-ply move values for ordering, with the line tables of the
    /// board being searched (set at the start of each search).
    valuer: MoveValuer,
    /// The clock of a clocked game: its share is the move's time budget,
    /// in place of `ms=`, `depth=` and `nodes=`.
    clock: Option<Clock>,
    /// This move's time budget in milliseconds (0: none).
    move_ms: u64,
}

impl std::fmt::Debug for AlphaBetaBot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBetaBot")
            .field("name", &self.name)
            .field("cfg", &self.cfg)
            .finish()
    }
}

/// Value of `pos` for the side to move by the evaluation, half points with
/// komi.
#[inline]
fn static_value(pos: &Position, w: &EvalWeights) -> i32 {
    let v = 2 * evaluate(pos, w) - pos.komi().halves();
    if pos.turn() == Player::White { v } else { -v }
}

fn play(pos: &Position, mv: MoveCode) -> Position {
    let mut child = *pos;
    match mv.square() {
        Some(sq) => child.play_unchecked(sq),
        None => {
            // Only generated when allowed.
            let _ = child.try_swap();
        }
    }
    child
}

/// Plies left until the game ends, counting a pie swap that may still come.
fn plies_left(pos: &Position) -> u32 {
    let swap = pos.pie() && !pos.swapped() && pos.stone_count() <= 1;
    pos.empty().count() + swap as u32
}

impl AlphaBetaBot {
    /// A bot with settings `cfg` and tie-breaking stream `seed`.
    pub fn new(name: impl Into<String>, cfg: AlphaBetaConfig, seed: u64) -> AlphaBetaBot {
        let valuer = MoveValuer::new(&cfg.weights);
        AlphaBetaBot {
            name: name.into(),
            cfg,
            rng: FastRng::new(seed),
            tt: Vec::new(),
            solver: None,
            history: [[0; 64]; 2],
            generation: 0,
            killers: [[MoveCode::NONE; 2]; MAX_PLY],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            last: None,
            valuer,
            clock: None,
            move_ms: 0,
        }
    }

    /// Root moves in the order the bot prefers among equals: shuffled by
    /// the seed, then stably sorted by one-ply value.
    fn root_order(&mut self, pos: &Position) -> Vec<Move> {
        let mut moves: Vec<Move> = pos.empty().map(Move::Place).collect();
        if pos.can_swap() {
            moves.push(Move::Swap);
        }
        for i in (1..moves.len()).rev() {
            let j = self.rng.below(i as u32 + 1) as usize;
            moves.swap(i, j);
        }
        let valuer = &self.valuer;
        moves.sort_by_key(|m| match m {
            Move::Place(sq) => std::cmp::Reverse(valuer.value(pos, *sq)),
            Move::Swap => std::cmp::Reverse(0),
        });
        moves
    }

    /// Step 1: the solver, when the position is small enough.
    fn try_solve(&mut self, pos: &Position, order: &[Move]) -> Option<Move> {
        if pos.empty().count() > self.cfg.solve {
            return None;
        }
        let solver = self.solver.get_or_insert_with(|| Solver::new(16));
        // `solve=` promises exact play, so the node budget, which bounds
        // the search, does not bound the solver: a solver stopped by nodes
        // would hand the move to a search that may give the result away.
        // Only a time budget stops it (half the time, so that the search
        // still has some), and then the search plays.
        let limits = SolveLimits {
            max_nodes: None,
            deadline: (self.move_ms > 0)
                .then(|| Instant::now() + Duration::from_millis(self.move_ms.div_ceil(2))),
            tt_mb: 16,
        };
        let (mv, v, nodes) = solver.best_move(pos, order, &limits).ok()??;
        self.last = Some(SearchInfo {
            nodes,
            depth: pos.empty().count(),
            eval: Some(v as f64 / 2.0),
            expect: None,
            pv: vec![mv],
            extra: "solved=1".into(),
        });
        Some(mv)
    }

    /// Steps 2 and 3: iterative deepening from the root.
    fn think(&mut self, pos: &Position, order: Vec<Move>) -> Move {
        if self.tt.is_empty() {
            let n = ((self.cfg.tt << 20) / std::mem::size_of::<TtEntry>()).next_power_of_two() / 2;
            self.tt = vec![TtEntry::default(); n.max(1024)];
        }
        self.nodes = 0;
        self.stopped = false;
        self.generation = self.generation.wrapping_add(1);
        self.killers = [[MoveCode::NONE; 2]; MAX_PLY];
        for h in self.history.iter_mut().flatten() {
            *h /= 8;
        }
        let mut root: Vec<MoveCode> = order.iter().map(|&m| MoveCode::from(m)).collect();
        let mut best = root[0];
        let mut best_value = 0;
        let mut done_depth = 0;
        let end = plies_left(pos);
        for depth in 1..=self.cfg.depth.min(end) {
            let mut alpha = -INF;
            let mut iter_best = None;
            for (i, &mv) in root.iter().enumerate() {
                let child = play(pos, mv);
                let v = if i == 0 {
                    -self.search(&child, depth - 1, -INF, -alpha, 1)
                } else {
                    let v = -self.search(&child, depth - 1, -alpha - 1, -alpha, 1);
                    if v > alpha && !self.stopped {
                        -self.search(&child, depth - 1, -INF, -alpha, 1)
                    } else {
                        v
                    }
                };
                if self.stopped {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    iter_best = Some((mv, v));
                }
            }
            if let Some((mv, v)) = iter_best {
                // Best first next time; the others keep their order.
                if let Some(i) = root.iter().position(|&m| m == mv) {
                    root.remove(i);
                    root.insert(0, mv);
                }
                // A partial depth still searched its best move completely.
                best = mv;
                best_value = v;
            }
            if self.stopped {
                break;
            }
            done_depth = depth;
        }
        let mut pv = vec![best.to_move()];
        pv.extend(self.principal_variation(&play(pos, best), done_depth.saturating_sub(1)));
        self.last = Some(SearchInfo {
            nodes: self.nodes,
            depth: done_depth,
            eval: Some(best_value as f64 / 2.0),
            expect: None,
            pv,
            extra: String::new(),
        });
        best.to_move()
    }

    /// The move for `pos`, with the budgets of the configuration.
    pub fn choose(&mut self, pos: &Position) -> Option<Move> {
        if pos.is_game_over() {
            return None;
        }
        let start = Instant::now();
        self.valuer = MoveValuer::with_table(&self.cfg.weights, pos.size());
        self.move_ms = match self.clock {
            Some(c) => (c.allot(pos, Allocation::Even, self.cfg.solve).as_millis() as u64).max(1),
            None => self.cfg.ms,
        };
        self.deadline = (self.move_ms > 0).then(|| start + Duration::from_millis(self.move_ms));
        self.node_limit = if self.cfg.nodes == 0 || self.clock.is_some() {
            u64::MAX
        } else {
            self.cfg.nodes
        };
        let order = self.root_order(pos);
        if let Some(mv) = self.try_solve(pos, &order) {
            return Some(mv);
        }
        Some(self.think(pos, order))
    }
}

/// Mixed into table keys: the position hash covers holes and stones only,
/// so boards of other sizes, komi or pie setting must key apart.
fn rules_key(pos: &Position) -> u64 {
    let komi = pos.komi().halves() as u32 as u64;
    crate::game::rng::mix64(
        0x6162_0000_0000_0000 ^ komi ^ (pos.size() as u64) << 32 ^ (pos.pie() as u64) << 40,
    )
}

impl Bot for AlphaBetaBot {
    fn name(&self) -> &str {
        &self.name
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        self.choose(game.position())
            .ok_or_else(|| BotFault::Illegal("no free square".into()))
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.last.clone()
    }

    fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    fn is_timed(&self) -> bool {
        self.cfg.ms > 0 || self.clock.is_some()
    }
}

/// The catalogue entry.
pub const KIND: BotKind = BotKind {
    name: "alphabeta",
    summary: "iterative-deepening alpha-beta on the line-potential evaluation, exact solver in the endgame",
    keys: config::KEYS,
    build: |params: &Params, seed| -> Result<Box<dyn Bot>, SpecError> {
        let cfg = AlphaBetaConfig::from_params(params)?;
        Ok(Box::new(AlphaBetaBot::new(params.label(), cfg, seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;
    use crate::game::rules::Rules;
    use crate::game::square::Square;
    use crate::game::text::parse_boards;

    fn midgame(seed: u64, plies: u32) -> Position {
        let mut rng = FastRng::new(seed);
        let mut p = Rules::default()
            .new_game(&mut rng)
            .unwrap_or_else(|e| unreachable!("{e}"));
        for _ in 0..plies {
            let e = p.empty();
            p.play_unchecked(
                e.nth(rng.below(e.count()))
                    .unwrap_or_else(|| unreachable!()),
            );
        }
        p
    }

    fn bot(cfg: AlphaBetaConfig, seed: u64) -> AlphaBetaBot {
        AlphaBetaBot::new("ab", cfg, seed)
    }

    #[test]
    fn same_seed_same_move_and_nodes_within_the_depth() {
        let pos = midgame(3, 12);
        let cfg = AlphaBetaConfig {
            depth: 3,
            nodes: 0,
            tt: 1,
            ..AlphaBetaConfig::default()
        };
        let mut a = bot(cfg.clone(), 7);
        let mut b = bot(cfg, 7);
        assert_eq!(a.choose(&pos), b.choose(&pos));
        let (ia, ib) = (a.last_search(), b.last_search());
        assert_eq!(ia, ib);
        let info = ia.unwrap_or_default();
        assert_eq!(info.depth, 3);
        assert_eq!(info.pv.len(), 3, "{info:?}");
        assert!(info.nodes > 0);
    }

    #[test]
    fn node_budget_is_kept() {
        let pos = midgame(4, 6);
        let mut a = bot(
            AlphaBetaConfig {
                nodes: 5000,
                tt: 1,
                ..AlphaBetaConfig::default()
            },
            1,
        );
        assert!(a.choose(&pos).is_some());
        let info = a.last_search().unwrap_or_default();
        assert!(info.nodes <= 5000 && info.depth >= 1, "{info:?}");
    }

    #[test]
    fn completes_the_long_run() {
        // White to move: d1 completes a row of seven (119 points).
        let b = &parse_boards("B.B.B.B\n.......\n.......\n.......\n.......\nB.B....\nWWW.WWW\n")
            .unwrap_or_else(|e| unreachable!("{e}"))[0];
        let pos = b
            .to_position(false, Komi::ZERO)
            .unwrap_or_else(|e| unreachable!("{e}"));
        let mut a = bot(
            AlphaBetaConfig {
                depth: 2,
                tt: 1,
                ..AlphaBetaConfig::default()
            },
            1,
        );
        assert_eq!(a.choose(&pos), Some(Move::Place(Square::new(3, 0))));
    }

    #[test]
    fn solve_is_exact_whatever_the_node_budget() {
        // A node budget far too small for the solver to finish within any
        // allowance tied to it: the move must still attain the exact margin.
        for seed in 0..6 {
            let start = midgame(40 + seed, 0);
            let pos = midgame(40 + seed, start.empty().count() - 14);
            let exact = crate::solve::solve(&pos, &SolveLimits::default())
                .unwrap_or_else(|e| unreachable!("{e}"));
            let mut a = bot(
                AlphaBetaConfig {
                    nodes: 1,
                    solve: 14,
                    tt: 1,
                    ..AlphaBetaConfig::default()
                },
                seed,
            );
            let mv = a.choose(&pos).unwrap_or_else(|| unreachable!());
            assert!(
                exact.best_margin.contains(&mv),
                "seed {seed}: {mv} not in {exact}"
            );
            let info = a.last_search().unwrap_or_default();
            assert_eq!(info.extra, "solved=1", "seed {seed}");
        }
    }
}
