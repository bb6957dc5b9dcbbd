//! The controller side: an external engine as a [`Bot`].
//!
//! An [`EngineFactory`] is registered in the [`crate::bot::Catalog`] under
//! the engine's name (`--engine NAME=COMMAND`). Each bot it builds plays one
//! game; it takes an engine process from the factory's pool (starting one
//! if the pool is empty) at its first move and gives it back when dropped,
//! so a tournament with T worker threads runs at most T processes per
//! engine and reuses them across games with `clear_board`.
//!
//! Faults (docs/protocol.md): an engine that exits or closes its output is
//! a [`BotFault::Crash`]; one that does not answer within the move timeout
//! is a [`BotFault::Timeout`] (and is killed); an answer that is not an
//! answer, a refused command, or a move that is not legal is a
//! [`BotFault::Illegal`]. The faulty process is never reused: it is killed,
//! the tail of its stderr goes to the log, and the next game starts a fresh
//! one.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::process::{EngineProcess, shorten};
use super::timing::{parse_info, seconds};
use super::wire::colour_letter;
use crate::bot::clock::{Clock, FLAG_MARGIN};
use crate::bot::spec::{BotFactory, SpecError};
use crate::bot::{Bot, BotFault, SearchInfo};
use crate::game::outcome::Move;
use crate::game::position::Position;
use crate::game::record::Game;

/// Most extra time a freshly started engine gets for its first answer.
pub const START_TIMEOUT: Duration = Duration::from_secs(10);

/// The wait for a fresh engine's first answer, which includes its start-up
/// (an interpreter, a model to load): ten times the move timeout, capped
/// at [`START_TIMEOUT`], never less than the move timeout. A tight move
/// timeout thus keeps a tight start-up, while a loaded machine starting
/// Python does not lose games at 300 ms.
pub fn start_timeout(move_timeout: Duration) -> Duration {
    (move_timeout * 10).min(START_TIMEOUT).max(move_timeout)
}

/// How to run one external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name it has as a bot spec.
    pub name: String,
    /// Program and arguments (no shell).
    pub argv: Vec<String>,
    /// Longest wait for any answer, `genmove` included.
    pub move_timeout: Duration,
    /// Where fault reports with the engine's stderr tail go (appended);
    /// `None`: this program's stderr.
    pub log: Option<PathBuf>,
}

/// What the engine holds: the game it was set up for and the moves it has
/// seen, so a later call only sends what is new.
#[derive(Clone, Debug)]
struct Synced {
    start: Position,
    moves: Vec<Move>,
}

/// A running engine with what we know about it.
struct Session {
    process: EngineProcess,
    /// Whether it knows the optional `seed` command.
    seedable: bool,
    /// Whether it knows `time_settings` and `time_left` (asked as
    /// `known_command time_left`).
    clocked: bool,
    /// Whether it knows `search_info`.
    informs: bool,
    synced: Option<Synced>,
}

/// State shared by the factory and every bot it built.
struct Shared {
    config: EngineConfig,
    pool: Mutex<Vec<Session>>,
    log: Mutex<Option<File>>,
}

/// Builds bots backed by one external engine; holds its process pool.
pub struct EngineFactory {
    shared: Arc<Shared>,
}

impl EngineFactory {
    /// A factory for `config`. Starts nothing: processes start at the first
    /// move that needs one.
    pub fn new(config: EngineConfig) -> EngineFactory {
        EngineFactory {
            shared: Arc::new(Shared {
                config,
                pool: Mutex::new(Vec::new()),
                log: Mutex::new(None),
            }),
        }
    }

    /// Engines idle in the pool now.
    pub fn idle(&self) -> usize {
        self.shared.lock_pool().len()
    }
}

impl BotFactory for EngineFactory {
    fn summary(&self) -> String {
        format!(
            "external engine: {}",
            shorten(&self.shared.config.argv.join(" "), 60)
        )
    }

    fn build(&self, label: &str, seed: u64) -> Result<Box<dyn Bot>, SpecError> {
        Ok(Box::new(EngineBot {
            label: label.to_string(),
            seed,
            shared: Arc::clone(&self.shared),
            session: None,
            clock: None,
            info: None,
        }))
    }
}

