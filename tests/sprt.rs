//! `sprt` end to end through the real binary, with cheap bots and small
//! game counts: verdicts, determinism across threads, labels, intervals.

mod common;

use std::path::Path;

use common::{SPRT_GREEDY_RANDOM, ok, read};

fn header(p: &Path) -> String {
    read(p).lines().next().unwrap_or_default().to_string()
}

/// A quiet `sprt` of `a` against `b` (Elo 0 against `elo1`, at most
/// `max_games`) into `out`, with `extra` options; its standard output.
fn sprt_run(a: &str, b: &str, elo1: &str, max_games: &str, extra: &[&str], out: &Path) -> String {
    let out = out.to_str().expect("path");
    let mut args = vec![
        "sprt",
        "--a",
        a,
        "--b",
        b,
        "--elo0",
        "0",
        "--elo1",
        elo1,
        "--max-games",
        max_games,
        "--quiet",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    ok(&args)
}

/// A seeded `sprt` of up to 600 games on `threads` threads.
fn sprt(a: &str, b: &str, threads: &str, out: &Path) -> String {
    sprt_run(
        a,
        b,
        "100",
        "600",
        &["--seed", "7", "--threads", threads],
        out,
    )
}

#[test]
fn sprt_accepts_h1_for_greedy_over_random_at_the_same_pair_for_any_threads() {
    let dir = tempfile::tempdir().expect("dir");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let out1 = sprt("greedy", "random", "1", &a);
    let out2 = sprt("greedy", "random", "2", &b);
    assert_eq!(out1.lines().last(), Some("H1 accepted"), "{out1}");
    assert!(out1.contains("llr=") && out1.contains("bounds=[-2.944, 2.944]"));
    assert_eq!(out1, out2);
    let csv = read(&a.join("sprt.csv"));
    assert_eq!(
        header(&a.join("sprt.csv")),
        "pairs,games,ll,ld,wl_dd,wd,ww,score_rate,llr,llr_lo,llr_hi,decision"
    );
    assert_eq!(csv, read(&b.join("sprt.csv")));
    assert!(csv.lines().last().is_some_and(|l| l.ends_with(",H1")));
    // The games file holds exactly the games the test used.
    let pairs = csv.lines().count() - 1;
    assert_eq!(read(&a.join("games.csv")).lines().count(), 1 + 2 * pairs);
    assert!(pairs < 30, "{pairs} pairs");
    assert!(read(&a.join("sprt.svg")).contains("H1 accepted"));
    // Resuming a decided test plays nothing more.
    let again = ok(&[
        &SPRT_GREEDY_RANDOM[..],
        &[
            "--elo1",
            "100",
            "--max-games",
            "600",
            "--seed",
            "7",
            "--out",
            a.to_str().expect("path"),
            "--resume",
            "--quiet",
        ],
    ]
    .concat());
    assert_eq!(again, out1);
    assert_eq!(read(&a.join("games.csv")).lines().count(), 1 + 2 * pairs);
}

#[test]
fn sprt_accepts_h0_for_random_against_itself_or_stops_at_max_games() {
    let dir = tempfile::tempdir().expect("dir");
    let out = sprt("random", "random", "2", &dir.path().join("h0"));
    assert_eq!(out.lines().last(), Some("H0 accepted"), "{out}");
    let o = ok(&[
        "sprt",
        "--a",
        "random",
        "--b",
        "random",
        "--elo0",
        "-5",
        "--elo1",
        "5",
        "--max-games",
        "10",
        "--seed",
        "7",
        "--out",
        dir.path().join("x").to_str().expect("path"),
        "--quiet",
    ]);
    assert!(o.contains("games=10 "), "{o}");
    assert_eq!(o.lines().last(), Some("inconclusive"));
}

/// A 4-game `sprt` of `a` against `b` into `out`; its standard output.
fn short_sprt(a: &str, b: &str, out: &Path) -> String {
    sprt_run(a, b, "50", "4", &[], out)
}

/// `sprt` and `fpa` relabel their bots (`-b`, `-2`): with a spec of
/// several keys and no label, the names carry `;` for `,` and the runs go.
#[test]
fn specs_with_several_keys_and_no_label_run_in_sprt_and_fpa() {
    let dir = tempfile::tempdir().expect("dir");
    let spec = "mcts:iters=20,c=0.3";
    let sprt = dir.path().join("sprt");
    short_sprt(spec, spec, &sprt);
    let games = read(&sprt.join("games.csv"));
    assert!(games.contains("mcts:iters=20;c=0.3-b"), "{games}");
    let fpa = dir.path().join("fpa");
    ok(&[
        "fpa",
        "--bot",
        spec,
        "--games",
        "2",
        "--holes",
        "5",
        "--quiet",
        "--out",
        fpa.to_str().expect("path"),
    ]);
    let games = read(&fpa.join("games.csv"));
    assert!(games.contains("mcts:iters=20;c=0.3-2"), "{games}");
}

/// A clean sweep has no variance between pairs: the Elo interval then
/// comes from the Wilson interval of the points, with a finite lower end
/// (4 wins of 4: about 0.51, 7 Elo), not `[inf, inf]`.
#[test]
fn sprt_gives_a_clean_sweep_a_finite_lower_elo() {
    let dir = tempfile::tempdir().expect("dir");
    let out = short_sprt("greedy", "random", &dir.path().join("o"));
    let line = out
        .lines()
        .find(|l| l.starts_with("games=4 "))
        .unwrap_or("");
    assert!(line.contains("ptnml=0,0,0,0,2"), "{out}");
    let lower = line
        .split_once("elo=inf [")
        .and_then(|(_, r)| r.split_once(','))
        .and_then(|(lo, _)| lo.parse::<f64>().ok());
    assert!(lower.is_some_and(f64::is_finite), "{out}");
}
