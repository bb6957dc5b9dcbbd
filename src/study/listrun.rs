//! Playing a chosen list of a schedule's games into `games.csv`, resumably.
//!
//! The arena's `run_in_dir` plays whole colour-swapped pairs, which is
//! right for matches. Self-play studies want the opposite: one game per
//! layout, so that every game is an independent draw of the layout (the
//! second game of a pair, the same bot on the same holes, would repeat much
//! of the first). This runner plays any game list of a schedule with the
//! arena's own machinery ([`run_games`], [`read_games`], the `games.csv`
//! format) and the same crash-safety: rows only ever appended in game
//! order and flushed when the writer waits; on resume the complete rows are
//! checked against the list, a torn last line is dropped, the rest played.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::arena::parallel::run_games;
use crate::arena::record::{GAMES_HEADER, GameRecord};
use crate::arena::rundir::read_games;
use crate::arena::tournament::{Observer, TournamentConfig, TournamentError};
use crate::bot::Catalog;

struct Sink<'a> {
    file: BufWriter<File>,
    path: &'a Path,
    inner: &'a mut dyn Observer,
    records: Vec<GameRecord>,
}

impl Observer for Sink<'_> {
    fn on_start(&mut self, done: &[GameRecord], total: u64) {
        self.inner.on_start(done, total);
    }

    fn on_game(&mut self, r: &GameRecord, row: &str) -> Result<ControlFlow<()>, TournamentError> {
        self.file
            .write_all(row.as_bytes())
            .map_err(|e| TournamentError::io(self.path, e))?;
        self.records.push(*r);
        self.inner.on_game(r, row)
    }

    fn on_idle(&mut self) -> Result<(), TournamentError> {
        self.file
            .flush()
            .map_err(|e| TournamentError::io(self.path, e))?;
        self.inner.on_idle()
    }
}

/// Plays `games` (indices into `config`'s schedule, in order) into
/// `dir/games.csv`, keeping the complete rows already there (the caller
/// has checked that the directory belongs to this run). Returns every
/// record, resumed ones first.
///
/// # Errors
/// A `games.csv` that does not match the list, I/O and bot errors;
/// [`TournamentError::Interrupted`] when `cancel` was set.
pub fn play_list_in_dir(
    config: &TournamentConfig,
    catalog: &Catalog,
    games: &[u64],
    dir: &Path,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Vec<GameRecord>, TournamentError> {
    let labels = config.labels();
    let schedule = config.schedule();
    let path = dir.join("games.csv");
    let mut done: Vec<GameRecord> = Vec::new();
    let file = if path.exists() {
        let existing = read_games(&path, &labels, &schedule, games)?;
        let f = OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| TournamentError::io(&path, e))?;
        let keep = if existing.has_header {
            existing.complete_len
        } else {
            0
        };
        f.set_len(keep as u64)
            .map_err(|e| TournamentError::io(&path, e))?;
        drop(f);
        done = existing.rows.iter().map(|r| r.0).collect();
        let mut f = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| TournamentError::io(&path, e))?;
        if !existing.has_header {
            writeln!(f, "{GAMES_HEADER}").map_err(|e| TournamentError::io(&path, e))?;
        }
        f
    } else {
        let mut f = File::create(&path).map_err(|e| TournamentError::io(&path, e))?;
        writeln!(f, "{GAMES_HEADER}").map_err(|e| TournamentError::io(&path, e))?;
        f
    };
    let mut sink = Sink {
        file: BufWriter::with_capacity(1 << 16, file),
        path: &path,
        inner: observer,
        records: Vec::new(),
    };
    sink.on_start(&done, games.len() as u64);
    let rest = &games[done.len()..];
    run_games(config, catalog, rest, cancel, &mut sink)?;
    sink.on_idle()?;
    done.append(&mut sink.records);
    if done.len() < games.len() {
        return Err(TournamentError::Interrupted {
            done: done.len() as u64,
            total: games.len() as u64,
        });
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::schedule::{Format, Shard};
    use crate::arena::tournament::Collect;
    use crate::bot::builtin_catalog;
    use crate::game::rules::Rules;

    #[test]
    fn resume_after_a_torn_line_gives_the_same_file() {
        let catalog = builtin_catalog();
        let config = TournamentConfig {
            bots: vec![
                catalog.parse("random").expect("a"),
                catalog.parse("random:label=r2").expect("b"),
            ],
            games_per_pairing: 20,
            rules: vec![Rules::default()],
            format: Format::Gauntlet,
            seed: 2,
            threads: 2,
            shard: Shard::ALL,
        };
        let games: Vec<u64> = (0..10).map(|l| 2 * l).collect();
        let cancel = AtomicBool::new(false);
        let dir = tempfile::tempdir().expect("dir");
        let full = play_list_in_dir(
            &config,
            &catalog,
            &games,
            dir.path(),
            &cancel,
            &mut Collect::default(),
        )
        .expect("run");
        assert_eq!(full.len(), 10);
        assert!(full.iter().zip(&games).all(|(r, &g)| r.game == g));
        let path = dir.path().join("games.csv");
        let text = std::fs::read_to_string(&path).expect("read");
        // Keep the header, four rows and half of the fifth.
        let cut: usize = text
            .split_inclusive('\n')
            .take(5)
            .map(str::len)
            .sum::<usize>()
            + 7;
        std::fs::write(&path, &text[..cut]).expect("write");
        let again = play_list_in_dir(
            &config,
            &catalog,
            &games,
            dir.path(),
            &cancel,
            &mut Collect::default(),
        )
        .expect("resume");
        assert_eq!(again, full);
        let text2 = std::fs::read_to_string(&path).expect("read");
        let strip = |t: &str| -> Vec<String> {
            // Timing columns (white_ms, black_ms) aside.
            t.lines()
                .map(|l| {
                    let f: Vec<&str> = l.split(',').collect();
                    format!("{}|{}", f[..11].join(","), f[13..].join(","))
                })
                .collect()
        };
        assert_eq!(strip(&text), strip(&text2));
    }
}
