//! The suite file of `pahtum accuracy`: board text (docs/RULES.md) where a
//! board may follow header lines that start with `;`, each a list of
//! `key=value` words: `name=` (what the `position` column shows), `move=`
//! (a move played there, judged instead of asking a bot), and the exact
//! value as `pahtum solve` prints it (`result= margin= best_result=
//! best_margin=`, all four or none). Positions without a value are solved;
//! the suite written back with every value ([`suite_text`]) is solved once
//! for good.

use std::collections::BTreeMap;

use crate::game::outcome::{Komi, Move, Outcome};
use crate::game::text::{Board, board_to_text, parse_boards};
use crate::solve::Solution;

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuitePosition {
    /// The board.
    pub board: Board,
    /// Its `name=`, if the header gave one.
    pub name: Option<String>,
    /// The move its header records (`move=`), if any.
    pub played: Option<Move>,
    /// Its exact value, if the header gave it (`nodes` is 0).
    pub known: Option<Solution>,
    /// The input line of its first row, for messages.
    pub line: usize,
}

/// A malformed suite file, with its place (1-based).
pub use crate::game::text::LineError as SuiteError;

/// The header words of one board, each with its column.
#[derive(Default)]
struct Header {
    words: Vec<(usize, usize, String, String)>,
}

/// Parses a suite: boards, each after optional `;` header lines.
///
/// # Errors
/// A malformed board or header word, a header with no board after it, a
/// value that contradicts itself or names a square off the board.
pub fn parse_suite(text: &str) -> Result<Vec<SuitePosition>, SuiteError> {
    // Header lines become blank lines for the board parser, so its line
    // numbers stay those of the file and a header separates boards.
    let mut blanked = String::with_capacity(text.len());
    let mut headers: Vec<(usize, Header)> = Vec::new();
    let mut pending: Option<Header> = None;
    let mut in_board = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(rest) = line.trim_start().strip_prefix(';') {
            let h = pending.get_or_insert_with(Header::default);
            let offset = line.len() - rest.len();
            let mut col = offset;
            for word in rest.split(' ') {
                if !word.is_empty() {
                    let Some((k, v)) = word.split_once('=') else {
                        return Err(SuiteError {
                            line: i + 1,
                            column: line[..col].chars().count() + 1,
                            message: format!("'{word}' is not KEY=VALUE"),
                        });
                    };
                    h.words.push((
                        i + 1,
                        line[..col].chars().count() + 1,
                        k.to_string(),
                        v.to_string(),
                    ));
                }
                col += word.len() + 1;
            }
            in_board = false;
            blanked.push('\n');
            continue;
        }
        if line.trim().is_empty() {
            in_board = false;
        } else if !in_board {
            in_board = true;
            headers.push((i + 1, pending.take().unwrap_or_default()));
        }
        blanked.push_str(line);
        blanked.push('\n');
    }
    if let Some(h) = pending
        && let Some(&(line, column, _, _)) = h.words.first()
    {
        return Err(SuiteError {
            line,
            column,
            message: "a header with no board after it".into(),
        });
    }
    let boards = parse_boards(&blanked).map_err(|e| SuiteError {
        line: e.line,
        column: e.column,
        message: format!("board {}: {}", e.board, e.message),
    })?;
    boards
        .into_iter()
        .zip(headers)
        .map(|(board, (line, h))| entry(board, line, &h))
        .collect()
}

