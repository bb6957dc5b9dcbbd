//! What `--resume` reads back and checks before keeping it: the rows of a
//! `games.csv` (read, parsed and each replayed against its game) and the
//! rows of a `tune.csv` (each replayed through the tuner). Any file is
//! kept or refused with an error, never a panic, and an untouched file
//! of valid rows is kept whole.
//!
//! The first byte picks what the rest is: a whole `games.csv`; a valid
//! `games.csv` with the rest spliced into it; one row checked against a
//! start with that row's holes; or a `tune.csv` of valid rows and the
//! rest after them.
#![no_main]

use std::path::PathBuf;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use pahtum::arena::games_csv::{GameRecord, check_row, games_header, parse_games, push_row};
use pahtum::arena::rundir::read_games;
use pahtum::arena::{Format, Schedule, play_game};
use pahtum::bot::random::RandomBot;
use pahtum::study::spsa::{Spsa, SpsaParam, SpsaSettings};
use pahtum::study::tune::{IterResult, Tuner};
use pahtum::study::tune_csv::{header, replay, row_text};
use pahtum::{HoleSetup, Komi, Position, Rules};

/// Two bots, two rounds: a 7x7 round with the pie rule, then a 4x4 one
/// with komi, where whole games are short enough to be found by mutation.
static SCHEDULE: LazyLock<Schedule> = LazyLock::new(|| {
    let rules = vec![
        Rules {
            pie: true,
            ..Rules::default()
        },
        Rules {
            size: 4,
            holes: HoleSetup::Random(2),
            pie: false,
            komi: Komi::from_halves(3),
        },
    ];
    Schedule::new(2, Format::RoundRobin, 4, rules, 11)
});

static LABELS: LazyLock<Vec<String>> = LazyLock::new(|| vec!["r1".into(), "r2".into()]);

/// The whole `games.csv` of [`SCHEDULE`] played by random bots, and the
/// end of each line in it.
static GAMES: LazyLock<(String, Vec<usize>)> = LazyLock::new(|| {
    let mut text = format!("{}\n", games_header());
    let mut ends = vec![text.len()];
    for g in 0..SCHEDULE.len() {
        let sg = SCHEDULE.game(g);
        let start = SCHEDULE.start_game(&sg).expect("the schedule's start");
        let mut a = RandomBot::new("r", SCHEDULE.bot_seed(&sg, 0));
        let mut b = RandomBot::new("r", SCHEDULE.bot_seed(&sg, 1));
        let res = play_game(start, &mut a, &mut b, [None; 2], |_| {});
        let rec = GameRecord::new(&sg, &res);
        push_row(&mut text, &rec, res.game.moves(), &LABELS);
        ends.push(text.len());
    }
    (text, ends)
});

static FILE: LazyLock<PathBuf> = LazyLock::new(|| {
    std::env::temp_dir().join(format!("pahtum-fuzz-games-{}.csv", std::process::id()))
});

/// Reads `bytes` as the `games.csv` of [`SCHEDULE`]; the rows kept, or
/// `None` for a refused file.
fn read_back(bytes: &[u8]) -> Option<usize> {
    std::fs::write(&*FILE, bytes).expect("write the fuzz file");
    let expected: Vec<u64> = (0..SCHEDULE.len()).collect();
    read_games(&FILE, &LABELS, &SCHEDULE, &expected)
        .ok()
        .map(|f| f.rows.len())
}

fn games_file(bytes: &[u8]) {
    read_back(bytes);
}

/// The first `rows` rows of the valid file, with `rest` (after two bytes
/// saying where) spliced in over as many bytes as it is long.
fn spliced_games(rows: u8, rest: &[u8]) {
    let (text, ends) = &*GAMES;
    let rows = rows as usize % ends.len();
    let mut bytes = text.as_bytes()[..ends[rows]].to_vec();
    let Some((&[hi, lo], patch)) = rest.split_first_chunk::<2>() else {
        assert_eq!(read_back(&bytes), Some(rows), "an untouched file is kept");
        return;
    };
    let at = usize::from(u16::from_be_bytes([hi, lo])) % (bytes.len() + 1);
    let end = (at + patch.len()).min(bytes.len());
    bytes.splice(at..end, patch.iter().copied());
    read_back(&bytes);
}

/// One row, replayed from an empty board with its own holes.
fn one_row(rules: u8, rest: &[u8]) {
    let Ok(line) = std::str::from_utf8(rest) else {
        return;
    };
    // A row is read as the one row of a file: the header, then it.
    let Ok(file) = parse_games(format!("{}\n{line}\n", games_header()), &LABELS) else {
        return;
    };
    let Some((rec, row)) = file.rows.first() else {
        return;
    };
    let size = 3 + rules % 6;
    let pie = rules & 0x40 != 0;
    let komi = Komi::from_halves(i32::from(rules >> 7) * 5 - 2);
    let Ok(start) = Position::new(size, rec.holes, pie, komi) else {
        return;
    };
    let _ = check_row(rec, &row.moves, start);
}

fn tuner(coarse: bool) -> Tuner {
    let param = |key: &str, lo: f64, hi: f64, integer: bool, start: f64| SpsaParam {
        key: key.into(),
        lo,
        hi,
        integer,
        start,
        c_end: 0.05,
        r_end: 0.002,
    };
    let params = vec![
        param("decay", 0.0, 1.0, false, 0.8),
        param("depth", 1.0, 8.0, true, 3.0),
    ];
    let settings = SpsaSettings {
        iterations: 12,
        alpha: 0.602,
        gamma: 0.101,
        coarse: if coarse { 0.25 } else { 0.0 },
    };
    Tuner::new(Spsa::new(params, settings), 4)
}

/// A `tune.csv` of valid rows, one per three bytes of results, up to the
/// first `0xff`; the bytes after it are appended as they are.
fn tune_file(mode: u8, rest: &[u8]) {
    let coarse = mode & 0x10 != 0;
    let mut reference = tuner(coarse);
    let params = reference.spsa.params.clone();
    let (results, tail) = match rest.iter().position(|&b| b == 0xff) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let mut text = header(&params);
    let mut rows = 0;
    for r in results.chunks_exact(3) {
        if reference.next >= reference.spsa.settings.iterations {
            break;
        }
        let row = reference.record(IterResult {
            plus_points: f64::from(r[0] % 5) * 0.5,
            minus_points: f64::from(r[1] % 5) * 0.5,
            plus_ms: u64::from(r[2]),
            minus_ms: u64::from(r[2] >> 4),
        });
        text.push_str(&row_text(&params, &row));
        rows += 1;
    }
    match tail {
        None => {
            let kept = replay(&text, &mut tuner(coarse)).expect("valid rows are kept");
            assert_eq!(kept.len(), rows);
        }
        Some(tail) => {
            text.push_str(&String::from_utf8_lossy(tail));
            let _ = replay(&text, &mut tuner(coarse));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 4 {
        0 => games_file(rest),
        1 => match rest.split_first() {
            Some((&rows, rest)) => spliced_games(rows, rest),
            None => spliced_games(0, rest),
        },
        2 => {
            if let Some((&rules, rest)) = rest.split_first() {
                one_row(rules, rest);
            }
        }
        _ => tune_file(mode, rest),
    }
});
