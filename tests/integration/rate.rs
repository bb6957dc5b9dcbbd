//! `pahtum rate`: ratings pooled over several run directories. Two seeded
//! tournaments of the same bots rated together give the ratings of one
//! run holding all their games, fitted here through the library on counts
//! read straight from the files; the anchor pins its bot; bad input is
//! one line and exit 2.

use std::path::Path;

use pahtum::arena::games_csv::GameRow;
use pahtum::csv_rows::{self, fixed};
use pahtum::stats::rating::{PairwiseResults, bradley_terry};

use crate::common::{ok, read, refused, s};

/// A small seeded tournament of three bots into `out`.
fn tournament(out: &Path, seed: &str) {
    ok(&[
        "tournament",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--bot",
        "heuristic",
        "--games",
        "4",
        "--size",
        "5",
        "--seed",
        seed,
        "--threads",
        "1",
        "--quiet",
        "--out",
        s(out),
    ]);
}

/// The rows of a `games.csv`.
fn rows(dir: &Path) -> Vec<GameRow> {
    csv_rows::parse::<GameRow>(&read(&dir.join("games.csv")))
        .expect("games.csv")
        .into_iter()
        .map(|(_, r)| r)
        .collect()
}

/// The lines of a `ratings.csv` cut to its first `n` columns, sorted.
fn columns(text: &str, n: usize) -> Vec<String> {
    let mut out: Vec<String> = text
        .lines()
        .map(|l| l.split(',').take(n).collect::<Vec<_>>().join(","))
        .collect();
    out[1..].sort();
    out
}

#[test]
fn pooled_runs_equal_one_run_of_all_their_games() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    tournament(&a, "1");
    tournament(&b, "2");
    let pooled = tmp.path().join("pooled");
    let shown = ok(&["rate", s(&a), s(&b), "--out", s(&pooled)]);
    let csv = read(&pooled.join("ratings.csv"));
    assert!(
        csv.starts_with("bot,elo,elo_lo,elo_hi,games,runs\n"),
        "{csv}"
    );
    assert!(shown.contains("over 24 games of 2 runs"), "{shown}");

    // One run holding all the games, fitted through the library.
    let all: Vec<GameRow> = [rows(&a), rows(&b)].concat();
    let mut labels: Vec<String> = Vec::new();
    for r in &all {
        for l in [&r.white, &r.black] {
            if !labels.contains(l) {
                labels.push(l.clone());
            }
        }
    }
    let at = |l: &str| labels.iter().position(|x| x == l).expect("label");
    let mut d = PairwiseResults::new(labels.len());
    for r in &all {
        let points = match r.winner.as_str() {
            "white" => 1.0,
            "black" => 0.0,
            _ => 0.5,
        };
        d.add_game(at(&r.white), at(&r.black), points);
    }
    let fit = bradley_terry(&d);
    let mut want = vec!["bot,elo,elo_lo,elo_hi,games,runs".to_string()];
    for (i, l) in labels.iter().enumerate() {
        let (lo, hi) = fit.interval(i);
        let f = |v: f64| fixed::text(v, 2);
        let games = d.total_games(i);
        want.push(format!(
            "{l},{},{},{},{games},2",
            f(fit.elo[i]),
            f(lo),
            f(hi)
        ));
    }
    want[1..].sort();
    assert_eq!(columns(&csv, 6), want);

    // The same games in one directory: the same list, from one run.
    let one = tmp.path().join("one");
    std::fs::create_dir(&one).expect("mkdir");
    let mut text = read(&a.join("games.csv"));
    text.extend(
        read(&b.join("games.csv"))
            .lines()
            .skip(1)
            .map(|l| format!("{l}\n")),
    );
    std::fs::write(one.join("games.csv"), text).expect("write");
    let single = tmp.path().join("single");
    ok(&["rate", s(&one), "--out", s(&single)]);
    let single = read(&single.join("ratings.csv"));
    assert_eq!(columns(&single, 5), columns(&csv, 5));
    assert!(
        single.lines().skip(1).all(|l| l.ends_with(",1")),
        "{single}"
    );

    // One run alone is rated as its tournament rated it.
    let alone = tmp.path().join("alone");
    ok(&["rate", s(&a), "--out", s(&alone)]);
    assert_eq!(
        columns(&read(&alone.join("ratings.csv")), 5),
        columns(&read(&a.join("ratings.csv")), 5)
    );
    // The report page shows a pooled directory.
    let page = ok(&["report", s(&pooled)]);
    assert!(page.starts_with("report="), "{page}");
}

/// The value of column `col` in the row of `bot`.
fn field(csv: &str, bot: &str, col: usize) -> f64 {
    let line = csv
        .lines()
        .find(|l| l.starts_with(&format!("{bot},")))
        .expect("bot row");
    line.split(',')
        .nth(col)
        .expect("column")
        .parse()
        .expect("number")
}

