//! Resume, merge and the output directory through the real binary: every
//! result-shaping option is recorded and compared by `--resume`, resumed
//! rows are replayed, a merge writes every file of the unsharded run, and
//! an unusable `--out` or an empty shard is refused before anything is
//! printed.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use clap::CommandFactory;

use common::{
    SPRT_GREEDY_RANDOM, SWEEP_BLOCK, TOURNAMENT_RANDOM_GREEDY, joined, ok, read, refused, s,
    without_ms,
};

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

const SPRT: [&str; 11] = joined(SPRT_GREEDY_RANDOM, ["--elo1", "5", "--max-games", "6"]);
const FPA: [&str; 7] = ["fpa", "--bot", "random", "--games", "2", "--holes", "3"];
const SWEEP: [&str; 9] = joined(SWEEP_BLOCK, ["--games", "2"]);
const TOURNAMENT: [&str; 7] = joined(TOURNAMENT_RANDOM_GREEDY, ["--games", "4"]);

/// The option names a run's `run.json` records.
fn recorded(dir: &Path) -> BTreeSet<String> {
    let v: serde_json::Value = serde_json::from_str(&read(&dir.join("run.json"))).expect("json");
    v["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|p| p[0].as_str().expect("name").to_string())
        .collect()
}

#[test]
fn run_json_records_every_option_that_shapes_the_results() {
    let dir = tempfile::tempdir().expect("dir");
    let cli = pahtum::cli::Cli::command();
    for base in [&SPRT[..], &FPA, &SWEEP, &TOURNAMENT] {
        let out = dir.path().join(base[0]);
        ok(&with(base, &["--quiet", "--out", s(&out)]));
        let sub = cli.find_subcommand(base[0]).expect("subcommand");
        let shaping: BTreeSet<String> = sub
            .get_arguments()
            .filter_map(|a| a.get_long())
            .map(|l| format!("--{l}"))
            // `--openings` is recorded when given, so that runs from before
            // it resume (tests/integration/openings.rs checks it).
            .filter(|l| {
                ![
                    "--threads",
                    "--quiet",
                    "--out",
                    "--resume",
                    "--help",
                    "--openings",
                ]
                .contains(&l.as_str())
            })
            .collect();
        assert_eq!(recorded(&out), shaping, "{}", base[0]);
    }
}

#[test]
fn resume_refuses_any_changed_option_naming_it() {
    let dir = tempfile::tempdir().expect("dir");
    let sp = dir.path().join("sprt");
    ok(&with(&SPRT, &["--quiet", "--out", s(&sp)]));
    let csv = read(&sp.join("sprt.csv"));
    let mut changed = SPRT.to_vec();
    changed[8] = "10";
    let e = refused(&with(&changed, &["--out", s(&sp), "--resume"]));
    assert_eq!(
        e,
        "pahtum: error: --elo1: the run used 5, this command says 10\n"
    );
    let e = refused(&with(
        &SPRT,
        &["--alpha", "0.1", "--out", s(&sp), "--resume"],
    ));
    assert!(
        e.contains("--alpha: the run used 0.05, this command says 0.1"),
        "{e}"
    );
    let e = refused(&with(&SPRT, &["--komi", "1", "--out", s(&sp), "--resume"]));
    assert!(
        e.contains("--komi: the run used 0, this command says 1"),
        "{e}"
    );
    assert_eq!(read(&sp.join("sprt.csv")), csv);
    // The same options, spelt otherwise, are the same run.
    let mut same = SPRT.to_vec();
    same[8] = "5.0";
    ok(&with(&same, &["--quiet", "--out", s(&sp), "--resume"]));
    assert_eq!(read(&sp.join("sprt.csv")), csv);

    let fp = dir.path().join("fpa");
    ok(&with(&FPA, &["--quiet", "--out", s(&fp)]));
    let mut more = FPA.to_vec();
    more[4] = "3";
    let e = refused(&with(&more, &["--out", s(&fp), "--resume"]));
    assert!(
        e.contains("--games: the run used 2, this command says 3"),
        "{e}"
    );
    let e = refused(&with(&TOURNAMENT, &["--out", s(&fp), "--resume"]));
    assert!(
        e.ends_with("holds an fpa run, not a tournament run\n"),
        "{e}"
    );

    let sw = dir.path().join("sweep");
    ok(&with(&SWEEP, &["--quiet", "--out", s(&sw)]));
    let mut vs = SWEEP.to_vec();
    vs[6] = "greedy";
    let e = refused(&with(&vs, &["--out", s(&sw), "--resume"]));
    assert!(
        e.contains("--vs: the run used random, this command says greedy"),
        "{e}"
    );
    let e = refused(&with(&SPRT, &["--out", s(&sw), "--resume"]));
    assert!(e.ends_with("holds a sweep run, not an sprt run\n"), "{e}");
}

/// Rewrites line `line` (1-based) of `path` with `edit` applied to its fields.
fn edit_line(path: &Path, line: usize, edit: impl Fn(&mut Vec<String>)) {
    let text = read(path);
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let mut f: Vec<String> = lines[line - 1].split(',').map(str::to_string).collect();
    edit(&mut f);
    lines[line - 1] = f.join(",");
    std::fs::write(path, lines.join("\n")).expect("write");
}

#[test]
fn resumed_rows_are_replayed_not_trusted() {
    let dir = tempfile::tempdir().expect("dir");
    let t = dir.path().join("t");
    let args = with(&TOURNAMENT, &["--quiet", "--out", s(&t), "--resume"]);
    ok(&args);
    let games = t.join("games.csv");
    let good = read(&games);
    let summary = read(&t.join("summary.csv"));
    // A white_score edited by 1000.
    edit_line(&games, 3, |f| {
        f[5] = (f[5].parse::<u32>().expect("score") + 1000).to_string();
    });
    let e = refused(&args);
    assert!(
        e.contains("games.csv line 3:") && e.contains("white_score"),
        "{e}"
    );
    assert_eq!(read(&t.join("summary.csv")), summary);
    // The winner turned round.
    std::fs::write(&games, &good).expect("write");
    edit_line(&games, 2, |f| {
        f[7] = if f[7] == "white" { "black" } else { "white" }.into();
    });
    let e = refused(&args);
    assert!(
        e.contains("games.csv line 2:") && e.contains("winner"),
        "{e}"
    );
    // A move that is not legal there (a stone on a hole).
    std::fs::write(&games, &good).expect("write");
    edit_line(&games, 4, |f| {
        let hole = f[2].split(' ').next().expect("a hole").to_string();
        let mut moves: Vec<String> = f[10].split(' ').map(str::to_string).collect();
        moves[0] = hole;
        f[10] = moves.join(" ");
    });
    let e = refused(&args);
    assert!(
        e.contains("games.csv line 4:") && e.contains("moves"),
        "{e}"
    );
    // A file that is not text, even without a newline.
    let mut binary = good.clone().into_bytes();
    binary.truncate(good.find('\n').expect("header") + 1);
    binary.extend_from_slice(&[0x00, 0xff, 0x13, 0x37]);
    std::fs::write(&games, &binary).expect("write");
    let e = refused(&args);
    assert!(e.contains("games.csv line 2: not text"), "{e}");
    // A torn last line is still dropped silently.
    std::fs::write(&games, &good[..good.len() - 5]).expect("write");
    ok(&args);
    assert_eq!(without_ms(&read(&games)), without_ms(&good));
}

/// Every file of `dir` and its text, with the timing columns of
/// `games.csv` and `moves.csv` and the times of `run.json` (and the fields a merge
/// necessarily changes: its own command line, threads, shard list) aside.
fn contents(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = Vec::new();
    for e in std::fs::read_dir(dir).expect("dir").flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let text = read(&e.path());
        let text = match name.as_str() {
            "games.csv" => text
                .lines()
                .map(|l| {
                    let f: Vec<&str> = l.split(',').collect();
                    format!("{}|{}\n", f[..11].join(","), f[13..].join(","))
                })
                .collect(),
            "moves.csv" => without_ms(&text),
            "run.json" => {
                let mut v: serde_json::Value = serde_json::from_str(&text).expect("json");
                let o = v.as_object_mut().expect("object");
                for k in [
                    "start_time",
                    "end_time",
                    "command_line",
                    "threads",
                    "merged_from",
                ] {
                    o.remove(k);
                }
                serde_json::to_string_pretty(&v).expect("json")
            }
            _ => text,
        };
        files.push((name, text));
    }
    files.sort();
    files
}

