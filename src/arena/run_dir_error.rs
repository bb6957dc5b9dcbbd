//! Why a run directory cannot be continued, in the library's terms (a
//! front end names its own options when it reports one).

use std::fmt;
use std::path::PathBuf;

/// Why a directory holds no run to continue, or one that is not this
/// run, in the library's terms; a front end names its own options when it
/// reports one (the command line's `--out`, `--resume`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunDirError {
    /// The directory holds files, and continuing its run was not asked
    /// for.
    NotEmpty {
        /// The directory.
        dir: PathBuf,
    },
    /// The directory holds files, and the results of a merge go only
    /// into a new one.
    NotEmptyForMerge {
        /// The directory.
        dir: PathBuf,
    },
    /// The directory cannot hold the results: it is a file, or cannot be
    /// created or written.
    Unusable {
        /// The directory.
        dir: PathBuf,
        /// Why, in a few words.
        why: String,
    },
    /// Continuing was asked for, but the directory has no `run.json`.
    NoRunFile {
        /// The directory.
        dir: PathBuf,
        /// The command that was to continue.
        command: String,
    },
    /// `run.json` cannot be read.
    Unreadable {
        /// The directory.
        dir: PathBuf,
        /// The I/O error.
        error: String,
    },
    /// `run.json` is not a run file.
    Malformed {
        /// The directory.
        dir: PathBuf,
        /// The parse error.
        error: String,
    },
    /// `run.json` records no command or options: an older pahtum wrote
    /// it.
    NoOptions {
        /// The directory.
        dir: PathBuf,
    },
    /// The run is of another command.
    OtherCommand {
        /// The directory.
        dir: PathBuf,
        /// The command of the recorded run.
        was: String,
        /// The command that was to continue it.
        command: String,
    },
    /// An option that shapes the results differs (the first that does).
    Differs {
        /// The option, as recorded.
        option: String,
        /// Its value in the run (`None`: not recorded).
        was: Option<String>,
        /// Its value now.
        now: Option<String>,
    },
}

impl fmt::Display for RunDirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::runopts::NOT_RECORDED;
        match self {
            RunDirError::NotEmpty { dir } => write!(
                f,
                "{}: the directory is not empty; continue the run in it, or choose a new directory",
                dir.display()
            ),
            RunDirError::NotEmptyForMerge { dir } => write!(
                f,
                "{}: the directory is not empty; merge into a new directory",
                dir.display()
            ),
            RunDirError::Unusable { dir, why } => write!(f, "{}: {why}", dir.display()),
            RunDirError::NoRunFile { dir, command } => write!(
                f,
                "{} has no run.json, so it holds no {command} run to continue",
                dir.display()
            ),
            RunDirError::Unreadable { dir, error } => {
                write!(f, "{}: cannot read run.json: {error}", dir.display())
            }
            RunDirError::Malformed { dir, error } => write!(
                f,
                "{}: run.json is not a run file of pahtum ({error})",
                dir.display()
            ),
            RunDirError::NoOptions { dir } => write!(
                f,
                "{}: run.json does not record its options (an older pahtum wrote it); start a new run",
                dir.display()
            ),
            RunDirError::OtherCommand { dir, was, command } => {
                write!(
                    f,
                    "{} holds {}, not {}",
                    dir.display(),
                    super::runinfo::a_run(was),
                    super::runinfo::a_run(command)
                )
            }
            RunDirError::Differs { option, was, now } => write!(
                f,
                "{option}: the run has {}, this one asks for {}",
                was.as_deref().unwrap_or(NOT_RECORDED),
                now.as_deref().unwrap_or(NOT_RECORDED)
            ),
        }
    }
}

impl std::error::Error for RunDirError {}
