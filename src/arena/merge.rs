//! Joining the outputs of `--shard K/N` runs into the files of the
//! unsharded run.
//!
//! Each shard's `games.csv` rows are copied byte for byte and put back in
//! game order, so the merged `games.csv` equals the unsharded one exactly
//! (the `_ms` timing columns are whatever each shard measured); so are the
//! lines of `moves.csv`, each game's checked against its row; the
//! summaries are recomputed from all rows.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::games_csv::{GameRecord, GameRow};
use super::moves_csv::{Header, MOVES_HEADER, MovesReader, push_bare};
use super::schedule::Schedule;

use super::report::Report;
use super::run_dir_error::RunDirError;
use super::rundir::{
    REGULARISED_NOTE, is_non_empty, moves_path, prepare_out, read_games, row_plies, write_report,
};
use super::runinfo::{GamesRun, RunArgs, RunFile, write_atomic};
use super::runopts::RunOptions;
use super::schedule::Shard;
use super::tournament::ArenaError;
use crate::csv_rows;

/// A finished merge.
#[derive(Debug)]
pub struct Merged {
    /// The summary tables of all games.
    pub report: Report,
    /// The merged `run.json`.
    pub run: RunFile,
    /// Every game, in game order.
    pub records: Vec<super::games_csv::GameRecord>,
}

/// Merges the shard directories `dirs` into `out` (which must be empty or
/// absent).
///
/// # Errors
/// [`ArenaError::Config`] naming the problem: shards of different
/// tournaments (and the first differing argument), different shard
/// counts, a shard given twice, shards missing, an incomplete shard, a
/// `games.csv` that does not match its `run.json`; I/O errors.
pub fn merge_dirs(
    dirs: &[PathBuf],
    out: &Path,
    command_line: Vec<String>,
) -> Result<Merged, ArenaError> {
    let bad = |m: String| Err(ArenaError::Config(m));
    if dirs.is_empty() {
        return bad("merge: give the shard directories to merge".into());
    }
    if is_non_empty(out) {
        return Err(ArenaError::Run(RunDirError::NotEmptyForMerge {
            dir: out.to_path_buf(),
        }));
    }
    let runs = load_shards(dirs)?;
    let first = &runs[0].1;
    let first_games = &runs[0].2;

    let mut args = first_games.args.clone();
    args.shard = Shard::ALL.to_string();
    let config = args.config(1)?;
    let labels = config.labels();
    let schedule = config.schedule();
    let mut files = Vec::with_capacity(runs.len());
    for (d, _, g) in &runs {
        let shard: Shard = g.args.shard.parse().map_err(ArenaError::Config)?;
        let expected: Vec<u64> = schedule.shard_games(shard).collect();
        let file = read_games(&d.join("games.csv"), &labels, &schedule, &expected)?;
        if file.rows.len() < expected.len() {
            return bad(format!(
                "merge: shard {shard} in {} is incomplete ({} of {} games); finish it with `{} --resume --out {}`",
                d.display(),
                file.rows.len(),
                expected.len(),
                g.args.command(),
                d.display()
            ));
        }
        files.push((d.as_path(), file.rows));
    }

    prepare_out(out)?;
    merge_moves(&files, &labels, &schedule, out)?;
    let (mut records, mut rows): (Vec<_>, Vec<_>) = files.into_iter().flat_map(|f| f.1).unzip();
    rows.sort_by_key(|r| r.game);
    records.sort_by_key(|r| r.game);
    write_atomic(&out.join("games.csv"), csv_rows::text(rows).as_bytes())?;
    let report = Report::new(&labels, &schedule, &records);
    write_report(out, &report)?;

    let mut timed: Vec<String> = runs.iter().flat_map(|r| r.2.timed_bots.clone()).collect();
    timed.sort();
    timed.dedup();
    let notes = merged_notes(runs.iter().map(|r| &r.1), report.ratings.regularised);
    let options = merged_options(first, &args);
    let mut run = RunFile::start(
        if first.command.is_empty() {
            "tournament"
        } else {
            &first.command
        },
        options,
        command_line,
        runs.iter().map(|r| r.1.threads).sum(),
    );
    run.games = Some(GamesRun {
        rerun: args.command(),
        args,
        labels,
        games_per_pairing: schedule.games_per_pairing(),
        schedule_games: schedule.len(),
        run_games: schedule.len(),
        replayable: timed.is_empty(),
        timed_bots: timed,
        merged_from: Some(dirs.iter().map(|d| d.display().to_string()).collect()),
    });
    run.start_time = runs
        .iter()
        .map(|r| r.1.start_time.clone())
        .min()
        .unwrap_or_default();
    run.end_time = runs.iter().filter_map(|r| r.1.end_time.clone()).max();
    run.notes = notes;
    run.save(out)?;
    Ok(Merged {
        report,
        run,
        records,
    })
}

