//! Start-position suites (`--openings FILE`): a list of starts, each a
//! layout of holes and the first moves of a game, played in order.
//!
//! A suite file holds one start per line in the move notation, holes then
//! moves, split by `|`:
//!
//! ```text
//! # balanced, 5 holes, 4 plies
//! a2 c7 d1 f5 g3 | d4 e4 c3 e3
//! ```
//!
//! Squares are named as in docs/RULES.md and separated by spaces or
//! commas; `swap` is a move (under the pie rule); a line without `|` is a
//! layout with no moves. It may also hold boards in the board text of
//! docs/RULES.md (one line per rank, blank lines between boards): a
//! board's stones become an alternating move sequence (White's and
//! Black's stones each in square order, a1 first), so that its counts
//! must allow one: as many White stones as Black, or one more. A lone `#`,
//! or `#` followed by a space, starts a comment; a line made only of
//! `. # W B` is a board row. Every start is replayed when the file is
//! read, so that a bad one is named by its line before any game is played.

use std::fmt;
use std::sync::Arc;

use super::bitboard::Bitboard;
use super::outcome::{Komi, Move};
use super::position::Position;
use super::record::Game;
use super::square::Square;

/// One start: the holes and the moves played before the bots move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Start {
    /// The hole squares.
    pub holes: Bitboard,
    /// The opening moves, a pie swap included.
    pub moves: Vec<Move>,
}

impl Start {
    /// The game this start gives on a board of side `size` under the pie
    /// rule setting `pie` and `komi`, its moves played.
    ///
    /// # Errors
    /// Holes that make no position, or a move that is not legal there.
    pub fn game(&self, size: u8, pie: bool, komi: Komi) -> Result<Game, String> {
        self.replay(size, pie, komi).map_err(|(_, m)| m)
    }

    /// [`Start::game`], an error also giving the index of the move that
    /// failed, where one did.
    fn replay(&self, size: u8, pie: bool, komi: Komi) -> Result<Game, (Option<usize>, String)> {
        let pos = Position::new(size, self.holes, pie, komi).map_err(|e| (None, e.to_string()))?;
        let mut game = Game::new(pos);
        for (i, &mv) in self.moves.iter().enumerate() {
            game.try_play(mv)
                .map_err(|e| (Some(i), format!("move {} ({mv}): {e}", i + 1)))?;
        }
        if game.is_over() {
            return Err((None, "the start leaves no move to play".into()));
        }
        Ok(game)
    }

    /// The start as a line of a suite file: holes, ` | `, moves.
    pub fn line(&self) -> String {
        let holes: Vec<String> = self.holes.map(|sq| sq.to_string()).collect();
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        format!("{} | {}", holes.join(" "), moves.join(" "))
            .trim_end()
            .to_string()
    }
}

/// A malformed suite file, with its place (1-based).
pub use crate::game::text::LineError as SuiteError;

/// The starts of a suite file, in order, checked against a board side and
/// the pie rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    /// The starts, in file order; never empty.
    pub starts: Vec<Start>,
    /// The line of each start in the file (for messages).
    pub lines: Vec<usize>,
    /// [`content_hash`] of the file's bytes.
    pub hash: String,
}

impl Suite {
    /// Reads a suite from `text` for games on a board of side `size`
    /// under the pie rule setting `pie` and `komi`.
    ///
    /// # Errors
    /// The first bad line: a square that does not parse or is off the
    /// board, a hole listed twice, an illegal move, a board of another
    /// size or with stone counts no game reaches, a start with no move
    /// left, or no start at all.
    pub fn parse(text: &str, size: u8, pie: bool, komi: Komi) -> Result<Suite, SuiteError> {
        let mut starts = Vec::new();
        let mut lines = Vec::new();
        let mut rows: Vec<(usize, &str)> = Vec::new();
        let all: Vec<&str> = text.lines().collect();
        let flush = |rows: &mut Vec<(usize, &str)>,
                     starts: &mut Vec<Start>,
                     lines: &mut Vec<usize>|
         -> Result<(), SuiteError> {
            if rows.is_empty() {
                return Ok(());
            }
            let start = board_start(rows, size)?;
            check(&start, rows[0].0, &[], size, pie, komi)?;
            lines.push(rows[0].0);
            starts.push(start);
            rows.clear();
            Ok(())
        };
        for (i, raw) in all.iter().enumerate() {
            let n = i + 1;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let trimmed = line.trim();
            if is_comment(trimmed) || trimmed.is_empty() {
                flush(&mut rows, &mut starts, &mut lines)?;
                continue;
            }
            if is_board_row(trimmed) {
                rows.push((n, line));
                continue;
            }
            flush(&mut rows, &mut starts, &mut lines)?;
            let (start, columns) = notation_start(n, line, size)?;
            check(&start, n, &columns, size, pie, komi)?;
            lines.push(n);
            starts.push(start);
        }
        flush(&mut rows, &mut starts, &mut lines)?;
        if starts.is_empty() {
            return Err(SuiteError {
                line: all.len().max(1),
                column: 1,
                message: "no start in the file".into(),
            });
        }
        Ok(Suite {
            starts,
            lines,
            hash: content_hash(text.as_bytes()),
        })
    }

