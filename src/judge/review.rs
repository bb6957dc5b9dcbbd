//! One game, move by move (`pahtum review`, docs/CONTRACT.md "Seeing
//! runs"): each position of a game is searched by a bot (its evaluation
//! and the move it would play) and, once few enough squares are free,
//! solved exactly, so that each move played gets a verdict against
//! perfect play.
//!
//! Every position gets a fresh bot seeded from the review's seed and the
//! ply, so a row depends on nothing but the game, the bot spec and the
//! seed, and the position after a move is searched once: its evaluation is
//! the `eval_before` of the next row and, from the other side, the
//! `eval_after` of this one.

use serde::{Deserialize, Serialize};

use crate::bot::{BotSpec, Catalog, SearchInfo};
use crate::csv_rows::{self, fixed};
use crate::game::outcome::Move;
use crate::game::player::{ByPlayer, Player};
use crate::game::position::{MoveError, Position};
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::interrupt;
use crate::solve::{Solution, SolveError, SolveLimits, Solver, format_halves};

mod record;

pub use self::record::{RECORD_FILE, ReviewRecord, full_spec};

/// The bot of a review when `--bot` is not given: the default engine at a
/// budget that reviews a whole 7x7 game in seconds.
pub const DEFAULT_BOT: &str = "mcts:iters=2000";

/// Positions with at most this many free squares are solved by default.
/// On 7x7 the first solve of a game dominates (the later, smaller ones
/// reuse its table), and its time grows steeply with the free squares (see
/// `solve`'s default): from 20 a whole game is reviewed in seconds.
pub const DEFAULT_EXACT: u32 = 20;

/// A solve that visits more nodes gives up and leaves its row's exact
/// columns empty: a bound in nodes rather than time keeps the output the
/// same on any machine, and this one is far above what a position with
/// [`DEFAULT_EXACT`] free squares needs.
pub const SOLVE_NODE_LIMIT: u64 = 2_000_000_000;

/// One line of `review.csv`; the exact columns are empty where the
/// position was not solved.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ReviewCsvRow {
    /// The ply, from 1.
    pub ply: u32,
    /// `white` or `black`.
    pub mover: String,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    /// White's line score before the move.
    pub white_score: u32,
    /// Black's.
    pub black_score: u32,
    /// The bot's evaluation before the move, for the mover.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub eval_before: Option<f64>,
    /// After it, for the mover.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub eval_after: Option<f64>,
    /// The bot's best move.
    pub best_move: String,
    /// The exact result before the move.
    pub exact_result_before: Option<String>,
    /// The exact margin before the move, points.
    pub exact_margin_before: Option<String>,
    /// The move's verdict.
    pub verdict: Option<String>,
    /// The margin it lost, points.
    pub margin_lost: Option<String>,
}

/// The columns of `review.csv`.
pub fn header() -> Vec<String> {
    csv_rows::columns::<ReviewCsvRow>()
}

/// The limits of each solve of a review: [`SOLVE_NODE_LIMIT`] nodes.
pub fn solve_limits() -> SolveLimits {
    SolveLimits {
        max_nodes: Some(SOLVE_NODE_LIMIT),
        ..SolveLimits::default()
    }
}

/// How a bot's evaluation turns to the other side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalScale {
    /// A mean reward in `[0, 1]` (`mcts`, `flatmc`): the other side's is
    /// `1 - v`, and a finished game is worth 1, ½ or 0.
    Reward,
    /// Points for the side to move (`alphabeta` and the rest): the other
    /// side's is `-v`, and a finished game is worth its margin.
    Points,
}

impl EvalScale {
    /// The scale of the bot named `name` in a spec.
    pub fn of_bot(name: &str) -> EvalScale {
        match name {
            "mcts" | "flatmc" => EvalScale::Reward,
            _ => EvalScale::Points,
        }
    }

    fn flip(self, v: f64) -> f64 {
        match self {
            EvalScale::Reward => 1.0 - v,
            EvalScale::Points => -v,
        }
    }

    /// The worth of the finished `pos` to the holder of colour `c`.
    fn finished(self, pos: &Position, c: Player) -> f64 {
        match self {
            EvalScale::Reward => pos.outcome().points_for(c),
            EvalScale::Points => f64::from(side_margin(pos.margin_halves(), c)) / 2.0,
        }
    }
}

