//! External engines through the command line: `play` and `tournament` with
//! the example engine, a tournament of misbehaving engines (each loses its
//! games with the right termination, the run finishes with exit 0, nothing
//! is left running), and Ctrl-C during a tournament.

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, assert_none_left, pahtum, repo, wait_for_process};

/// `games.csv` rows as maps from column name to value.
fn rows(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("games.csv")).expect("games.csv");
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .expect("header")
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

#[test]
fn play_against_the_example_engine() {
    let tag = format!("play-example-{}", std::process::id());
    let engine = format!("py=python3 {} {tag}", repo("examples/greedy_engine.py"));
    let out = pahtum(&[
        "play", "--engine", &engine, "--white", "py", "--black", "random", "--pie", "--quiet",
        "--seed", "4",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("result="), "{text}");
    assert_none_left(&tag);
}

#[test]
fn tournament_with_the_example_engine() {
    let tag = format!("tourney-example-{}", std::process::id());
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let engine = format!("py=python3 {} {tag}", repo("examples/greedy_engine.py"));
    let o = pahtum(&[
        "tournament",
        "--engine",
        &engine,
        "--bot",
        "py",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--games",
        "2",
        "--threads",
        "2",
        "--quiet",
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = rows(&out);
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r["termination"] == "normal"));
    assert_eq!(
        rows.iter()
            .filter(|r| r["white"] == "py" || r["black"] == "py")
            .count(),
        4
    );
    // Greedy line-building beats random play in most games (plain greedy
    // wins about 85 % against random), so at least one of the two.
    let py_beat_random = rows
        .iter()
        .filter(|r| {
            (r["white"] == "py" && r["black"] == "random" && r["winner"] == "white")
                || (r["black"] == "py" && r["white"] == "random" && r["winner"] == "black")
        })
        .count();
    assert!(py_beat_random >= 1, "{rows:?}");
    // No fault, no log.
    assert!(!out.join("engines.log").exists());
    assert_none_left(&tag);
}

#[test]
fn faulty_engines_lose_and_the_run_completes() {
    let tag = format!("tourney-faults-{}", std::process::id());
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let faulty = repo("tests/engines/faulty.py");
    let cases = [
        ("crash", "3", "crash"),
        ("hang", "2", "timeout"),
        ("illegal", "2", "illegal_move"),
        ("garbage", "2", "illegal_move"),
        ("startup", "1", "crash"),
    ];
    let mut args: Vec<String> = ["tournament", "--format", "gauntlet", "--bot", "random"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (mode, n, _) in cases {
        args.push("--engine".into());
        args.push(format!("{mode}=python3 {faulty} {mode} {n} {tag}"));
        args.push("--bot".into());
        args.push(mode.into());
    }
    let out_s = out.to_str().expect("utf8").to_string();
    args.extend(
        [
            "--games",
            "2",
            "--threads",
            "2",
            "--move-timeout-ms",
            "1500",
            "--quiet",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    args.push(out_s);
    let t0 = Instant::now();
    let o = Command::new(BIN)
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(t0.elapsed() < Duration::from_secs(60));
    let rows = rows(&out);
    assert_eq!(rows.len(), 2 * cases.len());
    for (mode, _, termination) in cases {
        let games: Vec<_> = rows
            .iter()
            .filter(|r| r["white"] == mode || r["black"] == mode)
            .collect();
        assert_eq!(games.len(), 2, "{mode}");
        for r in games {
            assert_eq!(r["termination"], termination, "{mode}: {r:?}");
            let winner = if r["white"] == mode { "black" } else { "white" };
            assert_eq!(r["winner"], winner, "{mode}: {r:?}");
        }
    }
    let log = std::fs::read_to_string(out.join("engines.log")).expect("engines.log");
    assert!(log.contains("crashing on purpose"), "{log}");
    assert!(log.contains("failing at startup"), "{log}");
    assert!(log.contains("within 1500 ms"), "{log}");
    assert_none_left(&tag);
}

/// Ctrl-C twice during a tournament whose engine is thinking (hung): the
/// first stops new games, the second ends the run at once, engines
/// included.
#[cfg(unix)]
#[test]
fn ctrl_c_ends_a_tournament_and_its_engines() {
    let tag = format!("tourney-interrupt-{}", std::process::id());
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let engine = format!(
        "hung=python3 {} hang 1 {tag}",
        repo("tests/engines/faulty.py")
    );
    let mut child = Command::new(BIN)
        .args([
            "tournament",
            "--engine",
            &engine,
            "--bot",
            "hung",
            "--bot",
            "random",
            "--games",
            "2",
            "--threads",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    wait_for_process(&tag, Duration::from_secs(20));
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..2 {
        common::send(child.id(), nix::sys::signal::Signal::SIGINT);
        std::thread::sleep(Duration::from_millis(100));
    }
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130));
    assert_none_left(&tag);
}
