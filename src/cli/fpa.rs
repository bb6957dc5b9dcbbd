//! `pahtum fpa`: the first-player-advantage study (self-play per hole
//! count, optionally also under the pie rule); `fpa.csv`, `fpa.svg`.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;

use super::common::{
    CANCEL, ShardedStudyArgs, install_cancel, open_run, openings_options, rules_options,
    run_interrupt_note, save_run, threads,
};
use super::error::{CliError, CliResult, empty_shard, usage};
use super::error::{cli_error, out_error};
use super::num;
use crate::arena::progress::{Leader, Progress, ProgressMode};
use crate::arena::rundir::{check_games_and_moves, prepare_out};
use crate::arena::runinfo::RunFile;
use crate::arena::runinfo::{utc_now, utc_stamp, write_atomic};
use crate::arena::runopts::RunOptions;
use crate::arena::tournament::ArenaError;
use crate::arena::tournament::MAX_GAMES;
use crate::study::fpa::{Fpa, FpaRow, fpa_csv, fpa_plot};
use crate::study::grid::relabel;
use crate::study::listrun::play_list_in_dir;

/// The hole counts studied when `--holes` is not given: docs/RULES.md's
/// traditional odd counts.
pub const DEFAULT_HOLES: &str = "3,5,7,9,11,13";

/// fpa's `--help` line for `--holes`, with its own default.
pub const HOLES_HELP: &str =
    "Number of random holes, or a list that the study covers one by one [default: 3,5,7,9,11,13]";

/// Arguments of `fpa`.
#[derive(Args, Debug)]
#[command(mut_arg("shard", |a| a.help(
    "Play only part K of N of the games (layout l goes to part l mod N + 1), for batch schedulers; `pahtum merge` joins the parts' directories",
)))]
pub struct FpaArgs {
    /// The bot playing both sides
    #[arg(long, value_name = "SPEC")]
    pub bot: String,
    /// Games per hole count (and per pie setting)
    #[arg(long, default_value_t = 200, value_name = "N", allow_negative_numbers = true,
          value_parser = num::games())]
    pub games: u64,
    /// Rules: --holes (default [`DEFAULT_HOLES`]), --size, --layout, --komi;
    /// --pie adds the same study under the pie rule beside the plain one;
    /// external engines, seed, threads, output directory; `--shard K/N`,
    /// its help worded above
    #[command(flatten)]
    pub study: ShardedStudyArgs,
}

/// What an `fpa` command line asks for, checked: the study, its
/// tournament, the bots and the result-shaping options.
pub(super) struct Plan {
    pub catalog: crate::bot::Catalog,
    pub fpa: Fpa,
    pub config: crate::arena::tournament::TournamentConfig,
    pub options: RunOptions,
    pub komi: String,
    pub threads: usize,
}

fn table(rows: &[FpaRow]) -> String {
    let mut s = format!(
        "{:>6} {:>5} {:>6} {:>22} {:>8} {:>22} {:>14} {:>38} {:>7} {:>8}\n",
        "holes",
        "pie",
        "games",
        "White wins [95 %]",
        "draws",
        "Black wins [95 %]",
        "margin (sd)",
        "fair komi k [95 %] S(k-.5)/S(k)/S(k+.5)",
        "first",
        "swaps"
    );
    for r in rows {
        let pct = |x: f64| 100.0 * x;
        let k = r.fair_komi.map_or("-".into(), |k| {
            format!(
                "{} [{}, {}] S={:.2}/{:.2}/{:.2}",
                k.komi, k.lo, k.hi, k.score_below, k.score_at, k.score_above
            )
        });
        let _ = writeln!(
            s,
            "{:>6} {:>5} {:>6} {:>22} {:>7.1}% {:>22} {:>14} {:>38} {:>7.3} {:>8}",
            r.holes,
            r.pie,
            r.games,
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                pct(r.white.rate),
                pct(r.white.lo),
                pct(r.white.hi)
            ),
            pct(r.draws.rate),
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                pct(r.black.rate),
                pct(r.black.lo),
                pct(r.black.hi)
            ),
            format!("{:.1} ({:.1})", r.mean_margin, r.sd_margin),
            k,
            r.first_score.0,
            r.swaps
                .map_or("-".into(), |s| format!("{:.1}%", pct(s.rate)))
        );
    }
    s
}

