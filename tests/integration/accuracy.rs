//! `pahtum accuracy` on small hand-made positions, checked against plain
//! minimax (tests/integration/common.rs): the exact value before each move, whether the
//! move keeps the result, the margin it loses; a bot that errs; recorded
//! moves; the same bytes for any thread count; malformed suites.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::minimax;
use pahtum::{Komi, Player, Position, Square, parse_boards};

/// White to move; d2 is the only winning move (margin 3), found by
/// `pahtum solve` and confirmed by plain minimax.
const ONE_WIN: &str = "#W..\n#...\nB.W.\n.BBW\n";

/// Positions with a few free squares, both sides to move.
const BOARDS: &[&str] = &[
    ONE_WIN,
    ".B#W\n.W..\nB..W\nB..#\n",
    "B#WW\n..WB\n..B.\n.#.W\n",
    "WW.\nB.B\n#..\n",
    "..B.\n.W.W\n..B#\n#B.W\n",
    "W...\n#W.W\n..BB\n.B#W\n",
];

/// Plain minimax, no pruning: the value for the player to move, half points.
fn position(text: &str) -> Position {
    parse_boards(text).expect("board")[0]
        .to_position(false, Komi::ZERO)
        .expect("position")
}

/// White's margin under minimax play.
fn white_margin(pos: &Position) -> i32 {
    let v = minimax(&mut pos.to_owned());
    if pos.turn() == Player::White { v } else { -v }
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pahtum-accuracy-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("tmp");
    d
}

fn run(args: &[&str]) -> Output {
    let all: Vec<&str> = std::iter::once("accuracy")
        .chain(args.iter().copied())
        .collect();
    common::pahtum(&all)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

fn halves(s: &str) -> i32 {
    s.parse::<Komi>().expect("points").halves()
}

/// Every row checked against minimax: the value before, the move's
/// value after, the result kept or not.
fn check_rows(csv: &str, boards: &[&str]) {
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("position,to_move,empties,result,margin,move,keeps_result,margin_loss")
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), boards.len());
    for (row, board) in rows.iter().zip(boards) {
        let f: Vec<&str> = row.split(',').collect();
        let pos = position(board);
        let before = white_margin(&pos);
        let mut child = pos;
        child.play(f[5].parse::<Square>().expect("a square"));
        let after = white_margin(&child);
        let sign = if pos.turn() == Player::White { 1 } else { -1 };
        assert_eq!(f[1], pos.turn().to_string(), "{row}");
        assert_eq!(f[2], pos.empty().count().to_string(), "{row}");
        assert_eq!(halves(f[4]), before, "{row}");
        assert_eq!(f[6] == "true", before.signum() == after.signum(), "{row}");
        assert_eq!(halves(f[7]), (before - after) * sign, "{row}");
    }
}

#[test]
fn values_and_losses_agree_with_minimax_and_the_solved_suite_replays() {
    let d = tmp("minimax");
    let suite = write(&d, "suite.txt", &BOARDS.join("\n"));
    let out = d.join("a");
    let o = run(&[
        "--bot",
        "greedy",
        "--positions",
        &suite,
        "--out",
        out.to_str().unwrap(),
    ]);
    let last = stdout(&o);
    assert!(
        last.lines()
            .last()
            .unwrap()
            .starts_with("positions=6 result_accuracy=")
    );
    let csv = std::fs::read_to_string(out.join("accuracy.csv")).expect("csv");
    check_rows(&csv, BOARDS);
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("1,white,8,white,3,")
    );
    // The solved suite gives the same rows without solving again.
    let solved = out.join("solved.txt");
    assert!(
        std::fs::read_to_string(&solved)
            .unwrap()
            .starts_with("; result=white margin=3 best_result=d2 best_margin=d2\n#W..\n")
    );
    let again = d.join("b");
    let o2 = run(&[
        "--bot",
        "greedy",
        "--positions",
        solved.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&o2), last);
    assert_eq!(
        std::fs::read_to_string(again.join("accuracy.csv")).unwrap(),
        csv
    );
}

