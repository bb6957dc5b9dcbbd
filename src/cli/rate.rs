//! `pahtum rate DIR... [--anchor BOT=ELO] [--out DIR]`: one rating list
//! over several runs (src/study/pool.rs does the pooling).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::error::{CliError, CliResult, cli_error, out_error, usage};
use crate::arena::rundir::prepare_out;
use crate::arena::runinfo::{is_non_empty, write_atomic};
use crate::study::pool::{Anchor, pool, read_run, write_dir};

/// Arguments of `rate`.
#[derive(Args, Debug)]
pub struct RateArgs {
    /// Run directories whose games.csv to rate together (tournament, merge, sweep, sprt, fpa)
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Pin BOT's rating at ELO (the label as in games.csv, e.g. heuristic=0); without it the mean is 0
    #[arg(long, value_name = "BOT=ELO", value_parser = parse_anchor, allow_hyphen_values = true)]
    pub anchor: Option<Anchor>,
    /// Write ratings.csv, ratings.svg and run.json here (must be empty or absent); without it, stdout only
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

fn parse_anchor(s: &str) -> Result<Anchor, String> {
    s.parse()
}

/// Runs `rate`: reads every directory before writing anything.
///
/// # Errors
/// A directory without `games.csv`, a bad row, bots no games link, an
/// unknown anchor or an unusable `--out` (exit 2); I/O failures (exit 1).
pub fn run(a: RateArgs) -> CliResult {
    if let Some(out) = &a.out
        && is_non_empty(out)
    {
        return Err(usage(format!(
            "--out {}: not empty (rate writes into a new or empty directory)",
            out.display()
        )));
    }
    let runs = a
        .dirs
        .iter()
        .map(|d| read_run(d))
        .collect::<Result<Vec<_>, _>>()
        .map_err(cli_error)?;
    let mut pooled = pool(&runs).map_err(cli_error)?;
    if let Some(anchor) = a.anchor {
        let text = format!("{}={}", anchor.bot, anchor.elo);
        pooled
            .anchor(anchor)
            .map_err(|m| usage(format!("--anchor {text}: {m}")))?;
    }
    if let Some(out) = &a.out {
        prepare_out(out).map_err(cli_error)?;
        let line: Vec<String> = std::env::args().collect();
        write_dir(out, &pooled, &line).map_err(out_error(out))?;
        let svg = pooled.plot().map_err(|e| CliError::Internal(e.into()))?;
        write_atomic(&out.join("ratings.svg"), svg.as_bytes()).map_err(out_error(out))?;
    }
    std::io::stdout()
        .lock()
        .write_all(pooled.text().as_bytes())?;
    if let Some(out) = &a.out {
        eprintln!("ratings in {}", out.join("ratings.csv").display());
    }
    Ok(())
}
