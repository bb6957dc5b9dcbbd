//! A tournament played into a directory: `run.json`, `games.csv` and
//! `moves.csv` streamed game by game, and the summary files at the end;
//! `--resume` continues one that was interrupted.
//!
//! Crash safety: `games.csv` only ever grows by whole rows written in game
//! order and flushed whenever the writer waits, so after a kill the file is
//! a prefix of the finished file plus at most one torn line. Resuming drops
//! the torn line (truncating the file to its complete rows), checks every
//! kept row against the schedule by replaying its moves (scores, winner,
//! swap and holes recomputed), and plays the rest. Every other file is
//! written whole through a rename.
//!
//! `moves.csv` (one line a ply, [`super::moves_csv`]) gets a game's lines
//! before its `games.csv` row, and its buffer is always flushed before
//! that of `games.csv`, so on disk it holds every line of every game
//! `games.csv` holds, and perhaps lines of the next games. Resuming
//! checks the lines of the kept games against their moves and truncates
//! the file after them. A directory written before `moves.csv` existed
//! gets one on resume, its kept games' lines holding just the moves and
//! movers (their searches are not known).

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::games_csv::{GameRecord, GamesFile, check_row, games_header, games_text, parse_games};
use super::parallel::run_games;
use super::report::Report;
use super::run_dir_error::RunDirError;
use super::runinfo::{GamesRun, RunArgs, RunFile, check_writable, utc_now, write_atomic};
use super::runopts::RunOptions;
use super::schedule::Schedule;
use super::tournament::{ArenaError, Observer, TournamentConfig};
use crate::bot::Catalog;

/// A tournament to play into a directory.
#[derive(Debug)]
pub struct DirRun<'a> {
    /// The games.
    pub config: &'a TournamentConfig,
    /// The same, as recorded in `run.json` (with engine settings).
    pub args: RunArgs,
    /// The subcommand (`tournament`, `sweep`, `sprt`), for `run.json`.
    pub command: &'static str,
    /// Its result-shaping options, recorded and compared on `--resume`.
    pub options: RunOptions,
    /// Builds the bots.
    pub catalog: &'a Catalog,
    /// The output directory.
    pub out: PathBuf,
    /// Continue the run in `out` instead of refusing a non-empty one.
    pub resume: bool,
    /// The command line, for `run.json`.
    pub command_line: Vec<String>,
}

/// A finished run in a directory.
#[derive(Debug)]
pub struct DirOutcome {
    /// The summary tables.
    pub report: Report,
    /// Games found already recorded (resumed).
    pub resumed: u64,
    /// Games played by this call.
    pub played: u64,
    /// The final `run.json`.
    pub run: RunFile,
}

use super::moves_resume::open_moves;
pub use super::moves_resume::{MovesFound, moves_path, read_moves, row_plies};
pub use super::runinfo::is_non_empty;

/// Reads `path` as `games.csv` of a tournament with these `labels`, and
/// checks that its rows are, in order, the first games of `expected`
/// (a shard's game list) as `schedule` defines them.
///
/// # Errors
/// [`ArenaError::Config`] naming the file, line and problem.
pub fn read_games(
    path: &Path,
    labels: &[String],
    schedule: &Schedule,
    expected: &[u64],
) -> Result<GamesFile, ArenaError> {
    let named =
        |line: usize, m: String| ArenaError::Config(format!("{} line {line}: {m}", path.display()));
    let bytes = std::fs::read(path).map_err(|e| ArenaError::io(path, e))?;
    let text = games_text(bytes).map_err(|(line, m)| named(line, m))?;
    let file = parse_games(text, labels).map_err(|(line, m)| named(line, m))?;
    for (i, (rec, row)) in file.rows.iter().enumerate() {
        let line = i + 2;
        let want = expected.get(i).copied();
        if want != Some(rec.game) {
            return Err(named(
                line,
                format!(
                    "game {} where this schedule has {}",
                    rec.game,
                    want.map_or("no more games".to_string(), |g| format!("game {g}"))
                ),
            ));
        }
        let sg = schedule.game(rec.game);
        if sg.layout != rec.layout || sg.first != rec.first || sg.second != rec.second {
            return Err(named(
                line,
                format!(
                    "game {} does not match this schedule (other bots or seed?)",
                    rec.game
                ),
            ));
        }
        // The row is replayed: its scores, winner and swap must be what
        // its moves give on the schedule's layout.
        let start = schedule
            .start(&sg)
            .map_err(|e| ArenaError::Game(format!("game {}: {e}", rec.game)))?;
        check_row(rec, &row.moves, start)
            .map_err(|m| named(line, format!("game {}: {m}", rec.game)))?;
    }
    Ok(file)
}

/// [`read_games`], then [`read_moves`] on the `moves.csv` beside it: the
/// check of a run directory's rows before a resume prints anything.
///
/// # Errors
/// As theirs.
pub fn check_games_and_moves(
    path: &Path,
    labels: &[String],
    schedule: &Schedule,
    expected: &[u64],
) -> Result<GamesFile, ArenaError> {
    let file = read_games(path, labels, schedule, expected)?;
    read_moves(&moves_path(path), labels, schedule, &file.rows)?;
    Ok(file)
}

