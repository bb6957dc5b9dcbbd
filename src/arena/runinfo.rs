//! `run.json`: what a run was (a tournament, a study), to rerun, resume
//! and merge it. Every command that writes a run directory records itself
//! in one [`RunFile`], and [`RunFile::resume_in`] is the one check every
//! `--resume` makes.

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use super::run_dir_error::RunDirError;
use super::runopts::{RunOptions, shell_quote};
use super::schedule::{Format, Shard};
use super::tournament::{ArenaError, TournamentConfig};
use crate::bot::BotSpec;
use crate::game::bitboard::Bitboard;
use crate::game::outcome::Komi;
use crate::game::rules::{HoleSetup, Rules};
use crate::game::square::Square;
use crate::game::suite::{Openings, SuiteRecord};

mod clock;

pub use self::clock::{utc_now, utc_rfc3339, utc_stamp};

/// The arguments that define a tournament's games, normalised. Two runs
/// with equal `RunArgs` play the same games; `--threads`, `--out` and
/// `--quiet` are not here because they change no result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunArgs {
    /// `--bot` specs, in order.
    pub bot: Vec<String>,
    /// `--games` per pairing, as given.
    pub games: u64,
    /// `--size`.
    pub size: u8,
    /// `--holes` counts (empty with a fixed layout).
    pub holes: Vec<u32>,
    /// `--layout` squares, if fixed.
    pub layout: Option<Vec<String>>,
    /// `--pie`.
    pub pie: bool,
    /// `--komi` in points, as text (`0`, `6.5`).
    pub komi: String,
    /// `--format`.
    pub format: String,
    /// `--seed`.
    pub seed: u64,
    /// `--engine NAME=COMMAND` declarations.
    pub engine: Vec<String>,
    /// `--move-timeout-ms`.
    pub move_timeout_ms: u64,
    /// `--shard K/N` (`1/1` for the whole schedule).
    pub shard: String,
    /// `--openings FILE`: its path and content hash (absent without one,
    /// so that a run without a suite records what it always did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<SuiteRecord>,
}

impl RunArgs {
    /// The arguments of `config` (which must hold at least one rules
    /// entry) with the engine settings that built its catalogue.
    pub fn new(config: &TournamentConfig, engine: Vec<String>, move_timeout_ms: u64) -> RunArgs {
        let first = config.rules.first().cloned().unwrap_or_default();
        let holes = config
            .rules
            .iter()
            .filter_map(|r| match r.holes {
                HoleSetup::Random(n) => Some(n),
                HoleSetup::Fixed(_) => None,
            })
            .collect();
        let layout = match first.holes {
            HoleSetup::Fixed(b) => Some(b.map(|sq| sq.to_string()).collect()),
            HoleSetup::Random(_) => None,
        };
        RunArgs {
            bot: config.bots.iter().map(|b| b.as_str().to_string()).collect(),
            games: config.games_per_pairing,
            size: first.size,
            holes,
            layout,
            pie: first.pie,
            komi: first.komi.to_string(),
            format: config.format.name().to_string(),
            seed: config.seed,
            engine,
            move_timeout_ms,
            shard: config.shard.to_string(),
            openings: config.openings.as_ref().map(Openings::record),
        }
    }

    /// The tournament these arguments describe, played on `threads`
    /// threads. Checks syntax only; see [`TournamentConfig::validate`].
    ///
    /// # Errors
    /// A field that does not parse.
    pub fn config(&self, threads: usize) -> Result<TournamentConfig, ArenaError> {
        let bad = |m: String| ArenaError::Config(format!("run.json: {m}"));
        let bots = self
            .bot
            .iter()
            .map(|s| s.parse::<BotSpec>().map_err(|e| bad(e.0)))
            .collect::<Result<Vec<_>, _>>()?;
        let komi: Komi = self.komi.parse().map_err(|e| bad(format!("{e}")))?;
        let setups: Vec<HoleSetup> = match &self.layout {
            Some(squares) => {
                let mut b = Bitboard::EMPTY;
                for s in squares {
                    let sq: Square = s.parse().map_err(|e| bad(format!("layout: {e}")))?;
                    b.insert(sq);
                }
                vec![HoleSetup::Fixed(b)]
            }
            None => self.holes.iter().map(|&n| HoleSetup::Random(n)).collect(),
        };
        let rules = Rules::for_setups(self.size, setups, self.pie, komi);
        let openings = match &self.openings {
            None => None,
            Some(r) => {
                Some(super::suite_file::load_recorded(r, self.size, self.pie, komi).map_err(bad)?)
            }
        };
        Ok(TournamentConfig {
            bots,
            games_per_pairing: self.games,
            rules,
            format: self.format.parse::<Format>().map_err(bad)?,
            seed: self.seed,
            threads,
            shard: self.shard.parse::<Shard>().map_err(bad)?,
            openings,
        })
    }

