//! Rows of `games.csv`: the compact record of a finished game, its CSV
//! line, and reading a (possibly torn) `games.csv` back.
//!
//! Lines are [`GameRow`]s written and read by the `csv` crate; bot labels
//! are still checked at start-up to need no quoting ([`check_label`]), so
//! every line stays plain comma-separated text.

use serde::{Deserialize, Serialize};

use super::game::{GameResult, Seat, Termination};
use super::schedule::ScheduledGame;
use crate::csv_rows;
use crate::game::bitboard::Bitboard;
use crate::game::outcome::{Move, Outcome};
use crate::game::player::{ByPlayer, Player};
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::square::Square;

/// One line of `games.csv` (docs/CONTRACT.md's columns, then `swapped`):
/// what a [`GameRecord`] and its moves are in the file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// Index in the schedule.
    pub game: u64,
    /// Layout index.
    pub layout: u64,
    /// The hole squares, separated by spaces.
    pub holes: String,
    /// The label of White's final owner.
    pub white: String,
    /// The label of Black's final owner.
    pub black: String,
    /// White's line score, komi not included.
    pub white_score: u32,
    /// Black's line score.
    pub black_score: u32,
    /// `white`, `black` or `draw`.
    pub winner: String,
    /// How the game ended.
    pub termination: String,
    /// Moves played, a swap included.
    pub plies: u64,
    /// The moves, separated by spaces.
    pub moves: String,
    /// White's thinking time.
    pub white_ms: u64,
    /// Black's thinking time.
    pub black_ms: u64,
    /// 1 when the pie swap was taken.
    pub swapped: u8,
}

/// The header of `games.csv`.
pub fn games_header() -> String {
    csv_rows::header::<GameRow>()
}

/// A finished game without its moves: what statistics need. Bots are
/// indices into the tournament's bot list.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Index in the schedule.
    pub game: u64,
    /// Layout index.
    pub layout: u64,
    /// The holes.
    pub holes: Bitboard,
    /// The bot that moved first (started as White).
    pub first: usize,
    /// The bot that moved second.
    pub second: usize,
    /// Whether the pie swap was taken (then `second` owns White).
    pub swapped: bool,
    /// Line scores at the end, komi not included, by colour.
    pub scores: ByPlayer<u32>,
    /// The result, komi and faults included.
    pub outcome: Outcome,
    /// How the game ended.
    pub termination: Termination,
    /// Moves played, a swap included.
    pub plies: u32,
    /// Thinking time of each colour's final owner.
    pub ms: ByPlayer<u64>,
}

impl GameRecord {
    /// The record of `result`, game `sg` of a schedule.
    pub fn new(sg: &ScheduledGame, result: &GameResult) -> GameRecord {
        GameRecord {
            game: sg.index,
            layout: sg.layout,
            holes: result.game.start().holes(),
            first: sg.first,
            second: sg.second,
            swapped: result.swapped,
            scores: result.scores,
            outcome: result.outcome,
            termination: result.termination,
            plies: result.plies() as u32,
            ms: result.ms,
        }
    }

    /// The bot that owned colour `c` at the end.
    #[inline]
    pub fn bot(&self, c: Player) -> usize {
        match (c == Player::White) != self.swapped {
            true => self.first,
            false => self.second,
        }
    }

    /// The colour `bot` owned at the end, if it played this game.
    pub fn colour_of(&self, bot: usize) -> Option<Player> {
        Player::ALL.into_iter().find(|&c| self.bot(c) == bot)
    }

    /// Points (1, ½, 0) of `bot`, which must have played.
    pub fn points_of(&self, bot: usize) -> f64 {
        self.colour_of(bot)
            .map_or(0.0, |c| self.outcome.points_for(c))
    }

    /// The bot in `seat`.
    pub fn seat(&self, seat: Seat) -> usize {
        match seat {
            Seat::First => self.first,
            Seat::Second => self.second,
        }
    }
}

/// Whether `label` can stand in a CSV field unquoted, with a reason if not.
///
/// # Errors
/// A message naming the label and the character.
pub fn check_label(label: &str) -> Result<(), String> {
    if label.is_empty() {
        return Err("a bot label is empty".into());
    }
    if label.trim() != label {
        return Err(format!("bot label '{label}' starts or ends with a space"));
    }
    if let Some(c) = label
        .chars()
        .find(|c| matches!(c, ',' | '"' | '\n' | '\r') || c.is_control())
    {
        return Err(format!(
            "bot label '{label}' contains {c:?}, which CSV files cannot hold unquoted"
        ));
    }
    Ok(())
}

