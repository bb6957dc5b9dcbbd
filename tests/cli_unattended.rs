//! Commands that run without a person refuse the `human` bot up front.

use std::process::Command;

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
