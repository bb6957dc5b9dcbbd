//! `pahtum openings`: builds a start-position suite for `--openings` from
//! a seed: random layouts and short random openings, kept where a search
//! judges White's expected score to lie in a band.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use clap::Args;

use super::common::{CANCEL, RulesArgs, install_cancel, terminal_bar, threads};
use super::error::{CliError, CliResult, usage};
use super::num;
use crate::arena::runinfo::{check_writable, write_atomic};
use crate::study::openings::{BuildError, SuiteBuild, build_suite, check_judge, suite_text};

/// The judge when `--bot` is not given: a search strong enough to tell a
/// lost start from a balanced one, quick enough for hundreds of them.
pub const DEFAULT_JUDGE: &str = "mcts:iters=10000";

/// Candidates judged per start asked for before a build gives up: a band
/// that keeps fewer than one candidate in this many is too narrow.
pub const TRIES_PER_START: u64 = 200;

/// Arguments of `openings`.
#[derive(Args, Debug)]
pub struct OpeningsCmdArgs {
    /// Starts to keep
    #[arg(long, default_value_t = 100, value_name = "N", allow_negative_numbers = true,
          value_parser = num::int::<u64>(1, 1_000_000))]
    pub count: u64,
    /// Random plies after the holes (never the last one)
    #[arg(long, default_value_t = 2, value_name = "P", allow_negative_numbers = true,
          value_parser = num::int::<u32>(0, 63))]
    pub plies: u32,
    /// The judge: mcts or flatmc on an iteration budget; its root evaluation gives White's expected score
    #[arg(long, default_value = DEFAULT_JUDGE, value_name = "SPEC")]
    pub bot: String,
    /// Keep starts whose White's expected score lies in LO..HI (both in 0..1), e.g. 0.45..0.55
    #[arg(long, value_name = "LO..HI")]
    pub band: String,
    /// The suite file to write (refused if it exists)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Rules of the starts
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Seed of the layouts, the plies and the judge
    #[arg(long, default_value_t = super::common::DEFAULT_SEED, value_name = "S",
          allow_negative_numbers = true, value_parser = num::seed())]
    pub seed: u64,
    /// Threads (default: all cores); the suite does not depend on it
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = num::threads())]
    pub threads: Option<usize>,
    /// No progress and no summary
    #[arg(long)]
    pub quiet: bool,
}

/// Parses `--band LO..HI`.
///
/// # Errors
/// A usage error naming `--band`.
pub fn parse_band(s: &str) -> CliResult<(f64, f64)> {
    let bad = |why: &str| usage(format!("--band {s}: {why}"));
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| bad("expected LO..HI, like 0.45..0.55"))?;
    let num = |t: &str| {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|x| (0.0..=1.0).contains(x))
            .ok_or_else(|| bad("LO and HI are White's expected score, numbers in 0..1"))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo > hi {
        return Err(bad("LO is above HI"));
    }
    Ok((lo, hi))
}