impl Shared {
    fn lock_pool(&self) -> std::sync::MutexGuard<'_, Vec<Session>> {
        self.pool.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// An idle engine from the pool, else a new one (asked whether it knows
    /// `seed`).
    fn checkout(&self, label: &str) -> Result<Session, BotFault> {
        // An engine that died while idle is dropped (killing what is left
        // of its group) rather than charged with the next game.
        while let Some(mut s) = self.lock_pool().pop() {
            if !s.process.has_exited() {
                return Ok(s);
            }
        }
        let process = EngineProcess::spawn(&self.config.argv).map_err(|e| {
            let fault = BotFault::Crash(format!("cannot start the engine: {e}"));
            self.write_log(&format!(
                "engine {} (`{}`), bot {label}: {fault}\n",
                self.config.name,
                self.config.argv.join(" ")
            ));
            fault
        })?;
        let mut session = Session {
            process,
            seedable: false,
            clocked: false,
            informs: false,
            synced: None,
        };
        // The first answer also waits for the interpreter or model to load,
        // which a short move timeout must not turn into a fault.
        let first = start_timeout(self.config.move_timeout);
        let mut known = |cmd: &str, timeout| {
            session
                .process
                .command(&format!("known_command {cmd}"), timeout)
                .map(|a| a.ok && a.text == "true")
        };
        let asked = known("seed", first).and_then(|seed| {
            let timeout = self.config.move_timeout;
            Ok((
                seed,
                known("time_left", timeout)?,
                known("search_info", timeout)?,
            ))
        });
        match asked {
            Ok((seed, clocked, informs)) => {
                session.seedable = seed;
                session.clocked = clocked;
                session.informs = informs;
            }
            Err(fault) => {
                self.retire(session, label, &fault);
                return Err(fault);
            }
        }
        Ok(session)
    }

    /// Kills a faulty engine and logs the fault with its stderr tail (an
    /// interrupted run's engines are killed without a report: they did no
    /// wrong).
    fn retire(&self, mut session: Session, label: &str, fault: &BotFault) {
        session.process.kill();
        if *fault == BotFault::Interrupted {
            return;
        }
        let tail = session.process.stderr_tail();
        let mut text = format!(
            "engine {} (pid {}, `{}`), bot {label}: {fault}\n",
            self.config.name,
            session.process.pid(),
            self.config.argv.join(" ")
        );
        if tail.is_empty() {
            text.push_str("  stderr: (empty)\n");
        } else {
            text.push_str(&format!("  stderr, last {} lines:\n", tail.len()));
            for line in tail {
                text.push_str(&format!("  | {line}\n"));
            }
        }
        self.write_log(&text);
    }

    /// Appends `text` to the log file (opened on first use), or writes it to
    /// stderr when there is no log file or it cannot be written.
    fn write_log(&self, text: &str) {
        if let Some(path) = &self.config.log {
            let mut file = self.log.lock().unwrap_or_else(|p| p.into_inner());
            if file.is_none() {
                *file = OpenOptions::new().create(true).append(true).open(path).ok();
            }
            if let Some(f) = file.as_mut()
                && f.write_all(text.as_bytes()).and_then(|_| f.flush()).is_ok()
            {
                return;
            }
        }
        eprint!("{text}");
    }
}

impl Drop for Shared {
    /// The last bot and the factory are gone: idle engines are asked to quit.
    fn drop(&mut self) {
        let idle = std::mem::take(&mut *self.lock_pool());
        for s in idle {
            s.process.close();
        }
    }
}

/// One game's player backed by an external engine.
pub struct EngineBot {
    label: String,
    seed: u64,
    shared: Arc<Shared>,
    session: Option<Session>,
    /// The clock shown before this move, in a clocked game.
    clock: Option<Clock>,
    /// The engine's report of its last search (`search_info`).
    info: Option<SearchInfo>,
}

/// Added to the clock for the wait on a clocked `genmove`: the arena
/// decides the loss on time, so the wait must outlast its margin.
const CLOCK_WAIT_SLACK: Duration = Duration::from_millis(200);

