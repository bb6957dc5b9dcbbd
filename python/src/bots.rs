//! Bots, the exact solver and the tournament runner for Python. Every
//! search runs with the GIL released, so Python threads can run several at
//! once.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pahtum::arena::{
    ArenaError, Format, GameRecord, Observer, Report, Shard, TournamentConfig, run_tournament,
};
use pahtum::bot::clock::Clock;
use pahtum::cli::common::threads as resolve_threads;
use pahtum::solve::{SolveLimits, Solver, format_halves};
use pahtum::{Bot, HoleSetup, Komi, Rules, builtin_catalog};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::position::{PyPosition, parse_komi};
use crate::{runtime_error, value_error};

/// `pahtum solve`'s default limit on free squares: beyond it solving time
/// grows steeply.
const DEFAULT_MAX_EMPTY: u32 = 22;

/// A built-in bot, built from a spec as `pahtum play --white SPEC` builds
/// it and seeded with `seed`.
#[pyclass(module = "pahtum._core", name = "Bot")]
pub struct PyBot {
    // A Mutex makes the class Sync (pyo3 requires it); only one search of a
    // bot runs at a time anyway, since a bot owns its random stream.
    bot: Mutex<Box<dyn Bot>>,
    spec: String,
    name: String,
}

#[pymethods]
impl PyBot {
    /// `Bot(spec, seed=1)`; a bad spec raises `ValueError` with the CLI's
    /// message (naming the key). The seed defaults to the CLI's `--seed`
    /// default, so a script without seeds replays itself.
    #[new]
    #[pyo3(signature = (spec, seed=1))]
    fn new(spec: &str, seed: u64) -> PyResult<PyBot> {
        let catalog = builtin_catalog();
        let parsed = catalog.parse_unattended(spec).map_err(value_error)?;
        let bot = catalog.build(&parsed, seed).map_err(value_error)?;
        Ok(PyBot {
            name: bot.name().to_string(),
            bot: Mutex::new(bot),
            spec: spec.to_string(),
        })
    }

    /// The name written to outputs (the spec's `label=`, else the spec).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// The spec the bot was built from.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The bot's move for the side to move of `position` (a name, or
    /// `"swap"`), searched with the GIL released. With `time_left`
    /// (seconds on the mover's clock) and `increment` (seconds added after
    /// the move) a search bot shares that clock out as in a clocked game
    /// (`tc=`) instead of its own budget; the caller keeps the clock.
    #[pyo3(signature = (position, time_left=None, increment=0.0))]
    fn select_move(
        &self,
        py: Python<'_>,
        position: PyRef<'_, PyPosition>,
        time_left: Option<f64>,
        increment: f64,
    ) -> PyResult<String> {
        if position.pos().is_game_over() {
            return Err(value_error("the game is over"));
        }
        let seconds = |s: f64, what: &str| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| value_error(format!("{what}={s}: expected seconds, 0 or more")))
        };
        let clock = match time_left {
            Some(left) => Some(Clock {
                left: seconds(left, "time_left")?,
                inc: seconds(increment, "increment")?,
            }),
            None => None,
        };
        let game = position.game.clone();
        drop(position);
        let bot = &self.bot;
        let mv = py.allow_threads(move || {
            let mut b = bot.lock().unwrap_or_else(|e| e.into_inner());
            b.set_clock(clock);
            b.select_move(&game)
        });
        mv.map(|m| m.to_string()).map_err(runtime_error)
    }

    /// What the last search reported: nodes, depth, eval, pv; `None` for
    /// bots that do not search.
    fn last_search<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let info = self
            .bot
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .last_search();
        let Some(info) = info else { return Ok(None) };
        let d = PyDict::new(py);
        d.set_item("nodes", info.nodes)?;
        d.set_item("depth", info.depth)?;
        d.set_item("eval", info.eval)?;
        let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
        d.set_item("pv", pv)?;
        d.set_item("extra", info.extra)?;
        Ok(Some(d))
    }

    fn __repr__(&self) -> String {
        format!("Bot('{}')", self.spec)
    }
}

/// Every built-in bot as a dict: name, summary and keys (key, default,
/// accepts, help), in the order `pahtum bots` lists them.
#[pyfunction]
pub fn bots<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let mut out = Vec::new();
    for kind in builtin_catalog().kinds() {
        let d = PyDict::new(py);
        d.set_item("name", kind.name)?;
        d.set_item("summary", kind.summary)?;
        let mut keys = Vec::new();
        for k in kind.keys {
            let kd = PyDict::new(py);
            kd.set_item("key", k.key)?;
            kd.set_item("default", k.default_text())?;
            kd.set_item("accepts", k.accepts())?;
            kd.set_item("help", k.help)?;
            keys.push(kd);
        }
        d.set_item("keys", keys)?;
        out.push(d);
    }
    Ok(out)
}

/// The catalogue as `pahtum bots` prints it.
#[pyfunction]
pub fn bots_text() -> String {
    builtin_catalog().listing()
}

