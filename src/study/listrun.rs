//! Playing a chosen list of a schedule's games into `games.csv`, resumably.
//!
//! The arena's `run_in_dir` plays whole colour-swapped pairs, which is
//! right for matches. Self-play studies want the opposite: one game per
//! layout, so that every game is an independent draw of the layout (the
//! second game of a pair, the same bot on the same holes, would repeat much
//! of the first). This runner plays any game list of a schedule with the
//! arena's own machinery ([`play_into_games_csv`], the `games.csv` format)
//! and so the same crash-safety: rows only ever appended in game
//! order and flushed when the writer waits; on resume the complete rows are
//! checked against the list, a torn last line is dropped, the rest played.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::arena::games_csv::GameRecord;
use crate::arena::rundir::play_into_games_csv;
use crate::arena::tournament::{ArenaError, Observer, TournamentConfig};
use crate::bot::Catalog;

/// Plays `games` (indices into `config`'s schedule, in order) into
/// `dir/games.csv`, keeping the complete rows already there (the caller
/// has checked that the directory belongs to this run). Returns every
/// record, resumed ones first.
///
/// # Errors
/// A `games.csv` that does not match the list, I/O and bot errors;
/// [`ArenaError::Interrupted`] when `cancel` was set.
pub fn play_list_in_dir(
    config: &TournamentConfig,
    catalog: &Catalog,
    games: &[u64],
    dir: &Path,
    cancel: &AtomicBool,
    observer: &mut dyn Observer,
) -> Result<Vec<GameRecord>, ArenaError> {
    play_into_games_csv(
        config,
        catalog,
        games,
        &dir.join("games.csv"),
        cancel,
        observer,
    )
    .map(|played| played.records)
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
            openings: None,
        };
        let games: Vec<u64> = (0..10).map(|l| 2 * l).collect();
        let cancel = AtomicBool::new(false);
        let dir = tempfile::tempdir().expect("dir");
        let play = || {
            play_list_in_dir(
                &config,
                &catalog,
                &games,
                dir.path(),
                &cancel,
                &mut Collect::default(),
            )
        };
        let full = play().expect("run");
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
        let again = play().expect("resume");
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
