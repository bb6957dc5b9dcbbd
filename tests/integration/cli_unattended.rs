//! Commands that run without a person: they refuse the `human` bot up
//! front, and a quiet run still says where it wrote.

use std::process::Command;

use crate::common::{SPRT_GREEDY_RANDOM, SWEEP_BLOCK, joined};

#[test]
fn human_is_refused_where_nobody_answers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("run");
    let out = out.to_str().expect("utf-8 path");
    let cases: [&[&str]; 4] = [
        &[
            "tournament",
            "--bot",
            "human",
            "--bot",
            "random",
            "--out",
            out,
        ],
        &[
            "sprt",
            "--a",
            "random",
            "--b",
            "human",
            "--elo0",
            "0",
            "--elo1",
            "10",
            "--max-games",
            "4",
            "--out",
            out,
        ],
        &[
            "fpa", "--bot", "human", "--holes", "5", "--games", "2", "--out", out,
        ],
        &["engine", "--bot", "human"],
    ];
    for args in cases {
        let r = Command::new(env!("CARGO_BIN_EXE_pahtum"))
            .args(args)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&r.stderr);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("needs a person"), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            !std::path::Path::new(out).exists(),
            "{args:?} created {out}"
        );
    }
}

/// A quiet run without `--out` still names the directory it picked, in
/// its last line on stderr (`results in DIR`; `review: FILE` for
/// `review`, as without `--quiet`), and the directory is there; standard
/// output, which scripts read, gains no line.
#[test]
fn quiet_runs_name_the_directory_they_picked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let suite = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/accuracy.txt");
    let suite = suite.to_str().expect("utf-8 path");
    let cases: [&[&str]; 8] = [
        &[
            "tournament",
            "--bot",
            "greedy",
            "--bot",
            "random",
            "--games",
            "2",
        ],
        &joined::<7, 2, 9>(SWEEP_BLOCK, ["--games", "2"]),
        &joined::<7, 4, 11>(SPRT_GREEDY_RANDOM, ["--elo1", "50", "--max-games", "2"]),
        &["fpa", "--bot", "greedy", "--holes", "3", "--games", "2"],
        &["exact", "--size", "3", "--holes", "2"],
        &[
            "tune",
            "--bot",
            "greedy",
            "--param",
            "block=0..1",
            "--pairs",
            "8",
        ],
        &["accuracy", "--bot", "greedy", "--positions", suite],
        &[
            "review", "--moves", "a1 b1", "--layout", "", "--size", "3", "--bot", "greedy",
        ],
    ];
    for args in cases {
        let o = Command::new(env!("CARGO_BIN_EXE_pahtum"))
            .args(args)
            .arg("--quiet")
            .args(if args[0] == "review" {
                &[][..]
            } else {
                &["--threads", "1"][..]
            })
            .current_dir(dir.path())
            .output()
            .expect("runs");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert!(o.status.success(), "{args:?}: {stderr}");
        let last = stderr.lines().last();
        let named = if args[0] == "review" {
            last.and_then(|l| l.strip_prefix("review: "))
                .and_then(|f| f.strip_suffix("/review.csv"))
        } else {
            last.and_then(|l| l.strip_prefix("results in "))
        };
        assert!(!stdout.contains("results"), "{args:?}: {stdout}");
        let named =
            named.unwrap_or_else(|| panic!("{args:?} names no directory:\n{stdout}{stderr}"));
        assert!(named.starts_with("results/"), "{args:?}: {named}");
        assert!(
            dir.path().join(named).join("run.json").is_file()
                || dir.path().join(named).join("review.csv").is_file(),
            "{args:?}: {named}"
        );
    }
}
