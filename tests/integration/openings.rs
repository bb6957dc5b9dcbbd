//! Start-position suites through the real binary: `--openings` plays a
//! suite's starts in order, each once with each colour, cycling; a bad
//! file is refused by file, line and column before anything is played;
//! `--resume` refuses a changed file and shards merge into the whole run;
//! `pahtum openings` builds the same suite whatever the threads.

use crate::common;

use std::path::Path;

use common::{ok, read, refused, s, without_ms};

/// A suite in both formats: two starts in the move notation and a board
/// (holes a1 and g1, White d4 and e5, Black c3: moves d4 c3 e5).
const SUITE: &str = "# three starts\n\
a1 b2 c3 d4 e5 | g7 f6\n\
\n\
b1, c2 d3 e4 f5 | a7 b7 c7   # a trailing comment\n\
.......\n\
.......\n\
....W..\n\
...W...\n\
..B....\n\
.......\n\
#.....#\n";

/// The starts of [`SUITE`] as `(holes, moves)` in `games.csv`'s words.
const STARTS: [(&str, &str); 3] = [
    ("a1 b2 c3 d4 e5", "g7 f6"),
    ("b1 c2 d3 e4 f5", "a7 b7 c7"),
    ("a1 g1", "d4 c3 e5"),
];

fn write_suite(dir: &Path, text: &str) -> String {
    let p = dir.join("suite.txt");
    std::fs::write(&p, text).expect("write suite");
    s(&p).to_string()
}