/// Writes the four summary files of `report` into `dir`.
///
/// # Errors
/// An I/O error.
pub fn write_report(dir: &Path, report: &Report) -> Result<(), ArenaError> {
    write_atomic(&dir.join("summary.csv"), report.summary_csv().as_bytes())?;
    write_atomic(&dir.join("ratings.csv"), report.ratings_csv().as_bytes())?;
    write_atomic(
        &dir.join("first_player.csv"),
        report.first_player_csv().as_bytes(),
    )?;
    write_atomic(&dir.join("pairs.csv"), report.pairs_csv().as_bytes())
}

/// The note `run.json` carries when the ratings needed virtual draws.
pub const REGULARISED_NOTE: &str = "ratings: a bot won or lost every game against the others, so one virtual draw per pairing was added to keep the maximum-likelihood Elo finite";

/// Streams lines to `moves.csv` and rows to `games.csv`, and passes games
/// on to the caller's observer. `moves` is declared first so that it is
/// dropped (flushed) first too.
struct Sink<'a> {
    moves: BufWriter<File>,
    moves_path: PathBuf,
    file: BufWriter<File>,
    path: &'a Path,
    inner: &'a mut dyn Observer,
    records: Vec<GameRecord>,
}

impl Sink<'_> {
    fn flush_moves(&mut self) -> Result<(), ArenaError> {
        self.moves
            .flush()
            .map_err(|e| ArenaError::io(&self.moves_path, e))
    }
}

impl Observer for Sink<'_> {
    fn on_moves(&mut self, _: &GameRecord, lines: &str) -> Result<(), ArenaError> {
        self.moves
            .write_all(lines.as_bytes())
            .map_err(|e| ArenaError::io(&self.moves_path, e))
    }

    fn on_game(&mut self, r: &GameRecord, row: &str) -> Result<ControlFlow<()>, ArenaError> {
        // A row that does not fit sends the buffer of games.csv to the
        // disk: the lines of its games go first.
        if self.file.buffer().len() + row.len() > self.file.capacity() {
            self.flush_moves()?;
        }
        self.file
            .write_all(row.as_bytes())
            .map_err(|e| ArenaError::io(self.path, e))?;
        self.records.push(*r);
        self.inner.on_game(r, row)
    }

    fn on_idle(&mut self) -> Result<(), ArenaError> {
        self.flush_moves()?;
        self.file
            .flush()
            .map_err(|e| ArenaError::io(self.path, e))?;
        self.inner.on_idle()
    }
}

/// What [`play_into_games_csv`] did.
#[derive(Debug)]
pub struct Played {
    /// Every record of the game list, resumed ones first.
    pub records: Vec<GameRecord>,
    /// Games found already recorded.
    pub resumed: u64,
    /// Games played by this call.
    pub played: u64,
}

/// Plays `games` (a game list of `config`'s schedule, in order) into the
/// `games.csv` at `path`, keeping the complete rows already there and
/// dropping a torn last line, and the lines of the games in `moves.csv`
/// beside it (see the module docs); `observer` sees the resumed games once
/// and then each new game in order. The caller has checked that the file
/// belongs to this run.
///
/// # Errors
/// [`ArenaError::Config`] for a `games.csv` that does not match the
/// list; [`ArenaError::Interrupted`] when `cancel` was set or the
/// observer stopped the run (every row written is valid); I/O and bot
/// errors.
pub fn play_into_games_csv(
    config: &TournamentConfig,
    catalog: &Catalog,
    games: &[u64],
    path: &Path,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Played, ArenaError> {
    let labels = config.labels();
    let schedule = config.schedule();
    // Keep the complete rows of an earlier attempt, drop a torn line.
    let mut done: Vec<GameRecord> = Vec::new();
    let moves_path = moves_path(path);
    let (file, moves) = if path.exists() {
        let existing = read_games(path, &labels, &schedule, games)?;
        let moves = open_moves(&moves_path, &labels, &schedule, &existing.rows)?;
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| ArenaError::io(path, e))?;
        if existing.has_header {
            f.set_len(existing.complete_len as u64)
                .map_err(|e| ArenaError::io(path, e))?;
        } else {
            f.set_len(0).map_err(|e| ArenaError::io(path, e))?;
        }
        done = existing.rows.iter().map(|r| r.0).collect();
        drop(f);
        let mut f = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| ArenaError::io(path, e))?;
        if !existing.has_header {
            writeln!(f, "{}", games_header()).map_err(|e| ArenaError::io(path, e))?;
        }
        (f, moves)
    } else {
        // moves.csv first: a games.csv on disk always has one beside it.
        let moves = open_moves(&moves_path, &labels, &schedule, &[])?;
        let mut f = File::create(path).map_err(|e| ArenaError::io(path, e))?;
        writeln!(f, "{}", games_header()).map_err(|e| ArenaError::io(path, e))?;
        (f, moves)
    };

    let resumed = done.len();
    observer.on_start(&done, games.len() as u64);
    let mut records = Vec::with_capacity(games.len());
    records.append(&mut done);
    let mut sink = Sink {
        moves: BufWriter::with_capacity(1 << 16, moves),
        moves_path,
        file: BufWriter::with_capacity(1 << 16, file),
        path,
        inner: observer,
        records,
    };
    let rest = &games[resumed..];
    let status = run_games(config, catalog, rest, cancel, &mut sink)?;
    sink.on_idle()?;
    let records = sink.records;
    if records.len() < games.len() {
        return Err(ArenaError::Interrupted {
            done: records.len() as u64,
            total: games.len() as u64,
        });
    }
    Ok(Played {
        records,
        resumed: resumed as u64,
        played: status.played,
    })
}