/// Runs `openings`.
///
/// # Errors
/// Bad arguments (exit 2) before any work; too few starts in the band or
/// a write that fails (exit 1); an interruption (exit 130), with no file.
pub fn run(a: OpeningsCmdArgs) -> CliResult {
    let band = parse_band(&a.band)?;
    let rules = a.rules.to_rules()?;
    let catalog = crate::bot::builtin_catalog();
    let bot = catalog
        .parse_unattended(&a.bot)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    check_judge(&bot, &catalog).map_err(usage)?;
    check_out(&a.out)?;
    let threads = threads(a.threads)?;
    let count = usize::try_from(a.count).map_err(|_| usage("--count: too large"))?;
    let build = SuiteBuild {
        rules: rules.clone(),
        plies: a.plies,
        bot,
        band,
        seed: a.seed,
    };
    let holes = holes_text(&a.rules);
    if !a.quiet {
        eprintln!(
            "openings: {} starts, White's expected score in {}..{} by {}, size {}, holes {holes}, {} plies, seed {}, {threads} threads, out {}",
            a.count,
            band.0,
            band.1,
            build.bot.as_str(),
            a.rules.size,
            a.plies,
            a.seed,
            a.out.display()
        );
    }
    install_cancel("stopping; no file is written");
    let bar = terminal_bar(
        a.quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} kept {msg}",
        0,
        a.count,
    );
    let mut tried = 0u64;
    let mut on = |_: &crate::study::openings::Candidate, keep: bool| {
        tried += 1;
        if keep {
            bar.inc(1);
        }
        bar.set_message(format!("of {tried} candidates"));
    };
    let cancel: &AtomicBool = &CANCEL;
    let result = build_suite(
        &build,
        &catalog,
        count,
        a.count.saturating_mul(TRIES_PER_START),
        threads,
        cancel,
        &mut on,
    );
    bar.finish_and_clear();
    let built = result.map_err(|e| build_error(e, &a))?;
    let mean = built.kept.iter().map(|c| c.white).sum::<f64>() / built.kept.len() as f64;
    let header = vec![
        format!(
            "{} starts (holes | opening moves), White's expected score in {}..{} by {}",
            built.kept.len(),
            band.0,
            band.1,
            build.bot.as_str()
        ),
        format!(
            "kept {} of {} candidates: size {}, holes {holes}, {} random plies, seed {}",
            built.kept.len(),
            built.tried,
            a.rules.size,
            a.plies,
            a.seed
        ),
        format!("made by: {}", command_line(&a, &build, &holes)),
    ];
    write_atomic(&a.out, suite_text(&header, &built).as_bytes())
        .map_err(|e| CliError::Internal(e.into()))?;
    if !a.quiet {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "kept {} of {} candidates ({:.1} %), White's expected score mean {mean:.3}",
            built.kept.len(),
            built.tried,
            100.0 * built.kept.len() as f64 / built.tried.max(1) as f64
        );
        let _ = writeln!(out, "wrote {}", a.out.display());
    }
    Ok(())
}

/// Refuses an `--out` that exists or cannot be written, before the work
/// rather than after it.
fn check_out(out: &std::path::Path) -> CliResult {
    if out.exists() {
        return Err(usage(format!(
            "--out {}: the file exists; give a new name",
            out.display()
        )));
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .and_then(|()| check_writable(&parent))
        .map_err(|e| usage(format!("--out {}: {e}", out.display())))
}

/// How a build that ended without a suite is reported.
fn build_error(e: BuildError, a: &OpeningsCmdArgs) -> CliError {
    match e {
        BuildError::Candidate(m) => usage(m),
        BuildError::Interrupted { kept } => CliError::Interrupted(format!(
            "interrupted with {kept} of {} starts kept; nothing written",
            a.count
        )),
        BuildError::TooFew { kept, tried } => CliError::CheckFailed(format!(
            "only {kept} of {} starts lay in --band {} after {tried} candidates; widen the band",
            a.count, a.band
        )),
    }
}

/// `--holes` as given, or the fixed layout, or the default.
fn holes_text(r: &RulesArgs) -> String {
    match (&r.layout, &r.holes) {
        (Some(l), _) => format!("fixed {l}"),
        (None, Some(h)) => h.clone(),
        (None, None) => "5".into(),
    }
}

/// The command line that makes the same suite.
fn command_line(a: &OpeningsCmdArgs, build: &SuiteBuild, holes: &str) -> String {
    let mut c = format!(
        "pahtum openings --count {} --seed {} --size {}",
        a.count, a.seed, a.rules.size
    );
    match &a.rules.layout {
        Some(l) => c.push_str(&format!(" --layout {l}")),
        None => c.push_str(&format!(" --holes {holes}")),
    }
    if a.rules.pie {
        c.push_str(" --pie");
    }
    if let Some(k) = &a.rules.komi {
        c.push_str(&format!(" --komi {k}"));
    }
    c.push_str(&format!(
        " --plies {} --bot {} --band {}",
        a.plies,
        crate::arena::runopts::shell_quote(build.bot.as_str()),
        a.band
    ));
    c.push_str(&format!(" --out {}", a.out.display()));
    c
}