#[test]
fn a_merge_writes_every_file_of_the_unsharded_run() {
    let dir = tempfile::tempdir().expect("dir");
    let base = [
        "tournament",
        "--quiet",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "random:label=r2",
        "--games",
        "6",
        "--pie",
        "--seed",
        "3",
    ];
    let whole = dir.path().join("whole");
    ok(&with(&base, &["--out", s(&whole)]));
    let shards: Vec<_> = (1..=2).map(|k| dir.path().join(format!("s{k}"))).collect();
    for (k, sh) in shards.iter().enumerate() {
        let spec = format!("{}/2", k + 1);
        ok(&with(&base, &["--shard", &spec, "--out", s(sh)]));
    }
    let merged = dir.path().join("merged");
    ok(&[
        "merge",
        "--quiet",
        "--out",
        s(&merged),
        s(&shards[0]),
        s(&shards[1]),
    ]);
    let (a, b) = (contents(&whole), contents(&merged));
    let names = |c: &[(String, String)]| c.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&a), names(&b));
    assert!(names(&a).contains(&"ratings.svg".to_string()));
    for (fa, fb) in a.iter().zip(&b) {
        assert_eq!(fa.1, fb.1, "{}", fa.0);
    }
}

#[test]
fn a_shard_with_no_games_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("s");
    let e = refused(&with(
        &TOURNAMENT[..5],
        &["--games", "2", "--shard", "3/50", "--out", s(&out)],
    ));
    assert!(e.contains("--shard 3/50: this part has no games"), "{e}");
    assert!(!out.exists());
    ok(&with(
        &TOURNAMENT[..5],
        &[
            "--quiet",
            "--games",
            "2",
            "--shard",
            "1/50",
            "--out",
            s(&out),
        ],
    ));
}