/// Writes `out/moves.csv`: the lines of the games of `shards` (each a
/// directory and its checked `games.csv` rows, in its game order) in game
/// order, each game's lines checked against its row. A shard without a
/// `moves.csv` (written before the file existed) gives its games' moves
/// and movers only. Nothing is left behind on an error.
///
/// # Errors
/// [`ArenaError::Config`] naming a shard's `moves.csv`, line and
/// problem; I/O errors.
pub fn merge_moves(
    shards: &[(&Path, Vec<(GameRecord, GameRow)>)],
    labels: &[String],
    schedule: &Schedule,
    out: &Path,
) -> Result<(), ArenaError> {
    let path = out.join("moves.csv");
    let tmp = out.join("moves.csv.tmp");
    let result = write_merged_moves(shards, labels, schedule, &tmp);
    match result.and_then(|()| std::fs::rename(&tmp, &path).map_err(|e| ArenaError::io(&path, e))) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

type ShardReader = MovesReader<BufReader<File>>;

fn write_merged_moves(
    shards: &[(&Path, Vec<(GameRecord, GameRow)>)],
    labels: &[String],
    schedule: &Schedule,
    tmp: &Path,
) -> Result<(), ArenaError> {
    let mut readers: Vec<Option<ShardReader>> = Vec::with_capacity(shards.len());
    for (dir, rows) in shards {
        let p = moves_path(&dir.join("games.csv"));
        let named = |(line, m): (usize, String)| {
            ArenaError::Config(format!("merge: {} line {line}: {m}", p.display()))
        };
        let reader = match File::open(&p) {
            Ok(f) => {
                let (r, h) = MovesReader::new(BufReader::new(f)).map_err(named)?;
                if h == Header::Torn && !rows.is_empty() {
                    return Err(named((1, "no header".into())));
                }
                Some(r)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(ArenaError::io(&p, e)),
        };
        readers.push(reader);
    }
    let mut order: Vec<(u64, usize)> = shards
        .iter()
        .enumerate()
        .flat_map(|(s, (_, rows))| rows.iter().map(move |r| (r.0.game, s)))
        .collect();
    order.sort_unstable();
    let mut next = vec![0usize; shards.len()];
    let io = |e| ArenaError::io(tmp, e);
    let mut w = BufWriter::with_capacity(1 << 16, File::create(tmp).map_err(io)?);
    writeln!(w, "{MOVES_HEADER}").map_err(io)?;
    let mut lines = String::new();
    for (game, s) in order {
        let row = &shards[s].1[next[s]];
        next[s] += 1;
        let plies = row_plies(row, labels, schedule)?;
        lines.clear();
        match &mut readers[s] {
            Some(r) => r.game(game, &plies, &mut lines).map_err(|(line, m)| {
                let p = moves_path(&shards[s].0.join("games.csv"));
                ArenaError::Config(format!("merge: {} line {line}: {m}", p.display()))
            })?,
            None => push_bare(&mut lines, game, &plies),
        }
        w.write_all(lines.as_bytes()).map_err(io)?;
    }
    w.flush().map_err(io)
}

/// The shards' run files and games, each checked: a tournament or sweep
/// run, of the same command and arguments as the first but for its part,
/// and together the parts of one schedule, each once.
///
/// # Errors
/// [`ArenaError::Config`] naming the problem; I/O errors.
fn load_shards(dirs: &[PathBuf]) -> Result<Vec<(&PathBuf, RunFile, GamesRun)>, ArenaError> {
    let bad = |m: String| Err(ArenaError::Config(m));
    let mut runs = Vec::new();
    for d in dirs {
        let run = RunFile::load(d)?;
        if !run.command.is_empty() && run.command != "tournament" && run.command != "sweep" {
            return bad(format!(
                "merge: {} holds {}, not a tournament or sweep shard",
                d.display(),
                super::runinfo::a_run(&run.command)
            ));
        }
        let games = run.games(d)?.clone();
        runs.push((d, run, games));
    }
    let (first_dir, first, first_games) = (&runs[0].0, &runs[0].1, &runs[0].2);
    let mut shards = Vec::with_capacity(runs.len());
    for (d, r, g) in &runs {
        if r.command != first.command {
            return bad(format!(
                "merge: {} holds {} but {} {}",
                first_dir.display(),
                super::runinfo::a_run(&first.command),
                d.display(),
                super::runinfo::a_run(&r.command)
            ));
        }
        if let Some((opt, a, b)) = first_games.args.difference(&g.args, &["shard"]) {
            return bad(format!(
                "merge: {} and {} are different tournaments ({opt}: {a} vs {b})",
                first_dir.display(),
                d.display()
            ));
        }
        let shard: Shard = g
            .args
            .shard
            .parse()
            .map_err(|e| ArenaError::Config(format!("{}/run.json: {e}", d.display())))?;
        shards.push((d.as_path(), shard));
    }
    check_shards(&shards).map_err(ArenaError::Config)?;
    Ok(runs)
}

/// The merged run's notes: the first time-budget note of the shards', and
/// the note on `regularised` ratings.
fn merged_notes<'a>(shards: impl Iterator<Item = &'a RunFile>, regularised: bool) -> Vec<String> {
    let mut notes: Vec<String> = shards
        .flat_map(|r| r.notes.iter())
        .filter(|n| n.starts_with("bots on a time budget"))
        .take(1)
        .cloned()
        .collect();
    if regularised {
        notes.push(REGULARISED_NOTE.into());
    }
    notes
}

/// The merged run's recorded options: a sweep records its own (the part
/// made whole); a tournament's follow from its arguments.
fn merged_options(first: &RunFile, args: &RunArgs) -> RunOptions {
    if first.command == "sweep" {
        let mut o = first.options.clone();
        for (n, v) in &mut o.0 {
            if n == "--shard" {
                *v = Shard::ALL.to_string();
            }
        }
        o
    } else {
        args.options()
    }
}

/// Checks that `shards` (each a directory and the part it holds) are the
/// parts `1/N` to `N/N` of one schedule, each once.
///
/// # Errors
/// One line naming the problem: different shard counts, a shard given
/// twice, shards missing.
pub fn check_shards(shards: &[(&Path, Shard)]) -> Result<(), String> {
    let Some(&(first_dir, first)) = shards.first() else {
        return Err("merge: give the shard directories to merge".into());
    };
    let mut by_index: BTreeMap<u32, &Path> = BTreeMap::new();
    for &(d, shard) in shards {
        if shard.count != first.count {
            return Err(format!(
                "merge: {} is shard {shard} but {} is shard {first}: different shard counts",
                d.display(),
                first_dir.display()
            ));
        }
        if let Some(other) = by_index.insert(shard.index, d) {
            return Err(format!(
                "merge: shard {shard} given twice ({} and {})",
                other.display(),
                d.display()
            ));
        }
    }
    let missing: Vec<String> = (1..=first.count)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| format!("{k}/{}", first.count))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("merge: shard {} missing", missing.join(", ")))
    }
}
