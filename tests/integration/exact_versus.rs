//! `pahtum exact --versus BOT`: whole games against perfect play, checked
//! against plain minimax (tests/integration/common.rs) move by move, and the command's
//! determinism, resume, shards and refusals.

use crate::common;

use common::{BIN, exact, minimax};
use pahtum::{Move, Player, Position, Square};

/// `win`, `draw` or `loss` for `p` of White's margin `m`.
fn standing(m: i32, p: Player) -> &'static str {
    let mine = if p == Player::White { m } else { -m };
    match mine.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// White's exact margin of `pos`, by minimax.
fn white_margin(pos: &mut Position) -> i32 {
    let v = minimax(pos);
    if pos.turn() == Player::White { v } else { -v }
}

fn result_name(m: i32) -> &'static str {
    match m.signum() {
        1 => "white",
        0 => "draw",
        _ => "black",
    }
}

/// Replays one `versus.csv` row and checks every field against minimax:
/// the perfect side's moves attain the exact margin, and the give-aways
/// are exactly the bot's moves that worsened its exact standing. Returns
/// the number of give-aways.
fn check_row(line: &str) -> usize {
    let f: Vec<&str> = line.split(',').collect();
    assert_eq!(f.len(), 15, "{line}");
    let size: u8 = f[0].parse().expect("size");
    let mut holes = pahtum::Bitboard::EMPTY;
    for s in f[2].split(' ').filter(|s| !s.is_empty()) {
        holes.insert(s.parse::<Square>().expect("hole"));
    }
    let bot = if f[5] == "white" {
        Player::White
    } else {
        Player::Black
    };
    let mut pos = Position::new(size, holes, false, pahtum::Komi::ZERO).expect("layout");
    let start = white_margin(&mut pos);
    assert_eq!(f[6], result_name(start), "{line}");
    let mut giveaways = Vec::new();
    for (i, m) in f[14].split(' ').enumerate() {
        let mv: Move = m.parse().expect("move");
        let Move::Place(sq) = mv else {
            panic!("a swap without the pie rule: {line}")
        };
        let mover = pos.turn();
        let before = white_margin(&mut pos);
        pos.play(sq);
        let after = white_margin(&mut pos);
        if mover == bot {
            if standing(after, bot) != standing(before, bot) {
                giveaways.push((
                    i + 1,
                    m.to_string(),
                    standing(before, bot),
                    standing(after, bot),
                ));
            }
        } else {
            assert_eq!(after, before, "perfect move {m} at ply {}: {line}", i + 1);
        }
    }
    assert!(pos.is_game_over(), "{line}");
    let end = pos.margin_halves();
    assert_eq!(f[7], result_name(end), "{line}");
    assert_eq!(
        f[8].parse::<f64>().expect("margin") * 2.0,
        f64::from(end),
        "{line}"
    );
    assert_eq!(f[9], giveaways.len().to_string(), "{line}");
    match giveaways.first() {
        Some((ply, m, b, a)) => {
            assert_eq!(
                (f[10], f[11], f[12], f[13]),
                (&*ply.to_string(), &**m, *b, *a),
                "{line}"
            )
        }
        None => assert_eq!(&f[10..14], ["-", "-", "-", "-"], "{line}"),
    }
    giveaways.len()
}

#[test]
fn every_game_and_give_away_equals_minimax() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("v");
    let o = exact(
        &[
            "--size",
            "4",
            "--holes",
            "7",
            "--layouts",
            "30",
            "--seed",
            "3",
            "--versus",
            "random",
            "--versus",
            "greedy",
            "--threads",
            "2",
        ],
        &out,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(out.join("versus.csv")).expect("csv");
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 30 * 2 * 2);
    let mut random = 0;
    for r in &rows {
        let n = check_row(r);
        if r.contains(",random,") {
            random += n;
        }
    }
    // The random bot gives results away, so the judging was exercised.
    assert!(random > 0);
    // Every column of the summary, recomputed from the games.
    let summary = std::fs::read_to_string(out.join("versus_summary.csv")).expect("summary");
    let mut want = String::from(
        "bot,bot_colour,games,weight,given_away,given_away_share,wins_given_away,draws_given_away\n",
    );
    for bot in ["random", "greedy"] {
        for colour in ["white", "black", "both"] {
            let games: Vec<Vec<&str>> = rows
                .iter()
                .map(|r| r.split(',').collect::<Vec<_>>())
                .filter(|f| f[4] == bot && (colour == "both" || f[5] == colour))
                .collect();
            let w = |f: &Vec<&str>| f[3].parse::<u64>().expect("weight");
            let weight: u64 = games.iter().map(w).sum();
            let lost: Vec<&Vec<&str>> = games.iter().filter(|f| f[9] != "0").collect();
            let lost_weight: u64 = lost.iter().map(|f| w(f)).sum();
            let wins = lost.iter().filter(|f| f[12] == "win").count();
            want.push_str(&format!(
                "{bot},{colour},{},{weight},{},{:.4},{wins},{}\n",
                games.len(),
                lost.len(),
                lost_weight as f64 / weight as f64,
                lost.len() - wins
            ));
        }
    }
    assert_eq!(summary, want);
}

