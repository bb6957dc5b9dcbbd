//! `pahtum review`: one game, move by move (docs/CONTRACT.md "Seeing
//! runs"; the review itself is [`crate::judge::review`]).

use std::path::{Path, PathBuf};

use clap::Args;

use super::common::{DEFAULT_SEED, RulesArgs, install_cancel, terminal_bar};
use super::error::{CliError, CliResult, cli_error, usage};
use super::num;
use crate::arena::games_csv::{check_row, games_text, parse_games};
use crate::arena::rundir::is_non_empty;
use crate::arena::runinfo::{RunFile, check_writable, utc_stamp, write_atomic};
use crate::bot::builtin_catalog;
use crate::game::outcome::Move;
use crate::game::position::Position;
use crate::game::rules::HoleSetup;
use crate::judge::review::{
    RECORD_FILE, ReviewConfig, ReviewError, ReviewRecord, csv_text, review, solve_limits,
    summary_line,
};

pub use crate::judge::review::{DEFAULT_BOT, DEFAULT_EXACT};

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
    /// Output directory for review.csv and review.json (default: DIR/review-N, or results/review-TIME for --moves); new, empty, or a review of the same game with the same settings
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Replace a review of another game or with other settings where this one goes
    #[arg(long)]
    pub force: bool,
    /// No progress
    #[arg(long)]
    pub quiet: bool,
}

/// Checks every game of the run in `dir`, each row against its replay
/// (holes, swap, scores and winner), so that a damaged file is refused by
/// file and line instead of shown. Any run that plays games into a
/// `games.csv` will do: a tournament, a merge, a sweep or an sprt (whose
/// `run.json` records the games' arguments), and an fpa study (whose
/// games follow from its recorded options).
///
/// # Errors
/// A run that writes no `games.csv`, or a row that is not its game (exit
/// 2, naming the file and line).
pub(super) fn check_run_games(dir: &Path) -> CliResult<()> {
    games_where(dir, &|_| true).map(|_| ())
}

/// A game of a run: its start position and moves.
type RunGame = (Position, Vec<Move>);

/// The `game` of every row of the run in `dir`, and the start position
/// and moves of the games `want` picks, each checked as
/// [`check_run_games`] checks them all.
///
/// # Errors
/// As [`check_run_games`], for the rows picked (every row must still
/// parse).
fn games_where(dir: &Path, want: &dyn Fn(u64) -> bool) -> CliResult<(Vec<u64>, Vec<RunGame>)> {
    let run = RunFile::load(dir).map_err(cli_error)?;
    let path = dir.join("games.csv");
    let fpa = run.games.is_none() && run.command == "fpa";
    if (run.games.is_none() && !fpa) || !path.is_file() {
        return Err(usage(format!(
            "{}: {}, which writes no games.csv; review takes the games of a tournament, merge, sweep, sprt or fpa run",
            dir.display(),
            crate::arena::runinfo::a_run(&run.command)
        )));
    }
    // Every game of a run of games has the run's size, pie rule and komi
    // (only the holes differ, and the row has them); an fpa study plays
    // its layouts under conditions in turn, with and without the pie rule.
    let (labels, conditions) = match &run.games {
        Some(games) => {
            let config = games.args.config(1).map_err(cli_error)?;
            (games.labels.clone(), config.rules)
        }
        None => super::fpa::recorded_conditions(dir, &run.options)?,
    };
    let named = |line: usize, m: String| usage(format!("{} line {line}: {m}", path.display()));
    let bytes =
        std::fs::read(&path).map_err(|e| usage(format!("{}: cannot read: {e}", path.display())))?;
    let text = games_text(bytes).map_err(|(l, m)| named(l, m))?;
    let file = parse_games(text, &labels).map_err(|(l, m)| named(l, m))?;
    let numbers = file.rows.iter().map(|(rec, _)| rec.game).collect();
    let mut games = Vec::new();
    for (i, (rec, row)) in file.rows.iter().enumerate() {
        if !want(rec.game) {
            continue;
        }
        let line = i + 2;
        let at = if fpa {
            rec.layout % conditions.len().max(1) as u64
        } else {
            0
        };
        let rules = usize::try_from(at)
            .ok()
            .and_then(|k| conditions.get(k))
            .ok_or_else(|| usage(format!("{}/run.json: it lists no rules", dir.display())))?;
        let start = Position::new(rules.size, rec.holes, rules.pie, rules.komi)
            .map_err(|e| named(line, e.to_string()))?;
        let moves = check_row(rec, &row.moves, start)
            .map_err(|m| named(line, format!("game {}: {m}", rec.game)))?;
        games.push((start, moves));
    }
    Ok((numbers, games))
}

