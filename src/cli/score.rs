//! `pahtum score [FILE]`: line scores of boards.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;

use super::error::{CliResult, usage};
use crate::game::text::parse_boards;

/// Arguments of `score`.
#[derive(Args, Debug)]
pub struct ScoreArgs {
    /// Board file (RULES.md text format, boards separated by blank lines); stdin if absent
    pub file: Option<PathBuf>,
}

/// Reads all boards first, so a bad board anywhere prints nothing to stdout.
///
/// # Errors
/// Unreadable file, non-UTF-8 input or a malformed board (exit 2).
pub fn run(args: ScoreArgs) -> CliResult {
    let (bytes, source) = match &args.file {
        Some(path) => (
            std::fs::read(path)
                .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?,
            path.display().to_string(),
        ),
        None => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| usage(format!("cannot read stdin: {e}")))?;
            (buf, "stdin".to_string())
        }
    };
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        let upto = &bytes[..e.valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = upto.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        usage(format!(
            "{source}: line {line}, column {column}: not UTF-8 text (binary input?)"
        ))
    })?;
    let boards = parse_boards(text).map_err(|e| usage(format!("{source}: {e}")))?;
    let mut out = String::with_capacity(boards.len() * 8);
    for b in &boards {
        let (w, k) = b.scores();
        out.push_str(&format!("{w} {k}\n"));
    }
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(())
}
