//! The board text of docs/RULES.md: one line per rank, top rank first.

use std::fmt;

use super::bitboard::Bitboard;
use super::outcome::Komi;
use super::player::Player;
use super::position::{Position, PositionError};
use super::scoring::score;
use super::square::{MAX_SIZE, MIN_SIZE, Square};

/// A board as drawn: holes and stones, no game state. Any stone counts are
/// allowed (scoring does not need a legal game); [`Board::to_position`]
/// checks that the board can arise in play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Side, 3..=8.
    pub size: u8,
    /// Holes.
    pub holes: Bitboard,
    /// White stones.
    pub white: Bitboard,
    /// Black stones.
    pub black: Bitboard,
}

impl Board {
    /// White's and Black's line scores as the board stands.
    pub fn scores(&self) -> (u32, u32) {
        (score(self.white), score(self.black))
    }

    /// The position with these stones and holes.
    ///
    /// # Errors
    /// Stone counts that cannot arise in play.
    pub fn to_position(&self, pie: bool, komi: Komi) -> Result<Position, PositionError> {
        Position::with_stones(self.size, self.holes, self.white, self.black, pie, komi)
    }
}

impl From<&Position> for Board {
    fn from(p: &Position) -> Board {
        Board {
            size: p.size(),
            holes: p.holes(),
            white: p.stones(Player::White),
            black: p.stones(Player::Black),
        }
    }
}

/// A parse error in board text, with its place (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board {board}, line {line}, column {column}: {message}")]
pub struct BoardParseError {
    /// Which board of the input (1-based).
    pub board: usize,
    /// Line of the input (1-based).
    pub line: usize,
    /// Column of the line (1-based, in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// A parse error in a line-based file (a suite of positions or of
/// starts), with its place (1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct LineError {
    /// Line of the file.
    pub line: usize,
    /// Column of the line, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// `text` with its control characters escaped (`\n` as `\\n`): an error
/// message that quotes what a user or client sent stays the one line the
/// command line and `pahtum serve` promise.
pub fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            line.extend(c.escape_default());
        } else {
            line.push(c);
        }
    }
    line
}

/// Parses every board of `text`; boards are separated by blank lines.
///
/// # Errors
/// The first malformed board: unknown character, rows of unequal length, a
/// board that is not square, an unsupported size, or no board at all.
///
/// # Examples
/// ```
/// let boards = pahtum::parse_boards("WWW\n#B.\nBBB\n").unwrap();
/// assert_eq!(boards[0].scores(), (3, 3));
/// ```
pub fn parse_boards(text: &str) -> Result<Vec<Board>, BoardParseError> {
    let mut boards = Vec::new();
    let mut current: Vec<(usize, &str)> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            if !current.is_empty() {
                boards.push(parse_one(boards.len() + 1, &current)?);
                current.clear();
            }
        } else {
            current.push((i + 1, line));
        }
    }
    if !current.is_empty() {
        boards.push(parse_one(boards.len() + 1, &current)?);
    }
    if boards.is_empty() {
        return Err(BoardParseError {
            board: 1,
            line: lines.len().max(1),
            column: 1,
            message: "no board in the input".into(),
        });
    }
    Ok(boards)
}

/// The first character of `rows` that is not a square (`. # W B`, either
/// case): its line, column and message.
fn unknown_character(rows: &[(usize, &str)]) -> Option<(usize, usize, String)> {
    for &(line, text) in rows {
        for (col, ch) in text.trim_end().chars().enumerate() {
            if !matches!(ch, '.' | '#' | 'W' | 'w' | 'B' | 'b') {
                let shown = if ch.is_control() || !ch.is_ascii() {
                    format!("U+{:04X}", ch as u32)
                } else {
                    format!("'{ch}'")
                };
                return Some((
                    line,
                    col + 1,
                    format!("unknown character {shown} (use . # W B)"),
                ));
            }
        }
    }
    None
}

