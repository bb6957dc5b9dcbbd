//! `pahtum exact`: every hole layout of a small board solved from the
//! start; `exact.csv` streamed row by row in layout order, then
//! `exact_summary.csv` (docs/CONTRACT.md, `exact` outputs).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::common::{
    CANCEL, RowsError, StudyRunArgs, TableArgs, install_cancel, open_run, parse_holes, parse_komi,
    run_interrupt_note, save_run, terminal_bar, threads,
};
use super::error::{CliError, CliResult, empty_shard, usage};
use super::error::{cli_error, out_error};
use super::num;
use crate::arena::rundir::prepare_out;
use crate::arena::runinfo::RunFile;
use crate::arena::runinfo::{utc_now, utc_stamp, write_atomic};
use crate::arena::runopts::RunOptions;
use crate::arena::schedule::Shard;
use crate::csv_rows;
use crate::game::outcome::Komi;
use crate::game::square::{MAX_SIZE, MIN_SIZE};
use crate::judge::exact::{
    ExactCsvRow, ExactError, ExactRow, Job, Versus, VersusCsvRow, VersusSummaryCsvRow, header,
    parse_versus_row, push_row, push_summary, push_versus_row, push_versus_summary, random_layouts,
    summarize, summarize_versus, summary_header, symmetry_classes,
};
use crate::judge::ordered::SolverThreads;
use crate::solve::SolveLimits;

mod resume;

use self::resume::kept_rows;
pub(super) use self::resume::{read_rows, read_versus_rows};

/// Layouts with more free squares than this are refused unless
/// `--max-empty` says otherwise: from the empty board every free square is
/// a ply, and each one more multiplies the work several times.
pub const DEFAULT_MAX_EMPTY: u32 = 25;

/// Arguments of `exact`.
#[derive(Args, Debug)]
pub struct ExactArgs {
    /// Board side, 3 to 8
    #[arg(long, value_name = "N", allow_negative_numbers = true,
          value_parser = num::int::<u8>(MIN_SIZE.into(), MAX_SIZE.into()))]
    pub size: u8,
    /// Hole counts, like 3 or 0,1,2,3
    #[arg(long, value_name = "N[,N...]", allow_negative_numbers = true)]
    pub holes: String,
    /// `all`: every layout once per symmetry class, weighted by the class
    /// size; COUNT: that many random layouts per hole count from --seed
    #[arg(
        long,
        default_value = "all",
        value_name = "all|COUNT",
        allow_negative_numbers = true
    )]
    pub layouts: String,
    /// Also solve under the pie rule (the second player may swap after the first stone)
    #[arg(long)]
    pub pie: bool,
    /// Points added to Black's total (a half point allowed, e.g. 2.5)
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub komi: Option<String>,
    /// Refuse hole counts that leave more free squares than this
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_EMPTY,
          allow_negative_numbers = true, value_parser = num::int::<u32>(1, 64))]
    pub max_empty: u32,
    /// The solver's table
    #[command(flatten)]
    pub table: TableArgs,
    /// Solve only part K of N of the layouts (layout i goes to part i mod N + 1), for
    /// batch schedulers; `pahtum merge` joins the parts' directories
    #[arg(
        long,
        value_name = "K/N",
        default_value = "1/1",
        allow_hyphen_values = true
    )]
    pub shard: Shard,
    /// After each layout's solve, this bot plays it against perfect play, as
    /// White and as Black, every move judged (versus.csv); repeat for more bots
    #[arg(long = "versus", value_name = "SPEC")]
    pub versus: Vec<String>,
    /// Seed (of the random layouts of --layouts COUNT, and the --versus bots), threads,
    /// output directory, resume, quiet
    #[command(flatten)]
    pub run: StudyRunArgs,
}

