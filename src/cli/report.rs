//! `pahtum report`: run directories as one self-contained HTML page
//! (`study::page`).

use std::path::PathBuf;

use clap::Args;

use super::error::{CliError, CliResult, usage};
use crate::study::page::{self, PageError};

/// Arguments of `report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run directories (tournament, merge, sweep, sprt, fpa, exact, tune,
    /// accuracy); several are compared side by side
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Where to write the page [default: DIR/report.html of the first DIR]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Builds the page and writes it, through a temporary file renamed into
/// place, so a failed write leaves no half page.
///
/// # Errors
/// A directory that is not a known run (exit 2, naming it), an unwritable
/// `--out` (exit 2), any other I/O failure (exit 1).
pub fn run(args: ReportArgs) -> CliResult {
    let html = page::build(&args.dirs).map_err(|e| match e {
        PageError::Unrecognised { .. } => usage(e.to_string()),
        e => CliError::Internal(anyhow::Error::new(e)),
    })?;
    let out = args.out.unwrap_or_else(|| args.dirs[0].join("report.html"));
    let mut tmp = out.clone().into_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, html).and_then(|()| std::fs::rename(&tmp, &out));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(usage(format!("--out {}: cannot write: {e}", out.display())));
    }
    println!("report={}", out.display());
    Ok(())
}
