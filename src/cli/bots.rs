//! `pahtum bots`: every bot, its keys, defaults and accepted ranges.

use std::io::Write;

use clap::Args;

use super::common::EngineArgs;
use super::error::CliResult;

/// Arguments of `bots`.
#[derive(Args, Debug)]
pub struct BotsArgs {
    /// External engines to list too
    #[command(flatten)]
    pub engines: EngineArgs,
}

/// Prints the catalogue.
///
/// # Errors
/// A bad `--engine` (exit 2) or a failed write (exit 1).
pub fn run(args: BotsArgs) -> CliResult {
    let s = args.engines.catalog()?.listing();
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