/// The layouts to solve, hole count by hole count in `--holes` order.
pub(super) fn jobs(a: &ExactArgs, holes: &[u32]) -> CliResult<Vec<Job>> {
    let count = match a.layouts.as_str() {
        "all" => None,
        n => Some(
            num::parse_int(n, 1, 10_000_000)
                .map_err(|e| usage(format!("--layouts: {e}; or 'all'")))? as u64,
        ),
    };
    let cells = u32::from(a.size) * u32::from(a.size);
    let mut out = Vec::new();
    for &h in holes {
        if h >= cells {
            return Err(usage(format!(
                "--holes {h}: a {0}x{0} board has {cells} squares; at most {1} holes leave one free",
                a.size,
                cells - 1
            )));
        }
        let free = cells - h;
        if free > a.max_empty {
            return Err(usage(format!(
                "--holes {h}: {free} free squares on a {0}x{0} board, more than --max-empty {1} (raise it to solve anyway)",
                a.size, a.max_empty
            )));
        }
        let layouts = match count {
            None => symmetry_classes(a.size, h)
                .map_err(|e| usage(format!("--layouts all: {e}; use --layouts COUNT")))?,
            Some(n) => random_layouts(a.size, h, n, a.run.seed)
                .map_err(|e| usage(format!("--holes {h}: {e}")))?,
        };
        out.extend(layouts.into_iter().map(|layout| Job {
            size: a.size,
            layout,
        }));
    }
    Ok(out)
}

/// The options `run.json` records of an `exact` run.
fn run_options(a: &ExactArgs, holes: &[u32], komi: Komi) -> RunOptions {
    let mut options = RunOptions::new();
    options
        .add("--size", a.size)
        .add(
            "--holes",
            holes
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
        )
        .add("--layouts", &a.layouts)
        .add("--pie", a.pie)
        .add("--komi", komi)
        .add("--seed", a.run.seed)
        .add("--max-empty", a.max_empty)
        .add("--shard", a.shard);
    // Recorded only when given, so runs from before the option resume.
    if !a.versus.is_empty() {
        options.add_list("--versus", &a.versus);
    }
    options
}

/// Rewrites `exact.csv` in `out` with the `kept` rows (dropping a torn
/// line), and `versus.csv` with the kept games when the run plays any,
/// and opens both to append the rows to come.
///
/// # Errors
/// A usage error naming `--out` and the file.
fn open_rows(
    out: &Path,
    pie: bool,
    kept: &[ExactCsvRow],
    kept_games: Option<&Vec<VersusCsvRow>>,
) -> CliResult<(File, Option<File>)> {
    let open = |path: &Path, name: &str| {
        OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| usage(format!("--out {}: cannot open {name}: {e}", out.display())))
    };
    let csv = out.join("exact.csv");
    let mut text = format!("{}\n", header(pie));
    for r in kept {
        csv_rows::push(&mut text, r);
    }
    write_atomic(&csv, text.as_bytes()).map_err(out_error(out))?;
    let file = open(&csv, "exact.csv")?;
    let vfile = match kept_games {
        Some(games) => {
            let vcsv = out.join("versus.csv");
            let text = csv_rows::text(games.iter().cloned());
            write_atomic(&vcsv, text.as_bytes()).map_err(out_error(out))?;
            Some(open(&vcsv, "versus.csv")?)
        }
        None => None,
    };
    Ok((file, vfile))
}

/// The run's first line on stderr; a resumed run says how many layouts
/// its `kept` rows already solved.
fn announce(a: &ExactArgs, jobs: usize, kept: Option<usize>, threads: usize, out: &Path) {
    let before = match kept {
        Some(n) => format!(" ({n} solved before, kept from the resumed run)"),
        None => String::new(),
    };
    eprintln!(
        "exact: {0}x{0}, holes {1}, {2} layouts{3}, pie {4}, {5} threads, out {6}",
        a.size,
        a.holes,
        jobs,
        before,
        if a.pie { "on" } else { "off" },
        threads,
        out.display()
    );
}

/// What the end of the solving loop means for the command, `done` of
/// `total` layouts in `out` solved: an I/O failure, an interrupt (to be
/// resumed), a failed solve, or on to the summary.
fn solving_ended(
    result: Result<usize, ExactRunError>,
    done: usize,
    total: usize,
    out: &Path,
) -> CliResult {
    match result {
        Err(ExactRunError::Io(e)) => Err(usage(format!(
            "--out {}: cannot write exact.csv or versus.csv: {e}",
            out.display()
        ))),
        Err(ExactRunError::Work(ExactError::Solve(crate::solve::SolveError::Interrupted)))
        | Ok(_)
            if CANCEL.load(std::sync::atomic::Ordering::Relaxed) =>
        {
            Err(CliError::Interrupted(format!(
                "interrupted after {done} of {total} layouts; continue with the same command plus --resume --out {}",
                out.display()
            )))
        }
        Err(ExactRunError::Work(e)) => Err(CliError::Internal(anyhow::anyhow!("{e}"))),
        Ok(_) => Ok(()),
    }
}