/// `games.csv` rows as maps from column to value.
fn rows(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = read(&dir.join("games.csv"));
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .expect("header")
        .split(',')
        .map(String::from)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

#[test]
fn a_suite_is_played_in_order_with_both_colours_and_cycled() {
    let dir = tempfile::tempdir().expect("dir");
    let suite = write_suite(dir.path(), SUITE);
    let out = dir.path().join("t");
    ok(&[
        "tournament",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--games",
        "8",
        "--openings",
        &suite,
        "--quiet",
        "--out",
        s(&out),
    ]);
    let rows = rows(&out);
    assert_eq!(rows.len(), 8);
    for (g, r) in rows.iter().enumerate() {
        let (holes, moves) = STARTS[g / 2 % 3];
        assert_eq!(r["holes"], holes, "game {g}");
        assert!(
            r["moves"].starts_with(&format!("{moves} ")),
            "game {g}: {}",
            r["moves"]
        );
        // The opening's moves count as plies of the game.
        assert_eq!(
            r["plies"].parse::<usize>().ok(),
            Some(r["moves"].split(' ').count())
        );
    }
    for pair in rows.chunks(2) {
        assert_eq!(pair[0]["white"], pair[1]["black"]);
        assert_eq!(pair[0]["black"], pair[1]["white"]);
    }
    assert_eq!(rows[0]["white"], "random");
    let run = read(&out.join("run.json"));
    assert!(run.contains("\"--openings\""), "{run}");
    assert!(run.contains(&format!("--openings {suite}")), "{run}");
}

#[test]
fn sprt_and_play_take_a_suite_too() {
    let dir = tempfile::tempdir().expect("dir");
    let suite = write_suite(dir.path(), SUITE);
    let out = dir.path().join("sprt");
    ok(&[
        "sprt",
        "--a",
        "greedy",
        "--b",
        "random",
        "--elo0",
        "0",
        "--elo1",
        "5",
        "--max-games",
        "6",
        "--openings",
        &suite,
        "--quiet",
        "--out",
        s(&out),
    ]);
    let holes: Vec<String> = rows(&out).iter().map(|r| r["holes"].clone()).collect();
    assert_eq!(holes, [0, 0, 1, 1, 2, 2].map(|k| STARTS[k].0));
    let played = ok(&[
        "play",
        "--white",
        "random",
        "--black",
        "greedy",
        "--quiet",
        "--openings",
        &suite,
    ]);
    assert!(played.contains("holes=a1,b2,c3,d4,e5"), "{played}");
    assert!(played.contains("opening: g7 f6"), "{played}");
}

#[test]
fn a_bad_suite_is_refused_by_file_line_and_column_before_any_game() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("t");
    let base = |suite: &str| {
        vec![
            "tournament".to_string(),
            "--bot".into(),
            "random".into(),
            "--bot".into(),
            "greedy".into(),
            "--openings".into(),
            suite.to_string(),
            "--out".into(),
            s(&out).to_string(),
        ]
    };
    let cases = [
        ("a1 b2 | d4\nc3 | d4 zz\n", "line 2, column 9: move 'zz'"),
        ("a1 | a1\n", "line 1, column 6: move 1 (a1): a1 is a hole"),
        ("a1 | d4 swap\n", "swap"),
        (
            "WW.....\n.......\n.......\n.......\n.......\n.......\n.......\n",
            "white=2 black=0",
        ),
        ("......\n......\n", "line 1, column 1: a board of 2 rows"),
        ("# nothing\n", "no start"),
    ];
    for (text, want) in cases {
        let suite = write_suite(dir.path(), text);
        let args = base(&suite);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let e = refused(&args);
        assert!(e.contains(&format!("--openings: {suite}: ")), "{e}");
        assert!(e.contains(want), "{text:?}: {e}");
        assert!(!out.exists(), "{text:?}: an output was written");
    }
    let suite = write_suite(dir.path(), SUITE);
    let mut args = base(&suite);
    args.extend(["--holes".into(), "3".into()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let e = refused(&args);
    assert!(e.contains("--openings") && e.contains("--holes"), "{e}");
    // The suite must fit the board side.
    let e = refused(&[
        "tournament",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--openings",
        &suite,
        "--size",
        "5",
    ]);
    assert!(e.contains("off the 5x5 board"), "{e}");
}

#[test]
fn resume_refuses_a_changed_suite_and_shards_merge_into_the_whole() {
    let dir = tempfile::tempdir().expect("dir");
    let suite = write_suite(dir.path(), SUITE);
    let base = [
        "tournament",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "random:label=r2",
        "--games",
        "4",
        "--openings",
        &suite,
        "--quiet",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|a| a.to_string()).collect()
    };
    let run = |args: &[String]| ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let whole = dir.path().join("whole");
    run(&with(&["--out", s(&whole)]));
    for k in 1..=2 {
        let spec = format!("{k}/2");
        run(&with(&[
            "--shard",
            &spec,
            "--out",
            s(&dir.path().join(format!("s{k}"))),
        ]));
    }
    let merged = dir.path().join("merged");
    ok(&[
        "merge",
        "--quiet",
        "--out",
        s(&merged),
        s(&dir.path().join("s1")),
        s(&dir.path().join("s2")),
    ]);
    assert_eq!(
        without_ms(&read(&whole.join("games.csv"))),
        without_ms(&read(&merged.join("games.csv")))
    );
    // The same file resumes (nothing left to play); a changed one does not.
    run(&with(&["--resume", "--out", s(&whole)]));
    write_suite(dir.path(), &SUITE.replace("g7 f6", "g7 f5"));
    let args = with(&["--resume", "--out", s(&whole)]);
    let e = refused(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(e.contains("--openings"), "{e}");
}

#[test]
fn the_builder_is_deterministic_and_refuses_bad_input() {
    let dir = tempfile::tempdir().expect("dir");
    let build = |name: &str, threads: &str| {
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).expect("folder");
        let out = folder.join("suite.txt");
        ok(&[
            "openings",
            "--count",
            "4",
            "--size",
            "5",
            "--holes",
            "3,5",
            "--plies",
            "2",
            "--bot",
            "mcts:iters=300",
            "--band",
            "0.3..0.9",
            "--threads",
            threads,
            "--quiet",
            "--out",
            s(&out),
        ]);
        read(&out)
    };
    // The files differ only in the --out their header names.
    let one = build("a", "1");
    let two = build("b", "2");
    assert_eq!(one.replace("/a/suite.txt", "/b/suite.txt"), two);
    assert!(one.starts_with("# 4 starts"), "{one}");
    assert!(
        one.contains("# made by: pahtum openings --count 4"),
        "{one}"
    );
    assert_eq!(one.lines().filter(|l| !l.starts_with('#')).count(), 4);
    // What it writes is a suite a tournament plays.
    let t = dir.path().join("t");
    ok(&[
        "tournament",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--games",
        "2",
        "--size",
        "5",
        "--openings",
        s(&dir.path().join("a").join("suite.txt")),
        "--quiet",
        "--out",
        s(&t),
    ]);
    let exists = refused(&[
        "openings",
        "--band",
        "0..1",
        "--out",
        s(&dir.path().join("a").join("suite.txt")),
    ]);
    assert!(exists.contains("exists"), "{exists}");
    for (band, bot) in [
        ("0.6..0.4", "mcts"),
        ("x", "mcts"),
        ("0..2", "mcts"),
        ("0..1", "greedy"),
    ] {
        let e = refused(&[
            "openings",
            "--band",
            band,
            "--bot",
            bot,
            "--out",
            s(&dir.path().join("c.txt")),
        ]);
        assert!(e.contains("--band") || e.contains("--bot"), "{e}");
    }
    assert!(!dir.path().join("c.txt").exists());
}

#[test]
fn near_the_end_the_judge_gives_the_exact_result() {
    // Three free squares or fewer: mcts's exact endgame search decides,
    // and its result is White's expected score (once refused as "no
    // expected score", or written as 0 for a game White wins).
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("end.txt");
    ok(&[
        "openings",
        "--count",
        "6",
        "--size",
        "5",
        "--holes",
        "3",
        "--plies",
        "19",
        "--bot",
        "mcts:iters=50",
        "--band",
        "0..1",
        "--quiet",
        "--out",
        s(&out),
    ]);
    let text = read(&out);
    let suite =
        pahtum::game::suite::Suite::parse(&text, 5, false, pahtum::Komi::ZERO).expect("a suite");
    let values: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.rsplit_once("# white ").expect("a value").1)
        .collect();
    assert_eq!((values.len(), suite.starts.len()), (6, 6), "{text}");
    for (start, value) in suite.starts.iter().zip(values) {
        let game = start.game(5, false, pahtum::Komi::ZERO).expect("a start");
        let margin = pahtum::solve::solve_margin(game.position());
        let white = ["0.000", "0.500", "1.000"][(margin.signum() + 1) as usize];
        assert_eq!(value, white, "{}: White's margin {margin}", start.line());
    }
}
