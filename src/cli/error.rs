//! The kinds of failure the command line reports.

use std::fmt;

use crate::arena::ArenaError;
use crate::arena::runinfo::RunDirError;
use crate::arena::runinfo::a_run;
use crate::arena::runopts::NOT_RECORDED;
use crate::arena::tournament::{ConfigError, games_limit, shard_limit};

/// A failure of a subcommand: the user's fault (exit 2), ours (exit 1), a
/// check that did not pass (exit 1), or an interrupt (exit 130).
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or input: one line naming what and where; exit 2.
    Usage(String),
    /// Anything else (I/O failure, broken invariant); exit 1.
    Internal(anyhow::Error),
    /// A check the user asked for found a difference (`bench --expect`):
    /// no fault of the program or of the input, so it is neither an
    /// internal error nor a usage error; one plain line, exit 1, as `cmp`
    /// and `diff` report a difference.
    CheckFailed(String),
    /// Stopped by Ctrl-C or SIGTERM: a line that says so, what was kept and
    /// how to go on; exit
    /// 130, as a shell reports a process ended by SIGINT.
    Interrupted(String),
}

impl CliError {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Internal(_) | CliError::CheckFailed(_) => 1,
            CliError::Interrupted(_) => 130,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "error: {m}"),
            CliError::Internal(e) => write!(f, "internal error: {e:#}"),
            CliError::CheckFailed(m) => f.write_str(m),
            CliError::Interrupted(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CliError {}

impl From<anyhow::Error> for CliError {
    fn from(e: anyhow::Error) -> CliError {
        CliError::Internal(e)
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> CliError {
        CliError::Internal(e.into())
    }
}

/// Shorthand for a usage error.
pub fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

/// The refusal of a `--shard` part that gets none of a run's `layouts`
/// (`exact` and `fpa` deal out every N-th layout to a part): such a part
/// would write a header and no rows.
pub fn empty_shard(shard: crate::arena::schedule::Shard, layouts: u64) -> CliError {
    let s = if layouts == 1 { "" } else { "s" };
    usage(format!(
        "--shard {shard}: this part has no layouts: the run has {layouts} layout{s}, so split it into at most {layouts} part{s}"
    ))
}

/// Result of a subcommand.
pub type CliResult<T = ()> = Result<T, CliError>;

/// Maps a library error to the command line's: the user's fault is exit 2.
pub fn cli_error(e: ArenaError) -> CliError {
    match e {
        ArenaError::Config(m) => usage(m),
        ArenaError::Run(e) => usage(run_dir_message(&e)),
        ArenaError::Invalid(e) => usage(config_message(&e)),
        e => CliError::Internal(anyhow::Error::new(e)),
    }
}

/// `e` in the command line's words, naming `--out` and `--resume`: the
/// one-line messages scripts match.
pub fn run_dir_message(e: &RunDirError) -> String {
    match e {
        RunDirError::NotEmpty { dir } => format!(
            "--out {}: directory is not empty; add --resume to continue the run in it, or choose a new directory",
            dir.display()
        ),
        RunDirError::NotEmptyForMerge { dir } => format!(
            "--out {}: directory is not empty; merge into a new directory",
            dir.display()
        ),
        RunDirError::Unusable { dir, why } => format!("--out {}: {why}", dir.display()),
        RunDirError::NoRunFile { dir, command } => format!(
            "--resume: {} has no run.json, so it holds no {command} run to continue",
            dir.display()
        ),
        RunDirError::Unreadable { dir, error } => {
            format!("--out {}: cannot read run.json: {error}", dir.display())
        }
        RunDirError::Malformed { dir, error } => format!(
            "--out {}: run.json is not a run file of pahtum ({error})",
            dir.display()
        ),
        RunDirError::NoOptions { dir } => format!(
            "--out {}: run.json does not record its options (an older pahtum wrote it); start a new run",
            dir.display()
        ),
        RunDirError::OtherCommand { dir, was, command } => {
            format!(
                "--out {}: holds {}, not {}",
                dir.display(),
                a_run(was),
                a_run(command)
            )
        }
        RunDirError::Differs { option, was, now } => format!(
            "{option}: the run used {}, this command says {}",
            was.as_deref().unwrap_or(NOT_RECORDED),
            now.as_deref().unwrap_or(NOT_RECORDED)
        ),
    }
}

/// `e` in the command line's words, naming the option to fix.
pub fn config_message(e: &ConfigError) -> String {
    match e {
        ConfigError::TooFewBots { .. } | ConfigError::BadBot(_) | ConfigError::SameLabel { .. } => {
            format!("--bot: {e}")
        }
        ConfigError::NoGames => "--games: must be at least 1".into(),
        ConfigError::TooManyGames {
            games,
            most,
            pairings,
        } => format!(
            "--games: {games} is out of range ({})",
            games_limit(*most, *pairings)
        ),
        ConfigError::EmptyShard { shard, pairs } => format!(
            "--shard {shard}: this part has no games: {}",
            shard_limit(*pairs)
        ),
        ConfigError::NoThreads => "--threads: must be at least 1".into(),
        ConfigError::Rules(_) => e.to_string(),
    }
}

/// As [`cli_error`], and an I/O error on a file in `out` (a disk that
/// filled up or went read-only during the run) is the user's too: one
/// line naming `--out`, exit 2.
pub fn out_error(out: &std::path::Path) -> impl Fn(ArenaError) -> CliError + '_ {
    move |e| match e {
        ArenaError::Io { path, source } if path.starts_with(out) => usage(format!(
            "--out {}: cannot write {}: {source}",
            out.display(),
            path.display()
        )),
        e => cli_error(e),
    }
}