/// Makes `out` the output directory: creates it and checks that files
/// can be written in it, before anything is printed or played.
///
/// # Errors
/// [`RunDirError::Unusable`] (in [`ArenaError::Run`]): a path that is
/// not a directory or cannot be created, a full or read-only disk.
pub fn prepare_out(out: &Path) -> Result<(), ArenaError> {
    let bad = |why: String| {
        Err(ArenaError::Run(RunDirError::Unusable {
            dir: out.to_path_buf(),
            why,
        }))
    };
    if out.exists() && !out.is_dir() {
        return bad("is not a directory".into());
    }
    if let Err(e) = std::fs::create_dir_all(out) {
        return bad(format!("cannot create the directory: {e}"));
    }
    if let Err(e) = check_writable(out) {
        return bad(format!("cannot write in the directory: {e}"));
    }
    Ok(())
}

/// Checks that `run.out` may be used, and makes it the output directory
/// ([`prepare_out`]): empty or absent, or with `resume` a directory of
/// the same subcommand whose `run.json` records the same options and
/// whose rows replay (its `run.json` is returned).
///
/// # Errors
/// [`ArenaError::Run`] for a directory that holds no run to
/// continue, or another run; [`ArenaError::Config`] for rows that do
/// not replay or a directory that cannot be written.
pub fn check_dir(run: &DirRun<'_>) -> Result<Option<RunFile>, ArenaError> {
    let out = &run.out;
    let old =
        RunFile::resume_in(out, run.command, &run.options, run.resume).map_err(ArenaError::Run)?;
    if old.is_some() {
        // Its rows are checked now too, before anything is printed.
        let games_csv = out.join("games.csv");
        if games_csv.exists() {
            let schedule = run.config.schedule();
            let games: Vec<u64> = schedule.shard_games(run.config.shard).collect();
            check_games_and_moves(&games_csv, &run.config.labels(), &schedule, &games)?;
        }
    }
    prepare_out(out)?;
    Ok(old)
}

/// Plays `run` into its directory (see the module docs); `observer` sees
/// the resumed games once and then each new game in order (progress).
///
/// # Errors
/// [`ArenaError::Config`] for a non-empty directory without
/// `resume`, a `run.json` whose arguments differ (naming the first
/// difference), or a `games.csv` that does not belong to this run;
/// [`ArenaError::Interrupted`] when `cancel` was set (every row
/// written is valid); I/O and bot errors.
pub fn run_in_dir(
    run: &DirRun<'_>,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<DirOutcome, ArenaError> {
    let config = run.config;
    config.validate(run.catalog)?;
    let out = &run.out;
    let labels = config.labels();
    let schedule = config.schedule();
    let games: Vec<u64> = schedule.shard_games(config.shard).collect();
    let old = check_dir(run)?;
    std::fs::create_dir_all(out).map_err(|e| ArenaError::io(out, e))?;
    let timed = config.timed_bots(run.catalog)?;
    let mut notes = Vec::new();
    if !timed.is_empty() {
        notes.push(format!(
            "bots on a time budget ({}): the same command will not replay these games exactly",
            timed.join(", ")
        ));
    }
    let mut info = RunFile::start(
        run.command,
        run.options.clone(),
        run.command_line.clone(),
        config.threads,
    );
    info.games = Some(GamesRun {
        rerun: run.args.command(),
        args: run.args.clone(),
        labels: labels.clone(),
        games_per_pairing: schedule.games_per_pairing(),
        schedule_games: schedule.len(),
        run_games: games.len() as u64,
        timed_bots: timed.clone(),
        replayable: timed.is_empty(),
        merged_from: None,
    });
    info.notes = notes;
    if let Some(old) = &old {
        info.command_line = old.command_line.clone();
        info.start_time = old.start_time.clone();
        info.notes.push(format!(
            "resumed at {} by: {}",
            utc_now(),
            run.command_line.join(" ")
        ));
    }
    info.save(out)?;

    let played = play_into_games_csv(
        config,
        run.catalog,
        &games,
        &out.join("games.csv"),
        cancel,
        observer,
    )?;
    let done = played.records;
    let report = Report::new(&labels, &schedule, &done);
    write_report(out, &report)?;
    if report.ratings.regularised {
        info.notes.push(REGULARISED_NOTE.into());
    }
    info.end_time = Some(utc_now());
    info.save(out)?;
    Ok(DirOutcome {
        report,
        resumed: played.resumed,
        played: played.played,
        run: info,
    })
}