/// The labels of the two seats and the conditions of the fpa run whose
/// `run.json` (in `dir`) records `options`, as [`plan`] made them: enough
/// to replay one of its games (`review`), where layout `L` (game `2L`) is
/// played under condition `L mod conditions`.
///
/// # Errors
/// A recorded option that is missing or does not parse (exit 2, naming
/// `dir/run.json`).
pub(super) fn recorded_conditions(
    dir: &std::path::Path,
    options: &RunOptions,
) -> CliResult<(Vec<String>, Vec<crate::game::rules::Rules>)> {
    let bad = |m: String| usage(format!("{}/run.json: {m}", dir.display()));
    let get = |o: &str| {
        options
            .get(o)
            .ok_or_else(|| bad(format!("no {o} recorded")))
    };
    let given = |o: &str| get(o).map(|v| (v != "(none)").then(|| v.to_string()));
    let bot: crate::bot::BotSpec = get("--bot")?
        .parse()
        .map_err(|e: crate::bot::SpecError| bad(format!("--bot: {e}")))?;
    let label = bot.label();
    let rules = super::common::RulesArgs {
        size: get("--size")?
            .parse()
            .map_err(|_| bad("--size: not a board size".into()))?,
        holes: given("--holes")?,
        layout: given("--layout")?,
        pie: false,
        komi: given("--komi")?,
    }
    .to_rules()
    .map_err(|e| match e {
        CliError::Usage(m) => bad(m),
        e => e,
    })?;
    let pie = get("--pie")? == "true";
    Ok((
        vec![label.clone(), format!("{label}-2")],
        Fpa::conditions(&rules, pie),
    ))
}

/// Runs `fpa`.
///
/// # Errors
/// Bad arguments (exit 2) before any game; I/O failures (exit 1); an
/// interruption (exit 130).
pub(super) fn plan(a: &FpaArgs) -> CliResult<Plan> {
    let catalog = a.study.engine.catalog()?;
    let mut rules_args = a.study.rules.clone();
    // A suite's starts bring their own holes: one condition (per pie
    // setting) then, not one per default hole count.
    if rules_args.holes.is_none()
        && rules_args.layout.is_none()
        && a.study.openings.openings.is_none()
    {
        rules_args.holes = Some(DEFAULT_HOLES.into());
    }
    let rules = rules_args.to_rules()?;
    // Both conditions play the suite's moves, so none may be a swap.
    let openings = a.study.openings.load(&Fpa::conditions(&rules, false))?;
    let bot = catalog
        .parse_unattended(&a.bot)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    let twin = relabel(&bot, &format!("{}-2", bot.label()), &catalog)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    let fpa = Fpa {
        bot,
        twin,
        conditions: Fpa::conditions(&rules, a.study.rules.pie),
        games: a.games,
    };
    // The schedule holds two slots per game (see Fpa::tournament), so the
    // cap is checked here, on the number the user typed.
    let conditions = fpa.conditions.len() as u64;
    let most = MAX_GAMES / (2 * conditions.max(1));
    if a.games > most {
        return Err(usage(format!(
            "--games: {} is out of range (1..={most} with {conditions} conditions: a schedule holds at most {MAX_GAMES} games)",
            a.games
        )));
    }
    let threads = threads(a.study.run.threads)?;
    let mut config = fpa.tournament(a.study.run.seed, threads);
    config.openings = openings;
    config.validate(&catalog).map_err(cli_error)?;
    let komi = rules.first().map_or("0".into(), |r| r.komi.to_string());
    let mut options = RunOptions::new();
    options
        .add("--bot", fpa.bot.as_str())
        .add("--games", a.games);
    rules_options(&mut options, &rules);
    // The pie study is beside the plain one: --pie is not a rule of every game.
    options.0.retain(|(o, _)| o != "--pie");
    options.add("--pie", a.study.rules.pie);
    openings_options(&mut options, config.openings.as_ref());
    a.study.engine.options(&mut options);
    options
        .add("--seed", a.study.run.seed)
        .add("--shard", a.study.shard.part);
    Ok(Plan {
        catalog,
        fpa,
        config,
        options,
        komi,
        threads,
    })
}

