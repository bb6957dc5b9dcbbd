//! `report.html`: a run directory (or several) as one self-contained page.
//!
//! The page is built from what a run already wrote: its `run.json`, its
//! CSV files and its SVG figures, all inlined, so the file keeps working
//! when it is mailed or opened years later without a network. Tables of a
//! few hundred rows are written as HTML; `games.csv` and longer tables
//! travel as compact JSON that the page's script renders a page at a time,
//! so a tournament of many thousand games stays quick to open.
//!
//! - [`run`]: reading one directory into a [`run::RunData`].
//! - [`html`]: writing the page from the runs.

pub mod html;
pub mod run;

use std::fmt;
use std::path::{Path, PathBuf};

pub use html::{BOARD_JS, page};
pub use run::{RunData, RunKind};

/// Why a report could not be built.
#[derive(Debug)]
pub enum PageError {
    /// A directory that is not a run this page knows: the user's fault.
    Unrecognised {
        /// The directory named on the command line.
        dir: PathBuf,
        /// What is missing or wrong in it.
        why: String,
    },
    /// A file that exists but could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PageError::Unrecognised { dir, why } => {
                write!(f, "{}: not a run directory: {why}", dir.display())
            }
            PageError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for PageError {}

/// Reads every directory and builds the page.
///
/// # Errors
/// The first directory that is not a known run, or a file that cannot be
/// read.
pub fn build(dirs: &[impl AsRef<Path>]) -> Result<String, PageError> {
    let runs = dirs
        .iter()
        .map(|d| RunData::read(d.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(page(&runs))
}