/// The board's side from its rows' lengths `lens`: what most rows say
/// (the first row's length on a tie), so that a missing or extra row then
/// reads as one, and a row typed short or long as that row, never the
/// other way round.
fn voted_width(lens: &[usize]) -> usize {
    lens.iter()
        .copied()
        .max_by_key(|&w| {
            let votes = lens.iter().filter(|&&l| l == w).count();
            // More votes first; among equals, the earliest row's length.
            (votes, std::cmp::Reverse(lens.iter().position(|&l| l == w)))
        })
        .unwrap_or(0)
}

fn parse_one(board: usize, rows: &[(usize, &str)]) -> Result<Board, BoardParseError> {
    let err = |line: usize, column: usize, message: String| BoardParseError {
        board,
        line,
        column,
        message,
    };
    let size = rows.len();
    let (first_line, _) = rows[0];
    // Check characters first: a bad character is the most precise report.
    if let Some((line, column, message)) = unknown_character(rows) {
        return Err(err(line, column, message));
    }
    if size > MAX_SIZE as usize {
        return Err(err(
            rows[MAX_SIZE as usize].0,
            1,
            format!("{size} rows: board sizes {MIN_SIZE} to {MAX_SIZE} are supported"),
        ));
    }
    let lens: Vec<usize> = rows
        .iter()
        .map(|(_, text)| text.trim_end().chars().count())
        .collect();
    let width = voted_width(&lens);
    for (&(line, _), &len) in rows.iter().zip(&lens) {
        if len != width {
            let what = if len < width { "short" } else { "long" };
            return Err(err(
                line,
                len.min(width) + 1,
                format!("row too {what}: {len} squares, where the other rows have {width}"),
            ));
        }
    }
    if !(MIN_SIZE as usize..=MAX_SIZE as usize).contains(&width) {
        return Err(err(
            first_line,
            // A row too long is wrong from its first square too many; one
            // too short is wrong as a whole.
            if width > MAX_SIZE as usize {
                MAX_SIZE as usize + 1
            } else {
                1
            },
            format!("rows of {width} squares: board sizes {MIN_SIZE} to {MAX_SIZE} are supported"),
        ));
    }
    if size != width {
        // Missing rows are named at the end of the board's last row (a
        // place inside the input, which may end there); the first row too
        // many at its start.
        let (line, column, which) = if size < width {
            let (last, _) = rows[size - 1];
            (
                last,
                width + 1,
                format!("{} missing after this row", width - size),
            )
        } else {
            (rows[width].0, 1, format!("{} too many", size - width))
        };
        return Err(err(
            line,
            column,
            format!(
                "{size} rows of {width} squares: a board of side {width} has {width} rows ({which}; boards are square)"
            ),
        ));
    }
    let mut b = Board {
        size: size as u8,
        holes: Bitboard::EMPTY,
        white: Bitboard::EMPTY,
        black: Bitboard::EMPTY,
    };
    for (i, &(_, text)) in rows.iter().enumerate() {
        let row = (size - 1 - i) as u8;
        for (col, ch) in text.trim_end().chars().enumerate() {
            let sq = Square::new(col as u8, row);
            match ch {
                '#' => b.holes.insert(sq),
                'W' | 'w' => b.white.insert(sq),
                'B' | 'b' => b.black.insert(sq),
                _ => {}
            }
        }
    }
    Ok(b)
}

/// The board text of a board, one line per rank, top first, each ending in
/// a newline.
pub fn board_to_text(b: &Board) -> String {
    let mut s = String::with_capacity(72);
    for row in (0..b.size).rev() {
        for col in 0..b.size {
            let sq = Square::new(col, row);
            s.push(if b.holes.contains(sq) {
                '#'
            } else if b.white.contains(sq) {
                'W'
            } else if b.black.contains(sq) {
                'B'
            } else {
                '.'
            });
        }
        s.push('\n');
    }
    s
}

