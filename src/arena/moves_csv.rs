//! Rows of `moves.csv`: one line a ply of every game in `games.csv`, with
//! what the mover's search said about it, and reading the file back
//! against `games.csv` (resume, merge).
//!
//! A game's lines are written before its `games.csv` row and reach the
//! disk no later than it (see `arena::rundir`), so after a kill
//! `moves.csv` holds every line of every game `games.csv` holds, then
//! perhaps lines of games `games.csv` does not hold yet, the last of them
//! torn. Reading back keeps exactly the lines of the games kept and
//! checks each against its game's moves.
//!
//! Fields never need quoting: labels are checked for commas and quotes
//! ([`super::games_csv::check_label`]) and every other field is a number,
//! a colour, or squares separated by spaces. So lines are written by hand
//! (a game's lines are the bulk of a fast tournament's output) and read by
//! splitting on commas.

use std::fmt::Write as _;
use std::io::BufRead;

use super::game::{GameResult, MoveLog};
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::position::Position;

/// The header line of `moves.csv`, without its newline.
pub const MOVES_HEADER: &str =
    "game,ply,side,bot,move,eval,white_expect,nodes,depth,pv,move_ms,clock_ms";

/// Columns a line has.
const COLUMNS: usize = 12;

/// The `bot` of a ply no bot chose (a start position's opening moves).
pub const BOOK: &str = "book";

/// Moves of the principal variation a line keeps.
pub const PV_MOVES: usize = 8;

/// The name of a colour in the `side` column.
fn side_name(c: Player) -> &'static str {
    match c {
        Player::White => "white",
        Player::Black => "black",
    }
}

/// Appends a probability or evaluation with the file's fixed precision;
/// nothing for a value that is not a number.
fn push_real(out: &mut String, v: f64) {
    if v.is_finite() {
        let _ = write!(out, "{v:.4}");
    }
}

/// White's expected score from the mover's `expect`: the mover owns White
/// after its move when it moved White's stones or took the swap (which
/// hands it White).
pub fn white_expect(expect: f64, side: Player, mv: Move) -> f64 {
    let owns_white = side == Player::White || mv == Move::Swap;
    let e = expect.clamp(0.0, 1.0);
    if owns_white { e } else { 1.0 - e }
}

/// Appends one line, newline included: ply `ply` (1-based) of game `game`,
/// played by `bot` with colour `side` to move; `log` is the arena's note of
/// the move (none for a book ply, whose search columns stay empty).
pub fn push_line(
    out: &mut String,
    game: u64,
    ply: usize,
    side: Player,
    bot: &str,
    mv: Move,
    log: Option<&MoveLog>,
) {
    let _ = write!(out, "{game},{ply},{},{bot},{mv},", side_name(side));
    let info = log.and_then(|l| l.info.as_ref());
    if let Some(i) = info {
        if let Some(e) = i.eval {
            push_real(out, e);
        }
        out.push(',');
        if let Some(e) = i.expect {
            push_real(out, white_expect(e, side, mv));
        }
        let _ = write!(out, ",{},{},", i.nodes, i.depth);
        for (k, m) in i.pv.iter().take(PV_MOVES).enumerate() {
            if k > 0 {
                out.push(' ');
            }
            let _ = write!(out, "{m}");
        }
    } else {
        out.push_str(",,,,");
    }
    out.push(',');
    if let Some(l) = log {
        let _ = write!(out, "{}", l.ms);
    }
    out.push(',');
    if let Some(c) = log.and_then(|l| l.clock_ms) {
        let _ = write!(out, "{c}");
    }
    out.push('\n');
}

/// Appends the lines of a finished game, one a ply: `game` is its index,
/// `first` and `second` the labels of the bots in the first and second
/// seat. The plies before `result.book` are [`BOOK`] lines.
pub fn push_game(out: &mut String, game: u64, result: &GameResult, first: &str, second: &str) {
    let mut pos = *result.game.start();
    let mut swapped = false;
    for (i, &mv) in result.game.moves().iter().enumerate() {
        let side = pos.turn();
        let bot = if i < result.book {
            BOOK
        } else if (side == Player::White) != swapped {
            first
        } else {
            second
        };
        let log = i.checked_sub(result.book).and_then(|k| result.log.get(k));
        push_line(out, game, i + 1, side, bot, mv, log);
        // The moves were played once already: they are legal.
        let _ = pos.try_play_move(mv);
        swapped |= mv == Move::Swap;
    }
}