/// Runs `exact`.
///
/// # Errors
/// Bad arguments (exit 2) before any work; an interrupt (exit 130); I/O
/// failures.
pub fn run(a: ExactArgs) -> CliResult {
    let holes = parse_holes(&a.holes)?;
    let komi = a.komi.as_deref().map_or(Ok(Komi::ZERO), parse_komi)?;
    let threads = threads(a.run.threads)?;
    let all = jobs(&a, &holes)?;
    let layouts = all.len() as u64;
    let jobs = shard_jobs(all, a.shard);
    if jobs.is_empty() {
        return Err(empty_shard(a.shard, layouts));
    }
    let catalog = crate::bot::builtin_catalog();
    let specs = versus_specs(&catalog, &a.versus)?;
    let out = a
        .run
        .out_dir(|| PathBuf::from("results").join(format!("exact-{}", utc_stamp())))?;
    let per_layout = 2 * specs.len();
    let options = run_options(&a, &holes, komi);
    let (mut info, resumed) = open_run(&out, "exact", options, threads, a.run.resume)?;
    let (kept, kept_games) = if resumed {
        kept_rows(&out, a.pie, &jobs, &specs)?
    } else {
        (Vec::new(), Vec::new())
    };
    prepare_out(&out).map_err(cli_error)?;
    save_run(&info, &out)?;
    let (mut file, mut vfile) =
        open_rows(&out, a.pie, &kept, (per_layout > 0).then_some(&kept_games))?;
    let versus = Versus {
        catalog: &catalog,
        bots: &specs,
        seed: a.run.seed,
    };
    if !a.run.quiet {
        announce(&a, jobs.len(), resumed.then_some(kept.len()), threads, &out);
    }
    install_cancel(run_interrupt_note(&out).replace("games", "layouts"));
    let bar = terminal_bar(
        a.run.quiet,
        "{spinner} [{elapsed_precise}] {pos}/{len} layouts, ETA {eta}",
        kept.len() as u64,
        jobs.len() as u64,
    );
    let rest = &jobs[kept.len()..];
    let mut rows: Vec<ExactRow> = Vec::with_capacity(rest.len());
    let mut line = String::new();
    let result = crate::judge::exact::solve_layouts_in_order::<ExactRunError>(
        rest,
        komi,
        a.pie,
        (per_layout > 0).then_some(&versus),
        &SolveLimits::default(),
        SolverThreads {
            threads,
            tt_mb: a.table.tt_mb,
            stop: &CANCEL,
        },
        |_, row| {
            // The games first: a layout counts as done once its exact.csv
            // row is written, and a resume keeps only layouts with both.
            if let Some(vf) = vfile.as_mut() {
                line.clear();
                for g in &row.versus {
                    push_versus_row(&mut line, row.size, &row.layout, g);
                }
                vf.write_all(line.as_bytes())
                    .and_then(|()| vf.flush())
                    .map_err(ExactRunError::Io)?;
            }
            line.clear();
            push_row(&mut line, &row);
            file.write_all(line.as_bytes())
                .and_then(|()| file.flush())
                .map_err(ExactRunError::Io)?;
            bar.inc(1);
            rows.push(row);
            Ok(())
        },
    );
    bar.abandon();
    solving_ended(result, kept.len() + rows.len(), jobs.len(), &out)?;
    info.end_time = Some(utc_now());
    if per_layout > 0 {
        finish_versus(&out, a.run.quiet)?;
    }
    finish(&out, &jobs, a.pie, a.layouts != "all", &info, a.run.quiet)?;
    if !a.run.quiet {
        println!("results in {}", out.display());
    }
    super::common::name_picked_dir(&out, a.run.quiet, a.run.out.is_none());
    Ok(())
}

