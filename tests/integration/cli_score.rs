//! `pahtum score` and `pahtum bench` through the real binary.

use crate::common;

use std::process::Output;

use common::{pahtum_with_input as pahtum, text};

fn assert_usage_error(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "stderr: {}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "stdout: {}", text(&out.stdout));
    let err = text(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' not in: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn scores_boards_in_input_order_from_stdin_and_file() {
    let input = "#..W...\n.WWWB..\n...B...\nB..B#..\n...B...\n..#....\n#...W.#\n\nWWW#WWW\n.......\n.......\n.......\n.......\n.......\nbbbbbbb\n\nWWW\nW..\nW..\n";
    let out = pahtum(&["score"], input.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "3 3\n6 119\n6 0\n");
    let out = pahtum(&["score", "tests/data/golden-boards.txt"], b"");
    assert!(out.status.success());
    let expected = std::fs::read_to_string("tests/data/golden-scores.txt").expect("data");
    assert_eq!(text(&out.stdout), expected);
}

#[test]
fn malformed_boards_name_board_line_and_column() {
    let good = "...\n...\n...\n\n";
    assert_usage_error(
        &pahtum(&["score"], format!("{good}...\n.X.\n...\n").as_bytes()),
        "board 2, line 6, column 2",
    );
    assert_usage_error(
        &pahtum(&["score"], b"...\n..\n...\n"),
        "board 1, line 2, column 3: row too short",
    );
    assert_usage_error(&pahtum(&["score"], b"...\n....\n...\n"), "row too long");
    // A row missing is said to be missing, after the board's last row;
    // not a row too long.
    assert_usage_error(
        &pahtum(&["score"], b"...\n...\n"),
        "stdin: board 1, line 2, column 4: 2 rows of 3 squares: a board of side 3 has 3 rows (1 missing after this row",
    );
    assert_usage_error(
        &pahtum(
            &["score"],
            format!("{good}....\n....\n....\n....\n....\n").as_bytes(),
        ),
        "board 2, line 9, column 1: 5 rows of 4 squares: a board of side 4 has 4 rows (1 too many",
    );
    assert_usage_error(&pahtum(&["score"], b"....\n....\n....\n"), "board 1");
    assert_usage_error(&pahtum(&["score"], b"..\n..\n"), "sizes 3 to 8");
    assert_usage_error(
        &pahtum(
            &["score"],
            "...\n...\n...\n...\n...\n...\n...\n...\n...\n".as_bytes(),
        ),
        "sizes 3 to 8",
    );
    assert_usage_error(&pahtum(&["score"], b""), "no board");
    assert_usage_error(&pahtum(&["score"], b"\n\n  \n"), "no board");
    assert_usage_error(
        &pahtum(
            &["score"],
            &[0x7f, b'E', b'L', b'F', 0xff, 0x00, 0x01, b'\n'],
        ),
        "not UTF-8",
    );
    assert_usage_error(
        &pahtum(&["score"], &[0x00, 0x01, 0x02, b'\n']),
        "unknown character U+0000",
    );
    assert_usage_error(
        &pahtum(&["score", "no/such/file.txt"], b""),
        "cannot read no/such/file.txt",
    );
}

#[test]
fn bench_prints_key_values_and_checks_signature() {
    let out = pahtum(&["bench", "--seconds", "0.05"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for key in [
        "random_playouts_per_s=",
        "score_evals_per_s=",
        "mcts_iters_per_s_t1=",
        "mcts_iters_per_s_t2=",
        "mcts_root_iters_per_s_t2=",
        "mcts_lazy_iters_per_s_t1=",
        "mcts_lazy_iters_per_s_t2=",
        "mcts_default_iters_per_s=",
        "mcts_bytes_per_node=",
        "signature=",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(key)),
            "{key} missing in {stdout}"
        );
    }
    // Without --threads, the figures that take threads at 1 and 2.
    assert_threaded_figures(&stdout, &[1, 2]);
    // With two cores or more, the cache line's round trip: a positive
    // number of nanoseconds.
    if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
        let ns = stdout
            .lines()
            .find_map(|l| l.strip_prefix("cache_line_round_trip_ns="))
            .and_then(|v| v.parse::<f64>().ok());
        assert!(ns.is_some_and(|ns| ns > 0.0), "{stdout}");
    }
    // A signature that differs is a check failing, said plainly: exit 1,
    // one line naming both, after the figures.
    let wrong = "1/2/3 mcts=4:a1";
    let out = pahtum(&["bench", "--seconds", "0.05", "--expect", wrong], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "pahtum: bench signature mismatch: expected {wrong}, got "
        )),
        "{err}"
    );
    assert!(!err.contains("internal"), "{err}");
    assert!(text(&out.stdout).contains("signature="));
    // A value that is no signature at all is the user's slip: exit 2,
    // before any figure is timed.
    assert_usage_error(
        &pahtum(&["bench", "--expect", "WRONG"], b""),
        "--expect: 'WRONG' is not a bench signature",
    );
    assert_usage_error(
        &pahtum(&["bench", "--expect", "0/0/0"], b""),
        "is not a bench signature",
    );
    assert_usage_error(&pahtum(&["bench", "--seconds", "-1"], b""), "--seconds");
}