/// One ply as `games.csv` implies it: what a line of `moves.csv` must say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The colour to move.
    pub side: Player,
    /// The mover's label.
    pub bot: String,
    /// The move as written.
    pub mv: String,
}

/// The plies of a game of `games.csv`: its `moves` column replayed from
/// `start`, the bots in the first and second seat labelled `first` and
/// `second`.
///
/// # Errors
/// A move that is not one or not legal (a row that was not checked).
pub fn plies(start: Position, moves: &str, first: &str, second: &str) -> Result<Vec<Ply>, String> {
    let mut pos = start;
    let mut swapped = false;
    let mut out = Vec::new();
    for (i, m) in moves.split(' ').filter(|s| !s.is_empty()).enumerate() {
        let mv: Move = m
            .parse()
            .map_err(|_| format!("move {} '{m}' is not a move", i + 1))?;
        let side = pos.turn();
        let bot = if (side == Player::White) != swapped {
            first
        } else {
            second
        };
        out.push(Ply {
            side,
            bot: bot.to_string(),
            mv: m.to_string(),
        });
        pos.try_play_move(mv)
            .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        swapped |= mv == Move::Swap;
    }
    Ok(out)
}

/// Appends the lines of a game recorded without them (a run directory
/// written before `moves.csv` existed): its moves and movers, every other
/// column empty.
pub fn push_bare(out: &mut String, game: u64, plies: &[Ply]) {
    for (i, p) in plies.iter().enumerate() {
        let _ = writeln!(
            out,
            "{game},{},{},{},{},,,,,,,",
            i + 1,
            side_name(p.side),
            p.bot,
            p.mv
        );
    }
}

/// Checks `line` (without its newline) as ply `ply` (0-based) of game
/// `game`, whose plies are `want`; `book` says whether every ply before it
/// was a book ply (a book ply may only lead).
///
/// # Errors
/// A message naming the column that does not match.
pub fn check_line(
    line: &str,
    game: u64,
    ply: usize,
    want: &Ply,
    book: bool,
) -> Result<bool, String> {
    let f: Vec<&str> = line.split(',').collect();
    if f.len() != COLUMNS || line.contains('"') {
        return Err(format!(
            "not a line of moves.csv ({} columns, {COLUMNS} wanted)",
            f.len()
        ));
    }
    let is = |col: &str, got: &str, want: &str| {
        if got == want {
            Ok(())
        } else {
            Err(format!(
                "column {col}: '{got}' where games.csv has '{want}'"
            ))
        }
    };
    is("game", f[0], &game.to_string())?;
    is("ply", f[1], &(ply + 1).to_string())?;
    is("side", f[2], side_name(want.side))?;
    is("move", f[4], &want.mv)?;
    let is_book = book && f[3] == BOOK && want.bot != BOOK;
    if !is_book {
        is("bot", f[3], &want.bot)?;
    }
    for (i, name) in [
        (7, "nodes"),
        (8, "depth"),
        (10, "move_ms"),
        (11, "clock_ms"),
    ] {
        if !f[i].is_empty() && f[i].parse::<u64>().is_err() {
            return Err(format!("column {name}: '{}' is not a count", f[i]));
        }
    }
    for (i, name) in [(5, "eval"), (6, "white_expect")] {
        if !f[i].is_empty() && f[i].parse::<f64>().is_err() {
            return Err(format!("column {name}: '{}' is not a number", f[i]));
        }
    }
    Ok(is_book)
}

/// Reads a `moves.csv` game by game, checking each game's lines.
pub struct MovesReader<R> {
    input: R,
    /// The line number of the next line.
    line: usize,
    /// Bytes of the lines taken so far.
    len: u64,
    buf: Vec<u8>,
}

/// What the start of a `moves.csv` holds.
#[derive(Debug, PartialEq, Eq)]
pub enum Header {
    /// The header line, whole.
    Whole,
    /// Nothing, or a torn header: an empty file to start again.
    Torn,
}

impl<R: BufRead> MovesReader<R> {
    /// A reader of `input`, and whether its header is whole.
    ///
    /// # Errors
    /// `(line, message)`: a first line that is not the header, or bytes
    /// that are not text.
    pub fn new(input: R) -> Result<(MovesReader<R>, Header), (usize, String)> {
        let mut r = MovesReader {
            input,
            line: 1,
            len: 0,
            buf: Vec::new(),
        };
        match r.next_line()? {
            Some(h) if h == MOVES_HEADER => {
                r.take();
                Ok((r, Header::Whole))
            }
            None => Ok((r, Header::Torn)),
            Some(h) => Err((1, format!("not the header of moves.csv: '{h}'"))),
        }
    }

