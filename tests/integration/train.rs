//! `pahtum train` as a user runs it: a tiny training run, its files, its
//! resume after `kill -9`, its interrupt and its refusals. Built with the
//! trainer only (`cargo test --release --features train --test integration train::`).
#![cfg(feature = "train")]

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{BIN, ok, read, refused, s};

/// A run of a few seconds: two games a generation, a few steps.
fn tiny(out: &std::path::Path, generations: &str) -> Vec<String> {
    [
        "train",
        "--generations",
        generations,
        "--games",
        "2",
        "--iters",
        "24",
        "--gate-games",
        "2",
        "--anchor-games",
        "2",
        "--match-iters",
        "16",
        "--steps",
        "3",
        "--batch",
        "16",
        "--holes",
        "5",
        "--seed",
        "9",
        "--threads",
        "1",
        "--quiet",
        "--out",
        s(out),
    ]
    .map(String::from)
    .to_vec()
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Waits (at most two minutes, polling every `poll`) until `csv` holds a
/// generation's row after its header.
fn wait_for_a_row(csv: &std::path::Path, poll: Duration) {
    let t0 = Instant::now();
    while std::fs::read_to_string(csv)
        .unwrap_or_default()
        .lines()
        .count()
        < 2
        && t0.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(poll);
    }
}

/// `train.csv` without its `seconds` and `cpu_seconds` columns, the
/// last two, the ones that may differ.
fn rows_without_time(text: &str) -> Vec<String> {
    let cut = |l: &str| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string();
    text.lines().map(|l| cut(&cut(l))).collect()
}

#[test]
fn a_tiny_run_writes_its_generations_and_a_network_zero_plays() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let stdout = ok(&args(&tiny(&out, "2")));
    assert!(stdout.starts_with("best=generation "), "{stdout}");
    let csv = read(&out.join("train.csv"));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[0].starts_with("generation,games,positions,"), "{csv}");
    for g in 0..=2 {
        assert!(out.join(format!("nets/gen-{g:04}.safetensors")).exists());
    }
    assert!(read(&out.join("train.svg")).contains("Elo of the best network"));
    assert!(read(&out.join("run.json")).contains("\"train\""));
    // The best network is a file `zero` plays with.
    let net = out.join("best.safetensors");
    let spec = format!("zero:iters=30,net={}", s(&net));
    let t = dir.path().join("t");
    ok(&[
        "tournament",
        "--bot",
        &spec,
        "--bot",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
        "--quiet",
        "--out",
        s(&t),
    ]);
    assert_eq!(read(&t.join("games.csv")).lines().count(), 3);
}

#[test]
fn a_run_killed_mid_generation_resumes_to_the_same_rows_and_networks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let whole = dir.path().join("whole");
    ok(&args(&tiny(&whole, "3")));
    let cut = dir.path().join("cut");
    let mut child = Command::new(BIN)
        .args(tiny(&cut, "3"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pahtum");
    let csv = cut.join("train.csv");
    wait_for_a_row(&csv, Duration::from_millis(2));
    child.kill().expect("kill -9");
    let _ = child.wait();
    let kept = std::fs::read_to_string(&csv).unwrap_or_default();
    assert!(
        kept.lines().count() < 4,
        "the run ended before the kill: {kept}"
    );
    let mut resume = tiny(&cut, "3");
    resume.push("--resume".into());
    ok(&args(&resume));
    assert_eq!(
        rows_without_time(&read(&csv)),
        rows_without_time(&read(&whole.join("train.csv")))
    );
    for g in 0..=3 {
        let name = format!("nets/gen-{g:04}.safetensors");
        assert_eq!(
            std::fs::read(cut.join(&name)).expect("net"),
            std::fs::read(whole.join(&name)).expect("net"),
            "{name}"
        );
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_with_130_keeping_the_finished_generations() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let child = Command::new(BIN)
        .args(tiny(&out, "50"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pahtum");
    let csv = out.join("train.csv");
    wait_for_a_row(&csv, Duration::from_millis(5));
    common::send(child.id(), nix::sys::signal::Signal::SIGINT);
    let o = child.wait_with_output().expect("wait");
    assert_eq!(o.status.code(), Some(130), "{}", common::text(&o.stderr));
    assert!(common::text(&o.stderr).contains("--resume"));
    let rows = read(&csv);
    assert!(rows.lines().count() >= 2, "{rows}");
    assert!(rows.ends_with('\n'), "a torn row: {rows}");
}

#[test]
fn bad_options_and_another_runs_resume_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("run");
    let mut bad = tiny(&out, "1");
    bad.extend(["--holes".into(), "49".into()]);
    assert!(refused(&args(&bad)).contains("--holes"));
    ok(&args(&tiny(&out, "1")));
    let mut other = tiny(&out, "2");
    other.extend(["--games".into(), "3".into(), "--resume".into()]);
    assert!(refused(&args(&other)).contains("--games"));
}

/// `positions` of each row of a run's `train.csv`.
fn positions(out: &std::path::Path) -> Vec<u64> {
    read(&out.join("train.csv"))
        .lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .nth(2)
                .and_then(|p| p.parse().ok())
                .expect("positions")
        })
        .collect()
}

#[test]
fn exact_targets_and_capped_playouts_record_fewer_moves_the_same_for_a_seed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let plain = dir.path().join("plain");
    ok(&args(&tiny(&plain, "1")));
    let with = |out: &std::path::Path| {
        let mut v = tiny(out, "1");
        v.extend(
            [
                "--exact-targets",
                "14",
                "--full-share",
                "0.5",
                "--fast-iters",
                "8",
            ]
            .map(String::from),
        );
        v
    };
    let [a, b] = ["a", "b"].map(|n| dir.path().join(n));
    ok(&args(&with(&a)));
    ok(&args(&with(&b)));
    let samples =
        |out: &std::path::Path| std::fs::read(out.join("samples/gen-0001.bin")).expect("samples");
    assert_eq!(samples(&a), samples(&b));
    assert!(samples(&a).starts_with(b"pahtum samples 2"));
    let (p, q) = (positions(&plain)[0], positions(&a)[0]);
    assert!(0 < q && q < p, "{q} recorded of {p}");
    let json = read(&a.join("run.json"));
    assert!(
        json.contains("--full-share") && json.contains("--exact-targets"),
        "{json}"
    );
    assert!(!read(&plain.join("run.json")).contains("--full-share"));
    // A resume must say the same.
    let mut other = tiny(&a, "2");
    other.push("--resume".into());
    assert!(refused(&args(&other)).contains("--exact-targets"));
    for (opt, v) in [
        ("--full-share", "0"),
        ("--exact-targets", "21"),
        ("--fast-iters", "0"),
    ] {
        let mut bad = tiny(&dir.path().join("bad"), "1");
        bad.extend([opt.into(), v.into()]);
        assert!(refused(&args(&bad)).contains(opt), "{opt} {v}");
    }
}

