//! `pahtum review` through the real binary: a small tournament, then one of
//! its games move by move.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use std::io::Write;

const BIN: &str = env!("CARGO_BIN_EXE_pahtum");

fn pahtum(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The run's row of `game` in games.csv, split into its columns.
fn game_row(dir: &Path, game: &str) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("games.csv")).expect("games.csv");
    text.lines()
        .map(|l| l.split(',').map(String::from).collect::<Vec<_>>())
        .find(|f| f[0] == game)
        .expect("the game's row")
}

/// The board text (docs/RULES.md) of a 5x5 board after each ply.
fn boards(holes: &str, moves: &str) -> String {
    let mut cells = [['.'; 5]; 5];
    fn at(cells: &mut [[char; 5]; 5], sq: &str, c: char) {
        let b = sq.as_bytes();
        cells[usize::from(b[1] - b'1')][usize::from(b[0] - b'a')] = c;
    }
    for h in holes.split(' ') {
        at(&mut cells, h, '#');
    }
    let mut text = String::new();
    for (i, m) in moves.split(' ').enumerate() {
        at(&mut cells, m, if i % 2 == 0 { 'W' } else { 'B' });
        for row in cells.iter().rev() {
            text.extend(row.iter());
            text.push('\n');
        }
        text.push('\n');
    }
    text
}

fn score(boards: &str) -> Vec<String> {
    let mut child = Command::new(BIN)
        .arg("score")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("score runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(boards.as_bytes())
        .expect("write");
    let o = child.wait_with_output().expect("score");
    assert!(o.status.success());
    String::from_utf8(o.stdout)
        .expect("utf8")
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn a_tournament_game_reviewed_ply_by_ply() {
    let tmp = tempfile::tempdir().expect("tmp");
    let run = tmp.path().join("run");
    let run_s = run.to_str().expect("path");
    let o = pahtum(&[
        "tournament",
        "--bot",
        "greedy",
        "--bot",
        "mcts:iters=300",
        "--games",
        "2",
        "--size",
        "5",
        "--holes",
        "3",
        "--quiet",
        "--out",
        run_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));

    let review = [
        "review",
        run_s,
        "--game",
        "1",
        "--bot",
        "mcts:iters=300",
        "--quiet",
    ];
    let first = pahtum(&review);
    assert!(first.status.success(), "{}", stderr(&first));
    let csv_path = run.join("review-1").join("review.csv");
    let csv = std::fs::read_to_string(&csv_path).expect("review.csv");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "ply,mover,move,white_score,black_score,eval_before,eval_after,best_move,exact_result_before,exact_margin_before,verdict,margin_lost"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let game = game_row(&run, "1");
    let moves: Vec<&str> = game[10].split(' ').collect();
    assert_eq!(rows.len(), moves.len(), "one row per ply");
    assert_eq!(rows.len().to_string(), game[9]);
    let scores = score(&boards(&game[2], &game[10]));
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r.len(), 12, "{r:?}");
        assert_eq!(r[0], (i + 1).to_string());
        assert_eq!(r[1], if i % 2 == 0 { "white" } else { "black" });
        assert_eq!(r[2], moves[i]);
        assert_eq!(format!("{} {}", r[3], r[4]), scores[i], "ply {}", i + 1);
        assert!(
            ["best", "inaccuracy", "blunder", ""].contains(&r[10]),
            "{r:?}"
        );
    }
    // 5x5 less 3 holes is 22 squares: from the third ply on, at most 20
    // are free, so the last rows are solved.
    let last = rows.last().expect("rows");
    assert_eq!(
        format!("{} {}", last[3], last[4]),
        format!("{} {}", game[5], game[6])
    );
    assert!(!last[10].is_empty(), "{last:?}");
    assert!(rows[0][10].is_empty() && !rows[2][10].is_empty());

    let second = pahtum(&review);
    assert!(second.status.success(), "{}", stderr(&second));
    assert_eq!(std::fs::read_to_string(&csv_path).expect("again"), csv);
    assert_eq!(first.stdout, second.stdout);
    let summary = String::from_utf8_lossy(&first.stdout);
    assert!(
        summary.starts_with("plies=22 solved=20 blunders="),
        "{summary}"
    );

    let bad = pahtum(&["review", run_s, "--game", "7", "--quiet"]);
    assert_eq!(bad.status.code(), Some(2));
    let e = stderr(&bad);
    assert!(
        e.contains("--game 7") && e.trim().lines().count() == 1,
        "{e}"
    );
}

#[test]
fn an_illegal_move_is_named_and_nothing_written() {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("r");
    let out_s = out.to_str().expect("path");
    let o = pahtum(&[
        "review", "--moves", "b2 c3 b2", "--layout", "a1", "--size", "4", "--out", out_s, "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("move 3 'b2'") && e.trim().lines().count() == 1,
        "{e}"
    );
    assert!(!out.join("review.csv").exists());

    let o = pahtum(&[
        "review", "--moves", "b2 c3 d4", "--layout", "a1", "--size", "4", "--out", out_s,
        "--quiet", "--bot", "greedy",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let csv = std::fs::read_to_string(out.join("review.csv")).expect("csv");
    assert_eq!(csv.lines().count(), 4);
}

/// Ctrl-C during a long search: exit 130 within seconds and no review.csv.
#[test]
fn an_interrupt_exits_130_and_writes_nothing() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    use std::time::{Duration, Instant};

    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("r");
    let mut child = Command::new(BIN)
        .args(["review", "--moves", "d4 c3", "--layout", "a1", "--quiet"])
        .args(["--bot", "mcts:iters=100000000", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    std::thread::sleep(Duration::from_millis(700));
    let pid = i32::try_from(child.id()).expect("pid");
    kill(Pid::from_raw(pid), Signal::SIGINT).expect("signal");
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(8) {
            let _ = child.kill();
            panic!("still running after the interrupt");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    assert!(!out.join("review.csv").exists());
}
