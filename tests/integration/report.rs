//! `pahtum report` through the real binary: a small tournament's page is
//! self-contained, its crosstable and ratings are summary.csv's and
//! ratings.csv's, a review is picked up, and a directory that is not a run
//! is refused, naming it.

use crate::common;

use std::path::{Path, PathBuf};

use common::{TOURNAMENT_RANDOM_GREEDY, ok, read, refused};

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pahtum-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn tournament(out: &Path) {
    ok(&[
        &TOURNAMENT_RANDOM_GREEDY[..],
        &[
            "--bot",
            "heuristic",
            "--games",
            "4",
            "--threads",
            "2",
            "--quiet",
            "--out",
            common::s(out),
        ],
    ]
    .concat());
}

/// The rows of a CSV file after its header, split on commas (the
/// summary and ratings files hold no quoted fields).
fn rows(path: &Path) -> Vec<Vec<String>> {
    read(path)
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn a_tournament_page_is_self_contained_and_shows_its_csv_numbers() {
    let dir = tmp("t");
    tournament(&dir);
    // A review as `pahtum review` writes it, where the page looks for it.
    let review = dir.join("review-1");
    std::fs::create_dir_all(&review).unwrap();
    std::fs::write(
        review.join("review.csv"),
        "ply,mover,move,white_score,black_score,eval_before,eval_after,best_move,exact_result_before,exact_margin_before,verdict,margin_lost\n1,white,d4,0,0,0.1,0.2,d4,,,best,\n",
    )
    .unwrap();
    let out = ok(&["report", common::s(&dir)]);
    let page_path = dir.join("report.html");
    assert_eq!(out.trim(), format!("report={}", page_path.display()));
    let page = read(&page_path);
    assert!(!page.contains("http://") && !page.contains("https://"));
    let summary = rows(&dir.join("summary.csv"));
    assert_eq!(summary.len(), 6);
    for r in &summary {
        // The score rate in per cent, as the terminal's crosstable has it.
        let rate: f64 = r[6].parse().expect("score_rate");
        let cell = format!(
            "<td data-bot=\"{}\" data-opp=\"{}\">{:.1}% <small>{}-{}-{}</small></td>",
            r[0],
            r[1],
            100.0 * rate,
            r[3],
            r[4],
            r[5]
        );
        assert!(page.contains(&cell), "crosstable lacks {cell}");
        assert!(page.contains(&format!("<tr><td>{}</td></tr>", r.join("</td><td>"))));
    }
    for r in rows(&dir.join("ratings.csv")) {
        assert!(page.contains(&format!("<tr><td>{}</td></tr>", r.join("</td><td>"))));
    }
    assert!(page.contains("<figure><figcaption>ratings.svg</figcaption><svg"));
    assert!(
        page.contains(r#""reviews":{"1":{"header":["ply","mover""#),
        "review not embedded"
    );
    let games = read(&dir.join("games.csv"));
    let first = games.lines().nth(1).unwrap().split(',').collect::<Vec<_>>();
    assert!(
        page.contains(&format!("[\"{}\"", first.join("\",\""))),
        "games row missing"
    );

    let other = tmp("o").with_extension("html");
    ok(&[
        "report",
        common::s(&dir),
        common::s(&dir),
        "--out",
        common::s(&other),
    ]);
    let both = read(&other);
    assert!(both.contains("id=\"compare-ratings\"") && both.contains("id=\"run-1\""));
    std::fs::remove_file(&other).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--review` writes `review-N/review.csv` as `pahtum review` would and
/// the page embeds it; a game in no directory is refused before anything
/// runs.
#[test]
fn report_review_reviews_the_games_named_or_the_first_few() {
    let dir = tmp("r");
    tournament(&dir);
    let e = refused(&[
        "report",
        common::s(&dir),
        "--review",
        "--review-game",
        "999",
    ]);
    assert!(e.contains("--review-game 999"), "{e}");
    ok(&["report", common::s(&dir), "--review", "--review-max", "0"]);
    assert!(!dir.join("review-0").exists());
    ok(&["report", common::s(&dir), "--review", "--review-game", "2"]);
    let written = read(&dir.join("review-2/review.csv"));
    assert!(!dir.join("review-0").exists());
    let plies = read(&dir.join("games.csv"))
        .lines()
        .find(|l| l.starts_with("2,"))
        .map(|l| l.split(',').nth(9).unwrap().to_string())
        .unwrap();
    assert_eq!(written.lines().count(), 1 + plies.parse::<usize>().unwrap());
    let page = read(&dir.join("report.html"));
    assert!(page.contains(r#""reviews":{"2":{"header":["ply","mover""#));
    // The command's own review of the game is the same file.
    let own = tmp("own");
    ok(&[
        "review",
        common::s(&dir),
        "--game",
        "2",
        "--quiet",
        "--out",
        common::s(&own),
    ]);
    assert_eq!(read(&own.join("review.csv")), written);
    std::fs::remove_dir_all(&own).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_that_is_not_a_run_is_refused_by_name() {
    let dir = tmp("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let e = refused(&["report", common::s(&dir)]);
    assert!(
        e.contains(common::s(&dir)) && e.contains("no run.json"),
        "{e}"
    );
    std::fs::write(dir.join("run.json"), r#"{"command":"bench"}"#).unwrap();
    let e = refused(&["report", common::s(&dir)]);
    assert!(e.contains("'bench' is not a study command"), "{e}");
    std::fs::write(dir.join("run.json"), r#"{"command":"sweep"}"#).unwrap();
    let e = refused(&["report", common::s(&dir)]);
    assert!(e.contains("without sweep.csv"), "{e}");
    assert!(!dir.join("report.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A damaged `games.csv` or `review.csv` is refused by file and line, and
/// no page is written (it once showed whatever the rows said).
#[test]
fn a_damaged_games_or_review_file_is_refused_by_line() {
    let dir = tmp("damaged");
    tournament(&dir);
    ok(&["review", common::s(&dir), "--game", "1", "--bot", "greedy"]);
    let games = read(&dir.join("games.csv"));
    let review = read(&dir.join("review-1").join("review.csv"));
    // Line 3 is game 1: its fourth move repeats its third.
    let mut lines: Vec<String> = games.lines().map(str::to_string).collect();
    let mut f: Vec<String> = lines[2].split(',').map(str::to_string).collect();
    let mut moves: Vec<String> = f[10].split(' ').map(str::to_string).collect();
    moves[3] = moves[2].clone();
    f[10] = moves.join(" ");
    lines[2] = f.join(",");
    let repeated = lines.join("\n") + "\n";
    let cases = [
        (
            games.replacen("\n1,", "\nx,", 1),
            "games.csv line 3: column game: 'x'",
        ),
        (repeated, "games.csv line 3: game 1: column moves: move 4"),
        (
            "garbage\n\"open\n".to_string(),
            "games.csv line 1: unexpected header",
        ),
    ];
    for (text, says) in cases {
        std::fs::write(dir.join("games.csv"), text).unwrap();
        let e = refused(&["report", common::s(&dir)]);
        assert!(e.contains(says), "{e}");
        assert!(!dir.join("report.html").exists());
    }
    std::fs::write(dir.join("games.csv"), &games).unwrap();
    ok(&["report", common::s(&dir)]);
    std::fs::remove_file(dir.join("report.html")).unwrap();
    std::fs::write(
        dir.join("review-1").join("review.csv"),
        "ply,mover\n1,zzz\n",
    )
    .unwrap();
    let e = refused(&["report", common::s(&dir)]);
    assert!(
        e.contains("review-1/review.csv line 1: unexpected header"),
        "{e}"
    );
    let bad_ply = review.replacen("\n1,", "\nx,", 1);
    std::fs::write(dir.join("review-1").join("review.csv"), bad_ply).unwrap();
    let e = refused(&["report", common::s(&dir)]);
    assert!(e.contains("review-1/review.csv line 2:"), "{e}");
    assert!(!dir.join("report.html").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The page says who made each review (`review.json`): the bot, the
/// solve bound and the seed. `--review` keeps a review made otherwise
/// (with `pahtum review`), reviews the others with its defaults and
/// records them, and refuses, before any review, a review directory
/// that holds something else.
#[test]
fn report_review_shows_who_made_each_review_and_keeps_other_reviews() {
    let dir = tmp("prov");
    tournament(&dir);
    ok(&[
        "review",
        common::s(&dir),
        "--game",
        "0",
        "--bot",
        "greedy",
        "--exact",
        "0",
        "--quiet",
    ]);
    let own = read(&dir.join("review-0/review.csv"));
    std::fs::create_dir_all(dir.join("review-1")).unwrap();
    std::fs::write(dir.join("review-1/notes.txt"), "mine\n").unwrap();
    let e = refused(&["report", common::s(&dir), "--review", "--review-max", "3"]);
    assert!(e.contains("review-1") && e.contains("--review"), "{e}");
    assert!(!dir.join("review-2").exists());
    std::fs::remove_dir_all(dir.join("review-1")).unwrap();

    ok(&["report", common::s(&dir), "--review", "--review-max", "2"]);
    assert_eq!(read(&dir.join("review-0/review.csv")), own);
    let rec: serde_json::Value =
        serde_json::from_str(&read(&dir.join("review-1/review.json"))).unwrap();
    assert_eq!(rec["bot"], "mcts:iters=2000");
    assert_eq!(rec["exact"], 20);
    assert_eq!(rec["seed"], 1);
    let page = read(&dir.join("report.html"));
    assert!(page.contains("id=\"reviews-0\""), "no reviews table");
    for (game, bot, exact) in [(0, "greedy", 0), (1, "mcts:iters=2000", 20)] {
        assert!(
            page.contains(&format!("<tr><td>{game}</td><td>{bot}</td>")),
            "review {game}: no row"
        );
        assert!(
            page.contains(&format!(
                "\"reviewer\":\"{bot} (solved from {exact} free squares, seed 1)\""
            )),
            "review {game}: no provenance"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_page_gives_each_bots_searches_and_own_evaluations_from_moves_csv() {
    let dir = tmp("moves");
    ok(&[
        "tournament",
        "--bot",
        "mcts:iters=40",
        "--bot",
        "random",
        "--games",
        "2",
        "--quiet",
        "--out",
        common::s(&dir),
    ]);
    ok(&["report", common::s(&dir)]);
    let page = read(&dir.join("report.html"));
    // The sums the table is made of, from moves.csv itself.
    let (mut moves, mut nodes, mut ms) = (0u64, 0u64, 0u64);
    let mut expects = 0;
    for l in read(&dir.join("moves.csv")).lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        if f[3] == "mcts:iters=40" {
            moves += 1;
            nodes += f[7].parse::<u64>().expect("nodes");
            ms += f[10].parse::<u64>().expect("move_ms");
            expects += usize::from(!f[6].is_empty());
        } else {
            assert!(f[7].is_empty(), "random reports no search: {l}");
        }
    }
    let speed = if ms == 0 {
        "-".to_string()
    } else {
        format!("{:.0}", nodes as f64 * 1000.0 / ms as f64)
    };
    let mean = format!("{:.1}", nodes as f64 / moves as f64);
    let row = format!("<tr><td>mcts:iters=40</td><td>{moves}</td><td>{moves}</td><td>{mean}</td>");
    let table = &page[page.find("id=\"search-0\"").expect("search table")..];
    let table = &table[..table.find("</table>").expect("end")];
    assert!(table.contains(&row), "{table}");
    assert!(table.contains(&format!("<td>{speed}</td></tr>")), "{table}");
    assert!(
        table.contains("<tr><td>random</td><td>")
            && table.contains("<td>0</td><td>-</td><td>-</td><td>-</td></tr>"),
        "{table}"
    );
    // Each game's White expectations ride in the page's data, a field a
    // ply.
    assert!(expects > 0);
    assert!(
        page.contains("\"evals\":{\"0\":\""),
        "no evaluations in the data"
    );
    assert!(
        !page.contains("<h3>moves.csv"),
        "moves.csv is not shown whole"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