/// Game `game` of the run in `dir`, its row checked as
/// [`check_run_games`] checks every row: its start position and moves.
fn run_game(dir: &Path, game: u64) -> CliResult<RunGame> {
    let (numbers, mut games) = games_where(dir, &|g| g == game)?;
    let Some(g) = games.pop() else {
        let range = match (numbers.first(), numbers.last()) {
            (Some(a), Some(b)) if b.checked_sub(*a) == Some(numbers.len() as u64 - 1) => {
                format!("its games are {a} to {b}")
            }
            (Some(a), Some(b)) => format!(
                "its {} games are numbered from {a} to {b}, not every number between",
                numbers.len()
            ),
            _ => "it has no games".to_string(),
        };
        return Err(usage(format!(
            "--game {game}: no such game in {} ({range})",
            dir.join("games.csv").display()
        )));
    };
    Ok(g)
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

/// How to review a game: the bot, the solve bound and the seed, and
/// whether a review made otherwise may be replaced.
#[derive(Clone, Debug)]
pub struct ReviewJob<'a> {
    /// The bot spec, as typed.
    pub bot: &'a str,
    /// Solve positions with at most this many free squares.
    pub exact: u32,
    /// The seed of the bots.
    pub seed: u64,
    /// Replace a review made with other settings (`--force`).
    pub force: bool,
}

impl ReviewJob<'_> {
    /// A review as `pahtum review` makes it when given no options.
    pub fn defaults() -> ReviewJob<'static> {
        ReviewJob {
            bot: DEFAULT_BOT,
            exact: DEFAULT_EXACT,
            seed: DEFAULT_SEED,
            force: false,
        }
    }
}

/// Where a review goes: the directory and how the user named it, for
/// messages.
#[derive(Clone, Copy, Debug)]
pub struct ReviewOut<'a> {
    /// The directory of `review.csv` and `review.json`.
    pub dir: &'a Path,
    /// Whether `--out` named it (else it is the default, `DIR/review-N`).
    pub named: bool,
}

impl ReviewOut<'_> {
    /// The directory as messages name it: `--out DIR` where the user
    /// gave it.
    fn name(&self) -> String {
        if self.named {
            format!("--out {}", self.dir.display())
        } else {
            self.dir.display().to_string()
        }
    }
}

/// Whether `dir` holds a review (its `review.csv` or `review.json`).
pub fn holds_review(dir: &Path) -> bool {
    dir.join("review.csv").is_file() || dir.join(RECORD_FILE).is_file()
}

/// Checks what `out` holds before a review of `record` writes there: an
/// absent or empty directory, or a review that the new one reproduces
/// (same game and settings: the same files are written again), is fine;
/// a review made otherwise is replaced only when `force`; anything else
/// is refused. Whether an earlier review is there to be replaced.
fn check_out(out: ReviewOut<'_>, record: &ReviewRecord, force: bool) -> CliResult<bool> {
    let dir = out.dir;
    if dir.exists() && !dir.is_dir() {
        return Err(usage(format!("{}: not a directory", out.name())));
    }
    if !is_non_empty(dir) {
        return Ok(false);
    }
    if !holds_review(dir) {
        return Err(usage(format!(
            "{}: not empty and holds no review; give a new or empty directory",
            out.name()
        )));
    }
    let json = dir.join(RECORD_FILE);
    let why = match std::fs::read(&json) {
        Ok(bytes) => match serde_json::from_slice::<ReviewRecord>(&bytes) {
            Ok(old) => match old.difference(record) {
                None => return Ok(true),
                Some(d) => format!("holds a review of {d}"),
            },
            Err(e) => format!("{RECORD_FILE} is not a review's record ({e})"),
        },
        Err(_) => "holds a review.csv whose settings were not recorded".to_string(),
    };
    if force {
        return Ok(true);
    }
    Err(usage(format!(
        "{}: {why}; give --force to replace it, or --out another directory",
        out.name()
    )))
}

/// The first of `dir` and its ancestors that does not exist: what making
/// `dir` creates, and what is removed again where nothing was written.
fn first_missing(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .filter(|p| !p.as_os_str().is_empty() && !p.exists())
        .last()
        .map(Path::to_path_buf)
}

/// Makes `dir` (and its missing parents) and checks that files can be
/// written there; what it had to create is removed again, so that a
/// review that is interrupted, or fails, leaves no empty directory.
fn probe_writable(out: ReviewOut<'_>) -> CliResult {
    let created = first_missing(out.dir);
    let made = std::fs::create_dir_all(out.dir).and_then(|()| check_writable(out.dir));
    if let Some(top) = &created {
        let _ = std::fs::remove_dir_all(top);
    }
    made.map_err(|e| usage(format!("{}: cannot write: {e}", out.name())))
}