    /// The next whole line, without its newline, not yet taken; `None` at
    /// the end or at a torn last line.
    fn next_line(&mut self) -> Result<Option<&str>, (usize, String)> {
        self.buf.clear();
        self.input
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| (self.line, e.to_string()))?;
        if self.buf.last() != Some(&b'\n') {
            return Ok(None);
        }
        let text = std::str::from_utf8(&self.buf[..self.buf.len() - 1])
            .ok()
            .filter(|t| !t.bytes().any(|b| b.is_ascii_control() && b != b'\r'))
            .ok_or_else(|| (self.line, "not text (a binary file?)".to_string()))?;
        Ok(Some(text.trim_end_matches('\r')))
    }

    /// Counts the line just read as taken.
    fn take(&mut self) {
        self.len += self.buf.len() as u64;
        self.line += 1;
    }

    /// Bytes of the header and the games' lines read so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing has been taken, not even the header.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads the lines of game `game`, whose plies are `plies`, appending
    /// them (newlines included) to `out`.
    ///
    /// # Errors
    /// `(line, message)`: a line that does not match, or the file ending
    /// before the game's last ply.
    pub fn game(
        &mut self,
        game: u64,
        plies: &[Ply],
        out: &mut String,
    ) -> Result<(), (usize, String)> {
        let mut book = true;
        for (i, p) in plies.iter().enumerate() {
            let line = self.line;
            let Some(text) = self.next_line()? else {
                return Err((
                    line,
                    format!(
                        "game {game} ends after {i} of its {} plies (games.csv has them all)",
                        plies.len()
                    ),
                ));
            };
            book = check_line(text, game, i, p, book)
                .map_err(|m| (line, format!("game {game}: {m}")))?;
            out.push_str(text);
            out.push('\n');
            self.take();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::play_game;
    use crate::bot::SearchInfo;
    use crate::bot::random::RandomBot;
    use crate::game::record::Game;
    use crate::game::rng::FastRng;
    use crate::game::rules::Rules;
    use crate::game::square::Square;

    fn game(pie: bool) -> GameResult {
        let rules = Rules {
            pie,
            ..Rules::default()
        };
        let start = rules.new_game(&mut FastRng::new(9)).expect("game");
        let mut a = RandomBot::new("a", 1);
        let mut b = RandomBot::new("b", 2);
        play_game(Game::new(start), &mut a, &mut b, [None; 2], |_| {})
    }

    #[test]
    fn a_line_holds_every_column() {
        let log = MoveLog {
            ms: 12,
            clock_ms: Some(900),
            info: Some(SearchInfo {
                nodes: 800,
                depth: 9,
                eval: Some(0.61234),
                expect: Some(0.25),
                pv: (0..10)
                    .map(|c| Move::Place(Square::new(c % 7, 1)))
                    .collect(),
                extra: String::new(),
            }),
        };
        let mut s = String::new();
        let mv = Move::Place(Square::new(0, 0));
        push_line(&mut s, 3, 5, Player::Black, "mcts", mv, Some(&log));
        assert_eq!(
            s,
            "3,5,black,mcts,a1,0.6123,0.7500,800,9,a2 b2 c2 d2 e2 f2 g2 a2,12,900\n"
        );
        assert_eq!(s.trim_end().split(',').count(), COLUMNS);
        // A swap hands the mover White: its expectation is White's.
        assert_eq!(white_expect(0.25, Player::Black, Move::Swap), 0.25);
        s.clear();
        push_line(&mut s, 3, 1, Player::White, BOOK, mv, None);
        assert_eq!(s, "3,1,white,book,a1,,,,,,,\n");
        s.clear();
        let bare = MoveLog {
            ms: 0,
            clock_ms: None,
            info: None,
        };
        push_line(&mut s, 0, 2, Player::White, "random", mv, Some(&bare));
        assert_eq!(s, "0,2,white,random,a1,,,,,,0,\n");
        // The csv crate reads the line as these twelve fields.
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(s.as_bytes());
        let rec = r.records().next().expect("line").expect("csv");
        assert_eq!(rec.len(), COLUMNS);
    }

    #[test]
    fn a_games_lines_read_back_and_mismatches_are_named() {
        for pie in [false, true] {
            let r = game(pie);
            let mut text = format!("{MOVES_HEADER}\n");
            push_game(&mut text, 4, &r, "a", "b");
            let want = plies(*r.game.start(), &r.game.moves_text(), "a", "b").expect("plies");
            assert_eq!(want.len(), r.plies());
            assert_eq!(text.lines().count(), r.plies() + 1);
            let (mut rd, h) = MovesReader::new(text.as_bytes()).expect("header");
            assert_eq!(h, Header::Whole);
            let mut out = String::new();
            rd.game(4, &want, &mut out).expect("game");
            assert_eq!(format!("{MOVES_HEADER}\n{out}"), text);
            assert_eq!(rd.len(), text.len() as u64);
            // The bare lines of the same game read back too.
            let mut bare = format!("{MOVES_HEADER}\n");
            push_bare(&mut bare, 4, &want);
            let (mut rd, _) = MovesReader::new(bare.as_bytes()).expect("header");
            rd.game(4, &want, &mut String::new()).expect("bare");
            // A wrong game, a missing ply and a torn line are named.
            let (mut rd, _) = MovesReader::new(text.as_bytes()).expect("header");
            let e = rd.game(5, &want, &mut String::new()).expect_err("game");
            assert_eq!(e.0, 2);
            assert!(e.1.contains("column game: '4'"), "{}", e.1);
            let torn = &text[..text.len() - 3];
            let (mut rd, _) = MovesReader::new(torn.as_bytes()).expect("header");
            let e = rd.game(4, &want, &mut String::new()).expect_err("torn");
            assert_eq!(e.0, r.plies() + 1);
            assert!(e.1.contains("ends after"), "{}", e.1);
            let other: Vec<Ply> = want
                .iter()
                .map(|p| Ply {
                    bot: "c".into(),
                    ..p.clone()
                })
                .collect();
            let (mut rd, _) = MovesReader::new(text.as_bytes()).expect("header");
            let e = rd.game(4, &other, &mut String::new()).expect_err("bot");
            assert!(e.1.contains("column bot"), "{}", e.1);
        }
    }

    #[test]
    fn opening_moves_are_book_lines_that_read_back() {
        let start = Rules::default()
            .new_game(&mut FastRng::new(3))
            .expect("game");
        let mut g = Game::new(start);
        let free: Vec<Square> = start.empty().into_iter().take(2).collect();
        for sq in &free {
            g.try_play(Move::Place(*sq)).expect("legal");
        }
        let mut a = RandomBot::new("a", 1);
        let mut b = RandomBot::new("b", 2);
        let r = play_game(g, &mut a, &mut b, [None; 2], |_| {});
        assert_eq!(r.book, 2);
        let mut text = format!("{MOVES_HEADER}\n");
        push_game(&mut text, 7, &r, "a", "b");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], format!("7,1,white,book,{},,,,,,,", free[0]));
        assert_eq!(lines[2], format!("7,2,black,book,{},,,,,,,", free[1]));
        assert!(lines[3].starts_with("7,3,white,a,"), "{}", lines[3]);
        let want = plies(start, &r.game.moves_text(), "a", "b").expect("plies");
        let (mut rd, _) = MovesReader::new(text.as_bytes()).expect("header");
        rd.game(7, &want, &mut String::new())
            .expect("book lines lead");
    }

    #[test]
    fn headers_torn_or_wrong() {
        let (rd, h) = MovesReader::new(&b"game,ply"[..]).expect("torn");
        assert_eq!(h, Header::Torn);
        assert!(rd.is_empty());
        let e = MovesReader::new(&b"game,layout\n"[..])
            .err()
            .expect("wrong");
        assert_eq!(e.0, 1);
        let bin = format!("{MOVES_HEADER}\n0,1,\0\n");
        let (mut rd, _) = MovesReader::new(bin.as_bytes()).expect("header");
        let p = Ply {
            side: Player::White,
            bot: "a".into(),
            mv: "a1".into(),
        };
        let e = rd.game(0, &[p], &mut String::new()).expect_err("binary");
        assert_eq!(e, (2, "not text (a binary file?)".to_string()));
    }

    #[test]
    fn book_plies_lead_only() {
        let p = Ply {
            side: Player::White,
            bot: "a".into(),
            mv: "a1".into(),
        };
        assert_eq!(
            check_line("0,1,white,book,a1,,,,,,,", 0, 0, &p, true),
            Ok(true)
        );
        assert!(check_line("0,1,white,book,a1,,,,,,,", 0, 0, &p, false).is_err());
        assert_eq!(
            check_line("0,1,white,a,a1,,,,,,3,", 0, 0, &p, true),
            Ok(false)
        );
        let e = check_line("0,1,white,a,a1,x,,,,,3,", 0, 0, &p, true).expect_err("eval");
        assert!(e.contains("column eval"), "{e}");
    }
}
