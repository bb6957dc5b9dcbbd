//! `pahtum tournament` and `pahtum merge` through the real binary: same
//! bytes for any thread count, for shards merged, after a torn line and
//! after real kills; the file schemas; every bad input refused with exit 2.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    SPRT_GREEDY_RANDOM, SWEEP_BLOCK, TOURNAMENT_RANDOM_GREEDY, joined, ok, pahtum as run, read,
    refused, without_ms,
};

fn bin() -> Command {
    Command::new(common::BIN)
}

/// Asserts that two output directories hold the same results: the same
/// `games.csv` and `moves.csv` but for the timing columns (names ending in
/// `_ms`), the same summaries.
fn same_results(a: &Path, b: &Path) {
    for f in ["games.csv", "moves.csv"] {
        assert_eq!(
            without_ms(&read(&a.join(f))),
            without_ms(&read(&b.join(f))),
            "{f} of {} and {}",
            a.display(),
            b.display()
        );
    }
    for f in [
        "summary.csv",
        "ratings.csv",
        "first_player.csv",
        "pairs.csv",
    ] {
        assert_eq!(read(&a.join(f)), read(&b.join(f)), "{f}");
    }
}

const BOTS: [&str; 6] = [
    "--bot",
    "random",
    "--bot",
    "random:label=r2",
    "--bot",
    "random:label=r3",
];

