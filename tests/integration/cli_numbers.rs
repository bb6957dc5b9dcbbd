//! Every numeric option of every subcommand refuses a number it cannot
//! take in one line that names the option and says "out of range", with
//! exit status 2 and nothing else done.

use crate::common;

use std::process::{Command, Stdio};

use common::{BIN, SPRT_TEN_GAMES, joined};

/// The arguments each subcommand needs before a numeric option is checked.
const BASE: &[(&str, &[&str])] = &[
    ("play", &["--white", "random", "--black", "random"]),
    ("tournament", &[]),
    (
        "sweep",
        &["--bot", "mcts", "--param", "iters=1,2", "--vs", "random"],
    ),
    (
        "sprt",
        &joined::<4, 6, 10>(["--a", "random", "--b", "greedy"], SPRT_TEN_GAMES),
    ),
    ("fpa", &["--bot", "random"]),
    ("solve", &[]),
    ("bots", &[]),
    ("bench", &[]),
    ("engine", &["--bot", "random"]),
    (
        "tune",
        &["--bot", "greedy", "--param", "block=0..1", "--pairs", "2"],
    ),
    ("exact", &["--size", "3", "--holes", "0"]),
    ("accuracy", &["--bot", "greedy", "--positions", "none.txt"]),
    ("report", &["no-such-run", "--review"]),
    // The trainer's options are parsed in every build.
    ("train", &[]),
];

/// Per option, values out of its range and the range the message names.
/// Options common to several subcommands are tried on each.
const CASES: &[(&str, &[&str], &str)] = &[
    (
        "--seed",
        &["-1", "18446744073709551616"],
        "0..=18446744073709551615",
    ),
    ("--size", &["-1", "2", "9", "300"], "3..=8"),
    ("--holes", &["-1", "64", "3,99999999999"], "0..=63"),
    (
        "--komi",
        &["99999999999", "-500000.5", "inf"],
        "-500000..=500000",
    ),
    (
        "--move-timeout-ms",
        &["0", "-5", "86400001"],
        "1..=86400000",
    ),
    (
        "--threads",
        &["0", "-1", "257", "100000", "99999999999999999999999"],
        "1..=256",
    ),
    ("--games", &["0", "-1", "99999999999"], "1..="),
    ("--max-games", &["0", "-1", "10000000001"], "1..=10000000"),
    ("--elo0", &["1e400", "-inf"], "a finite number"),
    ("--elo1", &["1e400"], "a finite number"),
    ("--alpha", &["0", "0.5", "-1"], "0 < x < 0.5"),
    ("--beta", &["0.7", "-0.1"], "0 < x < 0.5"),
    ("--max-empty", &["-1", "65"], "..=64"),
    (
        "--tt-mb",
        &["0", "4097", "99999999999999999999999"],
        "1..=4096",
    ),
    ("--seconds", &["0", "-1", "3601", "1e999"], "0 < x <= 3600"),
    ("--review-max", &["-1", "10000001"], "0..=10000000"),
    ("--review-game", &["-1", "3,-1"], "0..=18446744073709551615"),
    ("--layouts", &["-1", "0"], "1..=10000000"),
    ("--pairs", &["0", "-1"], "1..=100000000"),
    ("--sprt-max-games", &["0", "-1"], "1..=10000000"),
    ("--gamma", &["-1", "11"], "0 <= x <= 10"),
    ("--c-end", &["0", "-0.5", "2"], "0 < x <= 1"),
    ("--r-end", &["0", "-1"], "0 < x <= 1000000"),
    ("--coarse", &["-1", "0.95"], "0 <= x <= 0.9"),
    ("--generations", &["0", "-1"], "1..=100000"),
    ("--iters", &["0", "-1"], "1..=1000000"),
    ("--gate-games", &["-1", "100001"], "0..=100000"),
    ("--anchor-games", &["-1"], "0..=100000"),
    ("--match-iters", &["0", "-1"], "1..=1000000"),
    ("--steps", &["-1"], "0..=10000000"),
    ("--batch", &["0", "-1"], "1..=65536"),
    ("--lr", &["0", "-1", "-0.001"], "0 < x <= 1"),
    ("--window", &["0", "-1"], "1..=1000"),
    ("--channels", &["0", "-1"], "1..=256"),
    ("--blocks", &["-1", "41"], "0..=40"),
    ("--hidden", &["0", "-1"], "1..=1024"),
    ("--noise", &["-1", "-0.5", "1.5"], "0 <= x <= 1"),
    ("--explore", &["-1", "65"], "0..=64"),
    ("--exact-targets", &["-1", "21"], "0..=20"),
    ("--full-share", &["0", "-0.5", "1.5"], "0 < x <= 1"),
    ("--fast-iters", &["0", "-1"], "1..=1000000"),
    ("--parallel-games", &["-1", "1025"], "0..=1024"),
];

