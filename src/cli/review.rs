//! `pahtum review`: one game, move by move (docs/CONTRACT.md "Seeing
//! runs"; the review itself is [`crate::study::review`]).

use std::path::{Path, PathBuf};

use clap::Args;

use super::common::{DEFAULT_SEED, RulesArgs, install_cancel, terminal_bar};
use super::error::{CliError, CliResult, cli_error, usage};
use super::num;
use crate::arena::games_csv::{check_row, games_text, parse_games};
use crate::arena::runinfo::{RunFile, check_writable, utc_stamp, write_atomic};
use crate::bot::builtin_catalog;
use crate::game::outcome::Move;
use crate::game::position::Position;
use crate::game::rules::HoleSetup;
use crate::study::review::{
    ReviewConfig, ReviewError, csv_text, review, solve_limits, summary_line,
};

pub use crate::study::review::{DEFAULT_BOT, DEFAULT_EXACT};

/// Arguments of `review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// Run directory (a tournament's --out): its games.csv and run.json
    #[arg(value_name = "DIR", required_unless_present = "moves")]
    pub dir: Option<PathBuf>,
    /// The game to review: its `game` column value in games.csv
    #[arg(long, value_name = "N", required_unless_present = "moves",
          allow_negative_numbers = true, value_parser = num::seed())]
    pub game: Option<u64>,
    /// Review these moves instead of a run's game, like "d4 c3 swap a1"; needs --layout ("" for no holes)
    #[arg(long, value_name = "MOVES", conflicts_with_all = ["dir", "game"], requires = "layout",
          allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Rules of the --moves game (a run's game takes its rules from run.json)
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The bot that evaluates each position and names its best move
    #[arg(long, value_name = "SPEC", default_value = DEFAULT_BOT)]
    pub bot: String,
    /// Solve positions with at most N free squares exactly (0: none); default 20 keeps a 7x7 game to seconds
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EXACT,
          allow_negative_numbers = true, value_parser = num::int::<u32>(0, 64))]
    pub exact: u32,
    /// Seed of the bot, derived per ply
    #[arg(long, default_value_t = DEFAULT_SEED, value_name = "N", allow_negative_numbers = true,
          value_parser = num::seed())]
    pub seed: u64,
    /// Output directory for review.csv (default: DIR/review-N, or results/review-TIME for --moves)
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// No progress
    #[arg(long)]
    pub quiet: bool,
}

/// Game `game` of the run in `dir`: its start position and moves.
fn run_game(dir: &Path, game: u64) -> CliResult<(Position, Vec<Move>)> {
    let run = RunFile::load(dir).map_err(cli_error)?;
    let games = run.games.ok_or_else(|| {
        usage(format!(
            "{}: a {} run, whose rows are not games",
            dir.display(),
            run.command
        ))
    })?;
    let config = games.args.config(1).map_err(cli_error)?;
    let rules = config
        .rules
        .first()
        .ok_or_else(|| usage(format!("{}: run.json lists no rules", dir.display())))?;
    let path = dir.join("games.csv");
    let named = |line: usize, m: String| usage(format!("{} line {line}: {m}", path.display()));
    let bytes =
        std::fs::read(&path).map_err(|e| usage(format!("{}: cannot read: {e}", path.display())))?;
    let text = games_text(bytes).map_err(|(l, m)| named(l, m))?;
    let file = parse_games(text, &games.labels).map_err(|(l, m)| named(l, m))?;
    let Some(i) = file.rows.iter().position(|(r, _)| r.game == game) else {
        let range = match (file.rows.first(), file.rows.last()) {
            (Some(a), Some(b)) => format!("its games are {} to {}", a.0.game, b.0.game),
            _ => "it has no games".to_string(),
        };
        return Err(usage(format!(
            "--game {game}: no such game in {} ({range})",
            path.display()
        )));
    };
    let rec = file.rows[i].0;
    // Every game of a run has the run's size, pie rule and komi; only the
    // holes differ, and the row has them.
    let start = Position::new(rules.size, rec.holes, rules.pie, rules.komi)
        .map_err(|e| usage(format!("{} line {}: {e}", path.display(), i + 2)))?;
    check_row(&rec, &file.rows[i].1.moves, start).map_err(|m| {
        usage(format!(
            "{} line {}: game {game}: {m}",
            path.display(),
            i + 2
        ))
    })?;
    let moves = file.rows[i]
        .1
        .moves
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<Move>()
                .map_err(|_| usage(format!("bad move {s}")))
        })
        .collect::<CliResult<Vec<Move>>>()?;
    Ok((start, moves))
}

/// The `--moves` game: its start from the rules options, its moves parsed
/// (legality is checked by the review's replay).
fn moves_game(a: &ReviewArgs, text: &str) -> CliResult<(Position, Vec<Move>)> {
    let rules = a.rules.to_rules()?;
    let r = &rules[0];
    let HoleSetup::Fixed(holes) = r.holes else {
        return Err(usage("--moves needs --layout"));
    };
    let start =
        Position::new(r.size, holes, r.pie, r.komi).map_err(|e| usage(format!("--layout: {e}")))?;
    let moves = text
        .split_whitespace()
        .enumerate()
        .map(|(i, s)| {
            s.parse::<Move>()
                .map_err(|_| usage(format!("--moves: move {} '{s}' is not a move", i + 1)))
        })
        .collect::<CliResult<Vec<Move>>>()?;
    Ok((start, moves))
}

