//! `pahtum merge`: joins the outputs of `--shard K/N` runs (tournament,
//! exact) into the files the unsharded run writes.

use std::path::PathBuf;

use clap::Args;

use clap::Parser as _;

use super::error::{CliError, CliResult, cli_error, out_error, usage};
use super::exact::{finish_versus, jobs, read_rows, read_versus_rows, shard_jobs, versus_specs};
use super::tournament::write_ratings_svg;
use super::{Cli, Command};
use crate::arena::merge::{check_shards, merge_dirs, merge_moves};
use crate::arena::rundir::read_games;
use crate::arena::rundir::{is_non_empty, prepare_out};
use crate::arena::runinfo::{RunFile, write_atomic};
use crate::arena::runopts::NOT_RECORDED;
use crate::arena::schedule::Shard;
use crate::csv_rows;
use crate::judge::exact::{ExactCsvRow, VersusCsvRow};

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
    match a
        .dirs
        .first()
        .and_then(|d| crate::arena::runinfo::command_in(d))
        .as_deref()
    {
        Some("exact") => return merge_exact(&a),
        Some("fpa") => return merge_fpa(&a),
        _ => {}
    }
    let merged = merge_dirs(
        &a.dirs,
        &a.out,
        std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    )
    .map_err(out_error(&a.out))?;
    if merged.run.command == "sweep" {
        let parts = merged
            .run
            .games
            .as_ref()
            .and_then(|g| g.merged_from.clone())
            .unwrap_or_default();
        let first = a.dirs.first().cloned().unwrap_or_default();
        let text = std::fs::read_to_string(first.join("run.json"))
            .map_err(|e| usage(format!("merge: {}/run.json: {e}", first.display())))?;
        let run: StudyCommandLine = serde_json::from_str(&text)
            .map_err(|e| usage(format!("merge: {}/run.json: {e}", first.display())))?;
        let Command::Sweep(mut args) = parse_command_line(&first, &run.command_line)? else {
            return Err(usage(format!(
                "merge: {}/run.json: not a sweep command line",
                first.display()
            )));
        };
        args.study.run.quiet = a.quiet;
        super::sweep::write_merged(&args, &a.out, &merged.report, &merged.records)?;
        if !a.quiet {
            println!(
                "{}",
                merged_line(parts.len(), merged.records.len(), "game", &a.out)
            );
        }
        return Ok(());
    }
    let games = merged.run.games(&a.out).map_err(cli_error)?;
    write_ratings_svg(&a.out, &merged.report, games.args.seed)?;
    if !a.quiet {
        println!("{}", merged.report.text());
        println!(
            "{}",
            merged_line(a.dirs.len(), games.run_games as usize, "game", &a.out)
        );
    }
    Ok(())
}