    /// The first argument in which `self` (from `run.json`) and `other`
    /// (this command) differ, as `(option, run.json's value, this value)`,
    /// comparing everything except `except` (e.g. `shard` for merging).
    /// As with [`RunOptions::first_difference`], a `layout` that differs
    /// is named before `holes`, which a fixed layout replaces.
    pub fn difference(&self, other: &RunArgs, except: &[&str]) -> Option<(String, String, String)> {
        let a = serde_json::to_value(self).ok()?;
        let b = serde_json::to_value(other).ok()?;
        let (a, b) = (a.as_object()?, b.as_object()?);
        let differs = |key: &str| {
            let va = a.get(key).cloned().unwrap_or(serde_json::Value::Null);
            let vb = b.get(key).cloned().unwrap_or(serde_json::Value::Null);
            (va != vb).then_some((key.to_string(), va, vb))
        };
        let (key, va, vb) = a
            .keys()
            .filter(|k| !except.contains(&k.as_str()))
            .find_map(|k| differs(k))?;
        let (key, va, vb) = if key == "holes" && !except.contains(&"layout") {
            differs("layout").unwrap_or((key, va, vb))
        } else {
            (key, va, vb)
        };
        let show = |v: &serde_json::Value| match v {
            serde_json::Value::Null => "(none)".to_string(),
            serde_json::Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        Some((format!("--{}", key.replace('_', "-")), show(&va), show(&vb)))
    }

    /// The options of `pahtum tournament` these arguments stand for, as
    /// `run.json` records them for `--resume` to compare.
    pub fn options(&self) -> RunOptions {
        let mut o = RunOptions::new();
        o.add_list("--bot", &self.bot).add("--games", self.games);
        o.add("--size", self.size);
        let holes: Vec<String> = self.holes.iter().map(u32::to_string).collect();
        o.add("--holes", none_if_empty(holes.join(",")));
        o.add(
            "--layout",
            self.layout
                .as_ref()
                .map_or("(none)".into(), |l| l.join(",")),
        );
        o.add("--pie", self.pie).add("--komi", &self.komi);
        o.add("--format", &self.format).add("--seed", self.seed);
        o.add_list("--engine", &self.engine)
            .add("--move-timeout-ms", self.move_timeout_ms);
        o.add("--shard", &self.shard);
        if let Some(r) = &self.openings {
            o.add("--openings", r);
        }
        o
    }

    /// A command line that replays these arguments (without `--out`).
    pub fn command(&self) -> String {
        let mut c = String::from("pahtum tournament");
        for b in &self.bot {
            c.push_str(&format!(" --bot {}", shell_quote(b)));
        }
        c.push_str(&format!(" --games {} --size {}", self.games, self.size));
        match &self.layout {
            Some(l) => c.push_str(&format!(" --layout {}", l.join(","))),
            // A suite's starts bring their own holes.
            None if self.openings.is_some() => {}
            None => {
                let h: Vec<String> = self.holes.iter().map(u32::to_string).collect();
                c.push_str(&format!(" --holes {}", h.join(",")));
            }
        }
        if self.pie {
            c.push_str(" --pie");
        }
        if self.komi != "0" {
            c.push_str(&format!(" --komi {}", self.komi));
        }
        c.push_str(&format!(" --format {} --seed {}", self.format, self.seed));
        for e in &self.engine {
            c.push_str(&format!(" --engine {}", shell_quote(e)));
        }
        if !self.engine.is_empty() {
            c.push_str(&format!(" --move-timeout-ms {}", self.move_timeout_ms));
        }
        if self.shard != "1/1" {
            c.push_str(&format!(" --shard {}", self.shard));
        }
        if let Some(r) = &self.openings {
            c.push_str(&format!(" --openings {}", shell_quote(&r.path)));
        }
        c
    }
}

/// `s`, or `(none)` when empty, as option values are recorded.
pub fn none_if_empty(s: String) -> String {
    if s.is_empty() { "(none)".into() } else { s }
}

/// The contents of `run.json`, whatever the command: what ran, the
/// options that shape its results (compared on resuming), and when; a run
/// of games adds its schedule ([`GamesRun`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFile {
    /// `pahtum`.
    pub program: String,
    /// The subcommand that made the run (`tournament`, `sweep`, `fpa`...).
    #[serde(default)]
    pub command: String,
    /// The options that shape its results, compared when resuming.
    #[serde(default)]
    pub options: RunOptions,
    /// The crate version that ran it.
    pub version: String,
    /// The command line as typed (of the first run, when resumed).
    pub command_line: Vec<String>,
    /// The games of a tournament, a sweep or a sequential test; absent
    /// for the studies whose rows are not games of a schedule.
    #[serde(flatten)]
    pub games: Option<GamesRun>,
    /// Threads of the latest run (changes no result).
    pub threads: usize,
    /// Start, UTC (RFC 3339); kept when resumed.
    pub start_time: String,
    /// End, UTC; absent until the run is complete.
    pub end_time: Option<String>,
    /// Notes for readers (resumes, why not replayable, rating
    /// regularisation...).
    pub notes: Vec<String>,
}