#[test]
fn versus_same_bytes_for_any_threads_shards_and_after_a_cut_and_resume() {
    let dir = tempfile::tempdir().expect("dir");
    let p = |name: &str| dir.path().join(name);
    let args = [
        "--size",
        "4",
        "--holes",
        "6",
        "--layouts",
        "12",
        "--seed",
        "9",
        "--versus",
        "heuristic",
        "--versus",
        "mcts:iters=300",
        "--versus",
        "random",
    ];
    let run = |extra: &[&str], name: &str| {
        let o = exact(&[&args[..], extra].concat(), &p(name));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&["--threads", "1"], "one");
    run(&["--threads", "3"], "three");
    let read = |name: &str, f: &str| std::fs::read(p(name).join(f)).expect("file");
    for f in ["versus.csv", "versus_summary.csv", "exact.csv"] {
        assert_eq!(read("one", f), read("three", f), "{f}");
    }
    // A run cut short (versus.csv mid-row, exact.csv a layout further on,
    // as a kill can leave them) resumes to the same bytes.
    let want = read("one", "versus.csv");
    let exact_csv = read("one", "exact.csv");
    std::fs::create_dir(p("cut")).expect("dir");
    std::fs::copy(p("one").join("run.json"), p("cut").join("run.json")).expect("copy");
    std::fs::write(p("cut").join("versus.csv"), &want[..want.len() / 3]).expect("write");
    std::fs::write(
        p("cut").join("exact.csv"),
        &exact_csv[..exact_csv.len() * 2 / 3],
    )
    .expect("write");
    run(&["--resume"], "cut");
    assert_eq!(want, read("cut", "versus.csv"));
    assert_eq!(exact_csv, read("cut", "exact.csv"));
    // As a kill leaves them: a layout's games are written before its
    // exact.csv row, so versus.csv may be ahead (here complete, and
    // exact.csv a third done), or stop inside a layout's block of games.
    let lines = |b: &[u8], n: usize| {
        let t = String::from_utf8(b.to_vec()).expect("text");
        t.lines()
            .take(n)
            .map(|l| format!("{l}\n"))
            .collect::<String>()
    };
    for (games, layouts) in [(usize::MAX, 5), (1 + 6 * 4 + 3, usize::MAX)] {
        std::fs::write(p("cut").join("versus.csv"), lines(&want, games)).expect("write");
        std::fs::write(p("cut").join("exact.csv"), lines(&exact_csv, layouts)).expect("write");
        run(&["--resume"], "cut");
        assert_eq!(want, read("cut", "versus.csv"), "{games} {layouts}");
        assert_eq!(exact_csv, read("cut", "exact.csv"), "{games} {layouts}");
    }
    // A kept game that does not belong where it stands is refused.
    let text = String::from_utf8(want.clone()).expect("text");
    std::fs::write(
        p("cut").join("versus.csv"),
        text.replacen(",heuristic,white,", ",heuristic,black,", 1),
    )
    .expect("write");
    let o = exact(&[&args[..], &["--resume"]].concat(), &p("cut"));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("versus.csv line 2"));
    // Shards merge into the same bytes.
    for k in 1..=2 {
        run(&["--shard", &format!("{k}/2")], &format!("s{k}"));
    }
    let o = std::process::Command::new(BIN)
        .args(["merge", "--quiet", "--out"])
        .arg(p("merged"))
        .arg(p("s2"))
        .arg(p("s1"))
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["versus.csv", "versus_summary.csv", "exact.csv"] {
        assert_eq!(read("one", f), read("merged", f), "{f}");
    }
}