/// Appends the name of `sq` (`a1`); the hot path of a row, so written
/// directly rather than through `Display`.
#[inline]
fn push_square(out: &mut String, sq: Square) {
    out.push(char::from(b'a' + sq.col()));
    out.push(char::from(b'1' + sq.row()));
}

/// Appends the squares of `b`, separated by single spaces.
fn push_squares(out: &mut String, b: Bitboard) {
    for (i, sq) in b.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_square(out, sq);
    }
}

/// The squares of `b`, separated by single spaces.
fn squares(b: Bitboard) -> String {
    let mut out = String::new();
    push_squares(&mut out, b);
    out
}

impl GameRecord {
    /// The `games.csv` row of this record, its `moves` and the bots'
    /// `labels`.
    pub fn row(&self, moves: &[Move], labels: &[String]) -> GameRow {
        let (w, b) = (Player::White, Player::Black);
        let mut text = String::new();
        for (i, m) in moves.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            match m {
                Move::Place(sq) => push_square(&mut text, *sq),
                Move::Swap => text.push_str("swap"),
            }
        }
        GameRow {
            game: self.game,
            layout: self.layout,
            holes: squares(self.holes),
            white: labels[self.bot(w)].clone(),
            black: labels[self.bot(b)].clone(),
            white_score: self.scores[w],
            black_score: self.scores[b],
            winner: self.outcome.name().to_string(),
            termination: self.termination.name().to_string(),
            plies: u64::from(self.plies),
            moves: text,
            white_ms: self.ms[w],
            black_ms: self.ms[b],
            swapped: u8::from(self.swapped),
        }
    }
}

/// Appends the `games.csv` line of `rec` (with its `moves` and the bots'
/// `labels`), newline included, to `out`.
pub fn push_row(out: &mut String, rec: &GameRecord, moves: &[Move], labels: &[String]) {
    csv_rows::push(out, &rec.row(moves, labels));
}

fn termination_from(s: &str) -> Option<Termination> {
    Some(match s {
        "normal" => Termination::Normal,
        "illegal_move" => Termination::IllegalMove,
        "timeout" => Termination::Timeout,
        "crash" => Termination::Crash,
        "aborted" => Termination::Aborted,
        _ => return None,
    })
}

fn outcome_from(s: &str) -> Option<Outcome> {
    Some(match s {
        "white" => Outcome::WhiteWins,
        "black" => Outcome::BlackWins,
        "draw" => Outcome::Draw,
        _ => return None,
    })
}

impl GameRow {
    /// The record of this row; bot names are looked up in `labels`.
    ///
    /// # Errors
    /// A message naming the bad column.
    pub fn record(&self, labels: &[String]) -> Result<GameRecord, String> {
        let bot = |name: &str, label: &str| -> Result<usize, String> {
            labels
                .iter()
                .position(|l| l == label)
                .ok_or_else(|| format!("column {name}: '{label}' is not a bot of this tournament"))
        };
        let mut holes = Bitboard::EMPTY;
        for s in self.holes.split(' ').filter(|s| !s.is_empty()) {
            let sq: Square = s
                .parse()
                .map_err(|_| format!("column holes: '{s}' is not a square"))?;
            holes.insert(sq);
        }
        let (white, black) = (bot("white", &self.white)?, bot("black", &self.black)?);
        let plies = self.plies;
        let moves = self.moves.split(' ').filter(|s| !s.is_empty()).count() as u64;
        if moves != plies {
            return Err(format!("column moves: {moves} moves but plies is {plies}"));
        }
        let swapped = match self.swapped {
            0 => false,
            1 => true,
            s => return Err(format!("column swapped: '{s}' is not 0 or 1")),
        };
        let (first, second) = if swapped {
            (black, white)
        } else {
            (white, black)
        };
        Ok(GameRecord {
            game: self.game,
            layout: self.layout,
            holes,
            first,
            second,
            swapped,
            scores: ByPlayer::new(self.white_score, self.black_score),
            outcome: outcome_from(&self.winner)
                .ok_or_else(|| format!("column winner: '{}'", self.winner))?,
            termination: termination_from(&self.termination)
                .ok_or_else(|| format!("column termination: '{}'", self.termination))?,
            plies: plies as u32,
            ms: ByPlayer::new(self.white_ms, self.black_ms),
        })
    }
}