/// The stems of the figures that take threads, and whether a stem has a
/// figure at one thread (root parallelism at one thread is the
/// one-thread search itself).
const THREADED: &[(&str, bool)] = &[
    ("mcts_iters_per_s", true),
    ("mcts_root_iters_per_s", false),
    ("mcts_lazy_iters_per_s", true),
    ("mcts_default_iters_per_s", true),
    ("mcts_default_root_iters_per_s", false),
    ("zero_evals_per_s", true),
];

/// The value of the line `KEY=VALUE` of `stdout`, which must be there
/// exactly once.
fn value_once(stdout: &str, key: &str) -> f64 {
    let values: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix(key)?.strip_prefix('='))
        .collect();
    assert_eq!(values.len(), 1, "{key} once in {stdout}");
    values[0]
        .parse()
        .unwrap_or_else(|e| panic!("{key}={}: {e}", values[0]))
}

/// Checks that `stdout` has, for each of `threads` and no other count,
/// each threaded figure once, positive, with its per-CPU-second figure
/// and a CPU utilisation in (0, 1.05] (a little over 1 for the clocks'
/// disagreement over a short window).
fn assert_threaded_figures(stdout: &str, threads: &[usize]) {
    for &(stem, at_one) in THREADED {
        for t in 1..=4 {
            // The default engine's one-thread figure keeps its name.
            let key = if stem == "mcts_default_iters_per_s" && t == 1 {
                stem.to_string()
            } else {
                format!("{stem}_t{t}")
            };
            if !threads.contains(&t) || (t == 1 && !at_one) {
                let prefix = format!("{key}=");
                assert!(
                    !stdout.lines().any(|l| l.starts_with(&prefix)),
                    "{key} without {t} in --threads: {stdout}"
                );
                continue;
            }
            assert!(value_once(stdout, &key) > 0.0, "{key}: {stdout}");
            assert!(value_once(stdout, &format!("{key}_cpu")) > 0.0, "{stdout}");
            let util = value_once(stdout, &format!("{key}_cpu_util"));
            assert!(util > 0.0 && util <= 1.05, "{key}_cpu_util={util}");
        }
    }
    // No default-engine figure under the name older builds printed, which
    // the speed experiments' scripts read as the one-thread figure.
    assert!(!stdout.contains("mcts_default_iters_per_s_t1="), "{stdout}");
}

#[test]
fn bench_threads_sets_the_thread_counts_of_the_figures() {
    let out = pahtum(&["bench", "--seconds", "0.05", "--threads", "3,1"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert_threaded_figures(&stdout, &[1, 3]);
    // The signature is counted, not timed: the same for any threads.
    let sig = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bench-signature"),
    )
    .expect("tests/data/bench-signature");
    assert!(
        stdout.contains(&format!("signature={}\n", sig.trim())),
        "{stdout}"
    );
    // A list that is no list of distinct counts in 1..=256: one line
    // naming --threads, exit 2, nothing timed.
    for (bad, needle) in [
        ("0", "--threads: 0 is out of range (1..=256)"),
        ("1,257", "--threads: 257 is out of range (1..=256)"),
        ("", "--threads: '' is not a whole number"),
        ("1,,2", "--threads: '' is not a whole number"),
        ("two", "--threads: 'two' is not a whole number"),
        ("1,2,1", "--threads: 1 is given twice"),
    ] {
        assert_usage_error(&pahtum(&["bench", "--threads", bad], b""), needle);
    }
}
