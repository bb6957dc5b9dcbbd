//! A start-position suite file (`--openings FILE`) read for a run: the
//! parsing is the game's (`game::suite`), the file and its check against
//! what `run.json` recorded are the arena's.

use std::sync::Arc;

use crate::game::outcome::Komi;
use crate::game::suite::{Openings, Suite, SuiteRecord};

/// Reads the suite file at `path` for games on a board of side `size`
/// under the pie rule setting `pie` and `komi` (`--openings`).
///
/// # Errors
/// One line naming the file, and the line and column of a bad start.
pub fn load(path: &str, size: u8, pie: bool, komi: Komi) -> Result<Openings, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let suite = Suite::parse(&text, size, pie, komi).map_err(|e| format!("{path}: {e}"))?;
    Ok(Openings {
        path: path.to_string(),
        suite: Arc::new(suite),
    })
}

/// The suite `record` names, read again from its path: a rerun, a
/// resume and a merge need the file, unchanged.
///
/// # Errors
/// A file that is gone, bad, or not the one recorded (its hash
/// differs).
pub fn load_recorded(
    record: &SuiteRecord,
    size: u8,
    pie: bool,
    komi: Komi,
) -> Result<Openings, String> {
    let o = load(&record.path, size, pie, komi)
        .map_err(|e| format!("openings: {e} (the run needs its suite file)"))?;
    if o.suite.hash != record.hash {
        return Err(format!(
            "openings: {} has changed since the run (hash {}, recorded {})",
            record.path, o.suite.hash, record.hash
        ));
    }
    Ok(o)
}
