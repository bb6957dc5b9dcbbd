//! `pahtum score [FILE]`: line scores of boards.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::CliResult;
use super::input::read_boards;

/// Arguments of `score`.
#[derive(Args, Debug)]
pub struct ScoreArgs {
    /// Board file (docs/RULES.md text format, boards separated by blank lines); stdin if absent
    pub file: Option<PathBuf>,
}

/// Reads all boards first, so a bad board anywhere prints nothing to stdout.
///
/// # Errors
/// Unreadable file, non-UTF-8 input or a malformed board (exit 2).
pub fn run(args: ScoreArgs) -> CliResult {
    let (boards, _) = read_boards(args.file.as_deref())?;
    let mut out = String::with_capacity(boards.len() * 8);
    for b in &boards {
        let (w, k) = b.scores();
        out.push_str(&format!("{w} {k}\n"));
    }
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(())
}