/// Options whose range differs between subcommands: (subcommand, option,
/// values, range), looked up before [`CASES`].
const SUB_CASES: &[(&str, &str, &[&str], &str)] = &[
    ("tune", "--alpha", &["-1", "11"], "0 <= x <= 10"),
    ("exact", "--holes", &["-1", "64", "3,99999999999"], "0..=63"),
];

/// Value names of the options that take a number (or a list of numbers).
const NUMERIC_VALUE_NAMES: &[&str] = &[
    "<N>",
    "<N[,N...]>",
    "<S>",
    "<K>",
    "<MS>",
    "<T>",
    "<MB>",
    "<E0>",
    "<E1>",
    "<ALPHA>",
    "<BETA>",
    "<GAMMA>",
    "<C_END>",
    "<R_END>",
    "<SHARE>",
    "<X>",
    "<N,...>",
    "<all|COUNT>",
];

/// The numeric options `pahtum SUB --help` lists.
fn numeric_options(sub: &str) -> Vec<String> {
    let out = Command::new(BIN)
        .args([sub, "--help"])
        .output()
        .expect("run --help");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let opt = words.next()?;
            let value = words.next()?;
            (opt.starts_with("--") && NUMERIC_VALUE_NAMES.contains(&value)).then(|| opt.to_string())
        })
        .collect()
}

/// Runs `pahtum ARGS` with no input and a fresh `--out` where the
/// subcommand has one; returns (status, stdout, stderr, whether --out was
/// created).
fn run(sub: &str, args: &[&str]) -> (Option<i32>, String, String, bool) {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let mut cmd = Command::new(BIN);
    cmd.arg(sub).args(args).stdin(Stdio::null());
    if [
        "tournament",
        "sweep",
        "sprt",
        "fpa",
        "tune",
        "exact",
        "accuracy",
        "train",
    ]
    .contains(&sub)
    {
        cmd.arg("--out").arg(&out);
    }
    let o = cmd.output().expect("run pahtum");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        out.exists(),
    )
}

#[test]
fn every_numeric_option_says_out_of_range_and_names_itself() {
    let mut tried = 0;
    for (sub, base) in BASE {
        let options = numeric_options(sub);
        for opt in &options {
            let (values, range) = SUB_CASES
                .iter()
                .find(|(s, o, _, _)| s == sub && o == opt)
                .map(|(_, _, v, r)| (v, r))
                .or_else(|| {
                    CASES
                        .iter()
                        .find(|(o, _, _)| o == opt)
                        .map(|(_, v, r)| (v, r))
                })
                .unwrap_or_else(|| panic!("pahtum {sub} {opt}: a numeric option without cases"));
            for value in *values {
                let mut args: Vec<&str> = base.to_vec();
                match args.iter().position(|a| a == opt) {
                    Some(i) => args[i + 1] = value,
                    None => args.extend([opt.as_str(), value]),
                }
                let (code, stdout, stderr, created) = run(sub, &args);
                let what = format!("pahtum {sub} {}", args.join(" "));
                assert_eq!(code, Some(2), "{what}: {stderr}");
                assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
                assert!(
                    stderr.contains(&format!("{opt}: ")) && stderr.contains("out of range"),
                    "{what}: {stderr}"
                );
                assert!(stderr.contains(range), "{what}: {stderr}");
                assert!(stdout.is_empty(), "{what}: printed {stdout}");
                assert!(!created, "{what}: created --out");
                tried += 1;
            }
        }
    }
    // Each subcommand's options were found in its help (a help layout
    // change would otherwise pass this test vacuously).
    assert!(tried > 180, "only {tried} cases tried");
}