fn args<'a>(extra: &[&'a str], out: &'a Path) -> Vec<&'a str> {
    let mut v: Vec<&str> = vec!["tournament", "--quiet"];
    v.extend(BOTS);
    v.extend([
        "--games", "30", "--pie", "--holes", "3,5", "--seed", "7", "--out",
    ]);
    v.push(out.to_str().expect("utf-8 path"));
    v.extend(extra);
    v
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

#[test]
fn thread_count_changes_nothing() {
    let d = tmp();
    let (a, b) = (d.path().join("t1"), d.path().join("t2"));
    ok(&args(&["--threads", "1"], &a));
    ok(&args(&["--threads", "2"], &b));
    same_results(&a, &b);
    // 3 pairings x 30 games.
    assert_eq!(read(&a.join("games.csv")).lines().count(), 91);
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let d = tmp();
    let whole = d.path().join("whole");
    ok(&args(&["--threads", "2"], &whole));
    let shards: Vec<PathBuf> = (1..=3).map(|k| d.path().join(format!("s{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let spec = format!("{}/3", k + 1);
        ok(&args(&["--shard", &spec, "--threads", "1"], s));
    }
    let merged = d.path().join("merged");
    let mut m = vec!["merge", "--quiet", "--out", merged.to_str().expect("path")];
    // Order on the command line does not matter.
    m.extend(shards.iter().rev().map(|s| s.to_str().expect("path")));
    ok(&m);
    same_results(&whole, &merged);

    let out2 = d.path().join("m2");
    let out2 = out2.to_str().expect("path");
    let s: Vec<&str> = shards.iter().map(|p| p.to_str().expect("path")).collect();
    let e = refused(&["merge", s[0], s[1], "--out", out2]);
    assert!(e.contains("shard 3/3 missing"), "{e}");
    let e = refused(&["merge", s[0], s[1], s[1], s[2], "--out", out2]);
    assert!(e.contains("shard 2/3 given twice"), "{e}");
    // A shard's moves.csv that does not match its games.csv is named by
    // file and line, and nothing of it is left in the output.
    let moves = shards[1].join("moves.csv");
    let good = read(&moves);
    let lines: Vec<&str> = good.lines().collect();
    let bad: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mut f: Vec<&str> = l.split(',').collect();
            if i == 3 {
                f[2] = if f[2] == "white" { "black" } else { "white" };
            }
            f.join(",")
        })
        .collect();
    assert_ne!(bad[3], lines[3]);
    std::fs::write(&moves, bad.join("\n") + "\n").expect("write");
    let e = refused(&["merge", s[0], s[1], s[2], "--out", out2]);
    assert!(
        e.contains(&format!("{} line 4: game ", moves.display())) && e.contains("column side"),
        "{e}"
    );
    assert!(
        !Path::new(out2).join("moves.csv").exists()
            && !Path::new(out2).join("moves.csv.tmp").exists()
    );
    assert!(!Path::new(out2).join("games.csv").exists());
    std::fs::write(&moves, &good).expect("write");
    let _ = std::fs::remove_dir_all(out2);
    let other = d.path().join("other");
    ok(&args(&["--shard", "2/3", "--komi", "1"], &other));
    let e = refused(&[
        "merge",
        s[0],
        other.to_str().expect("path"),
        s[2],
        "--out",
        out2,
    ]);
    assert!(
        e.contains("different tournaments") && e.contains("--komi"),
        "{e}"
    );
    // A shard given --layout where the others were not differs in what
    // the user typed, --layout, which is what the refusal names.
    let fixed = d.path().join("fixed");
    let mut v: Vec<&str> = vec!["tournament", "--quiet"];
    v.extend(BOTS);
    v.extend([
        "--games", "30", "--pie", "--layout", "a1,b2", "--seed", "7", "--shard", "2/3", "--out",
    ]);
    v.push(fixed.to_str().expect("path"));
    ok(&v);
    let fixed = fixed.to_str().expect("path");
    let e = refused(&["merge", s[0], fixed, s[2], "--out", out2]);
    assert!(e.contains("different tournaments (--layout: "), "{e}");
    let e = refused(&["merge", fixed, s[0], s[2], "--out", out2]);
    assert!(e.contains("different tournaments (--layout: "), "{e}");
    assert!(!Path::new(out2).exists());
    // The output must be a new directory, and a file is no directory.
    let whole = whole.to_str().expect("path");
    let e = refused(&["merge", s[0], s[1], s[2], "--out", whole]);
    assert_eq!(
        e.trim_end(),
        format!("pahtum: error: --out {whole}: directory is not empty; merge into a new directory")
    );
    let file = format!("{whole}/games.csv");
    let e = refused(&args(&[], Path::new(&file)));
    assert_eq!(
        e.trim_end(),
        format!("pahtum: error: --out {file}: is not a directory")
    );
}

#[test]
fn resume_after_a_torn_line() {
    let d = tmp();
    let (whole, cut) = (d.path().join("whole"), d.path().join("cut"));
    ok(&args(&[], &whole));
    ok(&args(&[], &cut));
    // Cut games.csv in the middle of a line, as a kill during a write would,
    // and remove the summaries written at the end.
    let text = read(&cut.join("games.csv"));
    let mid = text.len() / 2;
    assert!(!text[..mid].ends_with('\n'));
    std::fs::write(cut.join("games.csv"), &text[..mid]).expect("write");
    for f in [
        "summary.csv",
        "ratings.csv",
        "first_player.csv",
        "pairs.csv",
    ] {
        std::fs::remove_file(cut.join(f)).expect("remove");
    }
    ok(&args(&["--resume"], &cut));
    same_results(&whole, &cut);
    // A run killed before its first run.json was renamed into place left
    // only a temporary file: resuming starts it.
    let fresh = d.path().join("fresh");
    std::fs::create_dir_all(&fresh).expect("mkdir");
    std::fs::write(fresh.join("run.json.tmp"), "{").expect("write");
    ok(&args(&["--resume"], &fresh));
    same_results(&whole, &fresh);
    // Resuming a finished run changes nothing.
    ok(&args(&["--resume"], &cut));
    same_results(&whole, &cut);
    // Different arguments are refused, naming the difference.
    let mut a = args(&["--resume"], &cut);
    let g = a.iter().position(|x| *x == "30").expect("games");
    a[g] = "32";
    let e = refused(&a);
    assert!(
        e.contains("--games") && e.contains("30") && e.contains("32"),
        "{e}"
    );
    let e = refused(&args(&["--resume", "--shard", "1/2"], &cut));
    assert!(e.contains("--shard") && e.contains("1/1"), "{e}");
    let e = refused(&["tournament", "--resume"]);
    assert!(e.contains("--resume needs --out"), "{e}");
}

/// Spawns a run, waits until `games.csv` holds `bytes`, kills it (SIGKILL).
/// Returns whether it was still running when killed.
fn kill_after(a: &[&str], games: &Path, bytes: u64) -> bool {
    let mut child = bin()
        .args(a)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let t0 = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            return false;
        }
        let len = std::fs::metadata(games).map_or(0, |m| m.len());
        if len >= bytes || t0.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("kill");
    let _ = child.wait();
    true
}

