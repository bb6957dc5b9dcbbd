//! The engine protocol end to end: `pahtum engine` conformance, external
//! engines as bots (the example engine, `pahtum engine` itself), and fault
//! injection with the misbehaving engines of tests/engines/.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pahtum::arena::game::{Termination, play_game};
use pahtum::bot::random::RandomBot;
use pahtum::bot::spec::BotFactory;
use pahtum::game::record::Game;
use pahtum::protocol::{EngineConfig, EngineFactory};
use pahtum::{FastRng, Move, Outcome, Player, Position, Rules, Square};

use common::{BIN, assert_none_left, processes_with, repo, wait_for_process};

/// A `pahtum engine` driven one command at a time.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(BIN)
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start pahtum engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Session {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends `cmd`, returns (ok, text) of the answer, checking the framing.
    fn ask(&mut self, cmd: &str) -> (bool, String) {
        writeln!(self.stdin, "{cmd}").expect("write");
        self.stdin.flush().expect("flush");
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "engine closed its output after '{cmd}'");
            let line = line.trim_end_matches('\n').to_string();
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        let first = lines.first().cloned().unwrap_or_default();
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!("'{cmd}': not an answer: {lines:?}"),
        };
        let mut text = first[1..].trim().to_string();
        for l in &lines[1..] {
            text.push('\n');
            text.push_str(l);
        }
        (ok, text.trim().to_string())
    }

    fn ok(&mut self, cmd: &str) -> String {
        let (ok, text) = self.ask(cmd);
        assert!(ok, "'{cmd}' refused: {text}");
        text
    }

    fn refused(&mut self, cmd: &str) {
        let (ok, text) = self.ask(cmd);
        assert!(!ok, "'{cmd}' should be refused, got '{text}'");
    }

    /// Closes stdin and expects a clean exit.
    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "{status}");
    }
}

#[test]
fn every_command_and_malformed_ones() {
    let mut s = Session::start(&["--bot", "random", "--seed", "5"]);
    assert_eq!(s.ok("protocol_version"), "1");
    assert_eq!(s.ok("name"), "pahtum random");
    assert_eq!(s.ok("version"), env!("CARGO_PKG_VERSION"));
    let commands = s.ok("list_commands");
    let expected = "protocol_version name version list_commands boardsize clear_board \
                    set_holes play genmove undo showboard final_score quit komi pie";
    for c in expected.split_whitespace() {
        assert!(commands.lines().any(|l| l == c), "{c} missing");
        assert_eq!(s.ok(&format!("known_command {c}")), "true");
    }
    assert_eq!(s.ok("known_command fly"), "false");
    // Ids are echoed.
    writeln!(s.stdin, "42 name").expect("write");
    let mut line = String::new();
    s.stdout.read_line(&mut line).expect("read");
    assert_eq!(line, "=42 pahtum random\n");
    s.stdout.read_line(&mut line).expect("read");
    // A lone id, with or without trailing blanks, is answered under its id:
    // a controller waiting for that answer must not hang.
    for lone in ["7", "7 ", "7\t# nothing else"] {
        writeln!(s.stdin, "{lone}").expect("write");
        let mut line = String::new();
        s.stdout.read_line(&mut line).expect("read");
        assert!(line.starts_with("?7 "), "{lone:?}: {line}");
        line.clear();
        s.stdout.read_line(&mut line).expect("read");
        assert_eq!(line, "\n", "{lone:?}");
    }
    s.refused("99999999999999999999999");
    // Malformed and out-of-order commands: refused, the engine goes on.
    for bad in [
        "genmove b",
        "play b d4",
        "play w",
        "play w d4 d5",
        "play w i9",
        "play green d4",
        "play w swap",
        "boardsize 2",
        "boardsize nine",
        "komi lots",
        "pie sometimes",
        "undo",
        "set_holes a1 zz",
        "dance",
        "\u{1}genmove\u{2} b",
    ] {
        s.refused(bad);
    }
    // Comment and blank lines get no answer at all.
    writeln!(s.stdin, "# a comment\n\n   ").expect("write");
    assert_eq!(s.ok("name"), "pahtum random");
    s.ok("boardsize 4");
    s.ok("clear_board");
    s.ok("set_holes a1 d4");
    s.refused("play w a1");
    s.ok("komi -1.5");
    s.ok("pie on");
    s.ok("play w b2");
    s.refused("set_holes c3");
    s.refused("genmove w");
    let board = s.ok("showboard");
    assert!(board.contains("4 . . . #"), "{board}");
    assert!(board.contains("2 . W . ."), "{board}");
    assert!(board.contains("1 # . . ."), "{board}");
    assert!(board.contains("to_move b"), "{board}");
    assert_eq!(s.ok("final_score"), "W+1.5");
    s.ok("undo");
    assert_eq!(s.ok("quit"), "");
    let status = s.child.wait().expect("wait");
    assert!(status.success());
}