/// The `--versus` bots, each checked: it exists, it can be built, its
/// moves replay (no time budget, no threads racing: its games would
/// depend on the machine), and its label is its own.
///
/// # Errors
/// A usage error naming the `--versus` value.
pub(super) fn versus_specs(
    catalog: &crate::bot::Catalog,
    versus: &[String],
) -> CliResult<Vec<crate::bot::BotSpec>> {
    let mut specs: Vec<crate::bot::BotSpec> = Vec::new();
    for v in versus {
        let spec = catalog
            .parse_unattended(v)
            .map_err(|e| usage(format!("--versus {v}: {e}")))?;
        super::common::no_clock(
            &spec,
            &format!("--versus {v}"),
            "games against perfect play must replay",
            super::common::REPLAYABLE_BUDGET,
        )?;
        let probe = catalog
            .build(&spec, 0)
            .map_err(|e| usage(format!("--versus {v}: {e}")))?;
        if probe.is_timed() {
            return Err(usage(format!(
                "--versus {v}: a bot with a time budget (ms=) cannot be replayed; give it iterations or nodes"
            )));
        }
        if !probe.is_replayable() {
            return Err(usage(format!(
                "--versus {v}: its threads race, so its games cannot be replayed; use threads=1 or parallel=root"
            )));
        }
        if specs.iter().any(|s| s.label() == spec.label()) {
            return Err(usage(format!(
                "--versus {v}: a second bot labelled '{}'; add label=NAME",
                spec.label()
            )));
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// Writes `versus_summary.csv` from a complete `versus.csv` in `out`, and
/// prints each bot's line `bot=NAME games=N given_away=K weighted_share=X`
/// unless `quiet`: the share is of the layouts' weight (a class's size), as
/// `given_away_share` in the file, so it is not `K / N`, and the name says
/// so.
pub(super) fn finish_versus(out: &Path, quiet: bool) -> CliResult {
    let text = std::fs::read_to_string(out.join("versus.csv")).map_err(|e| {
        usage(format!(
            "--out {}: cannot read versus.csv: {e}",
            out.display()
        ))
    })?;
    let internal =
        |line: usize, e: String| CliError::Internal(anyhow::anyhow!("versus.csv line {line}: {e}"));
    let mut rows = Vec::new();
    for (line, f) in csv_rows::parse::<VersusCsvRow>(&text).map_err(|(l, e)| internal(l, e))? {
        rows.push(parse_versus_row(&f).map_err(|e| internal(line, e))?);
    }
    let summary = summarize_versus(&rows);
    let mut s = format!("{}\n", csv_rows::header::<VersusSummaryCsvRow>());
    for r in &summary {
        push_versus_summary(&mut s, r);
    }
    write_atomic(&out.join("versus_summary.csv"), s.as_bytes()).map_err(out_error(out))?;
    if !quiet {
        for r in summary.iter().filter(|r| r.colour == "both") {
            println!(
                "bot={} games={} given_away={} weighted_share={:.4}",
                r.bot, r.games, r.given_away, r.given_away_share
            );
        }
    }
    Ok(())
}

/// The jobs of `shard`: every N-th layout, so that each part gets its share
/// of every hole count.
pub(super) fn shard_jobs(jobs: Vec<Job>, shard: Shard) -> Vec<Job> {
    jobs.into_iter()
        .enumerate()
        .filter(|(i, _)| shard.contains_layout(*i as u64))
        .map(|(_, j)| j)
        .collect()
}

/// Writes what follows from a complete `exact.csv` in `out`: the summary
/// (also on stdout unless `quiet`), the plot and `run.json`.
pub(super) fn finish(
    out: &Path,
    jobs: &[Job],
    pie: bool,
    sampled: bool,
    info: &RunFile,
    quiet: bool,
) -> CliResult {
    // The summary needs every row: the kept ones are read back whole.
    let all = std::fs::read_to_string(out.join("exact.csv")).map_err(|e| {
        usage(format!(
            "--out {}: cannot read exact.csv: {e}",
            out.display()
        ))
    })?;
    let parsed = crate::judge::exact::parse_rows(&all, jobs, pie)
        .map_err(|e| CliError::Internal(anyhow::anyhow!("exact.csv: {e}")))?;
    let summary = summarize(&parsed);
    let mut s = format!("{}\n", summary_header(pie));
    for r in &summary {
        push_summary(&mut s, r);
    }
    write_atomic(&out.join("exact_summary.csv"), s.as_bytes()).map_err(out_error(out))?;
    let svg = crate::judge::exact::summary_plot(&summary, sampled)
        .map_err(|e| CliError::Internal(anyhow::anyhow!("exact.svg: {e}")))?;
    write_atomic(&out.join("exact.svg"), svg.as_bytes()).map_err(out_error(out))?;
    save_run(info, out)?;
    if !quiet {
        print!("{s}");
    }
    Ok(())
}

/// Why the solving loop stopped.
type ExactRunError = RowsError<ExactError>;