/// What a run of scheduled games records beyond what every run records.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GamesRun {
    /// A command that replays the games (add `--out DIR`).
    pub rerun: String,
    /// The arguments that define the games.
    pub args: RunArgs,
    /// Bot labels, in order (the names in the CSV files).
    pub labels: Vec<String>,
    /// Games per pairing after rounding up to whole pairs.
    pub games_per_pairing: u64,
    /// Games in the whole schedule.
    pub schedule_games: u64,
    /// Games in this run (its shard).
    pub run_games: u64,
    /// Bots whose moves depend on wall-clock time.
    pub timed_bots: Vec<String>,
    /// Whether the same command replays the same games exactly.
    pub replayable: bool,
    /// The shard directories a `merge` joined, if any.
    pub merged_from: Option<Vec<String>>,
}

/// What every `run.json` starts with, whatever wrote it: enough to tell
/// which command made it and with which options.
#[derive(Clone, Debug, Deserialize)]
struct RunHeader {
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    options: Option<RunOptions>,
}

impl RunFile {
    /// The record of a run of `command` with `options` starting now, with
    /// no games part (see [`RunFile::games`]).
    pub fn start(
        command: &str,
        options: RunOptions,
        command_line: Vec<String>,
        threads: usize,
    ) -> RunFile {
        RunFile {
            program: "pahtum".into(),
            command: command.into(),
            options,
            version: env!("CARGO_PKG_VERSION").into(),
            command_line,
            games: None,
            threads,
            start_time: utc_now(),
            end_time: None,
            notes: Vec::new(),
        }
    }