impl EngineBot {
    fn run(&mut self, session: &mut Session, game: &Game) -> Result<Move, BotFault> {
        let timeout = self.shared.config.move_timeout;
        let in_sync = session
            .synced
            .as_ref()
            .is_some_and(|s| s.start == *game.start() && game.moves().starts_with(&s.moves));
        if !in_sync {
            session.synced = None;
            setup(session, game.start(), self.seed, timeout)?;
            session.synced = Some(Synced {
                start: *game.start(),
                moves: Vec::new(),
            });
            // A clocked game starts with the control: the first clock
            // shown is the base time.
            if let (Some(c), true) = (self.clock, session.clocked) {
                let cmd = format!("time_settings {} {}", seconds(c.left), seconds(c.inc));
                expect_ok(&mut session.process, &cmd, timeout, true)?;
            }
        }
        let known = session.synced.as_ref().map_or(0, |s| s.moves.len());
        let mut pos = *game.start();
        for (i, &mv) in game.moves().iter().enumerate() {
            if i >= known {
                let cmd = format!("play {} {mv}", colour_letter(pos.turn()));
                expect_ok(&mut session.process, &cmd, timeout, false)?;
                if let Some(s) = session.synced.as_mut() {
                    s.moves.push(mv);
                }
            }
            pos.try_play_move(mv)
                .map_err(|e| BotFault::Illegal(format!("game history does not replay: {e}")))?;
        }
        let colour = colour_letter(pos.turn());
        let mut wait = timeout;
        if let Some(c) = self.clock {
            if session.clocked {
                let cmd = format!("time_left {colour} {}", seconds(c.left));
                expect_ok(&mut session.process, &cmd, timeout, true)?;
            }
            // The clock, not the move timeout, bounds a clocked move.
            wait = c.left + FLAG_MARGIN + CLOCK_WAIT_SLACK;
        }
        let cmd = format!("genmove {colour}");
        let answer = session.process.command(&cmd, wait)?;
        if !answer.ok {
            return Err(BotFault::Illegal(format!(
                "engine refused '{cmd}': {}",
                shorten(&answer.text, 80)
            )));
        }
        let mv: Move = answer.text.parse().map_err(|_| {
            BotFault::Illegal(format!(
                "'{}' is not a move (answer to '{cmd}')",
                shorten(&answer.text, 40)
            ))
        })?;
        pos.try_play_move(mv)
            .map_err(|e| BotFault::Illegal(format!("{mv}: {e}")))?;
        if let Some(s) = session.synced.as_mut() {
            s.moves.push(mv);
        }
        self.info = None;
        if session.informs {
            let a = session.process.command("search_info", timeout)?;
            if a.ok && !a.text.is_empty() {
                self.info = Some(parse_info(&a.text));
            }
        }
        Ok(mv)
    }
}

/// Sets the engine up for a new game from `start`.
fn setup(
    session: &mut Session,
    start: &Position,
    seed: u64,
    timeout: Duration,
) -> Result<(), BotFault> {
    let p = &mut session.process;
    expect_ok(p, &format!("boardsize {}", start.size()), timeout, false)?;
    expect_ok(p, "clear_board", timeout, false)?;
    let holes: Vec<String> = start.holes().map(|s| s.to_string()).collect();
    let cmd = if holes.is_empty() {
        "set_holes".to_string()
    } else {
        format!("set_holes {}", holes.join(" "))
    };
    expect_ok(p, &cmd, timeout, false)?;
    // An engine that knows nothing of komi or the pie rule may still play
    // games without them: only a refusal that matters is a fault.
    let komi = start.komi();
    expect_ok(p, &format!("komi {komi}"), timeout, komi.halves() == 0)?;
    let pie = if start.pie() { "on" } else { "off" };
    expect_ok(p, &format!("pie {pie}"), timeout, !start.pie())?;
    if session.seedable {
        expect_ok(p, &format!("seed {seed}"), timeout, false)?;
    }
    Ok(())
}

/// Sends `cmd`, which must succeed unless `may_refuse`.
fn expect_ok(
    p: &mut EngineProcess,
    cmd: &str,
    timeout: Duration,
    may_refuse: bool,
) -> Result<(), BotFault> {
    let a = p.command(cmd, timeout)?;
    if a.ok || may_refuse {
        Ok(())
    } else {
        Err(BotFault::Illegal(format!(
            "engine refused '{cmd}': {}",
            shorten(&a.text, 80)
        )))
    }
}

impl Bot for EngineBot {
    fn name(&self) -> &str {
        &self.label
    }

    fn set_clock(&mut self, clock: Option<Clock>) {
        self.clock = clock;
    }

    fn last_search(&self) -> Option<SearchInfo> {
        self.info.clone()
    }

    fn select_move(&mut self, game: &Game) -> Result<Move, BotFault> {
        let mut session = match self.session.take() {
            Some(s) => s,
            None => {
                let mut s = self.shared.checkout(&self.label)?;
                // Whatever it played before, this bot's game starts afresh
                // (and gets this bot's seed).
                s.synced = None;
                s
            }
        };
        match self.run(&mut session, game) {
            Ok(mv) => {
                self.session = Some(session);
                Ok(mv)
            }
            Err(fault) => {
                self.shared.retire(session, &self.label, &fault);
                Err(fault)
            }
        }
    }
}

impl Drop for EngineBot {
    /// A healthy engine goes back to the pool for the next game.
    fn drop(&mut self) {
        if let Some(s) = self.session.take() {
            self.shared.lock_pool().push(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_timeouts() {
        let ms = Duration::from_millis;
        assert_eq!(start_timeout(ms(300)), ms(3000));
        assert_eq!(start_timeout(ms(30_000)), ms(30_000));
        assert_eq!(start_timeout(ms(5_000)), ms(10_000));
    }
}