/// The run files of the `command` shards in `a.dirs`, each with its part,
/// checked to be the parts `1/N` to `N/N` of one run, each once.
///
/// # Errors
/// A directory without a readable `run.json`, a run of another command,
/// runs with different options, shards missing or given twice; or a
/// non-empty `--out` (exit 2).
fn load_shards(a: &MergeArgs, command: &str) -> CliResult<Vec<(RunFile, Shard)>> {
    if is_non_empty(&a.out) {
        return Err(usage(format!(
            "--out {}: directory is not empty; merge into a new directory",
            a.out.display()
        )));
    }
    let mut runs: Vec<RunFile> = Vec::with_capacity(a.dirs.len());
    for d in &a.dirs {
        let text = std::fs::read_to_string(d.join("run.json"))
            .map_err(|e| usage(format!("merge: {}/run.json: {e}", d.display())))?;
        let run: RunFile = serde_json::from_str(&text)
            .map_err(|e| usage(format!("merge: {}/run.json: {e}", d.display())))?;
        if run.command != command {
            return Err(usage(format!(
                "merge: {} holds {}, not {} {command} shard",
                d.display(),
                crate::arena::runinfo::a_run(&run.command),
                crate::arena::runinfo::article(command)
            )));
        }
        runs.push(run);
    }
    let mut shards = Vec::with_capacity(runs.len());
    for (d, r) in a.dirs.iter().zip(&runs) {
        if let Some((n, x, y)) = runs[0].options.first_difference(&r.options, &["--shard"]) {
            return Err(usage(format!(
                "merge: {} and {} are different runs ({n}: {} vs {})",
                a.dirs[0].display(),
                d.display(),
                x.unwrap_or(NOT_RECORDED),
                y.unwrap_or(NOT_RECORDED)
            )));
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
    let parts: Vec<Shard> = shards.iter().map(|s| s.1).collect();
    Ok(runs.into_iter().zip(parts).collect())
}

/// The merged run's `run.json`: the first part's, as the unsharded run
/// records itself, with the parts' threads, start and end.
fn merged_info(a: &MergeArgs, runs: &[(RunFile, Shard)]) -> RunFile {
    let mut info = runs[0].0.clone();
    for (n, v) in &mut info.options.0 {
        if n == "--shard" {
            *v = Shard::ALL.to_string();
        }
    }
    info.command_line = std::env::args().collect();
    info.threads = runs.iter().map(|r| r.0.threads).sum();
    info.start_time = runs
        .iter()
        .map(|r| r.0.start_time.clone())
        .min()
        .unwrap_or_default();
    info.end_time = runs.iter().filter_map(|r| r.0.end_time.clone()).max();
    let dirs: Vec<String> = a.dirs.iter().map(|d| d.display().to_string()).collect();
    info.notes = vec![format!("merged from {}", dirs.join(" "))];
    info
}

/// The subcommand of a recorded command line, parsed as the command line
/// was: a study's schedule follows from its arguments alone.
fn recorded_command(dir: &std::path::Path, run: &RunFile) -> CliResult<Command> {
    parse_command_line(dir, &run.command_line)
}

/// Just the command line of a `run.json`, whatever else it holds.
#[derive(serde::Deserialize)]
struct StudyCommandLine {
    command_line: Vec<String>,
}

/// `line` parsed as the command line it was (`dir` names its run).
fn parse_command_line(dir: &std::path::Path, line: &[String]) -> CliResult<Command> {
    Cli::try_parse_from(line).map(|c| c.command).map_err(|e| {
        let text = e.to_string();
        let first = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("error: ");
        usage(format!(
            "merge: {}/run.json: its command line: {first}",
            dir.display()
        ))
    })
}

fn incomplete(
    shard: Shard,
    dir: &std::path::Path,
    have: usize,
    want: usize,
    what: &str,
) -> CliError {
    usage(format!(
        "merge: shard {shard} in {} is incomplete ({have} of {want} {what}); finish it with the same command plus --resume --out {}",
        dir.display(),
        dir.display()
    ))
}

/// Merges `exact --shard K/N` directories: every part present once, each
/// complete and of the same run; `exact.csv` back in layout order, then the
/// summary and plot of the whole.
fn merge_exact(a: &MergeArgs) -> CliResult {
    let runs = load_shards(a, "exact")?;
    let Command::Exact(args) = recorded_command(&a.dirs[0], &runs[0].0)? else {
        return Err(usage(format!(
            "merge: {}/run.json: not an exact command line",
            a.dirs[0].display()
        )));
    };
    let holes = super::common::parse_holes(&args.holes)?;
    let all = jobs(&args, &holes)?;
    let n = runs.len();
    let mut parts: Vec<std::vec::IntoIter<ExactCsvRow>> = vec![Vec::new().into_iter(); n];
    for (d, (_, shard)) in a.dirs.iter().zip(&runs) {
        let expected = shard_jobs(all.clone(), *shard);
        let rows = read_rows(&d.join("exact.csv"), args.pie, &expected)?;
        if rows.len() < expected.len() {
            return Err(incomplete(*shard, d, rows.len(), expected.len(), "layouts"));
        }
        parts[shard.index as usize - 1] = rows.into_iter();
    }
    let mut text = format!("{}\n", crate::judge::exact::header(args.pie));
    for i in 0..all.len() {
        // Layout i is in part i mod N + 1, in order within the part.
        csv_rows::push(&mut text, &parts[i % n].next().unwrap_or_default());
    }
    // versus.csv: each layout's games, in the same order.
    let catalog = crate::bot::builtin_catalog();
    let specs = versus_specs(&catalog, &args.versus)?;
    let per_layout = 2 * specs.len();
    let mut games = String::new();
    if per_layout > 0 {
        let mut parts: Vec<std::vec::IntoIter<VersusCsvRow>> = vec![Vec::new().into_iter(); n];
        for (d, (_, shard)) in a.dirs.iter().zip(&runs) {
            let expected = shard_jobs(all.clone(), *shard);
            let rows = read_versus_rows(&d.join("versus.csv"), &expected, &specs)?;
            if rows.len() < expected.len() * per_layout {
                return Err(incomplete(
                    *shard,
                    d,
                    rows.len().checked_div(per_layout).unwrap_or(0),
                    expected.len(),
                    "layouts' games",
                ));
            }
            parts[shard.index as usize - 1] = rows.into_iter();
        }
        games = format!("{}\n", csv_rows::header::<VersusCsvRow>());
        for i in 0..all.len() {
            for _ in 0..per_layout {
                csv_rows::push(&mut games, &parts[i % n].next().unwrap_or_default());
            }
        }
    }
    prepare_out(&a.out).map_err(cli_error)?;
    write_atomic(&a.out.join("exact.csv"), text.as_bytes()).map_err(out_error(&a.out))?;
    if per_layout > 0 {
        write_atomic(&a.out.join("versus.csv"), games.as_bytes()).map_err(out_error(&a.out))?;
        finish_versus(&a.out, a.quiet)?;
    }
    let info = merged_info(a, &runs);
    super::exact::finish(
        &a.out,
        &all,
        args.pie,
        args.layouts != "all",
        &info,
        a.quiet,
    )?;
    if !a.quiet {
        println!("{}", merged_line(n, all.len(), "layout", &a.out));
    }
    Ok(())
}

/// Merges `fpa --shard K/N` directories into the unsharded run's
/// `games.csv` (rows byte for byte, in game order), `moves.csv` (the same),
/// `fpa.csv` and `fpa.svg`.
fn merge_fpa(a: &MergeArgs) -> CliResult {
    let runs = load_shards(a, "fpa")?;
    let Command::Fpa(mut args) = recorded_command(&a.dirs[0], &runs[0].0)? else {
        return Err(usage(format!(
            "merge: {}/run.json: not an fpa command line",
            a.dirs[0].display()
        )));
    };
    args.study.shard.part = Shard::ALL;
    let plan = super::fpa::plan(&args)?;
    let labels = plan.config.labels();
    let schedule = plan.config.schedule();
    let all = plan.fpa.game_list();
    let mut files = Vec::with_capacity(runs.len());
    for (d, (_, shard)) in a.dirs.iter().zip(&runs) {
        let expected: Vec<u64> = all
            .iter()
            .copied()
            .filter(|g| shard.contains_layout(g / 2))
            .collect();
        let file =
            read_games(&d.join("games.csv"), &labels, &schedule, &expected).map_err(cli_error)?;
        if file.rows.len() < expected.len() {
            return Err(incomplete(
                *shard,
                d,
                file.rows.len(),
                expected.len(),
                "games",
            ));
        }
        files.push((d.as_path(), file.rows));
    }
    prepare_out(&a.out).map_err(cli_error)?;
    merge_moves(&files, &labels, &schedule, &a.out).map_err(out_error(&a.out))?;
    let (mut records, mut rows): (Vec<_>, Vec<_>) = files.into_iter().flat_map(|f| f.1).unzip();
    rows.sort_by_key(|r| r.game);
    records.sort_by_key(|r| r.game);
    let text = crate::csv_rows::text(rows);
    write_atomic(&a.out.join("games.csv"), text.as_bytes()).map_err(out_error(&a.out))?;
    let info = merged_info(a, &runs);
    super::fpa::finish(
        &a.out, &plan.fpa, &records, &plan.komi, args.games, &info, a.quiet,
    )?;
    if !a.quiet {
        println!("{}", merged_line(runs.len(), records.len(), "game", &a.out));
    }
    Ok(())
}

/// `merge`'s last line: how many shards, and games or layouts, went where.
fn merged_line(shards: usize, items: usize, item: &str, out: &std::path::Path) -> String {
    let s = |n: usize| if n == 1 { "" } else { "s" };
    format!(
        "merged {shards} shard{}, {items} {item}{}, into {}",
        s(shards),
        s(items),
        out.display()
    )
}
