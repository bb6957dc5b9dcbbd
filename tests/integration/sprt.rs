//! `sprt` end to end through the real binary, with cheap bots and small
//! game counts: verdicts, determinism across threads, labels, intervals.

use crate::common;

use std::path::Path;

use common::{SPRT_GREEDY_RANDOM, SPRT_TEN_GAMES, ok, read};

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

/// `elo=E [LO, HI]` of a status line, as numbers.
fn elo_of_line(line: &str) -> (f64, f64, f64) {
    let rest = line.split_once("elo=").map_or("", |(_, r)| r);
    let (e, rest) = rest.split_once(" [").unwrap_or_default();
    let (lo, rest) = rest.split_once(", ").unwrap_or_default();
    let hi = rest.split_once(']').map_or("", |(h, _)| h);
    let num = |t: &str| t.parse::<f64>().unwrap_or(f64::NAN);
    (num(e), num(lo), num(hi))
}

/// A clean sweep has no variance between pairs: it is counted with one
/// virtual draw (10 wins of 10 as 10.5 of 11) and its interval is the
/// Wilson interval of that sample, finite at both ends and around the
/// estimate (issue 45's repro printed `elo=inf [166.2, 6261.4]`).
#[test]
fn sprt_prints_a_clean_sweep_with_a_finite_interval_around_its_estimate() {
    let dir = tempfile::tempdir().expect("dir");
    let out_dir = dir.path().join("x");
    let mut args = vec!["sprt", "--a", "heuristic", "--b", "greedy"];
    args.extend(SPRT_TEN_GAMES);
    args.extend(["--threads", "1", "--out", common::s(&out_dir)]);
    let out = ok(&args);
    assert_eq!(
        out,
        "games=10 ptnml=0,0,0,0,5 score=1.0000 elo=528.9 [129.8, 928.0] llr=0.071 bounds=[-2.944, 2.944]\ninconclusive\n"
    );
    // Both ways round, at other pair counts.
    for (a, b, games) in [
        ("greedy", "random", "4"),
        ("random", "greedy", "4"),
        ("heuristic", "greedy", "2"),
        ("greedy", "heuristic", "8"),
    ] {
        let o = dir.path().join(format!("{a}-{b}-{games}"));
        let text = sprt_run(a, b, "50", games, &[], &o);
        let line = text.lines().next().unwrap_or("");
        let (e, lo, hi) = elo_of_line(line);
        assert!(
            [e, lo, hi].iter().all(|x| x.is_finite()) && lo < e && e < hi,
            "{a} vs {b}: {text}"
        );
    }
}