    /// The run in `dir` that a run of `command` with `options` continues,
    /// the check every resume makes before it touches anything: `None`
    /// for an empty or absent directory (or one that holds only a
    /// temporary file of a run killed before it started, when `resume`),
    /// else with `resume` the recorded run, checked to be of `command`
    /// with the same options.
    ///
    /// # Errors
    /// A non-empty directory without `resume`; no or unreadable
    /// `run.json`, a run of another command, the first option that
    /// differs.
    pub fn resume_in(
        dir: &Path,
        command: &str,
        options: &RunOptions,
        resume: bool,
    ) -> Result<Option<RunFile>, RunDirError> {
        let only_tmp = std::fs::read_dir(dir).is_ok_and(|d| {
            d.flatten()
                .all(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        });
        if !is_non_empty(dir) || (resume && only_tmp) {
            return Ok(None);
        }
        let d = || dir.to_path_buf();
        if !resume {
            return Err(RunDirError::NotEmpty { dir: d() });
        }
        let path = dir.join("run.json");
        if !path.exists() {
            return Err(RunDirError::NoRunFile {
                dir: d(),
                command: command.into(),
            });
        }
        let text = std::fs::read(&path).map_err(|e| RunDirError::Unreadable {
            dir: d(),
            error: e.to_string(),
        })?;
        let malformed = |e: serde_json::Error| RunDirError::Malformed {
            dir: d(),
            error: e.to_string(),
        };
        let header: RunHeader = serde_json::from_slice(&text).map_err(malformed)?;
        let (Some(was), Some(old)) = (header.command, header.options) else {
            return Err(RunDirError::NoOptions { dir: d() });
        };
        if was != command {
            return Err(RunDirError::OtherCommand {
                dir: d(),
                was,
                command: command.into(),
            });
        }
        if let Some((option, was, now)) = old.first_difference(options, &[]) {
            return Err(RunDirError::Differs {
                option: option.into(),
                was: was.map(str::to_string),
                now: now.map(str::to_string),
            });
        }
        serde_json::from_slice(&text).map(Some).map_err(malformed)
    }

    /// The games part of a run of games.
    ///
    /// # Errors
    /// [`ArenaError::Config`] for a run whose rows are not games of a
    /// schedule (`dir` names it).
    pub fn games(&self, dir: &Path) -> Result<&GamesRun, ArenaError> {
        self.games.as_ref().ok_or_else(|| {
            ArenaError::Config(format!(
                "{}/run.json: {} records no games",
                dir.display(),
                a_run(&self.command)
            ))
        })
    }

    /// Reads `dir/run.json`.
    ///
    /// # Errors
    /// Missing or malformed file (a [`ArenaError::Config`] naming it).
    pub fn load(dir: &Path) -> Result<RunFile, ArenaError> {
        let path = dir.join("run.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| ArenaError::Config(format!("{}: cannot read: {e}", path.display())))?;
        serde_json::from_str(&text)
            .map_err(|e| ArenaError::Config(format!("{}: {e}", path.display())))
    }

    /// Writes `dir/run.json` atomically (a temporary file renamed).
    ///
    /// # Errors
    /// An I/O error.
    pub fn save(&self, dir: &Path) -> Result<(), ArenaError> {
        let mut text = serde_json::to_string_pretty(self)
            .map_err(|e| ArenaError::Game(format!("run.json: {e}")))?;
        text.push('\n');
        write_atomic(&dir.join("run.json"), text.as_bytes())
    }
}

/// Writes `path` through a temporary file and a rename, so a reader (or a
/// kill) never sees it half-written.
///
/// # Errors
/// An I/O error naming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ArenaError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = TempFile(Some(std::path::PathBuf::from(tmp)));
    let name = tmp.path();
    std::fs::write(name, bytes).map_err(|e| ArenaError::io(name, e))?;
    std::fs::rename(name, path).map_err(|e| ArenaError::io(path, e))?;
    tmp.persisted();
    Ok(())
}

/// Checks that files can be written in `dir` by writing (and removing)
/// the temporary file of the first file a run writes, `run.json.tmp`: a
/// full or read-only disk is found before anything is printed or played.
///
/// # Errors
/// The I/O error of the write.
pub fn check_writable(dir: &Path) -> std::io::Result<()> {
    let tmp = TempFile(Some(dir.join("run.json.tmp")));
    std::fs::write(tmp.path(), b"{}\n")
}

/// A temporary file that is removed when dropped unless it was persisted
/// (renamed into place): a write that fails, on a full disk say, leaves
/// no empty `*.tmp` behind.
struct TempFile(Option<std::path::PathBuf>);

impl TempFile {
    fn path(&self) -> &Path {
        self.0.as_deref().unwrap_or(Path::new(""))
    }

