//! The research commands end to end through the real binary: `sweep` and
//! `fpa` with cheap bots and small game counts (`sprt` in tests/integration/sprt.rs).

use crate::common;

use std::path::Path;

use common::{SWEEP_BLOCK, ok, pahtum, read, without_ms};

fn games_without_timing(p: &Path) -> String {
    without_ms(&read(p))
}

fn header(p: &Path) -> String {
    read(p).lines().next().unwrap_or_default().to_string()
}

/// A combination that wins every game gets a finite Elo and interval
/// around it at every game count (issue 45: `inf [166, 6261]` at 10 games,
/// an upper end of `inf` at 2, 4, ... 20), in the table and in `sweep.csv`.
#[test]
fn sweep_prints_a_clean_sweep_with_a_finite_interval_at_every_game_count() {
    let dir = tempfile::tempdir().expect("dir");
    let run = |games: u32| {
        let out = dir.path().join(format!("g{games}"));
        let text = ok(&[
            "sweep",
            "--bot",
            "heuristic",
            "--param",
            "decay=0.4",
            "--vs",
            "greedy",
            "--games",
            &games.to_string(),
            "--out",
            common::s(&out),
        ]);
        (text, read(&out.join("sweep.csv")))
    };
    for games in (2..=20).step_by(2) {
        let (text, csv) = run(games);
        if games == 10 {
            // The line without its timing column (ms/move, the last),
            // which a loaded machine moves.
            let line = text.lines().nth(1).and_then(|l| l.rsplit_once(' '));
            assert_eq!(
                line.map(|(rest, _)| rest.trim_end()),
                Some(
                    "0.4                          10    10     0     0   1.000    529 [130, 928]    15.20"
                ),
                "{text}"
            );
        }
        let row: Vec<&str> = csv.lines().nth(1).unwrap_or("").split(',').collect();
        let n = games.to_string();
        assert_eq!(
            (row.get(1), row.get(2)),
            (Some(&n.as_str()), Some(&n.as_str())),
            "{csv}"
        );
        // The combination won every game: elo, elo_lo, elo_hi.
        let e: Vec<f64> = row[9..12]
            .iter()
            .map(|x| x.parse().unwrap_or(f64::NAN))
            .collect();
        assert!(
            e.iter().all(|x| x.is_finite()) && e[1] < e[0] && e[0] < e[2],
            "{games} games: {csv}"
        );
        assert!(!text.contains("inf"), "{text}");
    }
}

#[test]
fn sweep_outputs_and_determinism_across_threads() {
    let dir = tempfile::tempdir().expect("dir");
    let run = |t: &str, name: &str| {
        let out = dir.path().join(name);
        let out_s = out.to_str().expect("path").to_string();
        ok(&[
            "sweep",
            "--bot",
            "greedy",
            "--param",
            "block=0..1:0.5",
            "--vs",
            "random",
            "--games",
            "8",
            "--seed",
            "4",
            "--threads",
            t,
            "--out",
            &out_s,
            "--quiet",
        ]);
        out
    };
    let a = run("1", "a");
    let b = run("2", "b");
    assert_eq!(
        header(&a.join("sweep.csv")),
        "block,games,wins,draws,losses,win_rate,win_rate_lo,win_rate_hi,score_rate,elo,elo_lo,elo_hi,mean_margin,move_ms"
    );
    let csv = read(&a.join("sweep.csv"));
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 3);
    assert!(
        rows[0].starts_with("0.0,8,") && rows[2].starts_with("1.0,8,"),
        "{csv}"
    );
    // Same bytes for any thread count, the timing column aside.
    let no_ms = |t: &str| -> String {
        t.lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string() + "\n")
            .collect()
    };
    assert_eq!(no_ms(&csv), no_ms(&read(&b.join("sweep.csv"))));
    assert_eq!(
        games_without_timing(&a.join("games.csv")),
        games_without_timing(&b.join("games.csv"))
    );
    assert!(read(&a.join("sweep.svg")).contains("<svg"));
    for f in ["summary.csv", "ratings.csv", "run.json"] {
        assert!(a.join(f).exists(), "{f}");
    }
}

