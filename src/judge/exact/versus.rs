//! Whole games against perfect play (`pahtum exact --versus BOT`): on each
//! solved layout, every `--versus` bot plays one game as White and one as
//! Black against the solver, and every move the bot makes is judged by the
//! exact result it leaves.
//!
//! A single judged move is a weak test (a strong bot keeps the result on
//! almost every position tried); errors hide in the long middle of a game,
//! so the bot must survive every move of it. The perfect side plays the
//! move of the largest exact margin (the first such move in an order that
//! prefers squares worth the most to either side now, then the lower
//! square), which never gives a result away; the bot's moves are judged by
//! the sign of the exact value after each of them (two null-window tests,
//! far cheaper than the margin). Both share the layout's solver, whose
//! table still holds the layout's own solve, so a game costs a fraction of
//! the layout.
//!
//! Everything is a function of the position and the bot's seed, which
//! comes from `--seed`, the layout's holes, the bot's place in the list and
//! its colour: the rows do not depend on threads, shards or what the
//! table holds.

use serde::{Deserialize, Serialize};

use crate::csv_rows::{self, fixed};

use super::{ExactError, Layout};
use crate::bot::{BotSpec, Catalog};
use crate::game::outcome::{Move, Outcome};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::solve::{SolveLimits, Solver, format_halves};

mod parse;

pub use self::parse::parse_versus_row;

/// The bots that play the solver on every layout, and the seed of their
/// randomness.
#[derive(Clone, Copy, Debug)]
pub struct Versus<'a> {
    /// Where the specs are built.
    pub catalog: &'a Catalog,
    /// The bots, in `--versus` order.
    pub bots: &'a [BotSpec],
    /// `--seed`.
    pub seed: u64,
}

/// How a result stands for `p`: win 2, draw 1, loss 0.
fn rank(outcome: Outcome, p: Player) -> u8 {
    match outcome.winner() {
        None => 1,
        Some(w) if w == p => 2,
        Some(_) => 0,
    }
}

/// `win`, `draw` or `loss` for `p`, as `versus.csv` writes a standing.
fn standing(outcome: Outcome, p: Player) -> &'static str {
    ["loss", "draw", "win"][rank(outcome, p) as usize]
}

/// The rank of a standing as `versus.csv` writes it.
fn rank_of_standing(s: &str) -> Option<u8> {
    ["loss", "draw", "win"]
        .iter()
        .position(|&n| n == s)
        .map(|i| i as u8)
}

/// A move of the bot that left it a worse game-theoretic result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Giveaway {
    /// The move's 1-based ply in the game.
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// The exact result before it, White's view.
    pub before: Outcome,
    /// The exact result after it.
    pub after: Outcome,
}

/// One game of a bot against perfect play: a row of `versus.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersusRow {
    /// The bot's label.
    pub bot: String,
    /// The colour the bot played.
    pub bot_colour: Player,
    /// The layout's result under perfect play.
    pub exact: Outcome,
    /// How the game ended.
    pub result: Outcome,
    /// White's final margin (komi included), half points.
    pub margin_halves: i32,
    /// Every move of the bot that made its result worse, in game order.
    pub giveaways: Vec<Giveaway>,
    /// The game's moves, space separated.
    pub moves: String,
}

/// One line of `versus.csv`: a bot's game against perfect play on one
/// layout. `first_before` and `first_after` are the bot's standing
/// (`win`, `draw`, `loss`) around its first give-away; the `first_`
/// columns are `-` when there is none.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersusCsvRow {
    /// Board side.
    pub size: u8,
    /// Hole count.
    pub holes: u32,
    /// The hole squares.
    pub layout: String,
    /// Layouts the row stands for.
    pub weight: u64,
    /// The bot's label.
    pub bot: String,
    /// `white` or `black`.
    pub bot_colour: String,
    /// The layout's exact result.
    pub exact_result: String,
    /// The game's result.
    pub result: String,
    /// White's final margin, points.
    pub margin: String,
    /// Moves of the bot that made its result worse.
    pub giveaways: usize,
    /// The ply of the first, or `-`.
    pub first_ply: String,
    /// Its move, or `-`.
    pub first_move: String,
    /// The bot's standing before it, or `-`.
    pub first_before: String,
    /// After it, or `-`.
    pub first_after: String,
    /// The game's moves, space separated.
    pub moves: String,
}

