//! `pahtum play --white BOT --black BOT`: one game, shown as it goes.

use std::io::Write;

use clap::Args;

use super::common::{EngineArgs, OpeningsArgs, RulesArgs, install_exit};
use super::error::{CliResult, usage};
use super::num;
use crate::arena::game::{GameResult, MoveEvent, Seat, Termination, play_game};
use crate::arena::schedule::{GameKey, game_seeds};
use crate::bot::SearchInfo;
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rules::{Rules, layout_rng};
use crate::game::text::board_with_coordinates;

/// play's `--help` line for `--holes`: one game takes one count, not the
/// list that runs of many games cycle through.
pub const HOLES_HELP: &str = "Number of random holes (one count: play plays one game) [default: 5]";

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
    #[arg(long, default_value_t = super::common::DEFAULT_SEED, value_name = "S", allow_negative_numbers = true,
          value_parser = num::seed())]
    pub seed: u64,
    /// Rules of the game
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Start-position suite: the game plays its first start
    #[command(flatten)]
    pub openings: OpeningsArgs,
    /// External engines
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Show only the final board and the result; with a human playing, also a line per move (the board shows at each prompt)
    #[arg(long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Also show each bot's search statistics after its move
    #[arg(long)]
    pub verbose: bool,
}

/// One line of search statistics.
fn info_line(info: &SearchInfo) -> String {
    let mut s = format!("   info: nodes={} depth={}", info.nodes, info.depth);
    if let Some(e) = info.eval {
        s.push_str(&format!(" eval={}", crate::csv_rows::fixed::text(e, 3)));
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

/// The spec name of the bot that reads a person's moves.
const HUMAN: &str = "human";

/// The seat (0: `--white`, 1: `--black`) of the bot to move next in
/// `game`, none when the game is over: after a pie swap the `--black` bot
/// holds White.
fn next_seat(game: &Game) -> Option<usize> {
    if game.is_over() {
        return None;
    }
    let swapped = game.moves().contains(&Move::Swap);
    Some(usize::from(
        (game.position().turn() == Player::White) == swapped,
    ))
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

/// The game `play` starts from: the first start of `--openings`, else
/// the layout of game 0 of a tournament of the same seed.
fn start_game(args: &PlayArgs, rules: &Rules, layout_seed: u64) -> CliResult<Game> {
    match args.openings.load(std::slice::from_ref(rules))? {
        Some(o) => o
            .suite
            .start(0)
            .game(rules.size, rules.pie, rules.komi)
            .map_err(|e| usage(format!("--openings: {e}"))),
        None => Ok(Game::new(
            rules
                .new_game(&mut layout_rng(layout_seed))
                .map_err(|e| usage(format!("rules: {e}")))?,
        )),
    }
}

/// `--verbose`'s line under a move: the bot's search, the move's time and
/// the mover's clock; nothing for a bot without a search or a clock.
fn verbose_text(ev: &MoveEvent<'_>) -> String {
    if ev.info.is_none() && ev.clock_ms.is_none() {
        return String::new();
    }
    let mut text = match &ev.info {
        Some(info) => info_line(info),
        None => "   info: -".to_string(),
    };
    text.push_str(&format!(" ms={}", ev.ms));
    if let Some(c) = ev.clock_ms {
        text.push_str(&format!(" clock_ms={c}"));
    }
    text.push('\n');
    text
}

/// Checks every option, then plays the game.
///
/// # Errors
/// Bad options or bot specs (exit 2) before anything is played; a failure
/// to write the output (exit 1).
pub fn run(args: PlayArgs) -> CliResult {
    // Step 1: validate everything before the first move.
    let seed = args.seed;
    let catalog = args.engines.catalog()?;
    let rules = args.rules.to_rules()?;
    let [rules] = rules.as_slice() else {
        return Err(usage(format!(
            "--holes {}: play plays one game, so it takes one hole count, like --holes 5",
            args.rules.holes.as_deref().unwrap_or("")
        )));
    };
    let white_spec = catalog
        .parse(&args.white)
        .map_err(|e| usage(format!("--white: {e}")))?;
    let black_spec = catalog
        .parse(&args.black)
        .map_err(|e| usage(format!("--black: {e}")))?;
    // The game is game 0 of a tournament of the same seed.
    let seeds = game_seeds(seed, GameKey::Scheduled { layout: 0, game: 0 });
    let game = start_game(&args, rules, seeds.layout)?;
    let start = *game.start();
    let mut white = catalog
        .build(&white_spec, seeds.bots[0])
        .map_err(|e| usage(format!("--white: {e}")))?;
    let mut black = catalog
        .build(&black_spec, seeds.bots[1])
        .map_err(|e| usage(format!("--black: {e}")))?;

    // Step 2: play, showing each move; the first write error stops output.
    // An interrupt ends the game at once (exit 130, engines killed).
    install_exit();
    let mut out = std::io::stdout();
    let mut failed: Option<std::io::Error> = None;
    let mut show = |text: String, failed: &mut Option<std::io::Error>| {
        if failed.is_none()
            && let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush())
        {
            *failed = Some(e);
        }
    };
    // A human's prompt shows the board it asks about, so play does not
    // show that board as well; and a person playing must read the bot's
    // move even under --quiet, so every move is named then.
    let human = [white_spec.name == HUMAN, black_spec.name == HUMAN];
    let quiet = args.quiet;
    let verbose = args.verbose;
    let mut header = setup_line(white.name(), black.name(), seed, &start);
    header.push('\n');
    if !game.moves().is_empty() {
        header.push_str(&format!("opening: {}\n", game.moves_text()));
    }
    if !quiet && !next_seat(&game).is_some_and(|seat| human[seat]) {
        header.push_str(&board_with_coordinates(game.position()));
    }
    show(header, &mut failed);
    let clocks = [&white_spec, &black_spec].map(|spec| spec.time_control().ok().flatten());
    let result = play_game(
        game,
        &mut *white,
        &mut *black,
        clocks,
        |ev: &MoveEvent<'_>| {
            if quiet && !human.contains(&true) {
                return;
            }
            let ply = ev.game.moves().len();
            let mut text = match ev.mv {
                Move::Swap => format!("{ply}. {} swaps: it now plays white\n", ev.bot),
                mv => format!("{ply}. {} {}: {mv}\n", ev.colour, ev.bot),
            };
            if verbose {
                text.push_str(&verbose_text(ev));
            }
            if !quiet && !next_seat(ev.game).is_some_and(|seat| human[seat]) {
                text.push_str(&board_with_coordinates(ev.game.position()));
            }
            show(text, &mut failed);
        },
    );

    // Step 3: the end.
    let (end, aborted) = end_text(&result, [white.name(), black.name()], quiet);
    show(end, &mut failed);
    match failed {
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Some(e) => Err(e.into()),
        // A game cut short by the end of a human's input is no result: a
        // script that counts exit 0 as a finished game must not count it.
        None => aborted.map_or(Ok(()), |why| Err(usage(why))),
    }
}

/// What `play` shows after the game (the board under `quiet`, a fault,
/// the result line), and why the game is no result when the human's input
/// ended it early. `names`: the first seat's bot, then the second's.
fn end_text(result: &GameResult, names: [&str; 2], quiet: bool) -> (String, Option<String>) {
    let mut end = String::new();
    // A game the human's input cut short ends at its prompt, which has
    // just shown the board.
    if quiet && result.termination != Termination::Aborted {
        end.push_str(&board_with_coordinates(result.game.position()));
    }
    let mut aborted = None;
    if let Some((colour, fault)) = &result.fault {
        let who = match result.seat_of(*colour) {
            Seat::First => names[0],
            Seat::Second => names[1],
        };
        if result.termination == Termination::Aborted {
            aborted = Some(format!(
                "stdin: input ended after {} moves, with {colour} ({who}) to move: the game is aborted, not finished",
                result.plies()
            ));
        } else {
            end.push_str(&format!(
                "game ended: {colour} ({who}) {}: {fault}; {colour} loses\n",
                result.termination.name()
            ));
        }
    }
    end.push_str(&result_line(
        aborted.is_some(),
        result.outcome.name(),
        result.scores[Player::White],
        result.scores[Player::Black],
    ));
    (end, aborted)
}

/// The last line of `play`: `result=aborted` for a game the human's input
/// ended early (the scores are the board's as it stands), else the
/// outcome.
fn result_line(aborted: bool, outcome: &str, white: u32, black: u32) -> String {
    let result = if aborted { "aborted" } else { outcome };
    format!("result={result} white={white} black={black}\n")
}

#[cfg(test)]
mod tests {
    use super::{SearchInfo, info_line, result_line};

    #[test]
    fn an_even_evaluation_is_not_negative() {
        let info = SearchInfo {
            eval: Some(-0.0),
            ..SearchInfo::default()
        };
        assert!(
            info_line(&info).contains(" eval=0.000"),
            "{}",
            info_line(&info)
        );
    }

    #[test]
    fn an_aborted_game_has_no_winner() {
        assert_eq!(
            result_line(true, "black", 3, 10),
            "result=aborted white=3 black=10\n"
        );
        assert_eq!(
            result_line(false, "draw", 3, 3),
            "result=draw white=3 black=3\n"
        );
    }
}
