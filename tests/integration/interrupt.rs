//! Stopping a run: Ctrl-C (SIGINT) or SIGTERM sent to the real binary
//! while a long search is in flight ends it with exit status 130 within
//! seconds, says on stderr what became of the run, and leaves the rows on
//! disk as they were; thread counts beyond the cap are refused.

use crate::common;

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;

use common::{
    BIN, TOURNAMENT_RANDOM_GREEDY, assert_none_left, endless_review, processes_with, repo,
    start_busy, wait_exit,
};

/// How long a stopped run may take to exit: generous for a loaded
/// machine; a search that ignores the flag runs for minutes.
const EXIT_WITHIN: Duration = Duration::from_secs(8);

/// The data rows of `out/games.csv` (none if it does not exist yet).
fn rows(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join("games.csv"))
        .unwrap_or_default()
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// All that `child`, which has exited, wrote on its piped stderr.
fn stderr_of(child: &mut Child) -> String {
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    err
}

/// Starts a tournament of `random`, `greedy` and `slow` (one thread, so
/// the two fast games between random and greedy come first and `slow`'s
/// first game is in flight next), sends `signal` while `slow` searches,
/// and checks the exit, the message and the rows on disk.
fn stop_in_flight(slow: &str, engines: &[&str], signal: Signal) -> String {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let mut cmd = Command::new(BIN);
    cmd.args(TOURNAMENT_RANDOM_GREEDY)
        .args(["--bot", slow])
        .args(["--games", "2", "--threads", "1", "--seed", "3", "--out"])
        .arg(&out)
        .args(engines)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("start pahtum");
    let t0 = Instant::now();
    while !out.join("run.json").exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the run never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The fast games take milliseconds; then the slow game is in flight.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(child.try_wait().expect("wait").is_none(), "the run ended");
    common::send(child.id(), signal);
    let (code, took) = wait_exit(&mut child, EXIT_WITHIN);
    let err = stderr_of(&mut child);
    assert_eq!(code, Some(130), "exit status; stderr:\n{err}");
    eprintln!("{slow}: {signal:?} to exit took {took:?}");
    assert!(
        err.contains("games in flight are dropped") && err.contains("rows on disk are kept"),
        "{err}"
    );
    assert!(err.contains("Ctrl-C again aborts at once"), "{err}");
    assert!(
        err.contains("interrupted after 2 of 6 games") && err.contains("--resume --out"),
        "{err}"
    );
    assert!(!err.contains("internal error"), "{err}");
    // The two fast games, whole, and nothing of the game in flight.
    let kept = rows(&out);
    assert_eq!(kept.len(), 2, "{kept:?}");
    for (i, row) in kept.iter().enumerate() {
        assert!(row.starts_with(&format!("{i},0,")), "{row}");
        assert!(row.contains(",normal,44,"), "{row}");
    }
    let text = std::fs::read_to_string(out.join("games.csv")).expect("games.csv");
    assert!(text.ends_with('\n'), "a half-written row");
    err
}

/// One test per search kind, so that each runs beside the others: the
/// signal `$signal` stops a game of `$bot` in flight.
macro_rules! stops_search {
    ($($name:ident: $bot:literal, $signal:ident;)*) => {$(
        #[test]
        fn $name() {
            stop_in_flight($bot, &[], Signal::$signal);
        }
    )*};
}

stops_search! {
    sigint_stops_an_unbounded_alphabeta_search: "alphabeta:nodes=0,depth=64", SIGINT;
    sigterm_stops_a_long_mcts_search: "mcts:iters=3000000", SIGTERM;
    sigterm_stops_a_parallel_mcts_search: "mcts:iters=3000000,threads=2", SIGTERM;
    sigint_stops_a_flatmc_search: "flatmc:playouts=100000000", SIGINT;
}

/// An engine that never answers `genmove` (the move timeout is far off):
/// the wait ends at the signal and the engine's process group is killed.
#[test]
fn sigint_stops_waiting_for_an_engine_and_kills_it() {
    let secs = "4711";
    let engine = format!("hang={} {secs}", repo("tests/engines/hang.sh"));
    stop_in_flight(
        "hang",
        &["--engine", &engine, "--move-timeout-ms", "600000"],
        Signal::SIGINT,
    );
    assert_none_left(&format!("hang.sh\0{secs}"));
    assert!(processes_with(&format!("sleep\0{secs}")).is_empty());
}

/// `solve` on a position too large to finish soon stops at an interrupt.
#[test]
fn sigint_stops_the_solver() {
    let board = ".......\n.......\n..#....\n.......\n....#..\n.......\n.......\n";
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("board.txt");
    std::fs::write(&file, board).expect("write");
    let mut child = start_busy(
        Command::new(BIN)
            .args(["solve", "--max-empty", "49"])
            .arg(&file),
    );
    common::send(child.id(), Signal::SIGINT);
    let (code, _) = wait_exit(&mut child, EXIT_WITHIN);
    let err = stderr_of(&mut child);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("interrupted after 0 of 1 boards"), "{err}");
}

