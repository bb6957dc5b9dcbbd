//! Reading board text from a file or stdin, shared by `score` and `solve`.

use std::io::Read;
use std::path::Path;

use super::error::{CliResult, usage};
use crate::game::text::{Board, parse_boards};

/// Every board of `file` (stdin when `None`) and the name of the source for
/// messages (the path, or `stdin`).
///
/// # Errors
/// Unreadable file, non-UTF-8 input or a malformed board (exit 2), naming
/// the source, line and column.
pub fn read_boards(file: Option<&Path>) -> CliResult<(Vec<Board>, String)> {
    let (bytes, source) = match file {
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
    Ok((boards, source))
}