#[test]
fn sweep_grid_heat_map_and_resume_after_a_torn_line() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("s");
    let out_s = out.to_str().expect("path");
    let args = [
        "sweep",
        "--bot",
        "flatmc:playouts=8",
        "--param",
        "c=0.5,2",
        "--param",
        "rollout=random,heuristic",
        "--vs",
        "greedy",
        "--games",
        "4",
        "--seed",
        "2",
        "--threads",
        "2",
        "--out",
        out_s,
        "--quiet",
    ];
    ok(&args);
    let full_csv = read(&out.join("sweep.csv"));
    assert!(full_csv.starts_with("c,rollout,games,"));
    assert_eq!(full_csv.lines().count(), 5);
    assert!(read(&out.join("sweep.svg")).contains("over c and rollout"));
    let full_games = games_without_timing(&out.join("games.csv"));
    // Cut games.csv to a few rows and half a line, as a kill would.
    let text = read(&out.join("games.csv"));
    let cut: usize = text
        .split_inclusive('\n')
        .take(6)
        .map(str::len)
        .sum::<usize>()
        + 9;
    std::fs::write(out.join("games.csv"), &text[..cut]).expect("cut");
    std::fs::remove_file(out.join("sweep.csv")).expect("rm");
    // Without --resume a non-empty directory is refused.
    assert_eq!(pahtum(&args).status.code(), Some(2));
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    ok(&resumed);
    let no_ms = |t: &str| -> String {
        t.lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string() + "\n")
            .collect()
    };
    assert_eq!(no_ms(&read(&out.join("sweep.csv"))), no_ms(&full_csv));
    assert_eq!(games_without_timing(&out.join("games.csv")), full_games);
}

#[test]
fn fpa_outputs_with_pie_and_determinism() {
    let dir = tempfile::tempdir().expect("dir");
    // The study, with `extra` (threads or shard) and its output directory.
    let fpa = |extra: [&str; 2], out: &Path| {
        let base = [
            "fpa", "--bot", "greedy", "--holes", "3,5", "--games", "12", "--seed", "3", "--pie",
        ];
        let tail = ["--out", out.to_str().expect("path"), "--quiet"];
        ok(&[&base[..], &extra, &tail].concat());
    };
    let run = |t: &str, name: &str| {
        let out = dir.path().join(name);
        fpa(["--threads", t], &out);
        out
    };
    let a = run("1", "a");
    let b = run("2", "b");
    let csv = read(&a.join("fpa.csv"));
    assert!(csv.starts_with(
        "hole_count,pie,komi,games,white_wins,draws,black_wins,white_win_rate,white_win_rate_lo,white_win_rate_hi,draw_rate,draw_rate_lo,draw_rate_hi,black_win_rate,black_win_rate_lo,black_win_rate_hi,mean_margin,sd_margin,fair_komi,fair_komi_lo,fair_komi_hi,"
    ));
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 6); // 3, 3 pie, 5, 5 pie, all, all pie
    assert_eq!((rows[0][0], rows[0][1], rows[0][3]), ("3", "false", "12"));
    assert_eq!((rows[1][1], rows[4][0], rows[4][3]), ("true", "all", "24"));
    assert!(rows[0].last().is_some_and(|s| s.is_empty())); // no swaps without pie
    assert!(!rows[1].last().is_some_and(|s| s.is_empty()));
    assert_eq!(csv, read(&b.join("fpa.csv")));
    assert_eq!(
        games_without_timing(&a.join("games.csv")),
        games_without_timing(&b.join("games.csv"))
    );
    // One game per layout: layouts 0..48, games 0, 2, 4...
    assert_eq!(read(&a.join("games.csv")).lines().count(), 49);
    assert!(read(&a.join("fpa.svg")).contains("BrainKing"));
    // Two shards merge to the unsharded files (timing columns aside).
    for k in ["1/2", "2/2"] {
        fpa(["--shard", k], &dir.path().join(k.replace('/', "of")));
    }
    let merged = dir.path().join("merged");
    let part = |k: &str| dir.path().join(k).to_str().expect("path").to_string();
    ok(&[
        "merge",
        &part("1of2"),
        &part("2of2"),
        "--out",
        merged.to_str().expect("path"),
        "--quiet",
    ]);
    assert_eq!(csv, read(&merged.join("fpa.csv")));
    assert_eq!(read(&a.join("fpa.svg")), read(&merged.join("fpa.svg")));
    for f in ["games.csv", "moves.csv"] {
        assert_eq!(
            games_without_timing(&a.join(f)),
            games_without_timing(&merged.join(f)),
            "{f}"
        );
    }
    let o = pahtum(&["merge", &part("1of2"), "--out", &part("m2")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shard 2/2 missing"));
}

#[test]
fn bad_input_exits_2_with_one_line_before_any_game() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("never");
    let o = out.to_str().expect("path").to_string();
    let with = |base: &[&str], extra: &[&str]| -> Vec<String> {
        base.iter()
            .chain(extra)
            .map(|s| s.to_string())
            .chain(["--out".to_string(), o.clone()])
            .collect()
    };
    let sweep = ["sweep", "--bot", "greedy", "--vs", "random", "--games", "4"];
    let sprt = [
        "sprt",
        "--a",
        "greedy",
        "--b",
        "random",
        "--max-games",
        "10",
    ];
    let h = ["--elo0", "0", "--elo1", "5"];
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(&sweep, &["--param", "depth=1,2"]),
            "has no key 'depth'",
        ),
        (with(&sweep, &["--param", "block="]), "empty"),
        (with(&sweep, &["--param", "block=1,,2"]), "empty"),
        (with(&sweep, &["--param", "block=2..1:0.5"]), "below"),
        (with(&sweep, &["--param", "block=0..1:0"]), "positive"),
        (with(&sweep, &["--param", "block=0..1"]), "STEP"),
        (with(&sweep, &["--param", "block=9"]), "block=9"),
        (
            with(&sweep, &["--param", "block=1", "--games", "0"]),
            "--games",
        ),
        (with(&sprt, &["--elo0", "5", "--elo1", "5"]), "smaller"),
        // clap lists the missing arguments on lines of their own: the one
        // line must still name them.
        (with(&sprt, &["--elo0", "0"]), "not provided: --elo1 <E1>"),
        (with(&sprt, &[]), "--elo0 <E0>, --elo1 <E1>"),
        (
            with(&sprt, &[&h[..], &["--alpha", "0.5"]].concat()),
            "--alpha",
        ),
        (with(&sprt, &[&h[..], &["--beta", "0"]].concat()), "--beta"),
        (
            with(&sprt, &[&h[..], &["--alpha", "-0.1"]].concat()),
            "--alpha",
        ),
        (
            with(&sprt, &[&h[..], &["--model", "bayes"]].concat()),
            "--model",
        ),
        (
            with(&sprt, &[&h[..], &["--max-games", "0"]].concat()),
            "--max-games",
        ),
        (
            with(&["fpa", "--bot", "greedy", "--games", "0"], &[]),
            "--games",
        ),
        (with(&["fpa", "--bot", "nobot"], &[]), "unknown bot"),
        (
            with(&["fpa", "--bot", "greedy", "--holes", "3,x"], &[]),
            "--holes",
        ),
    ];
    for (args, want) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = pahtum(&args);
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?} created its output");
    }
}