    /// The file now lives under its final name: nothing to remove.
    fn persisted(mut self) {
        self.0 = None;
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Whether `dir` exists and holds anything.
pub fn is_non_empty(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some())
}

/// The command `dir/run.json` records, read leniently: `None` for a
/// file that is missing, not JSON, or names none. For telling runs
/// apart before reading one whole.
pub fn command_in(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("run.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("command")?.as_str().map(str::to_string)
}

/// The article a command's name takes in a sentence: "an" before a vowel
/// or a name read as letters (`fpa`, `sprt`), else "a".
pub fn article(command: &str) -> &'static str {
    let letters = matches!(command, "fpa" | "sprt");
    if letters || command.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// "a tournament run", "an fpa run": a run of `command` in a sentence
/// ("a run" where `run.json` names no command).
pub fn a_run(command: &str) -> String {
    if command.is_empty() {
        return "a run".to_string();
    }
    format!("{} {command} run", article(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("summary.csv");
        // The temporary file is a link to /dev/full: every write fails
        // with "no space left on device", as on a full disk.
        std::os::unix::fs::symlink("/dev/full", dir.path().join("summary.csv.tmp"))
            .expect("symlink");
        let e = write_atomic(&path, b"bot,elo\n").expect_err("disk full");
        assert!(e.to_string().contains("summary.csv.tmp"), "{e}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("read").collect();
        assert!(left.is_empty(), "{left:?}");
        write_atomic(&path, b"x\n").expect("write");
        assert_eq!(std::fs::read(&path).expect("read"), b"x\n");
        assert_eq!(std::fs::read_dir(dir.path()).expect("read").count(), 1);
    }

    #[test]
    fn dates() {
        assert_eq!(utc_rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_rfc3339(1_795_951_513), "2026-11-29T11:25:13Z");
    }

    #[test]
    fn resuming_checks_the_command_and_the_options() {
        let dir = tempfile::tempdir().expect("dir");
        let mut o = RunOptions::new();
        o.add("--games", 4);
        let open = |o: &RunOptions, resume| RunFile::resume_in(dir.path(), "fpa", o, resume);
        assert_eq!(open(&o, false), Ok(None));
        std::fs::write(dir.path().join("x.tmp"), b"").expect("write");
        assert_eq!(open(&o, true), Ok(None));
        assert!(matches!(open(&o, false), Err(RunDirError::NotEmpty { .. })));
        std::fs::write(dir.path().join("fpa.csv"), b"").expect("write");
        let e = open(&o, true).expect_err("no run.json");
        assert!(matches!(e, RunDirError::NoRunFile { .. }), "{e}");
        let mut run = RunFile::start("tournament", o.clone(), vec![], 1);
        run.save(dir.path()).expect("save");
        let e = open(&o, true).expect_err("tournament");
        assert!(
            e.to_string()
                .ends_with(" holds a tournament run, not an fpa run"),
            "{e}"
        );
        run.command = "fpa".into();
        run.save(dir.path()).expect("save");
        assert_eq!(open(&o, true), Ok(Some(run.clone())));
        let mut other = RunOptions::new();
        other.add("--games", 5);
        assert_eq!(
            open(&other, true).map_err(|e| e.to_string()),
            Err("--games: the run has 4, this one asks for 5".into())
        );
        std::fs::write(dir.path().join("run.json"), b"{}").expect("write");
        assert!(matches!(open(&o, true), Err(RunDirError::NoOptions { .. })));
        std::fs::write(dir.path().join("run.json"), b"\x00\xff").expect("write");
        let e = open(&o, true).expect_err("binary");
        assert!(matches!(e, RunDirError::Malformed { .. }), "{e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }

    #[test]
    fn a_run_file_of_either_kind_reads_back() {
        let study = RunFile::start("exact", RunOptions::new(), vec!["pahtum".into()], 2);
        let text = serde_json::to_string(&study).expect("json");
        assert!(!text.contains("\"args\""), "{text}");
        assert_eq!(serde_json::from_str::<RunFile>(&text).ok(), Some(study));
    }

    #[test]
    fn args_round_trip_and_differ() {
        let a = RunArgs {
            bot: vec!["random".into(), "random:label=b".into()],
            games: 10,
            size: 7,
            holes: vec![3, 5],
            layout: None,
            pie: true,
            komi: "2.5".into(),
            format: "round-robin".into(),
            seed: 4,
            engine: vec![],
            move_timeout_ms: 30_000,
            shard: "2/3".into(),
            openings: None,
        };
        let c = a.config(2).expect("config");
        assert_eq!(RunArgs::new(&c, vec![], 30_000), a);
        let mut b = a.clone();
        b.games = 12;
        assert_eq!(
            a.difference(&b, &[]),
            Some(("--games".into(), "10".into(), "12".into()))
        );
        b.games = 10;
        b.shard = "1/3".into();
        assert!(a.difference(&b, &["shard"]).is_none());
        assert!(a.command().contains("--holes 3,5 --pie --komi 2.5"));
    }
}