/// Writes `review.csv` and `review.json` into `out`, each through a
/// temporary file renamed into place, the record last (a review being
/// replaced loses its record first, so the pair never misstates how its
/// rows were made); the directories it had to create are removed again
/// if a write fails.
fn write_review(out: ReviewOut<'_>, csv: &str, record: &ReviewRecord, replace: bool) -> CliResult {
    let dir = out.dir;
    let failed = |e: String| usage(format!("{}: cannot write: {e}", out.name()));
    let mut json = serde_json::to_string_pretty(record).map_err(|e| failed(e.to_string()))?;
    json.push('\n');
    let created = first_missing(dir);
    let written = (|| {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        if replace {
            match std::fs::remove_file(dir.join(RECORD_FILE)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.to_string()),
                _ => {}
            }
        }
        write_atomic(&dir.join("review.csv"), csv.as_bytes()).map_err(|e| e.to_string())?;
        write_atomic(&dir.join(RECORD_FILE), json.as_bytes()).map_err(|e| e.to_string())
    })();
    if written.is_err()
        && let Some(top) = &created
    {
        let _ = std::fs::remove_dir_all(top);
    }
    written.map_err(failed)
}

/// Reviews the game of `moves` from `start` and writes `review.csv` and
/// `review.json` (how it was made: [`ReviewRecord`]) into `out`, once the
/// whole game is reviewed; the summary line. `game` names the run's game
/// reviewed, for the record.
///
/// # Errors
/// An illegal move or a bot that cannot review, an `out` that holds
/// something else than a review of this game with these settings (unless
/// `job.force` and it is a review), an unwritable `out` (exit 2, before
/// anything is written); an interrupt (exit 130, nothing written, no
/// directory made).
pub fn review_into(
    start: Position,
    moves: &[Move],
    job: &ReviewJob<'_>,
    game: Option<(&Path, u64)>,
    out: ReviewOut<'_>,
    quiet: bool,
) -> CliResult<String> {
    crate::judge::review::replay(start, moves).map_err(|e| usage(format!("--moves: {e}")))?;
    let catalog = builtin_catalog();
    let spec = catalog
        .parse_unattended(job.bot)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    super::common::no_clock(
        &spec,
        "--bot",
        "review judges each position alone and must replay from its seed",
        super::common::REPLAYABLE_BUDGET,
    )?;
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
    let mut record = ReviewRecord::new(&catalog, &spec, job.exact, job.seed, &start, moves);
    if let Some((dir, g)) = game {
        record.run = Some(dir.display().to_string());
        record.game = Some(g);
    }
    let replace = check_out(out, &record, job.force)?;
    probe_writable(out)?;
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
                "interrupted; no review written".into(),
            ));
        }
        Err(e @ ReviewError::Illegal { .. }) => return Err(usage(format!("--moves: {e}"))),
        Err(e) => return Err(usage(format!("--bot {}: {e}", job.bot))),
    };
    write_review(out, &csv_text(&rows), &record, replace)?;
    if !quiet {
        eprintln!(
            "review: {} ({})",
            out.dir.join("review.csv").display(),
            record.settings()
        );
    }
    Ok(summary_line(&rows))
}

/// Reviews game `game` of the run in `dir` with `job` into
/// `DIR/review-N/`, where `report` finds it; the summary line.
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
    let out = dir.join(format!("review-{game}"));
    review_into(
        start,
        &moves,
        job,
        Some((dir, game)),
        ReviewOut {
            dir: &out,
            named: false,
        },
        quiet,
    )
}

/// Runs `review`: the game read and every move checked first, then each
/// position searched and solved, then `review.csv` and `review.json`
/// written and the summary line printed.
///
/// # Errors
/// A bad game number, an illegal move, an `--out` that holds something
/// else or other bad input (exit 2, before anything is written); an
/// interrupt (exit 130, nothing written).
pub fn run(a: ReviewArgs) -> CliResult {
    let (start, moves, out, game) = match (&a.moves, &a.dir, a.game) {
        (Some(text), _, _) => {
            let (s, m) = moves_game(&a, text)?;
            let out = a.out.clone().unwrap_or_else(|| {
                PathBuf::from("results").join(format!("review-{}", utc_stamp()))
            });
            (s, m, out, None)
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
            (s, m, out, Some((dir.as_path(), game)))
        }
        _ => return Err(usage("give a run directory and --game N, or --moves")),
    };
    install_cancel("no review is written");
    let job = ReviewJob {
        bot: &a.bot,
        exact: a.exact,
        seed: a.seed,
        force: a.force,
    };
    let target = ReviewOut {
        dir: &out,
        named: a.out.is_some(),
    };
    println!(
        "{}",
        review_into(start, &moves, &job, game, target, a.quiet)?
    );
    // A quiet review whose directory was picked by default names its file
    // as one not quiet does (stdout is the summary line alone).
    if a.quiet && a.out.is_none() {
        eprintln!("review: {}", out.join("review.csv").display());
    }
    Ok(())
}
