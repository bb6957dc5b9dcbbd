//! Reading a row of `versus.csv` back: every field checked against the
//! others, so that a resumed or merged run keeps only rows it could have
//! written.

use super::{Giveaway, VersusCsvRow, VersusRow, rank, rank_of_standing};
use crate::game::outcome::{Move, Outcome};
use crate::game::player::Player;

/// Reads a `versus.csv` line back: the layout's weight and the row. The
/// first give-away is all the line keeps of the give-aways (the others
/// only count), so the row holds it and placeholders for the rest.
///
/// # Errors
/// What is wrong with the line.
pub fn parse_versus_row(f: &VersusCsvRow) -> Result<(u64, VersusRow), String> {
    let weight = f.weight;
    let colour: Player = match f.bot_colour.as_str() {
        "white" => Player::White,
        "black" => Player::Black,
        c => return Err(format!("bot_colour '{c}'")),
    };
    let outcome = |s: &str| -> Result<Outcome, String> {
        match s {
            "white" => Ok(Outcome::WhiteWins),
            "black" => Ok(Outcome::BlackWins),
            "draw" => Ok(Outcome::Draw),
            _ => Err(format!("result '{s}'")),
        }
    };
    let exact = outcome(&f.exact_result)?;
    let result = outcome(&f.result)?;
    let margin_halves = f
        .margin
        .parse::<crate::game::outcome::Komi>()
        .map(crate::game::outcome::Komi::halves)
        .map_err(|_| format!("margin '{}'", f.margin))?;
    let count = f.giveaways;
    if Outcome::from_margin_halves(margin_halves) != result {
        return Err(format!("result {} with margin {}", f.result, f.margin));
    }
    if rank(result, colour) > rank(exact, colour) {
        return Err(format!(
            "the bot did better than perfect play: {} from {}",
            f.result, f.exact_result
        ));
    }
    if (count > 0) != (rank(result, colour) < rank(exact, colour)) {
        return Err(format!(
            "{count} give-aways from {} to {}",
            f.exact_result, f.result
        ));
    }
    let moves = checked_moves(f)?;
    let mut giveaways = Vec::new();
    if count > 0 {
        let g = first_giveaway(f, &moves, colour, (exact, result))?;
        giveaways.resize(count, g);
    } else if [&f.first_ply, &f.first_move, &f.first_before, &f.first_after] != ["-"; 4] {
        return Err("a first give-away in a game without any".into());
    }
    Ok((
        weight,
        VersusRow {
            bot: f.bot.clone(),
            bot_colour: colour,
            exact,
            result,
            margin_halves,
            giveaways,
            moves: f.moves.clone(),
        },
    ))
}

/// The moves of a row: squares, none a hole of its layout or played twice.
fn checked_moves(f: &VersusCsvRow) -> Result<Vec<&str>, String> {
    let moves: Vec<&str> = f.moves.split(' ').collect();
    let mut seen = std::collections::HashSet::new();
    for m in &moves {
        let sq = m
            .parse::<crate::game::square::Square>()
            .map_err(|_| format!("move '{m}' is not a square"))?;
        if f.layout.split(' ').any(|h| h == *m) || !seen.insert(sq) {
            return Err(format!("move '{m}' is a hole or played twice"));
        }
    }
    Ok(moves)
}

/// The first give-away of a row with some, by the bot playing `colour`
/// in the game of `moves` that went from `exact` to `result`: the bot's
/// move at its ply, from the exact standing to a worse one no worse than
/// the end.
fn first_giveaway(
    f: &VersusCsvRow,
    moves: &[&str],
    colour: Player,
    (exact, result): (Outcome, Outcome),
) -> Result<Giveaway, String> {
    let ply: usize = f
        .first_ply
        .parse()
        .map_err(|_| format!("first_ply '{}'", f.first_ply))?;
    let mv: Move = f
        .first_move
        .parse()
        .map_err(|_| format!("first_move '{}'", f.first_move))?;
    // White moves on odd plies.
    let bot_ply = (ply % 2 == 1) == (colour == Player::White);
    if ply == 0 || moves.get(ply - 1) != Some(&f.first_move.as_str()) || !bot_ply {
        return Err(format!(
            "first_ply {ply} is not the bot's move {}",
            f.first_move
        ));
    }
    // Before the first give-away the standing is still the exact one;
    // after it, worse, and no worse than the game's end.
    let (b, a) = (
        rank_of_standing(&f.first_before),
        rank_of_standing(&f.first_after),
    );
    let (was, end) = (rank(exact, colour), rank(result, colour));
    if b != Some(was) || !a.is_some_and(|a| a < was && a >= end) {
        return Err(format!(
            "first give-away {} -> {} where the game went from {} to {}",
            f.first_before, f.first_after, f.exact_result, f.result
        ));
    }
    // Only the first give-away's standing is kept; as an outcome it is
    // the end's, or a draw between a win and a loss.
    let after = if a == Some(end) {
        result
    } else {
        Outcome::Draw
    };
    Ok(Giveaway {
        ply,
        mv,
        before: exact,
        after,
    })
}
