//! The framing of the engine protocol, shared by server and client:
//! command lines in, `= RESULT` / `? ERROR` answers out, each ended by a
//! blank line (GTP, the Go Text Protocol, section 2).

use std::fmt;

use crate::game::player::Player;

/// One command line, cleaned and split: an optional numeric id, the command
/// name and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The id the controller put before the command (`12 genmove b`), echoed
    /// in the answer (`=12 d4`).
    pub id: Option<u64>,
    /// The command name, as typed (commands are case-sensitive, as in GTP);
    /// empty for a line that holds only an id, which still gets an answer.
    pub name: String,
    /// The arguments, split on whitespace.
    pub args: Vec<String>,
}

impl Request {
    /// Parses one input line. Returns `None` for lines that carry nothing:
    /// empty, blank or comment-only (`# ...`); every other line is a
    /// request, so that it gets exactly one answer (a lone id `7` is one
    /// with an empty name). As in GTP, control characters other than tab
    /// are dropped, tabs count as spaces and everything from `#` on is a
    /// comment. An id is digits only; a first word of digits too long for
    /// an id is left as the name, for the server to refuse.
    pub fn parse(line: &str) -> Option<Request> {
        let cleaned: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter_map(|c| match c {
                '\t' => Some(' '),
                c if c.is_control() => None,
                c => Some(c),
            })
            .collect();
        let mut words = cleaned.split_whitespace();
        let first = words.next()?;
        let id = first
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| first.parse::<u64>().ok())
            .flatten();
        let name = match id {
            Some(_) => words.next().unwrap_or_default().to_string(),
            None => first.to_string(),
        };
        Some(Request {
            id,
            name,
            args: words.map(str::to_string).collect(),
        })
    }
}

/// An answer: success (`=`) or failure (`?`), with its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The id of the request, if it had one.
    pub id: Option<u64>,
    /// `true` for `=`, `false` for `?`.
    pub ok: bool,
    /// The result or error message; may span several lines, never contains
    /// an empty line.
    pub text: String,
}

impl Reply {
    /// A success.
    pub fn ok(id: Option<u64>, text: impl Into<String>) -> Reply {
        Reply {
            id,
            ok: true,
            text: text.into(),
        }
    }

    /// A failure.
    pub fn err(id: Option<u64>, text: impl Into<String>) -> Reply {
        Reply {
            id,
            ok: false,
            text: text.into(),
        }
    }
}

impl fmt::Display for Reply {
    /// `=ID TEXT` or `?ID TEXT`, then the blank line that ends every answer.
    /// A text that starts with a newline (a board) follows the `=` directly.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.ok { "=" } else { "?" })?;
        if let Some(id) = self.id {
            write!(f, "{id}")?;
        }
        // Empty lines would end the answer early, so they are dropped.
        let text: Vec<&str> = self.text.lines().filter(|l| !l.trim().is_empty()).collect();
        if self.text.starts_with('\n') {
            for line in text {
                write!(f, "\n{line}")?;
            }
        } else if !text.is_empty() {
            write!(f, " {}", text.join("\n"))?;
        }
        f.write_str("\n\n")
    }
}

/// Parses a colour argument: `w`, `b`, `white` or `black`, any case.
///
/// # Errors
/// A message naming the bad word.
pub fn parse_colour(s: &str) -> Result<Player, String> {
    match s.to_ascii_lowercase().as_str() {
        "w" | "white" => Ok(Player::White),
        "b" | "black" => Ok(Player::Black),
        _ => Err(format!("bad colour '{s}': expected w or b")),
    }
}

/// The protocol letter of a colour, `w` or `b`.
pub fn colour_letter(p: Player) -> &'static str {
    match p {
        Player::White => "w",
        Player::Black => "b",
    }
}

/// The first line of an answer as the client reads it: `=` or `?`, an
/// optional id, then the text. Returns `None` when the line is not the start
/// of an answer (garbage).
pub fn parse_answer_line(line: &str) -> Option<(bool, &str)> {
    let ok = match line.as_bytes().first() {
        Some(b'=') => true,
        Some(b'?') => false,
        _ => return None,
    };
    let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    if !rest.is_empty() && !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some((ok, rest.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_like_gtp() {
        let r = Request::parse("  12 play\tw d4  # comment").expect("request");
        assert_eq!(r.id, Some(12));
        assert_eq!(r.name, "play");
        assert_eq!(r.args, vec!["w", "d4"]);
        assert_eq!(Request::parse("# only a comment"), None);
        assert_eq!(Request::parse("   "), None);
        for lone in ["7", "7 ", " 7\t# why", "7\u{7}"] {
            let r = Request::parse(lone).expect("a lone id is a request");
            assert_eq!((r.id, r.name.as_str()), (Some(7), ""), "{lone:?}");
        }
        let r = Request::parse("+7 name").expect("request");
        assert_eq!((r.id, r.name.as_str()), (None, "+7"));
        let r = Request::parse("99999999999999999999 name").expect("request");
        assert_eq!((r.id, r.name.as_str()), (None, "99999999999999999999"));
        let r = Request::parse("genmove\u{7} b\r").expect("request");
        assert_eq!((r.name.as_str(), r.args.len()), ("genmove", 1));
    }

    #[test]
    fn replies_are_framed() {
        assert_eq!(Reply::ok(None, "d4").to_string(), "= d4\n\n");
        assert_eq!(Reply::ok(Some(3), "").to_string(), "=3\n\n");
        assert_eq!(Reply::err(None, "bad").to_string(), "? bad\n\n");
        assert_eq!(Reply::ok(None, "a\n\nb").to_string(), "= a\nb\n\n");
        assert_eq!(Reply::ok(None, "\nx\ny").to_string(), "=\nx\ny\n\n");
    }

    #[test]
    fn answer_lines() {
        assert_eq!(parse_answer_line("= d4"), Some((true, "d4")));
        assert_eq!(parse_answer_line("=12 swap"), Some((true, "swap")));
        assert_eq!(parse_answer_line("="), Some((true, "")));
        assert_eq!(parse_answer_line("? no"), Some((false, "no")));
        assert_eq!(parse_answer_line("=d4"), None);
        assert_eq!(parse_answer_line("d4"), None);
        assert_eq!(parse_answer_line(""), None);
    }

    #[test]
    fn colours() {
        assert_eq!(parse_colour("W"), Ok(Player::White));
        assert_eq!(parse_colour("black"), Ok(Player::Black));
        assert!(parse_colour("x").is_err());
        assert_eq!(colour_letter(Player::Black), "b");
    }
}