/// What the solver says of a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It keeps the best margin.
    Best,
    /// It keeps the game-theoretic result but gives away margin.
    Inaccuracy,
    /// It changes the game-theoretic result.
    Blunder,
}

impl Verdict {
    /// The `verdict` column value.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Blunder => "blunder",
        }
    }
}

/// The exact judgement of one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judged {
    /// The solution of the position before the move.
    pub before: Solution,
    /// The move's verdict.
    pub verdict: Verdict,
    /// Margin given away from the mover's side, half points (0 for a best
    /// move); `None` when the position after it was not solved in budget.
    pub lost_halves: Option<i32>,
}

/// One reviewed ply.
#[derive(Clone, Debug, PartialEq)]
pub struct Ply {
    /// 1-based.
    pub ply: u32,
    /// The colour to move before the ply.
    pub mover: Player,
    /// The move played.
    pub mv: Move,
    /// Line scores after the move, komi not included.
    pub scores: ByPlayer<u32>,
    /// The bot's evaluation before the move, for the mover.
    pub eval_before: Option<f64>,
    /// The bot's evaluation after the move, for the mover.
    pub eval_after: Option<f64>,
    /// The move the bot would have played.
    pub best_move: Move,
    /// The solver's judgement, where the position was solved.
    pub exact: Option<Judged>,
}

/// How to review.
#[derive(Clone, Debug)]
pub struct ReviewConfig<'a> {
    /// Builds the bot.
    pub catalog: &'a Catalog,
    /// The bot that searches each position.
    pub spec: &'a BotSpec,
    /// Seeds the bot of ply `k` with `derive_seed(seed, [k])`.
    pub seed: u64,
    /// Solve positions with at most this many free squares.
    pub exact: u32,
    /// Limits of each solve; a position not solved within them has no
    /// exact columns.
    pub limits: SolveLimits,
}

/// Why a review stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// A move of the game is not legal where it is played.
    #[error("move {ply} '{mv}' is illegal: {err}")]
    Illegal {
        /// 1-based ply.
        ply: u32,
        /// The move.
        mv: Move,
        /// Why.
        err: MoveError,
    },
    /// The bot could not be built or gave no legal move.
    #[error("ply {0}: the bot gave no legal move: {1}")]
    Bot(u32, String),
    /// Ctrl-C or SIGTERM.
    #[error("interrupted")]
    Interrupted,
}

/// The positions of a game, `moves.len() + 1` of them, first the start.
///
/// # Errors
/// [`ReviewError::Illegal`] naming the first illegal move.
pub fn replay(start: Position, moves: &[Move]) -> Result<Vec<Position>, ReviewError> {
    let mut positions = vec![start];
    let mut pos = start;
    for (i, &mv) in moves.iter().enumerate() {
        pos.try_play_move(mv).map_err(|err| ReviewError::Illegal {
            ply: i as u32 + 1,
            mv,
            err,
        })?;
        positions.push(pos);
    }
    Ok(positions)
}

/// The evaluation of a search that ended in the bot's exact endgame
/// search (`exact_margin=` in its report, White's margin in points): the
/// proven value for the side to move `turn`, where the report's mean would
/// be a placeholder. A swap's is the swapper's, who owns White after it.
fn exact_eval(info: &SearchInfo, scale: EvalScale, turn: Player) -> Option<f64> {
    let m: f64 = info
        .extra
        .split(' ')
        .find_map(|kv| kv.strip_prefix("exact_margin="))?
        .parse()
        .ok()?;
    let swaps = info.pv.first() == Some(&Move::Swap);
    let mine = if turn == Player::White || swaps {
        m
    } else {
        -m
    };
    Some(match scale {
        EvalScale::Reward if mine > 0.0 => 1.0,
        EvalScale::Reward if mine < 0.0 => 0.0,
        EvalScale::Reward => 0.5,
        EvalScale::Points => mine,
    })
}

/// White's margin `m` as the holder of colour `c` sees it.
fn side_margin(m: i32, c: Player) -> i32 {
    if c == Player::White { m } else { -m }
}

/// The colour the mover of `mv` holds after it: a pie swap hands over
/// White's stone with its colour.
fn holder_after(mv: Move, c: Player) -> Player {
    if mv == Move::Swap { !c } else { c }
}