/// Plays a full game by the protocol: the engine plays both sides; every
/// move is checked against the rules here.
#[test]
fn full_game_pie_swap_and_undo() {
    let mut s = Session::start(&["--bot", "random"]);
    let holes = ["a1", "c5", "g7", "d2", "f6"];
    s.ok("boardsize 7");
    s.ok("clear_board");
    s.ok(&format!("set_holes {}", holes.join(" ")));
    s.ok("komi 2.5");
    s.ok("pie on");
    let hole_set = holes
        .iter()
        .map(|h| h.parse::<Square>().expect("sq"))
        .collect();
    let mut pos = Position::new(7, hole_set, true, "2.5".parse().expect("komi")).expect("pos");
    while !pos.is_game_over() {
        let colour = if pos.turn() == Player::White {
            "w"
        } else {
            "b"
        };
        let mv: Move = s.ok(&format!("genmove {colour}")).parse().expect("a move");
        pos.try_play_move(mv).expect("legal");
    }
    assert_eq!(pos.empty().count(), 0);
    let margin = pos.margin_halves();
    let expected = match margin.signum() {
        1 => format!("W+{}", pahtum::Komi::from_halves(margin)),
        -1 => format!("B+{}", pahtum::Komi::from_halves(-margin)),
        _ => "0".to_string(),
    };
    assert_eq!(s.ok("final_score"), expected);
    s.refused("genmove w");
    s.refused("genmove b");
    s.ok("undo");
    let board = s.ok("showboard");
    let colour = if board.contains("to_move w") {
        "w"
    } else {
        "b"
    };
    assert!(s.ok(&format!("genmove {colour}")).parse::<Square>().is_ok());

    // The random bot swaps half the time: some seed makes it swap, after
    // which Black (now the first player) is still to move.
    let mut swapped = false;
    for seed in 0..20 {
        s.ok(&format!("seed {seed}"));
        s.ok("clear_board");
        s.ok("play w d4");
        if s.ok("genmove b") == "swap" {
            swapped = true;
            assert!(s.ok("showboard").contains("swapped yes"));
            s.refused("genmove w");
            s.ok("genmove b");
            s.ok("undo");
            s.ok("undo");
            assert!(s.ok("showboard").contains("swapped no"));
            s.ok("play b swap");
            s.refused("play b swap");
            break;
        }
    }
    assert!(swapped, "no swap in 20 seeds");
    s.finish();
}