#[test]
fn resume_after_kill_minus_nine() {
    let d = tmp();
    let (whole, killed) = (d.path().join("whole"), d.path().join("killed"));
    let a = |out: &Path, resume: bool| -> Vec<String> {
        let mut v: Vec<String> = [
            "tournament",
            "--quiet",
            "--bot",
            "random",
            "--bot",
            "random:label=r2",
            "--games",
            "30000",
            "--seed",
            "3",
            "--threads",
            "2",
            "--out",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.push(out.display().to_string());
        if resume {
            v.push("--resume".into());
        }
        v
    };
    let whole_args = a(&whole, false);
    ok(&whole_args.iter().map(String::as_str).collect::<Vec<_>>());
    // Kill twice at different points (the second time while resuming),
    // then let a third attempt finish.
    let games = killed.join("games.csv");
    let first = a(&killed, false);
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    let killed_once = kill_after(&first, &games, 40_000);
    let again = a(&killed, true);
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    let killed_twice = kill_after(&again, &games, 2_500_000);
    assert!(killed_once, "the run ended before it could be killed");
    let _ = killed_twice;
    ok(&again);
    same_results(&whole, &killed);
}

#[test]
fn bad_input_is_refused_before_any_game() {
    let d = tmp();
    let out = d.path().join("out");
    let o = out.to_str().expect("path");
    let two = ["--bot", "random", "--bot", "random:label=b"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--bot", "nosuch", "--bot", "random"], "nosuch"),
        (vec!["--bot", "random"], "at least two bots"),
        (
            vec!["--bot", "random", "--bot", "random"],
            "two bots are named",
        ),
        ([&two[..], &["--games", "0"]].concat(), "--games"),
        ([&two[..], &["--shard", "3/2"]].concat(), "3/2"),
        ([&two[..], &["--shard", "0/2"]].concat(), "0/2"),
        ([&two[..], &["--holes", "60"]].concat(), "--holes 60"),
        (
            [&two[..], &["--size", "3", "--holes", "9"]].concat(),
            "--holes 9",
        ),
        ([&two[..], &["--threads", "0"]].concat(), "--threads"),
        ([&two[..], &["--format", "swiss"]].concat(), "swiss"),
        ([&two[..], &["--bot", "random:depth=3"]].concat(), "depth"),
        (
            [&two[..], &["--gmaes", "3"]].concat(),
            "'--gmaes' found (tip: a similar argument exists: '--games')",
        ),
    ];
    for (extra, needle) in cases {
        let mut a = vec!["tournament", "--out", o];
        a.extend(extra);
        let e = refused(&a);
        assert!(e.contains(needle), "{a:?}: {e}");
        assert!(!out.exists(), "{a:?} created the output directory");
    }
    // A non-empty --out is never overwritten.
    std::fs::create_dir_all(&out).expect("mkdir");
    std::fs::write(out.join("keep.txt"), "mine").expect("write");
    let mut a = vec!["tournament", "--out", o];
    a.extend(two);
    let e = refused(&a);
    assert!(e.contains("not empty"), "{e}");
    a.push("--resume");
    let e = refused(&a);
    assert!(e.contains("no run.json"), "{e}");
    assert_eq!(read(&out.join("keep.txt")), "mine");
}

#[test]
fn file_schemas_and_run_json() {
    let d = tmp();
    let out = d.path().join("default");
    let o = run(&[
        "tournament",
        "--bot",
        "random",
        "--bot",
        "random:label=random2",
        "--games",
        "10",
        "--out",
        out.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("elo") && stdout.contains("random"),
        "{stdout}"
    );

    let games = read(&out.join("games.csv"));
    let mut lines = games.lines();
    assert_eq!(
        lines.next(),
        Some(
            "game,layout,holes,white,black,white_score,black_score,winner,termination,plies,moves,white_ms,black_ms,swapped"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 10);
    let mut white = [0u32; 3];
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r.len(), 14);
        assert_eq!(r[0], i.to_string());
        assert_eq!(r[1], (i / 2).to_string());
        assert_eq!(r[2].split(' ').count(), 5);
        assert_eq!(r[10].split(' ').count(), 44);
        assert_eq!(r[8], "normal");
        let (w, b): (u32, u32) = (r[5].parse().expect("score"), r[6].parse().expect("score"));
        let expect = if w > b {
            "white"
        } else if w < b {
            "black"
        } else {
            "draw"
        };
        assert_eq!(r[7], expect);
        white[["white", "draw", "black"]
            .iter()
            .position(|x| *x == r[7])
            .expect("winner")] += 1;
    }
    // Both games of a pair share the holes and swap the bots.
    assert_eq!(rows[0][2], rows[1][2]);
    assert_eq!((rows[0][3], rows[0][4]), (rows[1][4], rows[1][3]));

    let first = read(&out.join("first_player.csv"));
    let all: Vec<&str> = first.lines().nth(1).expect("row").split(',').collect();
    assert_eq!(&all[..4], &["all", "all", "all", "all"]);
    assert_eq!(
        all[5..8],
        [
            white[0].to_string(),
            white[1].to_string(),
            white[2].to_string()
        ]
    );
    assert_eq!(
        read(&out.join("summary.csv")).lines().next(),
        Some(
            "bot,opponent,games,wins,draws,losses,score_rate,win_rate,win_rate_lo,win_rate_hi,mean_score,sd_score,mean_opp_score"
        )
    );
    assert_eq!(
        read(&out.join("ratings.csv")).lines().next(),
        Some("bot,elo,elo_lo,elo_hi,games")
    );
    let pairs = read(&out.join("pairs.csv"));
    assert_eq!(pairs.lines().count(), 6);
    // `holes` names hole squares (games.csv); a number of holes is `hole_count`.
    assert!(pairs.starts_with("layout,hole_count,bot,"), "{pairs}");
    assert!(
        first.starts_with("scope,bot,opponent,hole_count,games,"),
        "{first}"
    );
    assert!(first.contains("\nhole_count,all,all,5,"), "{first}");

    let json: serde_json::Value =
        serde_json::from_str(&read(&out.join("run.json"))).expect("run.json");
    for key in ["command_line", "version", "start_time", "end_time", "rerun"] {
        assert!(!json[key].is_null(), "run.json lacks {key}");
    }
    assert_eq!(json["args"]["seed"], 1);
    assert_eq!(json["args"]["games"], 10);
    assert_eq!(json["replayable"], true);
    assert_eq!(json["args"]["bot"][0], "random");
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_valid_rows() {
    let d = tmp();
    let out = d.path().join("int");
    let games = out.join("games.csv");
    let child = bin()
        .args([
            "tournament",
            "--quiet",
            "--bot",
            "random",
            "--bot",
            "random:label=b",
            "--games",
            "400000",
            "--threads",
            "1",
            "--out",
            out.to_str().expect("path"),
        ])
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let t0 = Instant::now();
    while std::fs::metadata(&games).map_or(0, |m| m.len()) < 20_000
        && t0.elapsed() < Duration::from_secs(60)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    common::send(child.id(), nix::sys::signal::Signal::SIGINT);
    let o = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted") && err.contains("--resume") && !err.contains("internal"),
        "{err}"
    );
    let text = read(&games);
    assert!(text.ends_with('\n'));
    let rows = text.lines().count() - 1;
    assert!(rows > 0 && rows < 400_000);
    assert!(!out.join("summary.csv").exists());
}

#[test]
fn a_spec_with_several_keys_and_no_label_is_named_with_semicolons() {
    let d = tmp();
    let out = d.path().join("out");
    let o = out.to_str().expect("path");
    ok(&[
        "tournament",
        "--bot",
        "mcts:iters=50,c=0.3",
        "--bot",
        "random",
        "--games",
        "2",
        "--quiet",
        "--out",
        o,
    ]);
    let games = read(&out.join("games.csv"));
    let rows: Vec<&str> = games.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{games}");
    for row in rows {
        // Every row has the header's number of fields: the name is unquoted.
        assert_eq!(
            row.split(',').count(),
            games.lines().next().unwrap_or("").split(',').count()
        );
        assert!(row.contains("mcts:iters=50;c=0.3"), "{row}");
    }
}

/// Every CSV a small run of each study writes, byte for byte against the
/// copies in tests/data/golden (timing columns aside), so that a change to
/// how rows are written or read back cannot move a byte. A tournament's
/// shards merged and a resumed run must give the same bytes too.
#[test]
fn every_csv_matches_its_golden_copy() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden");
    let dir = tmp();
    let out = |name: &str| dir.path().join(name);
    let tour: [&str; 7] = joined(TOURNAMENT_RANDOM_GREEDY, ["--games", "4"]);
    let sweep: [&str; 9] = joined(SWEEP_BLOCK, ["--games", "2"]);
    let sprt: [&str; 11] = joined(SPRT_GREEDY_RANDOM, ["--elo1", "5", "--max-games", "6"]);
    let exact = [
        "exact", "--size", "4", "--holes", "2", "--pie", "--versus", "greedy",
    ];
    let accuracy = golden.join("../accuracy.txt");
    let runs: [(&str, Vec<&str>); 8] = [
        ("tournament", tour.to_vec()),
        ("sweep", sweep.to_vec()),
        ("sprt", sprt.to_vec()),
        (
            "fpa",
            vec!["fpa", "--bot", "random", "--games", "2", "--holes", "3"],
        ),
        ("exact", exact.to_vec()),
        (
            "tune",
            vec![
                "tune",
                "--bot",
                "greedy",
                "--param",
                "block=0..1",
                "--vs",
                "random",
                "--pairs",
                "2",
                "--size",
                "5",
                "--holes",
                "3",
            ],
        ),
        (
            "accuracy",
            vec![
                "accuracy",
                "--bot",
                "greedy",
                "--positions",
                accuracy.to_str().expect("utf-8"),
            ],
        ),
        (
            "review",
            vec!["review", "--game", "1", "--bot", "greedy", "--exact", "10"],
        ),
    ];
    for (name, mut args) in runs {
        let o = out(name);
        let tour_dir = out("tournament");
        if name == "review" {
            args.insert(1, tour_dir.to_str().expect("utf-8"));
        }
        args.extend(["--quiet", "--out", o.to_str().expect("utf-8")]);
        ok(&args);
        same_csvs(&golden.join(name), &o);
    }
    // Shards merged, and a run resumed after a torn last line.
    for (name, base) in [("tournament", &tour[..]), ("exact", &exact[..])] {
        let merged = merge_of_shards(base, &out(&format!("{name}-shards")));
        same_csvs(&golden.join(name), &merged);
    }
    let resumed = out("resumed");
    std::fs::create_dir(&resumed).expect("dir");
    for f in ["games.csv", "moves.csv", "run.json"] {
        std::fs::copy(out("tournament").join(f), resumed.join(f)).expect("copy");
    }
    let games = read(&resumed.join("games.csv"));
    std::fs::write(resumed.join("games.csv"), &games[..games.len() - 30]).expect("tear");
    let mut a = tour.to_vec();
    a.extend([
        "--quiet",
        "--resume",
        "--out",
        resumed.to_str().expect("utf-8"),
    ]);
    ok(&a);
    same_csvs(&golden.join("tournament"), &resumed);
}

