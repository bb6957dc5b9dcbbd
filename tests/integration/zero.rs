//! The `zero` bot as a user meets it: listed, built from specs, refused
//! with a clear line, the same games for any thread count, and the
//! trainer's absence said plainly in a default build.

use crate::common;

use common::{ok, read, refused, s};

#[test]
fn zero_is_listed_with_its_keys() {
    let out = ok(&["bots"]);
    let line = out
        .lines()
        .find(|l| l.starts_with("zero"))
        .expect("zero listed");
    assert!(line.contains("PUCT"), "{line}");
    for key in ["net=", "iters=", "ms=", "threads=", "exact="] {
        assert!(out.contains(key), "{key} not listed");
    }
}

#[test]
fn a_missing_or_broken_network_file_is_one_line_naming_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let err = refused(&[
        "play",
        "--white",
        "zero:net=/no/such/file",
        "--black",
        "random",
    ]);
    assert!(err.contains("/no/such/file"), "{err}");
    let junk = dir.path().join("junk.safetensors");
    std::fs::write(&junk, b"not a network").expect("write");
    let spec = format!("zero:net={}", s(&junk));
    let err = refused(&["play", "--white", &spec, "--black", "random"]);
    assert!(err.contains("junk.safetensors"), "{err}");
}

#[test]
fn score_needs_a_network_with_the_margin_head() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bare = dir.path().join("bare.safetensors");
    let net = pahtum::net::PvNet::random(8, 1, 8, 1);
    std::fs::write(&bare, net.to_bytes()).expect("write");
    let spec = format!("zero:net={},score=0.2,iters=10", s(&bare));
    let err = refused(&["play", "--white", &spec, "--black", "random"]);
    assert!(
        err.contains("score=: ") && err.contains("margin head"),
        "{err}"
    );
    let spec = format!("zero:net={},score=0,iters=10", s(&bare));
    ok(&["play", "--white", &spec, "--black", "random"]);
    ok(&[
        "play",
        "--white",
        "zero:score=0.2,iters=10",
        "--black",
        "random",
    ]);
}

#[test]
fn games_are_the_same_whatever_the_search_threads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let run = |threads: &str, name: &str| {
        let out = dir.path().join(name);
        let spec = format!("zero:iters=120,threads={threads},label=zero");
        ok(&[
            "tournament",
            "--bot",
            &spec,
            "--bot",
            "greedy",
            "--games",
            "4",
            "--seed",
            "3",
            "--quiet",
            "--threads",
            "1",
            "--out",
            s(&out),
        ]);
        common::without_ms(&read(&out.join("games.csv")))
    };
    assert_eq!(run("1", "one"), run("3", "three"));
}

#[test]
fn zero_plays_5x5_with_the_7x7_network() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("t");
    ok(&[
        "tournament",
        "--bot",
        "zero:iters=200",
        "--bot",
        "random",
        "--games",
        "8",
        "--size",
        "5",
        "--holes",
        "3",
        "--seed",
        "2",
        "--quiet",
        "--out",
        s(&out),
    ]);
    let summary = read(&out.join("summary.csv"));
    assert!(summary.contains("zero"), "{summary}");
    let games = read(&out.join("games.csv"));
    assert_eq!(games.lines().count(), 9);
}

#[cfg(not(feature = "train"))]
#[test]
fn a_build_without_the_trainer_says_how_to_get_it() {
    let err = refused(&["train", "--out", "/tmp/never-written"]);
    assert!(err.contains("--features train"), "{err}");
}