/// A board with its header read and checked.
fn entry(board: Board, line: usize, h: &Header) -> Result<SuitePosition, SuiteError> {
    let mut e = SuitePosition {
        board,
        name: None,
        played: None,
        known: None,
        line,
    };
    let mut value: BTreeMap<&str, (usize, usize, &str)> = BTreeMap::new();
    for (l, c, k, v) in &h.words {
        let bad = |message: String| SuiteError {
            line: *l,
            column: *c,
            message,
        };
        match k.as_str() {
            "name" => {
                if v.is_empty() || v.contains(',') || v.contains('"') {
                    return Err(bad(format!("name '{v}': empty or with a comma or quote")));
                }
                e.name = Some(v.clone());
            }
            "move" => e.played = Some(parse_move(v, &board).map_err(bad)?),
            "result" | "margin" | "best_result" | "best_margin" => {
                value.insert(k.as_str(), (*l, *c, v.as_str()));
            }
            _ => {
                return Err(bad(format!(
                    "unknown key '{k}' (keys: name, move, result, margin, best_result, best_margin)"
                )));
            }
        }
    }
    if value.is_empty() {
        return Ok(e);
    }
    let (l0, c0) = value.values().next().map_or((line, 1), |&(l, c, _)| (l, c));
    let get = |k: &str| {
        value.get(k).copied().ok_or_else(|| SuiteError {
            line: l0,
            column: c0,
            message: format!("a value needs result, margin, best_result and best_margin; no {k}"),
        })
    };
    let (l, c, m) = get("margin")?;
    let margin = m
        .parse::<Komi>()
        .map(Komi::halves)
        .map_err(|_| SuiteError {
            line: l,
            column: c,
            message: format!("margin '{m}' is not a number of points"),
        })?;
    let (l, c, r) = get("result")?;
    let outcome = Outcome::from_margin_halves(margin);
    if r != outcome.name() {
        return Err(SuiteError {
            line: l,
            column: c,
            message: format!("result {r} with margin {m} (that is {outcome})"),
        });
    }
    let list = |k: &str| -> Result<Vec<Move>, SuiteError> {
        let (l, c, v) = get(k)?;
        if v == "-" {
            return Ok(Vec::new());
        }
        v.split(',')
            .map(|s| {
                parse_move(s, &board).map_err(|message| SuiteError {
                    line: l,
                    column: c,
                    message: format!("{k}: {message}"),
                })
            })
            .collect()
    };
    e.known = Some(Solution {
        outcome,
        margin_halves: margin,
        best_result: list("best_result")?,
        best_margin: list("best_margin")?,
        nodes: 0,
    });
    Ok(e)
}

/// A move that is a free square of `board`.
fn parse_move(s: &str, board: &Board) -> Result<Move, String> {
    match s.parse::<Move>() {
        Ok(Move::Place(sq))
            if sq.is_on_board(board.size)
                && !(board.holes | board.white | board.black).contains(sq) =>
        {
            Ok(Move::Place(sq))
        }
        _ => Err(format!("'{s}' is not a free square of the board")),
    }
}

/// The suite text of `entries`, every value filled in from `solved`
/// (one per entry), readable by [`parse_suite`].
pub fn suite_text(entries: &[SuitePosition], solved: &[Solution]) -> String {
    let mut s = String::new();
    for (i, (e, sol)) in entries.iter().zip(solved).enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push(';');
        if let Some(n) = &e.name {
            s.push_str(&format!(" name={n}"));
        }
        if let Some(m) = e.played {
            s.push_str(&format!(" move={m}"));
        }
        s.push_str(&format!(" {}\n", sol.line()));
        s.push_str(&board_to_text(&e.board));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_headers_and_errors() {
        let text = "; name=a move=c1\n; result=draw margin=0 best_result=c1 best_margin=c1\nWB.\n#W.\nB..\n\n...\n...\n...\n";
        let s = parse_suite(text).expect("suite");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].name.as_deref(), Some("a"));
        assert_eq!(s[0].played.map(|m| m.to_string()).as_deref(), Some("c1"));
        assert_eq!(s[0].known.as_ref().map(|k| k.margin_halves), Some(0));
        assert_eq!((s[1].line, s[1].known.is_none()), (7, true));
        let back = suite_text(&s[..1], &[s[0].known.clone().expect("known")]);
        // One header line where the input had two: the board starts a line earlier.
        let again = parse_suite(&back).expect("again");
        assert_eq!(
            again[0],
            SuitePosition {
                line: 2,
                ..s[0].clone()
            }
        );
        let e =
            parse_suite("; result=white margin=-1 best_result=a1 best_margin=a1\n...\n...\n...\n")
                .expect_err("contradiction");
        assert_eq!((e.line, e.column), (1, 3));
        let e = parse_suite("...\n...\n...\n;  colour=w\n").expect_err("unknown key");
        assert_eq!((e.line, e.column), (4, 4));
        let e = parse_suite("; move=b2\n...\n.W.\n...\n").expect_err("occupied");
        assert_eq!((e.line, e.column), (1, 3));
        let e = parse_suite("...\n.x.\n...\n").expect_err("bad char");
        assert_eq!((e.line, e.column), (2, 2));
    }
}