/// Runs `base` as two shards under `dir` and merges them; the merged
/// directory.
fn merge_of_shards(base: &[&str], dir: &Path) -> PathBuf {
    let mut merge = vec!["merge".to_string()];
    for k in 1..=2 {
        let o = dir.join(format!("shard{k}"));
        let shard = format!("{k}/2");
        let mut a = base.to_vec();
        a.extend([
            "--shard",
            &shard,
            "--quiet",
            "--out",
            o.to_str().expect("utf-8"),
        ]);
        ok(&a);
        merge.push(o.to_str().expect("utf-8").to_string());
    }
    let merged = dir.join("merged");
    merge.extend(["--out".into(), merged.to_str().expect("utf-8").into()]);
    ok(&merge.iter().map(String::as_str).collect::<Vec<_>>());
    merged
}

/// Asserts that every CSV in `golden` is in `dir` with the same bytes
/// (timing columns aside), and that `dir` holds no other CSV. With
/// `PAHTUM_BLESS=1` it first copies `dir`'s files over the golden ones:
/// for a deliberate change of a format, whose diff is then reviewed.
fn same_csvs(golden: &Path, dir: &Path) {
    if std::env::var_os("PAHTUM_BLESS").is_some_and(|v| v == "1") {
        for e in std::fs::read_dir(golden).expect("golden dir") {
            let n = e.expect("entry").file_name();
            if n.to_string_lossy().ends_with(".csv") {
                std::fs::copy(dir.join(&n), golden.join(&n)).expect("bless");
            }
        }
    }
    let names = |d: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".csv"))
            .collect();
        v.sort();
        v
    };
    assert_eq!(names(golden), names(dir), "{}", dir.display());
    for n in names(golden) {
        let (want, got) = (read(&golden.join(&n)), read(&dir.join(&n)));
        assert_eq!(
            without_ms(&want),
            without_ms(&got),
            "{}",
            dir.join(&n).display()
        );
        assert_eq!(want.ends_with('\n'), got.ends_with('\n'), "{n}");
    }
}