#[test]
fn an_exact_or_fpa_shard_with_no_layouts_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("s");
    let cases: [(&[&str], &str); 2] = [
        (
            &["exact", "--size", "4", "--holes", "3", "--shard", "100/200"],
            "--shard 100/200: this part has no layouts: the run has 77 layouts",
        ),
        (
            &[
                "fpa", "--bot", "greedy", "--holes", "3", "--games", "2", "--shard", "3/3",
            ],
            "--shard 3/3: this part has no layouts: the run has 2 layouts",
        ),
    ];
    for (args, says) in cases {
        let e = refused(&[args, &["--out", s(&out)]].concat());
        assert!(e.contains(says), "{e}");
        assert!(!out.exists(), "{args:?}");
    }
}

#[test]
fn an_unusable_out_is_refused_before_anything_is_printed() {
    for out in ["/proc/nope", "/dev/null", "/dev/null/x"] {
        for base in [&TOURNAMENT[..], &SPRT, &FPA, &SWEEP] {
            let e = refused(&with(base, &["--out", out]));
            assert!(
                e.starts_with(&format!("pahtum: error: --out {out}: ")),
                "{e}"
            );
        }
    }
    // A full disk: the first file a run writes is run.json (through
    // run.json.tmp); here that is a link to /dev/full, where every write
    // fails with "no space left on device". The failed temporary file is
    // removed by the run that failed.
    let dir = tempfile::tempdir().expect("dir");
    let full = dir.path().join("full");
    std::fs::create_dir(&full).expect("mkdir");
    std::os::unix::fs::symlink("/dev/full", full.join("run.json.tmp")).expect("link");
    let e = refused(&with(&TOURNAMENT, &["--out", s(&full), "--resume"]));
    assert!(
        e.contains(&format!("--out {}: ", full.display())) && e.contains("No space left"),
        "{e}"
    );
    assert_eq!(std::fs::read_dir(&full).expect("dir").count(), 0);
    // Merging into an unusable directory.
    let t = dir.path().join("t");
    ok(&with(&TOURNAMENT, &["--quiet", "--out", s(&t)]));
    let e = refused(&["merge", s(&t), "--out", "/proc/nope"]);
    assert!(e.starts_with("pahtum: error: --out /proc/nope: "), "{e}");
}

/// The lines of `moves.csv` text up to and including game `last`'s.
fn moves_through(text: &str, last: u64) -> String {
    text.lines()
        .take_while(|l| {
            l.starts_with("game,")
                || l.split(',').next().and_then(|g| g.parse::<u64>().ok()) <= Some(last)
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn resumed_moves_are_checked_and_cut_after_the_kept_games() {
    let dir = tempfile::tempdir().expect("dir");
    let t = dir.path().join("t");
    let args = with(&TOURNAMENT, &["--quiet", "--out", s(&t), "--resume"]);
    ok(&args);
    let (games, moves) = (t.join("games.csv"), t.join("moves.csv"));
    let (good_games, good) = (read(&games), read(&moves));
    let two_games: String = good_games
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    // As a kill leaves them: games.csv with two games, moves.csv with
    // those and half of the next game's lines, the last line torn.
    let ahead = moves_through(&good, 1).len() + 200;
    std::fs::write(&games, &two_games).expect("write");
    std::fs::write(&moves, &good[..ahead]).expect("write");
    ok(&args);
    assert_eq!(without_ms(&read(&moves)), without_ms(&good));
    // A move edited in a kept game's line is named by file and line.
    edit_line(&moves, 5, |f| f[4] = "swap".into());
    std::fs::write(&games, &two_games).expect("write");
    let e = refused(&args);
    assert!(
        e.contains("moves.csv line 5: game 0: column move: 'swap'"),
        "{e}"
    );
    // A kept game whose lines stop short.
    let short = moves_through(&good, 0);
    std::fs::write(&moves, &short[..short.len() - 1]).expect("write");
    let e = refused(&args);
    assert!(
        e.contains("moves.csv line") && e.contains("game 0 ends after"),
        "{e}"
    );
    // A run directory from before moves.csv: the kept games get lines
    // with their moves and movers, the rest is played as always.
    std::fs::remove_file(&moves).expect("remove");
    ok(&args);
    let text = read(&moves);
    let kept = moves_through(&good, 1);
    let bare: String = kept
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            format!("{},,,,,,,\n", f[..5].join(","))
        })
        .collect();
    let header = kept.lines().next().expect("header");
    let text_kept = moves_through(&text, 1);
    assert_eq!(text_kept, format!("{header}\n{bare}"));
    assert_eq!(
        without_ms(&text[text_kept.len()..]),
        without_ms(&good[kept.len()..])
    );
}