#[test]
fn a_value_that_starts_with_a_minus_is_the_option_s_value() {
    // `--shard -1/2` is the option's (bad) value, not a stray flag `-1`.
    let mut tried = 0;
    for (sub, base) in BASE {
        let help = Command::new(BIN)
            .args([sub, "--help"])
            .output()
            .expect("run --help");
        if !String::from_utf8_lossy(&help.stdout).contains("--shard <K/N>") {
            continue;
        }
        let args: Vec<&str> = base.iter().copied().chain(["--shard", "-1/2"]).collect();
        let (code, stdout, stderr, created) = run(sub, &args);
        assert_eq!(code, Some(2), "{sub}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{sub}: {stderr}");
        assert!(
            stderr.contains("--shard") && stderr.contains("'-1/2'"),
            "{sub}: {stderr}"
        );
        assert!(!stderr.contains("unexpected argument"), "{sub}: {stderr}");
        assert!(stdout.is_empty() && !created, "{sub}");
        tried += 1;
    }
    assert_eq!(tried, 4, "tournament, sweep, fpa and exact shard");
}

#[test]
fn malformed_numbers_name_the_option_too() {
    for (sub, args, opt) in [
        ("tournament", &["--size", "seven"][..], "--size"),
        ("tournament", &["--seed", "1.5"][..], "--seed"),
        ("tournament", &["--holes", "3,x"][..], "--holes"),
        ("bench", &["--seconds", "nan"][..], "--seconds"),
    ] {
        let (code, _, stderr, _) = run(sub, args);
        assert_eq!(code, Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&format!("{opt}: '")), "{stderr}");
        assert!(stderr.contains("is not a"), "{stderr}");
    }
}

#[test]
fn a_schedule_too_large_quotes_the_games_the_user_typed() {
    // fpa plays --games per condition; the schedule counts two slots a
    // game, which the message must not show in the user's place.
    let (code, _, stderr, created) = run(
        "fpa",
        &["--bot", "random", "--holes", "3,5", "--games", "5000000"],
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--games: 5000000 is out of range (1..=2500000 with 2 conditions"),
        "{stderr}"
    );
    assert!(!created);
    let (code, _, stderr, _) = run("tournament", &["--games", "10000000"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--games: 10000000 is out of range (1..="),
        "{stderr}"
    );
}

#[test]
fn bot_spec_numbers_out_of_range_name_the_key() {
    for (spec, key) in [
        (
            "mcts:iters=99999999999999999999",
            "iters=99999999999999999999",
        ),
        ("mcts:iters=-1", "iters=-1"),
        ("alphabeta:depth=65", "depth=65"),
        ("mcts:c=1e400", "c=1e400"),
        ("flatmc:eps=2", "eps=2"),
    ] {
        let (code, stdout, stderr, created) =
            run("tournament", &["--bot", spec, "--bot", "random"]);
        assert_eq!(code, Some(2), "{spec}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{spec}: {stderr}");
        assert!(
            stderr.contains(&format!("{key} is out of range (")),
            "{spec}: {stderr}"
        );
        assert!(stdout.is_empty() && !created, "{spec}");
    }
}