#[test]
fn moves_csv_has_a_line_a_ply_as_games_csv_has_them() {
    let d = tmp();
    let out = d.path().join("m");
    ok(&[
        "tournament",
        "--quiet",
        "--bot",
        "mcts:iters=60",
        "--bot",
        "alphabeta:depth=1",
        "--games",
        "2",
        "--pie",
        "--seed",
        "5",
        "--out",
        out.to_str().expect("path"),
    ]);
    let moves = read(&out.join("moves.csv"));
    let mut lines = moves.lines();
    assert_eq!(
        lines.next(),
        Some("game,ply,side,bot,move,eval,white_expect,nodes,depth,pv,move_ms,clock_ms")
    );
    let lines: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let games = read(&out.join("games.csv"));
    let mut at = 0;
    let mut swaps = 0;
    let mut expects = 0;
    for row in games.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let (game, white, black, swapped) = (f[0], f[3], f[4], f[13] == "1");
        for (ply, mv) in f[10].split(' ').enumerate() {
            let l = &lines[at];
            at += 1;
            assert_eq!(
                (l[0], l[1], l[4]),
                (game, (ply + 1).to_string().as_str(), mv)
            );
            // The mover: the first seat moves White's stones until a swap
            // hands them to the second; the swap is Black's move.
            let (first, second) = if swapped {
                (black, white)
            } else {
                (white, black)
            };
            let after_swap = f[10].split(' ').take(ply).any(|m| m == "swap");
            let mover = if mv == "swap" {
                assert_eq!(l[2], "black");
                second
            } else if (l[2] == "white") != after_swap {
                first
            } else {
                second
            };
            assert_eq!(l[3], mover, "{l:?}");
            swaps += usize::from(mv == "swap");
            assert!(
                !l[7].is_empty() && !l[8].is_empty() && !l[9].is_empty(),
                "{l:?}"
            );
            assert!(l[10].parse::<u64>().is_ok() && l[11].is_empty(), "{l:?}");
            if l[3].starts_with("mcts") {
                // A mean reward, or a result proven near the end.
                let p: f64 = l[6].parse().unwrap_or_else(|e| panic!("{e}: {l:?}"));
                assert!((0.0..=1.0).contains(&p), "{l:?}");
                expects += 1;
            } else {
                assert!(l[6].is_empty() && !l[5].is_empty(), "{l:?}");
            }
        }
    }
    assert_eq!(at, lines.len());
    assert!(swaps > 0, "no swap to check the movers of");
    assert!(expects > 10, "{expects} lines with White's expected score");
}