/// The verdict on `mv`, played by `mover` from the position `before`
/// solves: best, or what it lost against the exact margin `after` it
/// (White's, when known), seen by `holder`, the colour the mover holds
/// after it.
fn judge_move(
    before: &Solution,
    mv: Move,
    mover: Player,
    holder: Player,
    after: Option<i32>,
) -> Judged {
    let (verdict, lost_halves) = if before.best_margin.contains(&mv) {
        (Verdict::Best, Some(0))
    } else {
        let lost = after.map(|m| side_margin(before.margin_halves, mover) - side_margin(m, holder));
        let v = if before.best_result.contains(&mv) {
            Verdict::Inaccuracy
        } else {
            Verdict::Blunder
        };
        (v, lost)
    };
    Judged {
        before: before.clone(),
        verdict,
        lost_halves,
    }
}

/// Reviews the game of `moves` from `start`, calling `on_ply` after each
/// ply is complete (for progress).
///
/// # Errors
/// See [`ReviewError`].
///
/// # Panics
/// Only if a position the replay accepted a move from were finished, which
/// [`Position::try_play_move`] rules out.
pub fn review(
    start: Position,
    moves: &[Move],
    cfg: &ReviewConfig<'_>,
    mut on_ply: impl FnMut(u32),
) -> Result<Vec<Ply>, ReviewError> {
    let positions = replay(start, moves)?;
    let scale = EvalScale::of_bot(&cfg.spec.name);
    let mut solver = Solver::new(cfg.limits.tt_mb);
    // Step 1: the bot on every position with a move to make: those before
    // each ply, and the last one of an unfinished game (for its
    // `eval_after`).
    let mut searched: Vec<Option<(Move, Option<f64>)>> = vec![None; positions.len()];
    for (k, pos) in positions.iter().enumerate() {
        if pos.is_game_over() {
            continue;
        }
        let ply = k as u32 + 1;
        let mut bot = cfg
            .catalog
            .build(cfg.spec, derive_seed(cfg.seed, &[k as u64]))
            .map_err(|e| ReviewError::Bot(ply, e.to_string()))?;
        let best = bot
            .select_move(&Game::new(*pos))
            .map_err(|e| ReviewError::Bot(ply, e.to_string()))?;
        if interrupt::requested() {
            return Err(ReviewError::Interrupted);
        }
        let eval = bot
            .last_search()
            .and_then(|s| exact_eval(&s, scale, pos.turn()).or(s.eval));
        searched[k] = Some((best, eval));
        on_ply(ply);
    }
    // Step 2: exact values, the smallest positions first so that the
    // table holds their subtrees when the larger ones are solved.
    let mut solved: Vec<Option<Solution>> = vec![None; positions.len()];
    for k in (0..positions.len()).rev() {
        let pos = &positions[k];
        if pos.is_game_over() {
            continue;
        }
        if pos.empty().count() > cfg.exact {
            break;
        }
        match solver.solve(pos, &cfg.limits) {
            Ok(s) => solved[k] = Some(s),
            Err(SolveError::Interrupted) => return Err(ReviewError::Interrupted),
            Err(SolveError::NodeLimit(_) | SolveError::TimeLimit) => {}
        }
    }
    // Step 3: the rows.
    let mut rows = Vec::with_capacity(moves.len());
    for (k, &mv) in moves.iter().enumerate() {
        let (pos, next) = (&positions[k], &positions[k + 1]);
        // A legal move was played here, so the game was not over.
        let Some((best_move, eval_before)) = searched[k] else {
            unreachable!("position {k} has a move played from it");
        };
        let mover = pos.turn();
        let holder = holder_after(mv, mover);
        let eval_after = if next.is_game_over() {
            Some(scale.finished(next, holder))
        } else {
            searched[k + 1].and_then(|s| s.1).map(|v| scale.flip(v))
        };
        let after = if next.is_game_over() {
            Some(next.margin_halves())
        } else {
            solved[k + 1].as_ref().map(|s| s.margin_halves)
        };
        let exact = solved[k]
            .as_ref()
            .map(|before| judge_move(before, mv, mover, holder, after));
        rows.push(Ply {
            ply: k as u32 + 1,
            mover,
            mv,
            scores: next.scores(),
            eval_before,
            eval_after,
            best_move,
            exact,
        });
    }
    Ok(rows)
}