#[test]
fn same_seed_same_moves_and_bad_bot_spec() {
    let moves = || {
        let mut s = Session::start(&["--bot", "random", "--seed", "9"]);
        let m: Vec<String> = (0..6)
            .map(|i| s.ok(if i % 2 == 0 { "genmove w" } else { "genmove b" }))
            .collect();
        s.finish();
        m
    };
    assert_eq!(moves(), moves());
    let out = Command::new(BIN)
        .args(["engine", "--bot", "nosuch"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown bot 'nosuch'"), "{err}");
}

// ---------------------------------------------------------------- client

fn factory(name: &str, argv: Vec<String>, timeout_ms: u64, log: Option<PathBuf>) -> EngineFactory {
    EngineFactory::new(EngineConfig {
        name: name.into(),
        argv,
        move_timeout: Duration::from_millis(timeout_ms),
        log,
    })
}

fn start(seed: u64, pie: bool) -> Position {
    Rules {
        pie,
        ..Rules::default()
    }
    .new_game(&mut FastRng::new(seed))
    .expect("game")
}

#[test]
fn example_engine_plays_and_is_reused() {
    let tag = format!("greedy-reuse-{}", std::process::id());
    let argv = vec![
        "python3".into(),
        repo("examples/greedy_engine.py"),
        tag.clone(),
    ];
    let f = factory("py", argv, 10_000, None);
    let mut wins = 0;
    for g in 0..4u64 {
        let mut engine = f.build("py", g).expect("bot");
        let mut random = RandomBot::new("random", g);
        let r = if g % 2 == 0 {
            play_game(
                Game::new(start(g, g == 2)),
                &mut *engine,
                &mut random,
                [None; 2],
                |_| {},
            )
        } else {
            play_game(
                Game::new(start(g, g == 3)),
                &mut random,
                &mut *engine,
                [None; 2],
                |_| {},
            )
        };
        assert_eq!(r.termination, Termination::Normal, "{:?}", r.fault);
        assert!(r.game.is_over());
        let engine_colour = match (g % 2 == 0) != r.swapped {
            true => Player::White,
            false => Player::Black,
        };
        if r.outcome != Outcome::Draw && r.outcome.winner() == Some(engine_colour) {
            wins += 1;
        }
    }
    // Greedy beats random nearly always.
    assert!(wins >= 3, "greedy won {wins} of 4");
    // One process served all four games, and waits in the pool.
    assert_eq!(f.idle(), 1);
    assert_eq!(processes_with(&tag).len(), 1);
    drop(f);
    assert_none_left(&tag);
}

#[test]
fn pahtum_engine_as_external_engine_is_deterministic() {
    let argv: Vec<String> = [BIN, "engine", "--bot", "random"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let f = factory("me", argv, 10_000, None);
    let run = |seed: u64| {
        let mut a = f.build("me", seed).expect("bot");
        let mut b = RandomBot::new("random", 1);
        let r = play_game(
            Game::new(start(3, true)),
            &mut *a,
            &mut b,
            [None; 2],
            |_| {},
        );
        assert_eq!(r.termination, Termination::Normal, "{:?}", r.fault);
        r.game.moves_text()
    };
    // The engine supports `seed`, so a game depends on the bot's seed only,
    // not on which pooled process plays it.
    let first = run(11);
    assert_ne!(first, run(12));
    assert_eq!(first, run(11));
}

/// One faulty engine against the random bot, both seatings: every game is
/// lost by the engine with `want`; afterwards no process remains.
fn fault_case(mode: &str, after: u32, timeout_ms: u64, want: Termination) -> String {
    let tag = format!("fault-{mode}-{}", std::process::id());
    let dir = tempfile::tempdir().expect("tempdir");
    let log = dir.path().join("engines.log");
    let argv = vec![
        "python3".into(),
        repo("tests/engines/faulty.py"),
        mode.into(),
        after.to_string(),
        tag.clone(),
    ];
    let f = Arc::new(factory(mode, argv, timeout_ms, Some(log.clone())));
    for g in 0..2u64 {
        let mut engine = f.build(mode, g).expect("bot");
        let mut random = RandomBot::new("random", g);
        let (r, engine_colour) = if g == 0 {
            let r = play_game(
                Game::new(start(g, false)),
                &mut *engine,
                &mut random,
                [None; 2],
                |_| {},
            );
            (r, Player::White)
        } else {
            let r = play_game(
                Game::new(start(g, false)),
                &mut random,
                &mut *engine,
                [None; 2],
                |_| {},
            );
            (r, Player::Black)
        };
        assert_eq!(r.termination, want, "{mode}: {:?}", r.fault);
        assert_eq!(r.outcome.winner(), Some(!engine_colour), "{mode}");
        assert_eq!(r.fault.as_ref().map(|f| f.0), Some(engine_colour));
    }
    // Faulty processes are not pooled.
    assert_eq!(f.idle(), 0);
    drop(f);
    assert_none_left(&tag);
    std::fs::read_to_string(&log).expect("engines.log written")
}

#[test]
fn crash_loses_with_crash_and_logs_stderr() {
    let log = fault_case("crash", 3, 10_000, Termination::Crash);
    assert!(log.contains("crashing on purpose"), "{log}");
    assert!(log.contains("exit status: 3"), "{log}");
}

#[test]
fn startup_failure_loses_with_crash() {
    let log = fault_case("startup", 1, 10_000, Termination::Crash);
    assert!(log.contains("failing at startup"), "{log}");
}

#[test]
fn hang_loses_with_timeout() {
    let t0 = Instant::now();
    let log = fault_case("hang", 2, 300, Termination::Timeout);
    assert!(log.contains("within 300 ms"), "{log}");
    assert!(t0.elapsed() < Duration::from_secs(10));
}

#[test]
fn an_engine_that_never_answers_loses_with_timeout() {
    // The first answer of a fresh engine may take 10 x 100 ms.
    let t0 = Instant::now();
    let log = fault_case("mute", 1, 100, Termination::Timeout);
    assert!(
        log.contains("no answer to 'known_command seed' within 1000 ms"),
        "{log}"
    );
    assert!(t0.elapsed() < Duration::from_secs(10));
}

#[test]
fn illegal_square_loses_with_illegal_move() {
    fault_case("illegal", 2, 10_000, Termination::IllegalMove);
}

#[test]
fn garbage_and_refusal_lose_with_illegal_move() {
    let log = fault_case("garbage", 1, 10_000, Termination::IllegalMove);
    assert!(log.contains("garbage"), "{log}");
    fault_case("refuse", 4, 10_000, Termination::IllegalMove);
}

#[cfg(unix)]
#[test]
fn a_hung_wrapper_script_dies_with_its_children() {
    // A number no other process uses as its sleep time.
    let secs = (4000 + std::process::id() % 50000).to_string();
    let argv = vec![repo("tests/engines/hang.sh"), secs.clone()];
    let f = factory("sh", argv, 200, None);
    let mut engine = f.build("sh", 0).expect("bot");
    let mut random = RandomBot::new("random", 0);
    let r = play_game(
        Game::new(start(0, false)),
        &mut *engine,
        &mut random,
        [None; 2],
        |_| {},
    );
    assert_eq!(r.termination, Termination::Timeout);
    drop(engine);
    drop(f);
    assert_none_left(&format!("sleep\0{secs}"));
    assert_none_left(&format!("hang.sh\0{secs}"));
}

/// Ctrl-C (SIGINT) while an engine is thinking: pahtum exits with 130 and
/// takes the engine with it.
#[cfg(unix)]
#[test]
fn interrupt_kills_engines() {
    let tag = format!("interrupt-{}", std::process::id());
    let engine = format!(
        "hung=python3 {} hang 1 {tag}",
        repo("tests/engines/faulty.py")
    );
    let mut s = Session::start(&["--bot", "hung", "--engine", &engine]);
    writeln!(s.stdin, "genmove w").expect("write");
    s.stdin.flush().expect("flush");
    wait_for_process(&tag, Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(200));
    common::send(s.child.id(), nix::sys::signal::Signal::SIGINT);
    let status = s.child.wait().expect("wait");
    assert_eq!(status.code(), Some(130));
    assert_none_left(&tag);
}

/// A pooled engine that dies between games is replaced, not blamed.
#[cfg(unix)]
#[test]
fn an_engine_that_died_idle_is_replaced() {
    let tag = format!("died-idle-{}", std::process::id());
    let argv = vec![
        "python3".into(),
        repo("examples/greedy_engine.py"),
        tag.clone(),
    ];
    let f = factory("py", argv, 10_000, None);
    let play = |g: u64| {
        let mut engine = f.build("py", g).expect("bot");
        let mut random = RandomBot::new("random", g);
        play_game(
            Game::new(start(g, false)),
            &mut *engine,
            &mut random,
            [None; 2],
            |_| {},
        )
        .termination
    };
    assert_eq!(play(0), Termination::Normal);
    let pids = processes_with(&tag);
    assert_eq!(pids.len(), 1);
    common::send(pids[0], nix::sys::signal::Signal::SIGKILL);
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(play(1), Termination::Normal);
    let now = processes_with(&tag);
    assert_eq!(now.len(), 1);
    assert_ne!(now, pids);
    drop(f);
    assert_none_left(&tag);
}