/// Exit 2 naming the option, at once, for thread counts over the cap.
#[test]
fn thread_counts_over_the_cap_are_refused() {
    let t0 = Instant::now();
    for (args, needle) in [
        (
            &[
                "tournament",
                "--bot",
                "random",
                "--bot",
                "greedy",
                "--threads",
                "10000000",
            ][..],
            "--threads: 10000000 is out of range (1..=256)",
        ),
        (
            &["fpa", "--bot", "random", "--threads", "257"][..],
            "--threads: 257 is out of range (1..=256)",
        ),
        (
            &[
                "tournament",
                "--bot",
                "random",
                "--bot",
                "mcts:threads=100000",
            ][..],
            "threads",
        ),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut child = Command::new(BIN)
            .args(args)
            .arg("--out")
            .arg(dir.path().join("run"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run");
        // A wedged process fails the test instead of hanging it.
        let (code, _) = wait_exit(&mut child, Duration::from_secs(20));
        let err = stderr_of(&mut child);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!dir.path().join("run").exists(), "{args:?}");
    }
    assert!(t0.elapsed() < Duration::from_secs(30));
}

/// A finished game's row reaches `games.csv` while its worker plays a slow
/// next game: a `kill -9` then loses no finished game. (Finished games
/// used to wait in the worker until its next game ended.)
#[test]
fn finished_rows_reach_the_file_while_a_slow_game_runs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let mut child = Command::new(BIN)
        .args(["tournament", "--bot", "random", "--bot", "greedy"])
        .args(["--bot", "alphabeta:nodes=0,depth=64"])
        .args(["--games", "2", "--threads", "1", "--seed", "3", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pahtum");
    let t0 = Instant::now();
    while rows(&out).len() < 2 && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    let rows = rows(&out);
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(
        rows.iter()
            .all(|r| r.contains(",random,greedy,") || r.contains(",greedy,random,"))
    );
}

/// Every file and directory under `dir`, relative to it.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let p = e.path();
            out.push(p.strip_prefix(dir).expect("under").display().to_string());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}

/// SIGINT during `review` into a directory that does not exist: exit 130,
/// and neither it nor its missing parent is made.
#[test]
fn sigint_during_a_review_makes_no_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("new").join("r");
    let mut child = start_busy(&mut endless_review(&out));
    assert!(
        child.try_wait().expect("wait").is_none(),
        "the review ended"
    );
    common::send(child.id(), Signal::SIGINT);
    let (code, _) = wait_exit(&mut child, EXIT_WITHIN);
    let err = stderr_of(&mut child);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("no review"), "{err}");
    assert_eq!(tree(tmp.path()), Vec::<String>::new());
}

/// SIGINT during `report --review`, while its second review runs: exit
/// 130, the first review kept whole (its `review.csv` and `review.json`),
/// no directory of the interrupted one, no page and no temporary file.
#[test]
fn sigint_during_report_review_leaves_only_whole_reviews() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let run = tmp.path().join("run");
    let o = Command::new(BIN)
        .args(TOURNAMENT_RANDOM_GREEDY)
        .args(["--games", "4", "--quiet", "--out"])
        .arg(&run)
        .output()
        .expect("tournament");
    assert!(o.status.success());
    let before = tree(&run);
    let mut child = Command::new(BIN)
        .arg("report")
        .arg(&run)
        .args(["--review", "--review-max", "5"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    // A 7x7 review takes seconds: the signal comes while the second runs.
    let t0 = Instant::now();
    while !run.join("review-0").join("review.csv").exists() {
        assert!(t0.elapsed() < Duration::from_secs(60), "no first review");
        assert!(child.try_wait().expect("wait").is_none(), "report ended");
        std::thread::sleep(Duration::from_millis(10));
    }
    common::send(child.id(), Signal::SIGINT);
    let (code, _) = wait_exit(&mut child, EXIT_WITHIN);
    let err = stderr_of(&mut child);
    assert_eq!(code, Some(130), "{err}");
    let mut want = before;
    want.extend(["review-0", "review-0/review.csv", "review-0/review.json"].map(String::from));
    want.sort();
    assert_eq!(tree(&run), want, "{err}");
}

/// SIGINT while `accuracy` judges its first position: exit 130 and no
/// output directory (a header alone is no result, and a run that cannot
/// be resumed would only stand in the way of the same command again).
#[test]
fn sigint_before_the_first_accuracy_row_leaves_no_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let suite = tmp.path().join("big.txt");
    std::fs::write(
        &suite,
        "; name=big\n.......\n.......\n..#....\n.......\n....#..\n.......\n.......\n",
    )
    .expect("write");
    let out = tmp.path().join("acc");
    let mut child = Command::new(BIN)
        .args([
            "accuracy",
            "--bot",
            "greedy",
            "--max-empty",
            "49",
            "--quiet",
        ])
        .arg("--positions")
        .arg(&suite)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    std::thread::sleep(Duration::from_millis(700));
    assert!(child.try_wait().expect("wait").is_none(), "accuracy ended");
    common::send(child.id(), Signal::SIGINT);
    let (code, _) = wait_exit(&mut child, EXIT_WITHIN);
    let err = stderr_of(&mut child);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("nothing written"), "{err}");
    assert!(!out.exists(), "{:?}", tree(&out));
}

/// `openings` stopped by Ctrl-C exits 130 and writes no file, not even
/// the starts it had kept.
#[test]
fn an_interrupted_suite_build_writes_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("suite.txt");
    // A band no judge reaches: the build runs until it is stopped.
    let mut child = start_busy(Command::new(BIN).args([
        "openings",
        "--count",
        "1000",
        "--band",
        "0.5..0.5",
        "--bot",
        "mcts:iters=100000",
        "--threads",
        "1",
        "--out",
        common::s(&out),
    ]));
    assert!(child.try_wait().expect("wait").is_none(), "the build ended");
    common::send(child.id(), Signal::SIGINT);
    let (code, _) = wait_exit(&mut child, EXIT_WITHIN);
    let err = stderr_of(&mut child);
    assert_eq!(code, Some(130), "{err}");
    assert!(err.contains("nothing written"), "{err}");
    assert!(!out.exists());
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert!(left.is_empty(), "{left:?}");
}