/// `sweep --shard K/N` parts merge into the unsharded sweep's files (the
/// `move_ms` timing column aside); parts of another sweep are refused.
#[test]
fn sweep_shards_merge_to_the_unsharded_files() {
    let dir = tempfile::tempdir().expect("dir");
    let p = |name: &str| dir.path().join(name).to_str().expect("path").to_string();
    let sweep = |extra: &[&str], out: &str| {
        let mut args = SWEEP_BLOCK.to_vec();
        args.extend_from_slice(&[
            "--games", "8", "--size", "5", "--holes", "3", "--seed", "9", "--quiet",
        ]);
        args.extend_from_slice(extra);
        let out = p(out);
        ok(&[&args[..], &["--out", &out]].concat());
    };
    sweep(&[], "full");
    sweep(&["--shard", "1/2"], "s1");
    sweep(&["--shard", "2/2"], "s2");
    ok(&[
        "merge",
        &p("s2"),
        &p("s1"),
        "--out",
        &p("merged"),
        "--quiet",
    ]);
    let no_timing = |f: &str| -> String {
        read(Path::new(f))
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |x| x.0).to_string() + "\n")
            .collect()
    };
    let (full, merged) = (
        Path::new(&p("full")).to_path_buf(),
        Path::new(&p("merged")).to_path_buf(),
    );
    for f in [
        "summary.csv",
        "ratings.csv",
        "pairs.csv",
        "first_player.csv",
    ] {
        assert_eq!(read(&full.join(f)), read(&merged.join(f)), "{f}");
    }
    assert_eq!(
        no_timing(full.join("sweep.csv").to_str().expect("path")),
        no_timing(merged.join("sweep.csv").to_str().expect("path"))
    );
    for f in ["games.csv", "moves.csv"] {
        assert_eq!(
            games_without_timing(&full.join(f)),
            games_without_timing(&merged.join(f)),
            "{f}"
        );
    }
    sweep(&["--shard", "2/2", "--komi", "1"], "other");
    let o = pahtum(&["merge", &p("s1"), &p("other"), "--out", &p("m2")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("different"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
