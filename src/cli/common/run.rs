//! The life of a long-running command around its work: the interrupt
//! handlers, the progress bars, and its run directory's `run.json`.

use crate::arena::runinfo::RunFile;
use crate::arena::runopts::RunOptions;
use crate::cli::error::{CliResult, usage};

/// The process's interrupt flag ([`crate::interrupt::INTERRUPT`]):
/// the arena's `cancel` and every search read this one flag.
pub use crate::interrupt::INTERRUPT as CANCEL;

/// Installs the Ctrl-C (and SIGTERM) handler of a long-running command.
/// The first signal sets [`CANCEL`], so that searches return, games in
/// flight are dropped and the command ends with exit status 130 through
/// [`CliError::Interrupted`](crate::cli::error::CliError::Interrupted); it
/// prints `what` (what happens to the run) on stderr. A second signal kills
/// the external engines' process groups and exits 130 at once.
pub fn install_cancel(what: impl Into<String>) {
    let what = what.into();
    let _ = ctrlc::set_handler(move || {
        if crate::interrupt::request() {
            crate::protocol::children::kill_all();
            std::process::exit(130);
        }
        eprintln!("\npahtum: interrupted: {what}; Ctrl-C again aborts at once");
    });
}

/// Names the directory a `quiet` run picked by default (`picked`: no
/// `--out`), in one line on stderr, `results in DIR`: a run that is not
/// quiet names it already in its first line there (`..., out DIR`), and
/// one given `--out` knows it. Standard output stays what the contract
/// makes it (some commands' last line is fixed), so scripts reading it
/// see no change.
pub fn name_picked_dir(out: &std::path::Path, quiet: bool, picked: bool) {
    if quiet && picked {
        eprintln!("results in {}", out.display());
    }
}

/// [`install_cancel`]'s message for a run that writes into `out`.
pub fn run_interrupt_note(out: &std::path::Path) -> String {
    format!(
        "stopping; games in flight are dropped, rows on disk are kept, the same command with --resume --out {} continues",
        out.display()
    )
}

/// Why a loop that writes each result to a file as it comes (`exact`,
/// `accuracy`) stopped: the file could not be written, or the work failed.
#[derive(Debug)]
pub enum RowsError<E> {
    /// Writing the output file.
    Io(std::io::Error),
    /// The work itself.
    Work(E),
}

impl<E> From<E> for RowsError<E> {
    fn from(e: E) -> RowsError<E> {
        RowsError::Work(e)
    }
}

/// A progress bar on stderr drawn with `template`, at `done` of `total`
/// (its rate and ETA counted from there, so that resumed work does not
/// look done in no time).
pub fn styled_bar(template: &str, done: u64, total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_position(done);
    bar.reset_eta();
    bar
}

/// [`styled_bar`] redrawn every 200 ms (its clock runs while a long solve
/// has nothing to report) when stderr is a terminal; hidden with `quiet`
/// or in a log, where a bar would only add noise.
pub fn terminal_bar(quiet: bool, template: &str, done: u64, total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = styled_bar(template, done, total);
    bar.enable_steady_tick(std::time::Duration::from_millis(200));
    bar
}

/// Installs the handler of an interactive command (`play`, `engine`):
/// the first signal kills the external engines' process groups and exits
/// with status 130 at once, there being nothing to keep.
pub fn install_exit() {
    let _ = ctrlc::set_handler(|| {
        crate::interrupt::request();
        crate::protocol::children::kill_all();
        std::process::exit(130);
    });
}

/// Opens the run of `command` in `out` (`resume` as the user asked) with
/// the library's one resume check ([`RunFile::resume_in`]): a fresh
/// record for an empty or absent directory, or with `resume` the recorded
/// one continued (its start, first command line and notes kept, a note of
/// this resume added). The second value says whether an earlier run's
/// rows are there to keep.
///
/// # Errors
/// A non-empty directory without `resume`, another run's directory, an
/// option that differs, an unreadable `run.json` (exit 2).
pub fn open_run(
    out: &std::path::Path,
    command: &str,
    options: RunOptions,
    threads: usize,
    resume: bool,
) -> CliResult<(RunFile, bool)> {
    let mut info = RunFile::start(command, options, std::env::args().collect(), threads);
    let old = RunFile::resume_in(out, command, &info.options, resume)
        .map_err(|e| usage(crate::cli::error::run_dir_message(&e)))?;
    let Some(old) = old else {
        return Ok((info, false));
    };
    info.start_time = old.start_time;
    info.command_line = old.command_line;
    info.notes = old.notes;
    info.notes.push(format!(
        "resumed at {} by: {}",
        crate::arena::runinfo::utc_now(),
        std::env::args().collect::<Vec<_>>().join(" ")
    ));
    Ok((info, true))
}

/// Writes `out/run.json` whole.
///
/// # Errors
/// An I/O error (exit 2, naming `--out`).
pub fn save_run(info: &RunFile, out: &std::path::Path) -> CliResult {
    info.save(out).map_err(crate::cli::error::out_error(out))
}
