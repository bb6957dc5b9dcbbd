//! `moves.csv` on `--resume`: read beside a kept `games.csv`, each kept
//! game's lines checked against its moves, and the file cut after them
//! (or started afresh, or written from `games.csv` for a run directory
//! from before `moves.csv`).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::games_csv::{GameRecord, GameRow};
use super::moves_csv::{Header, MOVES_HEADER, MovesReader, plies, push_bare};
use super::schedule::Schedule;
use super::tournament::ArenaError;

/// The `moves.csv` beside the `games.csv` at `games`.
pub fn moves_path(games: &Path) -> PathBuf {
    games.with_file_name("moves.csv")
}

/// The `moves.csv` of a run as [`read_moves`] finds it.
#[derive(Debug, PartialEq, Eq)]
pub enum MovesFound {
    /// No file: a run directory from before `moves.csv`.
    Absent,
    /// No whole header: nothing to keep (then no game was kept).
    Empty,
    /// The header and the lines of the games asked for take this many
    /// bytes; anything after is dropped.
    Kept(u64),
}

/// The plies of `row`, a row of `schedule` already checked, as its
/// `moves.csv` lines must give them.
///
/// # Errors
/// [`ArenaError::Game`] for rules that give no start position.
pub fn row_plies(
    row: &(GameRecord, GameRow),
    labels: &[String],
    schedule: &Schedule,
) -> Result<Vec<super::moves_csv::Ply>, ArenaError> {
    let (rec, row) = row;
    let sg = schedule.game(rec.game);
    let start = schedule
        .start(&sg)
        .map_err(|e| ArenaError::Game(format!("game {}: {e}", rec.game)))?;
    plies(start, &row.moves, &labels[rec.first], &labels[rec.second])
        .map_err(|m| ArenaError::Game(format!("game {}: {m}", rec.game)))
}

/// Reads the `moves.csv` at `path` and checks that it holds, in order,
/// the lines of the games `rows` (checked rows of `games.csv`), each whole
/// and matching its moves; lines after them are not read.
///
/// # Errors
/// [`ArenaError::Config`] naming the file, line and problem: lines that
/// do not match, or a file without a kept game's lines.
pub fn read_moves(
    path: &Path,
    labels: &[String],
    schedule: &Schedule,
    rows: &[(GameRecord, GameRow)],
) -> Result<MovesFound, ArenaError> {
    let named = |(line, m): (usize, String)| {
        ArenaError::Config(format!("{} line {line}: {m}", path.display()))
    };
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(MovesFound::Absent),
        Err(e) => return Err(ArenaError::io(path, e)),
    };
    let (mut reader, header) = MovesReader::new(std::io::BufReader::new(file)).map_err(named)?;
    if header == Header::Torn {
        if let Some((rec, _)) = rows.first() {
            return Err(named((
                1,
                format!("no header, but games.csv holds game {}", rec.game),
            )));
        }
        return Ok(MovesFound::Empty);
    }
    let mut scratch = String::new();
    for row in rows {
        let want = row_plies(row, labels, schedule)?;
        scratch.clear();
        reader
            .game(row.0.game, &want, &mut scratch)
            .map_err(named)?;
    }
    Ok(MovesFound::Kept(reader.len()))
}

/// Opens `moves.csv` at `path` for appending the games after `rows` (the
/// kept rows of `games.csv`): truncated after their lines, started afresh,
/// or written for them from `games.csv` (see the module docs).
///
/// # Errors
/// As [`read_moves`]; I/O errors.
pub(super) fn open_moves(
    path: &Path,
    labels: &[String],
    schedule: &Schedule,
    rows: &[(GameRecord, GameRow)],
) -> Result<File, ArenaError> {
    let io = |e| ArenaError::io(path, e);
    let found = read_moves(path, labels, schedule, rows)?;
    if let MovesFound::Kept(len) = found {
        let f = OpenOptions::new().write(true).open(path).map_err(io)?;
        f.set_len(len).map_err(io)?;
        drop(f);
        return OpenOptions::new().append(true).open(path).map_err(io);
    }
    let mut text = format!("{MOVES_HEADER}\n");
    for row in rows {
        push_bare(&mut text, row.0.game, &row_plies(row, labels, schedule)?);
    }
    let mut f = File::create(path).map_err(io)?;
    f.write_all(text.as_bytes()).map_err(io)?;
    Ok(f)
}