/// How to review a game: the bot, the solve bound and the seed.
#[derive(Clone, Debug)]
pub struct ReviewJob<'a> {
    /// The bot spec, as typed.
    pub bot: &'a str,
    /// Solve positions with at most this many free squares.
    pub exact: u32,
    /// The seed of the bots.
    pub seed: u64,
}

impl ReviewJob<'_> {
    /// A review as `pahtum review` makes it when given no options.
    pub fn defaults() -> ReviewJob<'static> {
        ReviewJob {
            bot: DEFAULT_BOT,
            exact: DEFAULT_EXACT,
            seed: DEFAULT_SEED,
        }
    }
}

/// Reviews the game of `moves` from `start` and writes `out/review.csv`
/// in one piece; the summary line.
///
/// # Errors
/// An illegal move or a bot that cannot review (exit 2, before anything
/// is written), an unwritable `out` (exit 2), an interrupt (exit 130,
/// nothing written).
pub fn review_into(
    start: Position,
    moves: &[Move],
    job: &ReviewJob<'_>,
    out: &Path,
    quiet: bool,
) -> CliResult<String> {
    crate::study::review::replay(start, moves).map_err(|e| usage(format!("--moves: {e}")))?;
    let catalog = builtin_catalog();
    let spec = catalog
        .parse_unattended(job.bot)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    let probe = catalog
        .build(&spec, job.seed)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    if !probe.is_replayable() {
        return Err(usage(format!(
            "--bot {}: a review must replay from its seed; use an iteration budget, one search thread",
            job.bot
        )));
    }
    drop(probe);
    std::fs::create_dir_all(out)
        .and_then(|()| check_writable(out))
        .map_err(|e| usage(format!("--out {}: cannot write: {e}", out.display())))?;
    let cfg = ReviewConfig {
        catalog: &catalog,
        spec: &spec,
        seed: job.seed,
        exact: job.exact,
        limits: solve_limits(),
    };
    let bar = terminal_bar(
        quiet,
        "{spinner} [{elapsed_precise}] {pos}/{len} positions searched",
        0,
        moves.len() as u64,
    );
    let rows = review(start, moves, &cfg, |_| bar.inc(1));
    bar.abandon();
    let rows = match rows {
        Ok(rows) => rows,
        Err(ReviewError::Interrupted) => {
            return Err(CliError::Interrupted(
                "interrupted; no review.csv written".into(),
            ));
        }
        Err(e @ ReviewError::Illegal { .. }) => return Err(usage(format!("--moves: {e}"))),
        Err(e) => return Err(usage(format!("--bot {}: {e}", job.bot))),
    };
    let csv = out.join("review.csv");
    write_atomic(&csv, csv_text(&rows).as_bytes())
        .map_err(|e| usage(format!("--out {}: {e}", out.display())))?;
    if !quiet {
        eprintln!("review: {}", csv.display());
    }
    Ok(summary_line(&rows))
}

/// Reviews game `game` of the run in `dir` with `job` into
/// `DIR/review-N/review.csv`, where `report` finds it; the summary line.
///
/// # Errors
/// As [`review_into`], and a game that is not in the run's `games.csv`.
pub fn review_run_game(
    dir: &Path,
    game: u64,
    job: &ReviewJob<'_>,
    quiet: bool,
) -> CliResult<String> {
    let (start, moves) = run_game(dir, game)?;
    review_into(
        start,
        &moves,
        job,
        &dir.join(format!("review-{game}")),
        quiet,
    )
}

/// Runs `review`: the game read and every move checked first, then each
/// position searched and solved, then `review.csv` written in one piece
/// and the summary line printed.
///
/// # Errors
/// A bad game number, an illegal move or other bad input (exit 2, before
/// anything is written); an interrupt (exit 130, nothing written).
pub fn run(a: ReviewArgs) -> CliResult {
    let (start, moves, out) = match (&a.moves, &a.dir, a.game) {
        (Some(text), _, _) => {
            let (s, m) = moves_game(&a, text)?;
            let out = a.out.clone().unwrap_or_else(|| {
                PathBuf::from("results").join(format!("review-{}", utc_stamp()))
            });
            (s, m, out)
        }
        (None, Some(dir), Some(game)) => {
            if a.rules.layout.is_some()
                || a.rules.holes.is_some()
                || a.rules.pie
                || a.rules.komi.is_some()
            {
                return Err(usage(
                    "a run's game takes its rules from run.json: --holes, --layout, --pie and --komi go with --moves",
                ));
            }
            let (s, m) = run_game(dir, game)?;
            let out = a
                .out
                .clone()
                .unwrap_or_else(|| dir.join(format!("review-{game}")));
            (s, m, out)
        }
        _ => return Err(usage("give a run directory and --game N, or --moves")),
    };
    install_cancel("no review.csv is written");
    let job = ReviewJob {
        bot: &a.bot,
        exact: a.exact,
        seed: a.seed,
    };
    println!("{}", review_into(start, &moves, &job, &out, a.quiet)?);
    Ok(())
}