#[test]
fn the_anchor_pins_its_bot_exactly() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    tournament(&a, "3");
    tournament(&b, "4");
    let (plain, pinned) = (tmp.path().join("plain"), tmp.path().join("pinned"));
    ok(&["rate", s(&a), s(&b), "--out", s(&plain)]);
    let shown = ok(&[
        "rate",
        s(&a),
        s(&b),
        "--anchor",
        "greedy=1500",
        "--out",
        s(&pinned),
    ]);
    assert!(shown.contains("greedy at 1500"), "{shown}");
    // The plot names the anchored zero on its axis and draws every bot.
    let svg = read(&pinned.join("ratings.svg"));
    assert!(
        svg.contains("<svg") && svg.contains("greedy at 1500"),
        "{svg}"
    );
    for bot in ["random", "greedy", "heuristic"] {
        assert!(svg.contains(&format!("\n{bot}\n")), "{bot} not drawn");
    }
    assert!(!read(&plain.join("ratings.svg")).contains(" at "));
    let (plain, pinned) = (
        read(&plain.join("ratings.csv")),
        read(&pinned.join("ratings.csv")),
    );
    // The anchor's interval is its rating; the others' are intervals of
    // the difference from it.
    assert!(
        pinned.contains("\ngreedy,1500.00,1500.00,1500.00,"),
        "{pinned}"
    );
    let shift = 1500.0 - field(&plain, "greedy", 1);
    for bot in ["random", "heuristic"] {
        let moved = field(&pinned, bot, 1) - field(&plain, bot, 1);
        assert!((moved - shift).abs() < 0.011, "{bot}");
        let (lo, elo, hi) = (
            field(&pinned, bot, 2),
            field(&pinned, bot, 1),
            field(&pinned, bot, 3),
        );
        assert!(lo < elo && elo < hi, "{bot}: {pinned}");
    }
    let err = refused(&["rate", s(&a), "--anchor", "mcts=0"]);
    assert!(
        err.contains("--anchor mcts=0: 'mcts' is not a bot of these runs"),
        "{err}"
    );
    let err = refused(&["rate", s(&a), "--anchor", "greedy"]);
    assert!(err.contains("--anchor"), "{err}");
}

#[test]
fn bad_inputs_are_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let a = tmp.path().join("a");
    tournament(&a, "5");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    let err = refused(&["rate", s(&a), s(&empty)]);
    assert!(
        err.contains(&format!("{}: no games.csv", s(&empty))),
        "{err}"
    );
    let bad = tmp.path().join("bad");
    std::fs::create_dir(&bad).expect("mkdir");
    let mut text = read(&a.join("games.csv"));
    text = text.replacen(",normal,", ",sideways,", 1);
    std::fs::write(bad.join("games.csv"), text).expect("write");
    let err = refused(&["rate", s(&bad)]);
    assert!(
        err.contains("bad/games.csv line 2: column termination: 'sideways'"),
        "{err}"
    );
    let err = refused(&["rate", s(&a), s(&a)]);
    assert!(err.contains("given twice"), "{err}");
    let err = refused(&["rate", s(&a), "--out", s(&a)]);
    assert!(err.contains("--out") && err.contains("not empty"), "{err}");
}

#[test]
fn an_fpa_runs_games_are_self_play_and_left_out() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let (a, fpa) = (tmp.path().join("a"), tmp.path().join("fpa"));
    tournament(&a, "5");
    ok(&[
        "fpa",
        "--bot",
        "greedy",
        "--holes",
        "3",
        "--games",
        "3",
        "--size",
        "5",
        "--seed",
        "2",
        "--quiet",
        "--out",
        s(&fpa),
    ]);
    // Its second seat is the same bot under another label.
    assert!(read(&fpa.join("games.csv")).contains(",greedy-2,"));
    let alone = ok(&["rate", s(&a)]);
    let both = ok(&["rate", s(&a), s(&fpa)]);
    assert!(both.ends_with("; 3 self-play games left out\n"), "{both}");
    assert!(!both.contains("greedy-2"), "{both}");
    // The ratings are those of the tournament alone.
    let table = |t: &str| {
        t.lines()
            .take(4)
            .map(|l| l.trim_end().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        table(&alone)
            .iter()
            .map(|l| l.rsplit_once(' ').unwrap().0.trim_end().to_string())
            .collect::<Vec<_>>(),
        table(&both)
            .iter()
            .map(|l| l.rsplit_once(' ').unwrap().0.trim_end().to_string())
            .collect::<Vec<_>>()
    );
    let err = refused(&["rate", s(&fpa)]);
    assert!(err.contains("nothing to rate"), "{err}");
    // A rate directory is read by other commands as the rate run it is.
    let pooled = tmp.path().join("pooled");
    ok(&["rate", s(&a), s(&fpa), "--out", s(&pooled)]);
    let err = refused(&["review", s(&pooled), "--game", "0"]);
    assert!(
        err.contains("a rate run, which writes no games.csv"),
        "{err}"
    );
    let err = refused(&["merge", s(&pooled), "--out", s(&tmp.path().join("m"))]);
    assert!(err.contains("holds a rate run, not a tournament"), "{err}");
}