/// Checks a row read back against its game: replays `moves` (the row's
/// `moves` column) from `start` (the schedule's start position of that
/// game) and recomputes the holes, swap, scores and winner, so that a
/// resumed or merged row is checked, not trusted. The moves, replayed.
///
/// # Errors
/// A message naming the first column that does not match.
pub fn check_row(rec: &GameRecord, moves: &str, start: Position) -> Result<Vec<Move>, String> {
    if rec.holes != start.holes() {
        return Err("column holes: not the holes of this game's layout".into());
    }
    let mut game = Game::new(start);
    for (i, m) in moves.split(' ').filter(|s| !s.is_empty()).enumerate() {
        let mv: Move = m
            .parse()
            .map_err(|_| format!("column moves: move {} '{m}' is not a move", i + 1))?;
        game.try_play(mv)
            .map_err(|e| format!("column moves: move {} '{m}': {e}", i + 1))?;
    }
    let pos = game.position();
    if pos.swapped() != rec.swapped {
        return Err(format!(
            "column swapped: {}, the moves say {}",
            u8::from(rec.swapped),
            u8::from(pos.swapped())
        ));
    }
    let scores = pos.scores();
    for (c, name) in [
        (Player::White, "white_score"),
        (Player::Black, "black_score"),
    ] {
        if rec.scores[c] != scores[c] {
            return Err(format!(
                "column {name}: {}, the moves give {}",
                rec.scores[c], scores[c]
            ));
        }
    }
    let over = game.is_over();
    let outcome = match rec.termination {
        Termination::Normal if !over => {
            return Err("column termination: normal, but the moves do not fill the board".into());
        }
        Termination::Normal | Termination::Aborted => pos.outcome(),
        _ if over => {
            return Err(format!(
                "column termination: {}, but the moves fill the board",
                rec.termination.name()
            ));
        }
        // The side to move faulted and lost.
        _ => match pos.turn() {
            Player::White => Outcome::BlackWins,
            Player::Black => Outcome::WhiteWins,
        },
    };
    if rec.outcome != outcome {
        return Err(format!(
            "column winner: {}, the moves give {}",
            rec.outcome.name(),
            outcome.name()
        ));
    }
    Ok(game.moves().to_vec())
}

/// A `games.csv` read back: its complete rows and where a torn last line
/// (from a killed run) starts.
#[derive(Clone, Debug, Default)]
pub struct GamesFile {
    /// Whether the header line is complete.
    pub has_header: bool,
    /// Each complete row: its record and the row as read.
    pub rows: Vec<(GameRecord, GameRow)>,
    /// Bytes of complete lines; anything after is a torn line.
    pub complete_len: usize,
    /// The file's length in bytes.
    pub len: usize,
}

impl GamesFile {
    /// Whether the file ends in a torn line.
    pub fn is_torn(&self) -> bool {
        self.complete_len < self.len
    }

    /// The line of row `i`, newline included.
    pub fn line(&self, i: usize) -> String {
        let mut out = String::new();
        csv_rows::push(&mut out, &self.rows[i].1);
        out
    }
}

/// The bytes of a `games.csv` as text. A torn line is a prefix of a row,
/// so text too: a file with bytes that are not UTF-8 or are control
/// characters (a binary file, a disk's garbage) is refused, not dropped.
///
/// # Errors
/// `(line number, message)` of the first such byte.
pub fn games_text(bytes: Vec<u8>) -> Result<String, (usize, String)> {
    let line_of = |at: usize| 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
    let bad = bytes
        .iter()
        .position(|&b| b.is_ascii_control() && b != b'\n' && b != b'\r');
    let invalid = std::str::from_utf8(&bytes).err().map(|e| e.valid_up_to());
    match (bad, invalid) {
        (None, None) => Ok(String::from_utf8(bytes).unwrap_or_default()),
        (b, i) => {
            let at = b.unwrap_or(usize::MAX).min(i.unwrap_or(usize::MAX));
            Err((line_of(at), "not text (a binary file?)".into()))
        }
    }
}