#[test]
fn a_new_network_gets_global_pooling_and_the_margin_head_when_asked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("extras");
    let mut v = tiny(&out, "1");
    v.extend(["--global-pool", "--margin-head"].map(String::from));
    ok(&args(&v));
    let net = std::fs::read(out.join("best.safetensors")).expect("network");
    let has = |name: &str| net.windows(name.len()).any(|w| w == name.as_bytes());
    assert!(has("block0.pool.weight") && has("margin.weight"));
    let plain = dir.path().join("plain");
    ok(&args(&tiny(&plain, "1")));
    let net = std::fs::read(plain.join("best.safetensors")).expect("network");
    assert!(!net.windows(6).any(|w| w == b"margin"));
    // The network's shape is the run's: a resume without them is refused.
    let mut other = tiny(&out, "2");
    other.push("--resume".into());
    assert!(refused(&args(&other)).contains("--global-pool"));
}

#[test]
fn a_gumbel_run_learns_another_target_and_resumes_only_as_gumbel() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (plain, gumbel) = (dir.path().join("plain"), dir.path().join("gumbel"));
    ok(&args(&tiny(&plain, "1")));
    let mut first = tiny(&gumbel, "1");
    first.push("--gumbel".into());
    ok(&args(&first));
    assert!(read(&gumbel.join("run.json")).contains("\"--gumbel\""));
    // Same games' seeds, another search and target: other samples.
    let samples =
        |run: &std::path::Path| std::fs::read(run.join("samples/gen-0001.bin")).expect("samples");
    assert_ne!(samples(&plain), samples(&gumbel));
    let mut without = tiny(&gumbel, "2");
    without.push("--resume".into());
    assert!(refused(&args(&without)).contains("--gumbel"));
    let mut with = tiny(&gumbel, "2");
    with.extend(["--resume".into(), "--gumbel".into()]);
    ok(&args(&with));
    assert_eq!(read(&gumbel.join("train.csv")).lines().count(), 3);
}

/// `--parallel-games`: the games of a generation searched one leaf at a
/// time, their leaves evaluated together, give the same samples for any
/// number of games at once and any threads (each position's evaluation
/// does not depend on its batch), other samples than zero's own batches
/// of 8, and a run that resumes only as it was recorded.
#[test]
fn games_played_at_once_give_the_same_samples_for_any_number_and_threads() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cmd = |name: &str, generations: &str, extra: &[&str]| {
        let mut v = tiny(&dir.path().join(name), generations);
        for pair in [&["--games", "5"][..], extra].concat().chunks(2) {
            match v.iter().position(|a| a == pair[0]) {
                Some(i) => v[i + 1] = pair[1].to_string(),
                None => v.extend(pair.iter().map(|a| a.to_string())),
            }
        }
        v
    };
    let run = |name: &str, extra: &[&str]| {
        ok(&args(&cmd(name, "1", extra)));
        std::fs::read(dir.path().join(name).join("samples/gen-0001.bin")).expect("samples")
    };
    let one = run("one", &["--parallel-games", "1"]);
    let three = run("three", &["--parallel-games", "3", "--threads", "2"]);
    let all = run("all", &["--parallel-games", "8", "--threads", "2"]);
    assert_eq!(one, three);
    assert_eq!(one, all);
    assert_ne!(one, run("plain", &[]));
    let recorded = dir.path().join("three");
    assert!(read(&recorded.join("run.json")).contains("\"--parallel-games\""));
    let mut without = cmd("three", "2", &["--threads", "2"]);
    without.push("--resume".into());
    assert!(refused(&args(&without)).contains("--parallel-games"));
    let mut with = cmd("three", "2", &["--parallel-games", "3", "--threads", "2"]);
    with.push("--resume".into());
    ok(&args(&with));
    let mut gumbel = cmd("gumbel", "1", &["--parallel-games", "4"]);
    gumbel.push("--gumbel".into());
    assert!(refused(&args(&gumbel)).contains("--parallel-games"));
}