#[test]
fn random_gives_away_the_only_win_and_recorded_moves_are_judged() {
    assert_eq!(white_margin(&position(ONE_WIN)), 6);
    let d = tmp("random");
    let copies: Vec<String> = (0..12)
        .map(|i| format!("; name=copy{i}\n{ONE_WIN}"))
        .collect();
    let suite = write(&d, "suite.txt", &copies.join("\n"));
    let out = d.join("a");
    let last = stdout(&run(&[
        "--bot",
        "random",
        "--positions",
        &suite,
        "--out",
        out.to_str().unwrap(),
    ]));
    let csv = std::fs::read_to_string(out.join("accuracy.csv")).expect("csv");
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("copy0,white,8,white,3,")
    );
    for row in csv.lines().skip(1) {
        assert_eq!(row.ends_with(",d2,true,0"), row.contains(",d2,"), "{row}");
    }
    let wrong = csv.lines().filter(|r| r.contains(",false,")).count();
    assert!(wrong >= 6, "random kept the only win too often:\n{csv}");
    let acc: f64 = last
        .split("result_accuracy=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((acc - (12 - wrong) as f64 / 12.0).abs() < 1e-3, "{last}");

    // Recorded moves: the only win, and a move that throws it away.
    let played = format!("; name=good move=d2\n{ONE_WIN}\n; name=bad move=a1\n{ONE_WIN}");
    let p = write(&d, "played.txt", &played);
    let out = d.join("p");
    let last = stdout(&run(&[
        "--played",
        "--positions",
        &p,
        "--out",
        out.to_str().unwrap(),
    ]));
    let csv = std::fs::read_to_string(out.join("accuracy.csv")).expect("csv");
    check_rows(&csv, &[ONE_WIN, ONE_WIN]);
    assert!(csv.contains("\ngood,white,8,white,3,d2,true,0\n"), "{csv}");
    assert!(csv.contains("\nbad,white,8,white,3,a1,false,"), "{csv}");
    assert!(
        last.starts_with("positions=2 result_accuracy=0.5000 "),
        "{last}"
    );
}

#[test]
fn the_same_bytes_for_any_thread_count() {
    let d = tmp("threads");
    let suite = write(&d, "suite.txt", &BOARDS.join("\n"));
    let mut seen = Vec::new();
    for t in ["1", "3"] {
        let out = d.join(t);
        let last = stdout(&run(&[
            "--bot",
            "mcts:iters=300",
            "--positions",
            &suite,
            "--threads",
            t,
            "--seed",
            "9",
            "--quiet",
            "--out",
            out.to_str().unwrap(),
        ]));
        let csv = std::fs::read_to_string(out.join("accuracy.csv")).expect("csv");
        let solved = std::fs::read_to_string(out.join("solved.txt")).expect("suite");
        seen.push((last, csv, solved));
    }
    assert_eq!(seen[0], seen[1]);
}

#[test]
fn malformed_suites_exit_2_naming_file_line_and_column() {
    let d = tmp("bad");
    let cases: &[(&str, &str)] = &[
        (
            "#W..\n#.x.\nB.W.\n.BBW\n",
            ":2:3: board 1: unknown character 'x'",
        ),
        (
            "; result=black margin=3 best_result=d2 best_margin=d2\n#W..\n#...\nB.W.\n.BBW\n",
            ":1:3: result black with margin 3",
        ),
        (
            "; name=a colour=w\n#W..\n#...\nB.W.\n.BBW\n",
            ":1:10: unknown key 'colour'",
        ),
        (
            "; move=b4\n#W..\n#...\nB.W.\n.BBW\n",
            ":1:3: 'b4' is not a free square",
        ),
        (
            "#W..\n#...\nB.W.\n.BBW\n;  name=last\n",
            ":5:4: a header with no board after it",
        ),
        ("WW.\nWW.\n...\n", ":1:1: "),
        (
            "WB\nBW\n",
            ":1:1: board 1: rows of 2 squares: board sizes 3 to 8",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let f = write(&d, &format!("bad{i}.txt"), text);
        let out = d.join(format!("o{i}"));
        let o = run(&[
            "--bot",
            "greedy",
            "--positions",
            &f,
            "--out",
            out.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{text}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!("{f}{want}")), "{text}: {err}");
        assert!(o.stdout.is_empty() && !out.exists(), "{text}");
    }
    // A stored value the solver contradicts: a1 does better than the whole position is said to.
    let f = write(
        &d,
        "lie.txt",
        &format!("; move=a1 result=black margin=-10 best_result=d2 best_margin=d2\n{ONE_WIN}"),
    );
    let o = run(&[
        "--played",
        "--positions",
        &f,
        "--out",
        d.join("lie").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("its stored value is wrong"));
    // A non-empty --out is refused without suggesting a --resume accuracy
    // does not have.
    let f = write(&d, "one.txt", ONE_WIN);
    let o = run(&[
        "--bot",
        "greedy",
        "--positions",
        &f,
        "--out",
        d.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("directory is not empty") && !err.contains("--resume"),
        "{err}"
    );
}