/// Parses the text of a `games.csv`. A last line without its newline is a
/// torn write and is left out (see [`GamesFile::complete_len`]); every
/// complete line must parse.
///
/// # Errors
/// `(line number, message)` for a bad header or row.
pub fn parse_games(text: String, labels: &[String]) -> Result<GamesFile, (usize, String)> {
    let complete_len = text.rfind('\n').map_or(0, |i| i + 1);
    let complete = &text[..complete_len];
    let rows = if complete.is_empty() {
        Vec::new()
    } else {
        csv_rows::parse::<GameRow>(complete)?
            .into_iter()
            .map(|(line, row)| Ok((row.record(labels).map_err(|e| (line, e))?, row)))
            .collect::<Result<_, (usize, String)>>()?
    };
    Ok(GamesFile {
        has_header: complete_len > 0,
        rows,
        complete_len,
        len: text.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::play_game;
    use crate::arena::schedule::{Format, Schedule};
    use crate::bot::random::RandomBot;
    use crate::game::rules::Rules;

    fn labels() -> Vec<String> {
        vec!["r1".into(), "r2".into()]
    }

    #[test]
    fn rows_round_trip() {
        let s = Schedule::new(
            2,
            Format::RoundRobin,
            2,
            vec![Rules {
                pie: true,
                ..Rules::default()
            }],
            3,
        );
        let mut text = format!("{}\n", games_header());
        let mut recs = Vec::new();
        for g in 0..2 {
            let sg = s.game(g);
            let start = s.start(&sg).expect("start");
            let mut a = RandomBot::new("r", 1);
            let mut b = RandomBot::new("r", 2);
            let res = play_game(
                crate::game::record::Game::new(start),
                &mut a,
                &mut b,
                [None; 2],
                |_| {},
            );
            let rec = GameRecord::new(&sg, &res);
            push_row(&mut text, &rec, res.game.moves(), &labels());
            recs.push(rec);
        }
        let f = parse_games(text.clone(), &labels()).expect("parse");
        assert!(!f.is_torn());
        let back: Vec<GameRecord> = f.rows.iter().map(|r| r.0).collect();
        assert_eq!(back, recs);
        assert_eq!(
            f.line(1),
            text.lines().nth(2).expect("row 2").to_string() + "\n"
        );
        // A torn last line is dropped, the rest kept.
        let torn = text[..text.len() - 7].to_string();
        let f = parse_games(torn, &labels()).expect("parse");
        assert!(f.is_torn());
        assert_eq!(f.rows.len(), 1);
        // A torn header.
        let f = parse_games("game,lay".into(), &labels()).expect("parse");
        assert!(!f.has_header && f.rows.is_empty() && f.complete_len == 0);
    }

    #[test]
    fn bad_rows_are_named() {
        let h = games_header();
        let e = parse_games(format!("{h}\n1,2\n"), &labels()).expect_err("bad");
        assert_eq!(e.0, 2);
        let parse_row =
            |row: &str, l: &[String]| parse_games(format!("{h}\n{row}\n"), l).map_err(|e| e.1);
        let row = "0,0,a1,r1,zz,3,4,black,normal,0,,0,0,0";
        let e = parse_row(row, &labels()).expect_err("bot");
        assert!(e.contains("zz"), "{e}");
        // 2^32 + 3 is not a score of 3.
        let row = "0,0,a1,r1,r2,4294967299,4,black,normal,0,,0,0,0";
        let e = parse_row(row, &labels()).expect_err("score");
        assert!(e.contains("column white_score"), "{e}");
    }

    #[test]
    fn binary_files_are_refused_with_the_line() {
        let t = format!("{}\n", games_header());
        assert_eq!(
            games_text(t.clone().into_bytes()).as_deref(),
            Ok(t.as_str())
        );
        let mut b = t.clone().into_bytes();
        b.extend_from_slice(b"0,0,\xff\xfe");
        assert_eq!(games_text(b).map_err(|e| e.0), Err(2));
        let mut b = t.into_bytes();
        b.extend_from_slice(b"0,0\n\0\0\0");
        assert_eq!(games_text(b).map_err(|e| e.0), Err(3));
    }

    #[test]
    fn labels_checked() {
        assert!(check_label("mcts-2").is_ok());
        assert!(check_label("a\"b").is_err());
        assert!(check_label(" a").is_err());
        assert!(check_label("").is_err());
    }
}