/// The exact solution of `position`, as `pahtum solve` gives it: a dict
/// with result, margin (points), line (the CLI's output line),
/// best_result, best_margin and nodes. Refuses positions with more than
/// `max_empty` free squares, as the CLI does.
#[pyfunction]
#[pyo3(signature = (position, max_empty=DEFAULT_MAX_EMPTY, tt_mb=64))]
pub fn solve<'py>(
    py: Python<'py>,
    position: PyRef<'_, PyPosition>,
    max_empty: u32,
    tt_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    if !(1..=4096).contains(&tt_mb) {
        return Err(value_error(format!(
            "tt_mb: {tt_mb} is out of range (1..=4096)"
        )));
    }
    let pos = *position.pos();
    drop(position);
    let empty = pos.empty().count();
    if empty > max_empty {
        return Err(value_error(format!(
            "{empty} empty squares, more than max_empty {max_empty} (raise it to solve anyway)"
        )));
    }
    let s = py
        .allow_threads(move || Solver::new(tt_mb).solve(&pos, &SolveLimits::default()))
        .map_err(runtime_error)?;
    let d = PyDict::new(py);
    d.set_item("result", s.outcome.name())?;
    d.set_item("margin", s.margin_halves as f64 / 2.0)?;
    d.set_item("margin_text", format_halves(s.margin_halves))?;
    d.set_item("line", s.line())?;
    let names = |v: &[pahtum::Move]| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
    d.set_item("best_result", names(&s.best_result))?;
    d.set_item("best_margin", names(&s.best_margin))?;
    d.set_item("nodes", s.nodes)?;
    Ok(d)
}

/// Keeps each game's `games.csv` line.
struct Rows(Vec<String>);

impl Observer for Rows {
    fn on_game(&mut self, _: &GameRecord, row: &str) -> Result<ControlFlow<()>, ArenaError> {
        self.0.push(row.trim_end().to_string());
        Ok(ControlFlow::Continue(()))
    }
}

/// The rules of a tournament's games as `pahtum.tournament` passes them,
/// one tuple: board side, hole counts (a rule set each), pie rule, komi
/// (`None` for none).
#[derive(FromPyObject)]
pub struct TournamentRules<'py>(u8, Vec<u32>, bool, Option<Bound<'py, PyAny>>);

/// How a tournament runs as `pahtum.tournament` passes it, one tuple:
/// seed, threads (`None` for all cores) and format (`round-robin` or
/// `gauntlet`).
#[derive(FromPyObject)]
pub struct TournamentRun(u64, Option<usize>, String);

/// Runs a tournament with the Rust runner (the same games, seeds and rows
/// as `pahtum tournament`, whose defaults `pahtum.tournament` shares:
/// `--games`, `--seed`, all cores) and returns the text of its `games.csv`
/// lines, `summary.csv` and `ratings.csv`, the GIL released. The tables
/// come from the CLI's own writers, so the Python rows have the files'
/// columns and values.
#[pyfunction]
pub fn tournament_tables(
    py: Python<'_>,
    bots: Vec<String>,
    games: u64,
    rules: TournamentRules<'_>,
    run: TournamentRun,
) -> PyResult<(Vec<String>, String, String)> {
    let TournamentRules(size, holes, pie, komi) = rules;
    let TournamentRun(seed, threads, format) = run;
    let threads = resolve_threads(threads)
        .map_err(|e| value_error(e.to_string().replacen("--threads", "threads", 1)))?;
    let catalog = builtin_catalog();
    let komi = match &komi {
        None => Komi::ZERO,
        Some(k) => parse_komi(k)?,
    };
    let format = match format.as_str() {
        "round-robin" => Format::RoundRobin,
        "gauntlet" => Format::Gauntlet,
        other => {
            return Err(value_error(format!(
                "format: '{other}' is not one of round-robin, gauntlet"
            )));
        }
    };
    let mut specs = Vec::new();
    for b in &bots {
        specs.push(
            catalog
                .parse_unattended(b)
                .map_err(|e| value_error(format!("--bot: {e}")))?,
        );
    }
    if holes.is_empty() {
        return Err(value_error("holes: give at least one hole count"));
    }
    let config = TournamentConfig {
        bots: specs,
        games_per_pairing: games,
        rules: holes
            .iter()
            .map(|&h| Rules {
                size,
                holes: HoleSetup::Random(h),
                pie,
                komi,
            })
            .collect(),
        format,
        seed,
        threads,
        shard: Shard::ALL,
        openings: None,
    };
    let cancel = AtomicBool::new(false);
    let mut rows = Rows(Vec::new());
    let result = py.allow_threads(|| {
        let records = run_tournament(&config, &catalog, &cancel, &mut rows)?;
        let report = Report::new(&config.labels(), &config.schedule(), &records);
        Ok((report.summary_csv(), report.ratings_csv()))
    });
    match result {
        Ok((summary, ratings)) => Ok((rows.0, summary, ratings)),
        Err(e @ (ArenaError::Config(_) | ArenaError::Invalid(_))) => Err(value_error(e)),
        Err(e) => Err(runtime_error(e)),
    }
}