/// The board text of a position.
pub fn board_text(p: &Position) -> String {
    board_to_text(&Board::from(p))
}

/// The board with file letters and rank numbers around it, for people.
pub fn board_with_coordinates(p: &Position) -> String {
    let text = board_text(p);
    let size = p.size() as usize;
    let files: String = (0..size)
        .map(|c| (b'a' + c as u8) as char)
        .collect::<Vec<_>>()
        .iter()
        .map(|c| format!(" {c}"))
        .collect();
    let mut s = String::new();
    for (i, line) in text.lines().enumerate() {
        let rank = size - i;
        s.push_str(&format!("{rank}"));
        for ch in line.chars() {
            s.push(' ');
            s.push(ch);
        }
        s.push('\n');
    }
    s.push(' ');
    s.push_str(&files);
    s.push('\n');
    s
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", board_text(self))
    }
}

impl fmt::Display for Position {
    /// The board text of docs/RULES.md, rank 7 (top) first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&board_text(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_escapes_control_characters_only() {
        assert_eq!(one_line("a\nb\u{7}c"), "a\\nb\\u{7}c");
        assert_eq!(one_line("'d4' é \"x\""), "'d4' é \"x\"");
    }

    const EXAMPLE: &str = "#..W...\n.WWWB..\n...B...\nB..B#..\n...B...\n..#....\n#...W.#\n";

    #[test]
    fn round_trip() {
        let b = parse_boards(EXAMPLE).expect("parse");
        assert_eq!(b.len(), 1);
        assert_eq!(board_to_text(&b[0]), EXAMPLE);
        // Black's d5..d3 run of 3 down; White's b6..d6 run of 3 across.
        assert_eq!(b[0].scores(), (3, 3));
    }

    #[test]
    fn several_boards_and_errors() {
        let b = parse_boards("...\n...\n...\n\n\n....\n....\n....\n....\n").expect("parse");
        assert_eq!(b.len(), 2);
        assert_eq!(b[1].size, 4);
        let e = parse_boards("...\n.x.\n...\n").expect_err("bad char");
        assert_eq!((e.board, e.line, e.column), (1, 2, 2));
        let e = parse_boards("...\n...\n...\n\n...\n..\n...\n").expect_err("short");
        assert_eq!((e.board, e.line, e.column), (2, 6, 3));
        let e = parse_boards("....\n....\n....\n").expect_err("not square");
        assert_eq!((e.board, e.line, e.column), (1, 3, 5));
        assert!(e.message.contains("3 rows of 4 squares"), "{e}");
        assert!(e.message.contains("1 missing"), "{e}");
        // A row missing is not a row too long.
        let e = parse_boards("...\n...\n").expect_err("a row missing");
        assert_eq!((e.line, e.column), (2, 4));
        assert_eq!(
            e.message,
            "2 rows of 3 squares: a board of side 3 has 3 rows (1 missing after this row; boards are square)"
        );
        // The fuzzer's case: a board that is one row of four, at the end
        // of the input, is refused at a place inside the input.
        let e = parse_boards("#..W").expect_err("one row of four");
        assert_eq!((e.line, e.column), (1, 5));
        let e = parse_boards("...\n...\n...\n...\n").expect_err("a row too many");
        assert_eq!((e.line, e.column), (4, 1));
        assert!(e.message.contains("1 too many"), "{e}");
        // One row typed short among full ones is that row.
        let e = parse_boards("....\n....\n...\n....\n").expect_err("short row");
        assert_eq!((e.line, e.column), (3, 4));
        assert_eq!(
            e.message,
            "row too short: 3 squares, where the other rows have 4"
        );
        let e = parse_boards("..........\n..........\n").expect_err("too wide");
        assert!(e.message.contains("rows of 10 squares"), "{e}");
        assert!(parse_boards("\n\n").is_err());
        assert!(parse_boards("..\n..\n").is_err());
    }
}
