//! `pahtum merge`: joins the outputs of `tournament --shard K/N` runs into
//! the files the unsharded run writes.

use std::path::PathBuf;

use clap::Args;

use super::error::CliResult;
use super::tournament::{out_error, write_ratings_svg};
use crate::arena::merge::merge_dirs;

/// Arguments of `merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shard output directories, all N of them
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where the merged files go (must be empty or absent)
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Print nothing
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `merge`.
///
/// # Errors
/// Shards that do not fit together (exit 2), I/O failures (exit 1).
pub fn run(a: MergeArgs) -> CliResult {
    let merged = merge_dirs(
        &a.dirs,
        &a.out,
        std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    )
    .map_err(out_error(&a.out))?;
    write_ratings_svg(&a.out, &merged.report, merged.run.args.seed)?;
    if !a.quiet {
        println!("{}", merged.report.text());
        println!(
            "merged {} shards, {} games, into {}",
            a.dirs.len(),
            merged.run.run_games,
            a.out.display()
        );
    }
    Ok(())
}
