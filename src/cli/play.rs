//! `pahtum play --white BOT --black BOT`: one game, shown as it goes.

use std::io::Write;

use clap::Args;

use super::common::{EngineArgs, RulesArgs};
use super::error::{CliResult, usage};
use crate::arena::game::{MoveEvent, Termination, play_game};
use crate::bot::SearchInfo;
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::rng::derive_seed;
use crate::game::rules::layout_rng;
use crate::game::text::board_with_coordinates;

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Bot spec of White, the first player (e.g. greedy, heuristic:decay=0.4, human)
    #[arg(long, value_name = "BOT")]
    pub white: String,
    /// Bot spec of Black, the second player
    #[arg(long, value_name = "BOT")]
    pub black: String,
    /// Seed of the hole layout and of the bots' random streams
    #[arg(
        long,
        default_value = "1", // common::DEFAULT_SEED, as text
        value_name = "S",
        allow_hyphen_values = true
    )]
    pub seed: String,
    /// Rules of the game
    #[command(flatten)]
    pub rules: RulesArgs,
    /// External engines
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Show only the final board and the result
    #[arg(long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Also show each bot's search statistics after its move
    #[arg(long)]
    pub verbose: bool,
}

/// Parses `--seed` as a u64 (a negative or non-numeric seed is a usage
/// error naming it).
fn parse_seed(s: &str) -> CliResult<u64> {
    s.trim().replace('_', "").parse::<u64>().map_err(|_| {
        usage(format!(
            "--seed {s}: expected a non-negative integer below 2^64"
        ))
    })
}

/// One line of search statistics.
fn info_line(info: &SearchInfo) -> String {
    let mut s = format!("   info: nodes={} depth={}", info.nodes, info.depth);
    if let Some(e) = info.eval {
        s.push_str(&format!(" eval={e:.3}"));
    }
    if !info.pv.is_empty() {
        let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
        s.push_str(&format!(" pv={}", pv.join(",")));
    }
    if !info.extra.is_empty() {
        s.push(' ');
        s.push_str(&info.extra);
    }
    s
}

/// A description of the setup, for the first line.
fn setup_line(white: &str, black: &str, seed: u64, start: &Position) -> String {
    let holes: Vec<String> = start.holes().map(|s| s.to_string()).collect();
    let mut s = format!(
        "white={white} black={black} seed={seed} size={} holes={}",
        start.size(),
        if holes.is_empty() {
            "-".to_string()
        } else {
            holes.join(",")
        }
    );
    if start.pie() {
        s.push_str(" pie=on");
    }
    if start.komi().halves() != 0 {
        s.push_str(&format!(" komi={}", start.komi()));
    }
    s
}

/// Checks every option, then plays the game.
///
/// # Errors
/// Bad options or bot specs (exit 2) before anything is played; a failure
/// to write the output (exit 1).
pub fn run(args: PlayArgs) -> CliResult {
    // Step 1: validate everything before the first move.
    let seed = parse_seed(&args.seed)?;
    let catalog = args.engines.catalog()?;
    let rules = args.rules.to_rules()?;
    let [rules] = rules.as_slice() else {
        return Err(usage(format!(
            "--holes {}: play takes one hole count",
            args.rules.holes.as_deref().unwrap_or("")
        )));
    };
    let white_spec = catalog
        .parse(&args.white)
        .map_err(|e| usage(format!("--white: {e}")))?;
    let black_spec = catalog
        .parse(&args.black)
        .map_err(|e| usage(format!("--black: {e}")))?;
    let start = rules
        .new_game(&mut layout_rng(derive_seed(seed, &[0])))
        .map_err(|e| usage(format!("rules: {e}")))?;
    let mut white = catalog
        .build(&white_spec, derive_seed(seed, &[0, 0]))
        .map_err(|e| usage(format!("--white: {e}")))?;
    let mut black = catalog
        .build(&black_spec, derive_seed(seed, &[0, 1]))
        .map_err(|e| usage(format!("--black: {e}")))?;

    // Step 2: play, showing each move; the first write error stops output.
    let mut out = std::io::stdout();
    let mut failed: Option<std::io::Error> = None;
    let mut show = |text: String, failed: &mut Option<std::io::Error>| {
        if failed.is_none()
            && let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        {
            *failed = Some(e);
        }
    };
    let mut header = setup_line(white.name(), black.name(), seed, &start);
    header.push('\n');
    if !args.quiet {
        header.push_str(&board_with_coordinates(&start));
    }
    show(header, &mut failed);
    let quiet = args.quiet;
    let verbose = args.verbose;
    let result = play_game(start, &mut *white, &mut *black, |ev: &MoveEvent<'_>| {
        if quiet {
            return;
        }
        let ply = ev.game.moves().len();
        let mut text = match ev.mv {
            Move::Swap => format!("{ply}. {} swaps: it now plays white\n", ev.bot),
            mv => format!("{ply}. {} {}: {mv}\n", ev.colour, ev.bot),
        };
        if verbose && let Some(info) = &ev.info {
            text.push_str(&info_line(info));
            text.push_str(&format!(" ms={}\n", ev.ms));
        }
        text.push_str(&board_with_coordinates(ev.game.position()));
        show(text, &mut failed);
    });

    // Step 3: the end.
    let mut end = String::new();
    if quiet {
        end.push_str(&board_with_coordinates(result.game.position()));
    }
    if let Some((colour, fault)) = &result.fault {
        let who = match result.seat_of(*colour) {
            crate::arena::game::Seat::First => white.name(),
            crate::arena::game::Seat::Second => black.name(),
        };
        if result.termination == Termination::Aborted {
            end.push_str(&format!(
                "game stopped after {} moves: no more input from {colour} ({who}); scores as the board stands\n",
                result.plies()
            ));
        } else {
            end.push_str(&format!(
                "game ended: {colour} ({who}) {}: {fault}; {colour} loses\n",
                result.termination.name()
            ));
        }
    }
    end.push_str(&format!(
        "result={} white={} black={}\n",
        result.outcome.name(),
        result.scores[Player::White],
        result.scores[Player::Black]
    ));
    show(end, &mut failed);
    match failed {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_parse() {
        assert_eq!(parse_seed("42").ok(), Some(42));
        assert_eq!(parse_seed("1_000").ok(), Some(1000));
        assert!(parse_seed("-1").is_err());
        assert!(parse_seed("x").is_err());
    }
}