/// The `review.csv` row of `p`.
pub fn csv_row(p: &Ply) -> ReviewCsvRow {
    let j = p.exact.as_ref();
    ReviewCsvRow {
        ply: p.ply,
        mover: p.mover.to_string(),
        mv: p.mv.to_string(),
        white_score: p.scores[Player::White],
        black_score: p.scores[Player::Black],
        eval_before: p.eval_before,
        eval_after: p.eval_after,
        best_move: p.best_move.to_string(),
        exact_result_before: j.map(|j| j.before.outcome.to_string()),
        exact_margin_before: j.map(|j| format_halves(j.before.margin_halves)),
        verdict: j.map(|j| j.verdict.name().to_string()),
        margin_lost: j.and_then(|j| j.lost_halves.map(format_halves)),
    }
}

/// The `review.csv` line of `p`, newline included.
pub fn csv_line(p: &Ply) -> String {
    let mut s = String::new();
    csv_rows::push(&mut s, &csv_row(p));
    s
}

/// The whole `review.csv`.
pub fn csv_text(rows: &[Ply]) -> String {
    csv_rows::text(rows.iter().map(csv_row))
}

/// How many inaccuracies the summary names, largest first.
pub const SUMMARY_INACCURACIES: usize = 3;

/// The summary line: `plies=N solved=K blunders=PLY:MOVE,...
/// inaccuracies=PLY:MOVE:LOST,...` (blunders in game order, the largest
/// inaccuracies by margin lost, `-` for none).
pub fn summary_line(rows: &[Ply]) -> String {
    let solved = rows.iter().filter(|p| p.exact.is_some()).count();
    let blunders: Vec<String> = rows
        .iter()
        .filter(|p| {
            p.exact
                .as_ref()
                .is_some_and(|j| j.verdict == Verdict::Blunder)
        })
        .map(|p| format!("{}:{}", p.ply, p.mv))
        .collect();
    let mut inacc: Vec<(&Ply, i32)> = rows
        .iter()
        .filter_map(|p| {
            let j = p.exact.as_ref()?;
            (j.verdict == Verdict::Inaccuracy).then_some((p, j.lost_halves.unwrap_or(0)))
        })
        .collect();
    // Largest loss first; the earlier ply among equals.
    inacc.sort_by_key(|&(p, lost)| (std::cmp::Reverse(lost), p.ply));
    let inacc: Vec<String> = inacc
        .iter()
        .take(SUMMARY_INACCURACIES)
        .map(|(p, lost)| format!("{}:{}:{}", p.ply, p.mv, format_halves(*lost)))
        .collect();
    let list = |v: &[String]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(",")
        }
    };
    format!(
        "plies={} solved={solved} blunders={} inaccuracies={}",
        rows.len(),
        list(&blunders),
        list(&inacc)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin_catalog;
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Komi;
    use crate::game::square::Square;

    fn sq(s: &str) -> Square {
        s.parse().expect("square")
    }

    /// A 4x4 game with no holes, every square played in a fixed order.
    fn game() -> (Position, Vec<Move>) {
        let start = Position::new(4, Bitboard::EMPTY, false, Komi::ZERO).expect("start");
        let order = [
            "a1", "b2", "c3", "d4", "a2", "b1", "a3", "a4", "c1", "d1", "b3", "c2", "d2", "b4",
            "c4", "d3",
        ];
        (start, order.iter().map(|s| Move::Place(sq(s))).collect())
    }

    fn config<'a>(catalog: &'a Catalog, spec: &'a BotSpec) -> ReviewConfig<'a> {
        ReviewConfig {
            catalog,
            spec,
            seed: 1,
            exact: 16,
            limits: SolveLimits::default(),
        }
    }

    #[test]
    fn verdicts_agree_with_the_solver() {
        let (start, moves) = game();
        let catalog = builtin_catalog();
        let spec = catalog.parse("greedy").expect("spec");
        let rows = review(start, &moves, &config(&catalog, &spec), |_| {}).expect("review");
        assert_eq!(rows.len(), moves.len());
        let positions = replay(start, &moves).expect("replay");
        let mut solver = Solver::new(16);
        let mut kinds = [0; 3];
        for (k, row) in rows.iter().enumerate() {
            let before = solver
                .solve(&positions[k], &SolveLimits::default())
                .expect("solve");
            let after = solver
                .solve(&positions[k + 1], &SolveLimits::default())
                .expect("solve");
            let j = row.exact.as_ref().expect("solved");
            assert_eq!(j.before.margin_halves, before.margin_halves);
            let mover = positions[k].turn();
            let lost =
                side_margin(before.margin_halves, mover) - side_margin(after.margin_halves, mover);
            assert_eq!(j.lost_halves, Some(lost), "ply {}", row.ply);
            let want = if lost == 0 {
                Verdict::Best
            } else if before.outcome == after.outcome {
                Verdict::Inaccuracy
            } else {
                Verdict::Blunder
            };
            assert_eq!(j.verdict, want, "ply {}", row.ply);
            assert!(lost >= 0);
            kinds[want as usize] += 1;
            assert_eq!(row.scores, positions[k + 1].scores());
        }
        // The order above is not perfect play: it must show mistakes.
        assert!(kinds[1] + kinds[2] > 0, "{kinds:?}");
    }

    #[test]
    fn mcts_evals_are_for_the_mover_and_replay_from_the_seed() {
        let (start, moves) = game();
        let catalog = builtin_catalog();
        let spec = catalog.parse("mcts:iters=200").expect("spec");
        let mut cfg = config(&catalog, &spec);
        cfg.exact = 6;
        let a = review(start, &moves, &cfg, |_| {}).expect("review");
        let b = review(start, &moves, &cfg, |_| {}).expect("review");
        assert_eq!(csv_text(&a), csv_text(&b));
        let mut pairs = 0;
        for w in a.windows(2) {
            if let (Some(x), Some(y)) = (w[0].eval_after, w[1].eval_before) {
                assert!((x - (1.0 - y)).abs() < 1e-12);
                pairs += 1;
            }
        }
        assert!(pairs > 5, "{pairs}");
        let last = a.last().expect("rows");
        let end = replay(start, &moves).expect("replay")[moves.len()];
        let want = end.outcome().points_for(last.mover);
        assert_eq!(last.eval_after, Some(want));
        assert!(a.iter().all(|p| (p.exact.is_some()) == (p.ply > 10)));
    }

    #[test]
    fn an_exact_search_is_worth_its_proven_result() {
        let info = SearchInfo {
            eval: Some(0.0),
            extra: "iters=0 exact_margin=-2.5 top=a1:0:0.000".into(),
            ..SearchInfo::default()
        };
        assert_eq!(
            exact_eval(&info, EvalScale::Reward, Player::White),
            Some(0.0)
        );
        assert_eq!(
            exact_eval(&info, EvalScale::Reward, Player::Black),
            Some(1.0)
        );
        assert_eq!(
            exact_eval(&info, EvalScale::Points, Player::Black),
            Some(2.5)
        );
        // A swapper owns White after its swap: White's margin is its own.
        let swap = SearchInfo {
            pv: vec![Move::Swap],
            ..info.clone()
        };
        assert_eq!(
            exact_eval(&swap, EvalScale::Reward, Player::Black),
            Some(0.0)
        );
        assert_eq!(
            exact_eval(&swap, EvalScale::Points, Player::Black),
            Some(-2.5)
        );
        let plain = SearchInfo {
            extra: "iters=10".into(),
            ..SearchInfo::default()
        };
        assert_eq!(exact_eval(&plain, EvalScale::Reward, Player::White), None);
    }

    #[test]
    fn no_value_is_written_as_negative_zero() {
        // A points bot's even position, seen from the other side.
        let even = EvalScale::Points.flip(0.0);
        assert!(even.is_sign_negative());
        let row = ReviewCsvRow {
            eval_before: Some(even),
            eval_after: Some(-0.00004),
            ..ReviewCsvRow::default()
        };
        let mut line = String::new();
        csv_rows::push(&mut line, &row);
        assert!(line.contains(",0.0000,0.0000,"), "{line}");
        assert!(!line.contains("-0.0"), "{line}");
    }

    #[test]
    fn a_full_spec_names_every_key_and_drops_the_label() {
        let catalog = builtin_catalog();
        let spec = catalog.parse("greedy:label=G").expect("spec");
        assert_eq!(full_spec(&catalog, &spec), "greedy:block=0.5");
        let spec = catalog.parse("mcts:iters=300,epsilon=0.1").expect("spec");
        let full = full_spec(&catalog, &spec);
        assert!(full.starts_with("mcts:iters=300,"), "{full}");
        assert!(
            full.contains(",eps=0.1,") && !full.contains("ms="),
            "{full}"
        );
        let spec = catalog.parse("random").expect("spec");
        assert_eq!(full_spec(&catalog, &spec), "random");
        // minimax= above 0 turns the default mix off: the full spec says
        // so, and names the same bot as the spec that gives mix=0.
        let full = |s: &str| full_spec(&catalog, &catalog.parse(s).expect("spec"));
        assert!(full("mcts").contains(",mix=0.5,"), "{}", full("mcts"));
        assert_eq!(full("mcts:minimax=0.2"), full("mcts:minimax=0.2,mix=0"));
        // depth= or ms= alone has no node bound: the full spec writes
        // nodes=0, and makes the same bot as the spec.
        assert!(full("alphabeta").contains(",nodes=1000000,"));
        let settings = |s: &str| {
            let p = crate::bot::spec::Params::new(&catalog.parse(s).expect("spec"));
            format!(
                "{:?}",
                crate::bot::alphabeta::AlphaBetaConfig::from_params(&p)
            )
        };
        for s in [
            "alphabeta:depth=4",
            "alphabeta:ms=100",
            "alphabeta:depth=4,nodes=50",
            "alphabeta:ms=0",
        ] {
            assert_eq!(settings(s), settings(&full(s)), "{s}: {}", full(s));
        }
        assert_eq!(full("alphabeta:depth=4"), full("alphabeta:depth=4,nodes=0"));
        // ms=0 is no time budget: the default node bound stays.
        assert!(full("alphabeta:ms=0").contains(",nodes=1000000,"));
    }

    #[test]
    fn records_differ_by_game_then_settings() {
        let (start, moves) = game();
        let catalog = builtin_catalog();
        let greedy = catalog.parse("greedy").expect("spec");
        let a = ReviewRecord::new(&catalog, &greedy, 0, 1, &start, &moves);
        let mut same = a.clone();
        same.bot = "greedy:block=0.5".into();
        same.run = Some("elsewhere".into());
        assert_eq!(a.difference(&same), None);
        let b = ReviewRecord::new(&catalog, &greedy, 3, 1, &start, &moves);
        let d = a.difference(&b).expect("differs");
        assert!(d.contains("exact 0") && d.contains("exact 3"), "{d}");
        let c = ReviewRecord::new(&catalog, &greedy, 0, 1, &start, &moves[..5]);
        assert!(
            a.difference(&c)
                .expect("differs")
                .starts_with("another game")
        );
    }

    #[test]
    fn illegal_moves_are_named() {
        let (start, mut moves) = game();
        moves[3] = moves[1];
        let e = replay(start, &moves).expect_err("illegal");
        assert!(matches!(e, ReviewError::Illegal { ply: 4, .. }), "{e}");
        assert!(e.to_string().contains("'b2'"), "{e}");
    }

    #[test]
    fn a_swap_hands_its_colour_over() {
        assert_eq!(holder_after(Move::Swap, Player::Black), Player::White);
        assert_eq!(
            holder_after(Move::Place(sq("a1")), Player::Black),
            Player::Black
        );
        let pos = Position::new(3, Bitboard::EMPTY, true, Komi::ZERO).expect("start");
        let moves = [Move::Place(sq("b2")), Move::Swap, Move::Place(sq("a1"))];
        let catalog = builtin_catalog();
        let spec = catalog.parse("greedy").expect("spec");
        let rows = review(pos, &moves, &config(&catalog, &spec), |_| {}).expect("review");
        let swap = &rows[1];
        assert_eq!(swap.mover, Player::Black);
        let j = swap.exact.as_ref().expect("solved");
        assert!(j.lost_halves.is_some_and(|l| l >= 0), "{j:?}");
    }

    #[test]
    fn summary_names_blunders_and_the_largest_inaccuracies() {
        let (start, moves) = game();
        let catalog = builtin_catalog();
        let spec = catalog.parse("greedy").expect("spec");
        let rows = review(start, &moves, &config(&catalog, &spec), |_| {}).expect("review");
        let line = summary_line(&rows);
        assert!(line.starts_with("plies=16 solved=16 blunders="), "{line}");
        for p in &rows {
            if p.exact
                .as_ref()
                .is_some_and(|j| j.verdict == Verdict::Blunder)
            {
                assert!(line.contains(&format!("{}:{}", p.ply, p.mv)), "{line}");
            }
        }
        assert_eq!(csv_text(&rows).lines().count(), 17);
        assert_eq!(
            csv_text(&rows).lines().next(),
            Some(header().join(",").as_str())
        );
    }
}
