//! `pahtum review` through the real binary: a small tournament, then one of
//! its games move by move.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::{SPRT_GREEDY_RANDOM, SWEEP_BLOCK, joined};

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
    small_run(&run, "mcts:iters=300");

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
    let mut child = crate::common::start_busy(&mut crate::common::endless_review(&out));
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

/// A finished 5x5 tournament of greedy and `other`, two games, in `run`.
fn small_run(run: &Path, other: &str) {
    let o = pahtum(&[
        "tournament",
        "--bot",
        "greedy",
        "--bot",
        other,
        "--games",
        "2",
        "--size",
        "5",
        "--holes",
        "3",
        "--quiet",
        "--out",
        run.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `review.csv` and `review.json` of `dir`.
fn review_files(dir: &Path) -> (String, String) {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect(f);
    (read("review.csv"), read("review.json"))
}

/// Exit 2 with one line on stderr and nothing on stdout; the line.
fn refused(args: &[&str]) -> String {
    let o = pahtum(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(o.stdout.is_empty(), "{args:?}");
    assert_eq!(e.trim().lines().count(), 1, "{args:?}: {e}");
    e
}

/// `review.json` says which bot (every key, the budget included), solve
/// bound and seed made the review; the same review again writes the same
/// files, one with other settings is refused naming `--force` and
/// replaces it only with `--force`; no evaluation is written `-0.0000`.
#[test]
fn a_review_records_its_settings_and_another_replaces_it_only_with_force() {
    let tmp = tempfile::tempdir().expect("tmp");
    let run = tmp.path().join("run");
    small_run(&run, "heuristic");
    let run_s = run.to_str().expect("path");
    let at = run.join("review-1");
    let greedy = [
        "review", run_s, "--game", "1", "--bot", "greedy", "--exact", "0", "--quiet",
    ];
    let o = pahtum(&greedy);
    assert!(o.status.success(), "{}", stderr(&o));
    let (csv, json) = review_files(&at);
    let rec: serde_json::Value = serde_json::from_str(&json).expect("review.json");
    assert_eq!(rec["bot"], "greedy");
    assert_eq!(rec["bot_full"], "greedy:block=0.5");
    assert_eq!(rec["exact"], 0);
    assert_eq!(rec["seed"], 1);
    assert_eq!(rec["game"], 1);
    assert_eq!(rec["size"], 5);
    assert_eq!(rec["pie"], false);
    assert_eq!(rec["moves"], game_row(&run, "1")[10].as_str());
    // greedy sees no score on an early board: an even position, which
    // from the other side is -0.0 and must be written as 0.
    assert!(csv.contains(",0.0000,"), "{csv}");
    assert!(!csv.contains("-0.0000"), "{csv}");
    let budget = pahtum(&[
        "review",
        run_s,
        "--game",
        "0",
        "--bot",
        "mcts:iters=50",
        "--exact",
        "0",
        "--quiet",
    ]);
    assert!(budget.status.success(), "{}", stderr(&budget));
    let (_, mcts) = review_files(&run.join("review-0"));
    let mcts: serde_json::Value = serde_json::from_str(&mcts).expect("review.json");
    let full = mcts["bot_full"].as_str().expect("bot_full");
    assert!(
        full.starts_with("mcts:iters=50,") && full.contains(",threads=1,"),
        "{full}"
    );

    // The same review again: the same files.
    let o = pahtum(&greedy);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(review_files(&at), (csv.clone(), json.clone()));

    // Other settings: refused, naming the directory and --force.
    for other in [
        &["--bot", "heuristic", "--exact", "0"][..],
        &["--bot", "greedy", "--exact", "3"],
        &["--bot", "greedy", "--exact", "0", "--seed", "2"],
    ] {
        let mut args = vec!["review", run_s, "--game", "1", "--quiet"];
        args.extend_from_slice(other);
        let e = refused(&args);
        assert!(
            e.contains("--force") && e.contains(&at.display().to_string()),
            "{other:?}: {e}"
        );
        assert_eq!(review_files(&at), (csv.clone(), json.clone()));
    }
    let o = pahtum(&[
        "review",
        run_s,
        "--game",
        "1",
        "--bot",
        "heuristic",
        "--exact",
        "0",
        "--quiet",
        "--force",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, json) = review_files(&at);
    let rec: serde_json::Value = serde_json::from_str(&json).expect("review.json");
    assert_eq!(rec["bot"], "heuristic");
}

/// A non-empty `--out` is refused, naming `--out`, unless it holds this
/// very review: files of something else are never written among, even
/// with `--force`, and another game's review is replaced only with it.
#[test]
fn a_non_empty_out_is_refused_unless_it_holds_this_review() {
    let tmp = tempfile::tempdir().expect("tmp");
    let run = tmp.path().join("run");
    small_run(&run, "heuristic");
    let run_s = run.to_str().expect("path");
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).expect("mkdir");
    std::fs::write(out.join("notes.txt"), "mine\n").expect("write");
    let out_s = out.to_str().expect("path");
    let args = |game: &'static str| {
        vec![
            "review", run_s, "--game", game, "--bot", "greedy", "--exact", "0", "--quiet", "--out",
            out_s,
        ]
    };
    for force in [false, true] {
        let mut a = args("0");
        if force {
            a.push("--force");
        }
        let e = refused(&a);
        assert!(e.contains(&format!("--out {out_s}")), "{e}");
        assert!(!out.join("review.csv").exists());
    }
    // The run's own directory is no review's either.
    let mut a = args("0");
    let last = a.len() - 1;
    a[last] = run_s;
    let e = refused(&a);
    assert!(e.contains("--out") && e.contains("holds no review"), "{e}");
    assert!(!run.join("review.csv").exists());

    std::fs::remove_file(out.join("notes.txt")).expect("rm");
    let o = pahtum(&args("0"));
    assert!(o.status.success(), "{}", stderr(&o));
    let first = review_files(&out);
    let o = pahtum(&args("0"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(review_files(&out), first);
    let e = refused(&args("1"));
    assert!(
        e.contains("--out") && e.contains("--force") && e.contains("game 0"),
        "{e}"
    );
    assert_eq!(review_files(&out), first);
}

/// `fpa` writes a `games.csv` like a tournament's: its games are reviewed
/// under their own conditions (layout 1 of `--holes 3 --pie` is played
/// under the pie rule), as are those of `sweep` and `sprt` runs.
#[test]
fn the_games_of_fpa_sweep_and_sprt_runs_are_reviewed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let fpa = tmp.path().join("fpa");
    let fpa_s = fpa.to_str().expect("path");
    let o = pahtum(&[
        "fpa", "--bot", "greedy", "--holes", "3", "--pie", "--games", "2", "--size", "4",
        "--quiet", "--out", fpa_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (game, pie) in [("0", false), ("2", true)] {
        let o = pahtum(&[
            "review", fpa_s, "--game", game, "--bot", "greedy", "--exact", "13", "--quiet",
        ]);
        assert!(o.status.success(), "game {game}: {}", stderr(&o));
        let (csv, json) = review_files(&fpa.join(format!("review-{game}")));
        let rec: serde_json::Value = serde_json::from_str(&json).expect("review.json");
        assert_eq!(rec["pie"], pie, "game {game}");
        assert_eq!(rec["size"], 4);
        let row = game_row(&fpa, game);
        assert_eq!(rec["holes"], row[2].as_str());
        assert_eq!((csv.lines().count() - 1).to_string(), row[9]);
    }
    let e = refused(&["review", fpa_s, "--game", "1", "--quiet"]);
    assert!(e.contains("--game 1: no such game"), "{e}");

    let small: [&str; 5] = ["--size", "4", "--holes", "2", "--quiet"];
    let sweep: [&str; 14] = joined(joined::<7, 2, 9>(SWEEP_BLOCK, ["--games", "2"]), small);
    let sprt: [&str; 16] = joined(
        joined::<7, 4, 11>(SPRT_GREEDY_RANDOM, ["--elo1", "50", "--max-games", "2"]),
        small,
    );
    for (name, args) in [("sweep", &sweep[..]), ("sprt", &sprt[..])] {
        let dir = tmp.path().join(name);
        let dir_s = dir.to_str().expect("path");
        let mut a = args.to_vec();
        a.extend(["--out", dir_s]);
        let o = pahtum(&a);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let o = pahtum(&[
            "review", dir_s, "--game", "1", "--bot", "greedy", "--exact", "14", "--quiet",
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let (csv, _) = review_files(&dir.join("review-1"));
        assert_eq!(
            (csv.lines().count() - 1).to_string(),
            game_row(&dir, "1")[9]
        );
    }
}