/// Appends `row`'s line of `versus.csv` (its layout's `size` and
/// `layout`), newline included.
pub fn push_versus_row(out: &mut String, size: u8, layout: &Layout, row: &VersusRow) {
    let holes: Vec<String> = layout.holes.into_iter().map(|s| s.to_string()).collect();
    let dash = || "-".to_string();
    let first = row.giveaways.first();
    csv_rows::push(
        out,
        &VersusCsvRow {
            size,
            holes: layout.holes.count(),
            layout: holes.join(" "),
            weight: layout.weight,
            bot: row.bot.clone(),
            bot_colour: row.bot_colour.to_string(),
            exact_result: row.exact.to_string(),
            result: row.result.to_string(),
            margin: format_halves(row.margin_halves),
            giveaways: row.giveaways.len(),
            first_ply: first.map_or_else(dash, |g| g.ply.to_string()),
            first_move: first.map_or_else(dash, |g| g.mv.to_string()),
            first_before: first
                .map_or_else(dash, |g| standing(g.before, row.bot_colour).to_string()),
            first_after: first.map_or_else(dash, |g| standing(g.after, row.bot_colour).to_string()),
            moves: row.moves.clone(),
        },
    );
}

/// The perfect side's move: the largest exact margin, the first such in
/// an order of squares by what they are worth to either side now, then by
/// square. Also returns the position's exact value for the side to move.
fn perfect_move(
    solver: &mut Solver,
    pos: &Position,
    limits: &SolveLimits,
) -> Result<(Move, i32), ExactError> {
    let me = pos.turn();
    let mut order: Vec<(u32, Move)> = pos
        .legal_moves()
        .map(|sq| {
            let worth = pos.gain_for(me, sq) + pos.gain_for(!me, sq);
            (worth, Move::Place(sq))
        })
        .collect();
    // Stable: equal worth keeps the squares' board order.
    order.sort_by_key(|&(w, _)| std::cmp::Reverse(w));
    let order: Vec<Move> = order.into_iter().map(|(_, m)| m).collect();
    match solver.best_move(pos, &order, limits)? {
        Some((mv, v, _)) => Ok((mv, v)),
        None => Err(ExactError::Layout("no move in a game not over".into())),
    }
}

/// White's exact result of `pos`.
fn exact_result(
    solver: &mut Solver,
    pos: &Position,
    limits: &SolveLimits,
) -> Result<Outcome, ExactError> {
    if pos.is_game_over() {
        return Ok(pos.outcome());
    }
    let sign = solver.result_sign(pos, limits)?;
    Ok(Outcome::from_margin_halves(
        if pos.turn() == Player::White {
            sign
        } else {
            -sign
        },
    ))
}

/// Plays `versus`'s bot number `index` as `bot_colour` against perfect
/// play from `start` (whose exact result is `exact`), judging every move
/// of the bot.
///
/// # Errors
/// The bot cannot be built or gives no legal move; the solver stops at a
/// limit; or the results contradict each other (an internal error).
pub fn play_versus(
    solver: &mut Solver,
    start: &Position,
    exact: Outcome,
    versus: &Versus<'_>,
    index: usize,
    bot_colour: Player,
    limits: &SolveLimits,
) -> Result<VersusRow, ExactError> {
    let spec = &versus.bots[index];
    let seed = derive_seed(
        versus.seed,
        &[start.holes().0, index as u64, bot_colour.index() as u64],
    );
    let mut bot = versus
        .catalog
        .build(spec, seed)
        .map_err(|e| ExactError::Bot(format!("{}: {e}", spec.label())))?;
    let mut game = Game::new(*start);
    let mut known = exact;
    let mut giveaways = Vec::new();
    while !game.is_over() {
        let pos = *game.position();
        if pos.turn() == bot_colour {
            let mv = bot
                .select_move(&game)
                .map_err(|e| ExactError::Bot(format!("{}: {e}", spec.label())))?;
            game.try_play(mv)
                .map_err(|e| ExactError::Bot(format!("{}: {mv}: {e}", spec.label())))?;
            let after = exact_result(solver, game.position(), limits)?;
            let (was, now) = (rank(known, bot_colour), rank(after, bot_colour));
            if now > was {
                return Err(ExactError::Layout(format!(
                    "{mv} at ply {} turned {known} into {after} against perfect play",
                    game.moves().len()
                )));
            }
            if now < was {
                giveaways.push(Giveaway {
                    ply: game.moves().len(),
                    mv,
                    before: known,
                    after,
                });
            }
            known = after;
        } else {
            let (mv, v) = perfect_move(solver, &pos, limits)?;
            let white_v = if pos.turn() == Player::White { v } else { -v };
            if Outcome::from_margin_halves(white_v) != known {
                return Err(ExactError::Layout(format!(
                    "the perfect move {mv} at ply {} has result {} where the position's is {known}",
                    game.moves().len() + 1,
                    Outcome::from_margin_halves(white_v)
                )));
            }
            game.try_play(mv)
                .map_err(|e| ExactError::Layout(format!("perfect move {mv}: {e}")))?;
        }
    }
    let end = game.position();
    if end.outcome() != known {
        return Err(ExactError::Layout(format!(
            "the game ended {} where the last exact result was {known}",
            end.outcome()
        )));
    }
    Ok(VersusRow {
        bot: spec.label(),
        bot_colour,
        exact,
        result: end.outcome(),
        margin_halves: end.margin_halves(),
        giveaways,
        moves: game.moves_text(),
    })
}

