//! `pahtum merge`: joins the outputs of `--shard K/N` runs (tournament,
//! exact) into the files the unsharded run writes.

use std::path::PathBuf;

use clap::Args;

use super::common::StudyRunFile;
use super::error::{CliResult, usage};
use super::exact::{ExactArgs, finish, jobs, read_rows, shard_jobs};
use super::tournament::{out_error, write_ratings_svg};
use crate::arena::merge::{check_shards, merge_dirs};
use crate::arena::rundir::{is_non_empty, prepare_out};
use crate::arena::runinfo::write_atomic;
use crate::arena::schedule::Shard;

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
    if let Some(first) = a.dirs.first()
        && run_command(first).as_deref() == Some("exact")
    {
        return merge_exact(&a);
    }
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

/// The subcommand that wrote `dir/run.json`, if it says.
fn run_command(dir: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("run.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("command")?.as_str().map(str::to_string)
}

/// The `exact` arguments a run recorded, parsed as the command line
/// would be: the layouts it solves follow from them alone.
fn recorded_exact_args(dir: &std::path::Path, run: &StudyRunFile) -> CliResult<ExactArgs> {
    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        exact: ExactArgs,
    }
    let mut argv = vec!["exact".to_string()];
    for (name, value) in &run.options.0 {
        match value.as_str() {
            "false" => {}
            "true" => argv.push(name.clone()),
            v => argv.extend([name.clone(), v.to_string()]),
        }
    }
    <Line as clap::Parser>::try_parse_from(&argv)
        .map(|l| l.exact)
        .map_err(|e| {
            let first = e.to_string();
            let first = first
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            usage(format!("merge: {}/run.json: {first}", dir.display()))
        })
}

/// Merges `exact --shard K/N` directories: every part present once, each
/// complete and of the same run; `exact.csv` back in layout order, then the
/// summary and plot of the whole.
fn merge_exact(a: &MergeArgs) -> CliResult {
    if is_non_empty(&a.out) {
        return Err(usage(format!(
            "--out {}: directory is not empty; merge into a new directory",
            a.out.display()
        )));
    }
    let mut runs = Vec::with_capacity(a.dirs.len());
    for d in &a.dirs {
        let text = std::fs::read_to_string(d.join("run.json"))
            .map_err(|e| usage(format!("merge: {}/run.json: {e}", d.display())))?;
        let run: StudyRunFile = serde_json::from_str(&text)
            .map_err(|e| usage(format!("merge: {}/run.json: {e}", d.display())))?;
        if run.command != "exact" {
            return Err(usage(format!(
                "merge: {} holds a {} run, not an exact shard",
                d.display(),
                run.command
            )));
        }
        runs.push(run);
    }
    let first = &runs[0];
    let mut shards = Vec::with_capacity(runs.len());
    for (d, r) in a.dirs.iter().zip(&runs) {
        let names = first.options.names().chain(r.options.names());
        for n in names.filter(|&n| n != "--shard") {
            let (x, y) = (first.options.get(n), r.options.get(n));
            if x != y {
                return Err(usage(format!(
                    "merge: {} and {} are different runs ({n}: {} vs {})",
                    a.dirs[0].display(),
                    d.display(),
                    x.unwrap_or("(not recorded)"),
                    y.unwrap_or("(not recorded)")
                )));
            }
        }
        let shard: Shard = r
            .options
            .get("--shard")
            .unwrap_or("1/1")
            .parse()
            .map_err(|e| usage(format!("merge: {}/run.json: {e}", d.display())))?;
        shards.push((d.as_path(), shard));
    }
    check_shards(&shards).map_err(usage)?;

    let args = recorded_exact_args(&a.dirs[0], first)?;
    let holes = super::common::parse_holes(&args.holes)?;
    let all = jobs(&args, &holes)?;
    let mut parts: Vec<std::vec::IntoIter<String>> = vec![Vec::new().into_iter(); shards.len()];
    for &(d, shard) in &shards {
        let expected = shard_jobs(all.clone(), shard);
        let rows = read_rows(&d.join("exact.csv"), args.pie, &expected)?;
        if rows.len() < expected.len() {
            return Err(usage(format!(
                "merge: shard {shard} in {} is incomplete ({} of {} layouts); finish it with the same command plus --resume --out {}",
                d.display(),
                rows.len(),
                expected.len(),
                d.display()
            )));
        }
        parts[shard.index as usize - 1] = rows.into_iter();
    }
    let n = shards.len();
    let mut text = format!("{}\n", crate::study::exact::header(args.pie));
    for i in 0..all.len() {
        // Layout i is in part i mod N + 1, in order within the part.
        let line = parts[i % n].next().unwrap_or_default();
        text.push_str(&line);
        text.push('\n');
    }
    prepare_out(&a.out).map_err(super::tournament::cli_error)?;
    write_atomic(&a.out.join("exact.csv"), text.as_bytes()).map_err(out_error(&a.out))?;
    let mut info = first.clone();
    info.options.0.retain(|(n, _)| n != "--shard");
    info.options.add("--shard", Shard::ALL);
    info.command_line = std::env::args().collect();
    info.threads = runs.iter().map(|r| r.threads).sum();
    info.start_time = runs
        .iter()
        .map(|r| r.start_time.clone())
        .min()
        .unwrap_or_default();
    info.end_time = runs.iter().filter_map(|r| r.end_time.clone()).max();
    info.notes = vec![format!(
        "merged from {}",
        a.dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    )];
    finish(
        &a.out,
        &all,
        args.pie,
        args.layouts != "all",
        &info,
        a.quiet,
    )?;
    if !a.quiet {
        println!(
            "merged {n} shards, {} layouts, into {}",
            all.len(),
            a.out.display()
        );
    }
    Ok(())
}