    /// Number of starts.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the suite has no starts (never, once parsed).
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Start `k mod len`: the suite cycles when games outnumber it.
    pub fn start(&self, k: u64) -> &Start {
        &self.starts[(k % self.starts.len() as u64) as usize]
    }
}

/// A suite as a run holds it: the file's path as given and its starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// The path as given on the command line.
    pub path: String,
    /// The starts.
    pub suite: Arc<Suite>,
}

impl Openings {
    /// How `run.json` names the suite: path and content hash.
    pub fn record(&self) -> SuiteRecord {
        SuiteRecord {
            path: self.path.clone(),
            hash: self.suite.hash.clone(),
        }
    }
}

/// A suite file as a run records it: where it was and what it held.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SuiteRecord {
    /// The path as given.
    pub path: String,
    /// [`content_hash`] of its bytes.
    pub hash: String,
}

impl fmt::Display for SuiteRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (hash {})", self.path, self.hash)
    }
}

/// A lone `#`, or `#` and a space, and what follows.
fn is_comment(trimmed: &str) -> bool {
    trimmed == "#" || trimmed.starts_with("# ") || trimmed.starts_with("#\t")
}

/// Only the characters of the board text.
fn is_board_row(trimmed: &str) -> bool {
    trimmed
        .chars()
        .all(|c| matches!(c, '.' | '#' | 'W' | 'w' | 'B' | 'b'))
}

/// Replays `start` to check it; a move that fails is named at its column
/// in `columns` (the move notation's; a board's start has none, and is
/// named by its first line).
fn check(
    start: &Start,
    line: usize,
    columns: &[usize],
    size: u8,
    pie: bool,
    komi: Komi,
) -> Result<(), SuiteError> {
    start
        .replay(size, pie, komi)
        .map(|_| ())
        .map_err(|(at, message)| SuiteError {
            line,
            column: at.and_then(|i| columns.get(i)).copied().unwrap_or(1),
            message,
        })
}

/// A line of the move notation: holes, optionally `|` and moves; the
/// moves' columns beside it.
fn notation_start(n: usize, line: &str, size: u8) -> Result<(Start, Vec<usize>), SuiteError> {
    // `#` after a space starts a comment; inside a word it is a typo.
    let body = match line.find(" #").or_else(|| line.find("\t#")) {
        Some(k) => &line[..k],
        None => line,
    };
    let (holes_text, moves_text, moves_at) = match body.find('|') {
        Some(k) => (&body[..k], &body[k + 1..], k + 1),
        None => (body, "", body.len()),
    };
    let mut holes = Bitboard::EMPTY;
    for (col, word) in words(holes_text, 0) {
        let err = |message: String| SuiteError {
            line: n,
            column: col,
            message,
        };
        let sq: Square = word
            .parse()
            .map_err(|_| err(format!("hole '{word}' is not a square (like d4)")))?;
        if !sq.is_on_board(size) {
            return Err(err(format!("hole {sq} is off the {size}x{size} board")));
        }
        if holes.contains(sq) {
            return Err(err(format!("hole {sq} is listed twice")));
        }
        holes.insert(sq);
    }
    let mut moves = Vec::new();
    let mut columns = Vec::new();
    for (col, word) in words(moves_text, moves_at) {
        let mv: Move = word.parse().map_err(|_| SuiteError {
            line: n,
            column: col,
            message: format!("move '{word}' is not a square (like d4) or swap"),
        })?;
        if let Move::Place(sq) = mv
            && !sq.is_on_board(size)
        {
            return Err(SuiteError {
                line: n,
                column: col,
                message: format!("move {sq} is off the {size}x{size} board"),
            });
        }
        moves.push(mv);
        columns.push(col);
    }
    Ok((Start { holes, moves }, columns))
}

/// The words of `text` (split by spaces, tabs and commas) with their
/// 1-based columns, `offset` characters into the line.
fn words(text: &str, offset: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut begin: Option<usize> = None;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in bytes.iter().enumerate() {
        let sep = c.is_whitespace() || c == ',';
        match (sep, begin) {
            (false, None) => begin = Some(k),
            (true, Some(b)) => {
                out.push((offset + b + 1, &text[bytes[b].0..i]));
                begin = None;
            }
            _ => {}
        }
    }
    if let Some(b) = begin {
        out.push((offset + b + 1, &text[bytes[b].0..]));
    }
    out.into_iter()
}