/// One row of `versus_summary.csv`: a bot's games of one colour (or
/// both), every share weighted by the layouts' weights.
#[derive(Clone, Debug, PartialEq)]
pub struct VersusSummary {
    /// The bot's label.
    pub bot: String,
    /// `white`, `black` or `both`.
    pub colour: &'static str,
    /// Games played.
    pub games: u64,
    /// Their total weight.
    pub weight: u64,
    /// Games with at least one give-away.
    pub given_away: u64,
    /// Their weighted share.
    pub given_away_share: f64,
    /// Of them, won games (by the exact result) not won.
    pub wins_given_away: u64,
    /// Drawn games lost.
    pub draws_given_away: u64,
}

/// One line of `versus_summary.csv`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct VersusSummaryCsvRow {
    /// The bot's label.
    pub bot: String,
    /// `white`, `black` or `both`.
    pub bot_colour: String,
    /// Games played.
    pub games: u64,
    /// Their total weight.
    pub weight: u64,
    /// Games with a give-away.
    pub given_away: u64,
    /// Their weighted share.
    #[serde(serialize_with = "fixed::d4")]
    pub given_away_share: f64,
    /// Of them, won games not won.
    pub wins_given_away: u64,
    /// Drawn games lost.
    pub draws_given_away: u64,
}

/// Sums up `rows` (with each game's layout weight) per bot, in first-seen
/// bot order, and per colour: white, black, both.
pub fn summarize_versus(rows: &[(u64, VersusRow)]) -> Vec<VersusSummary> {
    let mut bots: Vec<String> = Vec::new();
    for (_, r) in rows {
        if !bots.contains(&r.bot) {
            bots.push(r.bot.clone());
        }
    }
    let mut out = Vec::new();
    for bot in bots {
        for colour in ["white", "black", "both"] {
            let games: Vec<&(u64, VersusRow)> = rows
                .iter()
                .filter(|(_, r)| {
                    r.bot == bot && (colour == "both" || r.bot_colour.name() == colour)
                })
                .collect();
            let weight: u64 = games.iter().map(|(w, _)| w).sum();
            let lost: Vec<&&(u64, VersusRow)> = games
                .iter()
                .filter(|(_, r)| !r.giveaways.is_empty())
                .collect();
            let lost_weight: u64 = lost.iter().map(|(w, _)| w).sum();
            let wins = lost
                .iter()
                .filter(|(_, r)| rank(r.exact, r.bot_colour) == 2)
                .count() as u64;
            out.push(VersusSummary {
                bot: bot.clone(),
                colour,
                games: games.len() as u64,
                weight,
                given_away: lost.len() as u64,
                given_away_share: lost_weight as f64 / weight.max(1) as f64,
                wins_given_away: wins,
                draws_given_away: lost.len() as u64 - wins,
            });
        }
    }
    out
}

/// Appends `s`'s line of `versus_summary.csv`, newline included.
pub fn push_versus_summary(out: &mut String, s: &VersusSummary) {
    csv_rows::push(
        out,
        &VersusSummaryCsvRow {
            bot: s.bot.clone(),
            bot_colour: s.colour.to_string(),
            games: s.games,
            weight: s.weight,
            given_away: s.given_away,
            given_away_share: s.given_away_share,
            wins_given_away: s.wins_given_away,
            draws_given_away: s.draws_given_away,
        },
    );
}