#[test]
fn bad_versus_bots_are_refused_before_any_work() {
    let dir = tempfile::tempdir().expect("dir");
    for (bot, says) in [
        ("nosuchbot", "unknown bot"),
        ("mcts:ms=10", "time budget"),
        ("mcts:threads=2", "threads race"),
        ("mcts:iters=-3", "--versus mcts:iters=-3"),
    ] {
        let out = dir.path().join("x");
        let o = exact(
            &[
                "--size", "4", "--holes", "6", "--versus", "random", "--versus", bot,
            ],
            &out,
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bot}: {err}");
        assert!(
            err.contains(says) && err.lines().count() == 1,
            "{bot}: {err}"
        );
        assert!(!out.exists(), "{bot}");
    }
    let out = dir.path().join("y");
    let o = exact(
        &[
            "--size", "4", "--holes", "6", "--versus", "random", "--versus", "random",
        ],
        &out,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("label=NAME"));
}

/// An interrupt while a layout's games are in flight exits 130 and writes
/// nothing of that layout: not its exact.csv row, not the games it has
/// already finished.
#[test]
fn an_interrupt_drops_the_layout_in_flight() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("run");
    // random's games finish at once; the second bot's search does not.
    let mut child = std::process::Command::new(BIN)
        .args([
            "exact",
            "--size",
            "5",
            "--holes",
            "8",
            "--layouts",
            "3",
            "--seed",
            "4",
            "--threads",
            "1",
            "--quiet",
            "--versus",
            "random",
            "--versus",
            "mcts:iters=1000000000,label=slow",
            "--out",
        ])
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    let t0 = Instant::now();
    // Wait until the run is under way (its files exist), then a moment more.
    while !out.join("versus.csv").exists() && t0.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1500));
    common::send(child.id(), nix::sys::signal::Signal::SIGINT);
    let t1 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        assert!(t1.elapsed() < Duration::from_secs(10), "still running");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err)
        .expect("read");
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("--resume"), "{err}");
    let lines = |f: &str| {
        std::fs::read_to_string(out.join(f))
            .expect(f)
            .lines()
            .count()
    };
    assert_eq!((lines("versus.csv"), lines("exact.csv")), (1, 1));
}

/// Each figure `exact` prints says what it is: the per-bot line's share
/// is of the layouts' weight (`weighted_share`, not `given_away / games`,
/// equal to `versus_summary.csv`'s `given_away_share`), and the first line
/// speaks of layouts kept only on a resume, saying they were solved before
/// (issue 45: `1325 layouts (0 kept)`, `share=0.5857`).
#[test]
fn exact_names_its_weighted_share_and_the_layouts_a_resume_keeps() {
    let dir = tempfile::tempdir().expect("dir");
    let run = |extra: &[&str], out: &std::path::Path| {
        let o = std::process::Command::new(BIN)
            .args(["exact", "--size", "3", "--holes", "2", "--threads", "1"])
            .args(extra)
            .arg("--out")
            .arg(out)
            .output()
            .expect("runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let out = dir.path().join("v");
    let (stdout, stderr) = run(&["--versus", "random"], &out);
    assert!(
        stderr.contains("exact: 3x3, holes 2, 8 layouts, pie off"),
        "{stderr}"
    );
    assert!(!stderr.contains("kept"), "{stderr}");
    let summary = std::fs::read_to_string(out.join("versus_summary.csv")).expect("summary");
    let both: Vec<&str> = summary
        .lines()
        .find(|l| l.starts_with("random,both,"))
        .expect("both row")
        .split(',')
        .collect();
    let line = format!(
        "bot=random games={} given_away={} weighted_share={}",
        both[2], both[4], both[5]
    );
    assert_eq!(stdout.lines().next(), Some(line.as_str()), "{stdout}");
    // Here the weighted share is not the share of games.
    let (games, given): (f64, f64) = (both[2].parse().unwrap(), both[4].parse().unwrap());
    assert_ne!(format!("{:.4}", given / games), both[5], "{summary}");

    // A run cut to three solved layouts: the resumed run says it keeps
    // them.
    let cut = dir.path().join("cut");
    run(&[], &cut);
    let exact_csv = std::fs::read_to_string(cut.join("exact.csv")).expect("exact.csv");
    let head: Vec<&str> = exact_csv.lines().take(4).collect();
    std::fs::write(cut.join("exact.csv"), head.join("\n") + "\n").expect("write");
    let (_, stderr) = run(&["--resume"], &cut);
    assert!(
        stderr.contains(
            "exact: 3x3, holes 2, 8 layouts (3 solved before, kept from the resumed run), pie off"
        ),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(cut.join("exact.csv")).expect("exact.csv"),
        exact_csv
    );
}