/// Runs `fpa`.
///
/// # Errors
/// Bad arguments (exit 2) before any game; I/O failures (exit 1); an
/// interruption (exit 130).
pub fn run(a: FpaArgs) -> CliResult {
    let plan = plan(&a)?;
    let all = plan.fpa.game_list();
    let list: Vec<u64> = all
        .iter()
        .copied()
        .filter(|g| a.study.shard.part.contains_layout(g / 2))
        .collect();
    if list.is_empty() {
        // Game 2l opens layout l's colour-swapped pair.
        return Err(empty_shard(a.study.shard.part, all.len() as u64));
    }
    let out = a
        .study
        .run
        .out_dir(|| PathBuf::from("results").join(format!("fpa-{}", utc_stamp())))?;
    let (mut info, resumed) =
        open_run(&out, "fpa", plan.options, plan.threads, a.study.run.resume)?;
    // The rows are checked (replayed) before anything is printed.
    let games_csv = out.join("games.csv");
    if resumed && games_csv.exists() {
        check_games_and_moves(
            &games_csv,
            &plan.config.labels(),
            &plan.config.schedule(),
            &list,
        )
        .map_err(cli_error)?;
    }
    prepare_out(&out).map_err(cli_error)?;
    save_run(&info, &out)?;
    if !a.study.run.quiet {
        eprintln!(
            "fpa: {} self-play, {} conditions x {} games{}, seed {}, {} threads, out {}",
            plan.fpa.bot.label(),
            plan.fpa.conditions.len(),
            a.games,
            super::common::openings_note(plan.config.openings.as_ref()),
            a.study.run.seed,
            plan.threads,
            out.display()
        );
    }
    install_cancel(run_interrupt_note(&out));
    // Self-play: the two bots are one, so the colours' split is the news.
    let mut progress = Progress::new(
        plan.config.labels(),
        ProgressMode::detect(a.study.run.quiet),
    )
    .with_leader(Leader::ColourSplit);
    let result = play_list_in_dir(
        &plan.config,
        &plan.catalog,
        &list,
        &out,
        &CANCEL,
        &mut progress,
    );
    progress.finish();
    let records = match result {
        Ok(r) => r,
        Err(ArenaError::Interrupted { done, total }) => {
            return Err(CliError::Interrupted(format!(
                "interrupted after {done} of {total} games; continue with the same command plus --resume --out {}",
                out.display()
            )));
        }
        Err(e) => return Err(out_error(&out)(e)),
    };
    info.end_time = Some(utc_now());
    finish(
        &out,
        &plan.fpa,
        &records,
        &plan.komi,
        a.games,
        &info,
        a.study.run.quiet,
    )?;
    if !a.study.run.quiet {
        println!("results in {}", out.display());
    }
    super::common::name_picked_dir(&out, a.study.run.quiet, a.study.run.out.is_none());
    Ok(())
}

/// Writes what follows from the games: `fpa.csv`, `fpa.svg`, `run.json`,
/// and the table on stdout unless `quiet`.
pub(super) fn finish(
    out: &std::path::Path,
    fpa: &Fpa,
    records: &[crate::arena::games_csv::GameRecord],
    komi: &str,
    games: u64,
    info: &RunFile,
    quiet: bool,
) -> CliResult {
    let rows = fpa.rows(records);
    write_atomic(&out.join("fpa.csv"), fpa_csv(&rows, komi).as_bytes()).map_err(out_error(out))?;
    let svg = fpa_plot(&fpa.bot.label(), &rows, games).map_err(|e| CliError::Internal(e.into()))?;
    write_atomic(&out.join("fpa.svg"), svg.as_bytes()).map_err(out_error(out))?;
    save_run(info, out)?;
    if !quiet {
        print!("{}", table(&rows));
    }
    Ok(())
}