/// A board in the board text: its stones as alternating moves.
fn board_start(rows: &[(usize, &str)], size: u8) -> Result<Start, SuiteError> {
    let first = rows[0].0;
    if rows.len() != size as usize {
        return Err(SuiteError {
            line: first,
            column: 1,
            message: format!(
                "a board of {} rows, but the games are on a {size}x{size} board (--size)",
                rows.len()
            ),
        });
    }
    let mut holes = Bitboard::EMPTY;
    let mut stones = [Bitboard::EMPTY; 2];
    for (r, &(n, text)) in rows.iter().enumerate() {
        let text = text.trim();
        let len = text.chars().count();
        if len != size as usize {
            return Err(SuiteError {
                line: n,
                column: 1,
                message: format!("a row of {len} squares on a {size}x{size} board (--size)"),
            });
        }
        let rank = size as usize - 1 - r;
        for (file, c) in text.chars().enumerate() {
            let sq = Square::new(file as u8, rank as u8);
            match c {
                '#' => holes.insert(sq),
                'W' | 'w' => stones[0].insert(sq),
                'B' | 'b' => stones[1].insert(sq),
                _ => {}
            }
        }
    }
    let (w, b) = (stones[0].count(), stones[1].count());
    if w != b && w != b + 1 {
        return Err(SuiteError {
            line: first,
            column: 1,
            message: format!(
                "stone counts white={w} black={b} give no move sequence: White moves first, so White needs as many stones as Black or one more"
            ),
        });
    }
    let mut moves = Vec::with_capacity((w + b) as usize);
    let (mut ws, mut bs) = (stones[0], stones[1]);
    for k in 0..w + b {
        let side = if k % 2 == 0 { &mut ws } else { &mut bs };
        if let Some(sq) = side.next() {
            moves.push(Move::Place(sq));
        }
    }
    Ok(Start { holes, moves })
}

/// The content hash of a suite file, recorded in `run.json`: 64-bit
/// FNV-1a of its bytes in hex, enough to tell a changed file.
pub fn content_hash(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl fmt::Display for Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::Player;

    fn parse(text: &str) -> Result<Suite, SuiteError> {
        Suite::parse(text, 7, false, Komi::ZERO)
    }

    #[test]
    fn both_formats_in_order() {
        let text = "# a suite\n\na1 b2,c3 d4 e5 | g7 f6 e6\n#..W...\n.......\n...B...\n.......\n.......\n.......\n#.....#\n\ng1 g2 g3 g4 g5\n";
        let s = parse(text).expect("suite");
        assert_eq!(s.len(), 3);
        assert_eq!(s.lines, vec![3, 4, 12]);
        assert_eq!(s.starts[0].line(), "a1 b2 c3 d4 e5 | g7 f6 e6");
        // The board: holes a7 a1 g1, White d7, Black d5 -> "d7 d5".
        assert_eq!(s.starts[1].line(), "a1 g1 a7 | d7 d5");
        assert!(s.starts[2].moves.is_empty());
        assert_eq!(s.start(4), &s.starts[1]);
        let g = s.starts[0].game(7, false, Komi::ZERO).expect("game");
        assert_eq!(g.moves_text(), "g7 f6 e6");
        assert_eq!(g.position().turn(), Player::Black);
    }

    #[test]
    fn errors_name_line_and_column() {
        let at = |text: &str| parse(text).map(|_| ()).map_err(|e| (e.line, e.column));
        assert_eq!(at("\n\na1 b2 zz | d4\n"), Err((3, 7)));
        assert_eq!(at("a1 b2 | d4 h8\n"), Err((1, 12)));
        assert_eq!(at("a1 a1\n"), Err((1, 4)));
        // An illegal move is named at its column: a hole, a square taken,
        // a swap without the pie rule.
        assert_eq!(at("a1 b2 | d4\na1 | a1\n"), Err((2, 6)));
        assert_eq!(at("a2 c7 d1 f5 g3 | d4 d4\n"), Err((1, 21)));
        assert_eq!(at("a1 | swap\n"), Err((1, 6)));
        assert_eq!(at("# nothing\n"), Err((1, 1)));
        // A 6-row board, and one whose counts give no sequence.
        assert_eq!(at("a1 | d4\n.......\n.......\n"), Err((2, 1)));
        let rows = "WW.....\n.......\n.......\n.......\n.......\n.......\n.......\n";
        assert_eq!(at(&format!("a1 | d4\n\n{rows}")), Err((3, 1)));
        assert_eq!(at(".......\n.......\n.......\n"), Err((1, 1)));
        let e = parse(&format!("a1 | d4\n\n{rows}")).expect_err("counts");
        assert!(e.message.contains("white=2 black=0"), "{}", e.message);
    }

    #[test]
    fn swap_needs_the_pie_rule_and_hash_tells_files_apart() {
        let line = "a1 | d4 swap e4\n";
        assert!(parse(line).is_err());
        let s = Suite::parse(line, 7, true, Komi::ZERO).expect("pie");
        assert_eq!(s.starts[0].moves.len(), 3);
        assert_ne!(content_hash(b"a1 | d4\n"), content_hash(b"a1 | d5\n"));
        assert_eq!(content_hash(b""), "cbf29ce484222325");
    }
}
