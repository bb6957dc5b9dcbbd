//! The requests of `pahtum serve` (docs/CONTRACT.md "Seeing runs"): a
//! person plays a bot in the browser.
//!
//! Why stateless: each `POST /api/move` carries the whole game (rules,
//! holes, moves), which is replayed with the rules code before the bot is
//! asked. The server keeps no games, so a reload, a second tab or a
//! restart loses nothing, and a forged request can only be refused by the
//! same checks every move goes through. The handler is a plain function
//! from method, path and body to a [`HttpReply`], tested without sockets; the
//! command line owns the sockets.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::Deserialize;
use serde_json::json;

use crate::arena::game::Termination;
use crate::arena::games_csv::{GameRecord, games_header, push_row};
use crate::bot::builtin_catalog;
use crate::game::bitboard::Bitboard;
use crate::game::outcome::{Komi, Move};
use crate::game::player::Player;
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::square::Square;

mod bot;

pub use self::bot::Nets;
use self::bot::choose;

/// The largest request body read; a longer one is answered 413 unread, so
/// no client can make the server hold much memory.
pub const MAX_BODY: usize = 64 * 1024;

/// The longest think a request may ask for: a timed bot's `ms=` is set to
/// the request's time, at most this, so one click cannot hold a core for
/// long.
pub const MAX_MOVE_MS: u64 = 10_000;

/// How far past its default a spec's counted budget (`iters=`,
/// `playouts=`, `nodes=`, `depth=`) may go. No default is much over a
/// second's search on 7x7 (alphabeta's `nodes=` is about one, the others
/// less), so ten times one stays near [`MAX_MOVE_MS`], the longest timed
/// move, and one click cannot hold a core for long either way.
pub const MAX_BUDGET_FACTOR: u64 = 10;

/// The think time of a request that names none.
pub const DEFAULT_MOVE_MS: u64 = 1000;

/// The bot the page offers first.
pub const DEFAULT_BOT: &str = "mcts";

/// The page served at `/` before the shared board logic is put in.
const PAGE: &str = include_str!("serve/play.html");

/// The page served at `/`: inline style and script, nothing fetched; its
/// board logic is the report viewer's (`study/board.js`).
pub fn page() -> String {
    PAGE.replacen("/*BOARD_JS*/", crate::view::page::BOARD_JS, 1)
}

/// An answer: status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpReply {
    /// HTTP status code.
    pub status: u16,
    /// The `Content-Type` header's value.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl HttpReply {
    fn json(status: u16, v: &serde_json::Value) -> HttpReply {
        HttpReply {
            status,
            content_type: "application/json",
            body: v.to_string(),
        }
    }

    /// A JSON `{"error": message}` with `status`: what every refused
    /// request gets, so the page can show the one line. Messages quote
    /// the client's text (an unknown field's name, say), so control
    /// characters are escaped to keep that line one line.
    pub fn error(status: u16, message: impl Into<String>) -> HttpReply {
        let line = crate::game::text::one_line(&message.into());
        HttpReply::json(status, &json!({ "error": line }))
    }
}

/// Bounds how many of some work run at once: searches, each of which
/// holds a core for its whole think time, and `serve`'s connections, each
/// of which holds a thread. Past the bound the work is refused (503)
/// rather than queued, and the machine stays responsive. Clones share one
/// count.
#[derive(Clone, Debug)]
pub struct Gate {
    running: Arc<AtomicUsize>,
    most: usize,
}

impl Gate {
    /// A gate that lets `most` at once through.
    pub fn new(most: usize) -> Gate {
        Gate {
            running: Arc::new(AtomicUsize::new(0)),
            most,
        }
    }

    /// A place at the gate, or `None` when `most` are already through.
    pub fn enter(&self) -> Option<Pass> {
        let mut n = self.running.load(Ordering::Relaxed);
        loop {
            if n >= self.most {
                return None;
            }
            match self
                .running
                .compare_exchange(n, n + 1, Ordering::AcqRel, Ordering::Relaxed)
            {
                Ok(_) => return Some(Pass(Arc::clone(&self.running))),
                Err(now) => n = now,
            }
        }
    }
}

/// A place at a [`Gate`], given back when dropped (by a panicking holder
/// too). It owns its share of the count, so it can go with a thread.
#[derive(Debug)]
#[must_use = "the place is given back as soon as the pass is dropped"]
pub struct Pass(Arc<AtomicUsize>);

impl Drop for Pass {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The body of `POST /api/budget`: a bot spec and the page's time.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct BudgetRequest {
    bot: String,
    #[serde(default)]
    ms: Option<u64>,
}

/// The page's time of a request, checked.
fn page_ms(ms: Option<u64>) -> Result<u64, HttpReply> {
    let ms = ms.unwrap_or(DEFAULT_MOVE_MS);
    if !(1..=MAX_MOVE_MS).contains(&ms) {
        return Err(bad(format!("ms: {ms} is not 1 to {MAX_MOVE_MS}")));
    }
    Ok(ms)
}

/// `POST /api/budget`: the budget a move of this bot would use, so the
/// page can show it before a game starts.
fn budget(body: &[u8], nets: &Nets) -> Result<HttpReply, HttpReply> {
    let req: BudgetRequest =
        serde_json::from_slice(body).map_err(|e| bad(format!("bad request: {e}")))?;
    let ms = page_ms(req.ms)?;
    let chosen = choose(&builtin_catalog(), nets, &req.bot, ms)?;
    Ok(HttpReply::json(
        200,
        &json!({
            "bot": chosen.label,
            "budget": chosen.budget,
            "budget_from": chosen.from.name(),
        }),
    ))
}

/// The body of `POST /api/move`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    bot: String,
    size: u8,
    holes: Vec<String>,
    #[serde(default)]
    pie: bool,
    #[serde(default)]
    komi: Option<String>,
    moves: Vec<String>,
    /// The seat of the person: `first` (starts as White) or `second`.
    you: String,
    #[serde(default)]
    ms: Option<u64>,
    #[serde(default)]
    seed: Option<u64>,
}

/// Answers one request of a server that offers no named networks.
pub fn handle(method: &str, path: &str, body: &[u8], gate: &Gate) -> HttpReply {
    handle_with(method, path, body, gate, &Nets::default())
}

/// Answers one request.
///
/// `GET /` is the page; `POST /api/move` replays the game in the body and,
/// when the game is not over and the side to move is the bot's, asks the
/// bot for a move; `POST /api/budget` names the budget a bot spec's moves
/// would use; `POST /api/review` reviews the game in the body. Bad input
/// is a 4xx naming what is wrong; a full gate is 503.
pub fn handle_with(method: &str, path: &str, body: &[u8], gate: &Gate, nets: &Nets) -> HttpReply {
    let path = path.split('?').next().unwrap_or("");
    match (path, method) {
        ("/", "GET" | "HEAD") => HttpReply {
            status: 200,
            content_type: "text/html; charset=utf-8",
            body: page(),
        },
        ("/api/move", "POST") => {
            if body.len() > MAX_BODY {
                return too_large();
            }
            play(body, gate, nets).unwrap_or_else(|e| e)
        }
        ("/api/budget", "POST") => {
            if body.len() > MAX_BODY {
                return too_large();
            }
            budget(body, nets).unwrap_or_else(|e| e)
        }
        ("/api/review", "POST") => {
            if body.len() > MAX_BODY {
                return too_large();
            }
            review(body, gate).unwrap_or_else(|e| e)
        }
        ("/" | "/api/move" | "/api/budget" | "/api/review", _) => {
            HttpReply::error(405, format!("{method} {path}: method not allowed"))
        }
        _ => HttpReply::error(404, format!("{path}: no such page")),
    }
}

/// The answer to a body over [`MAX_BODY`].
pub fn too_large() -> HttpReply {
    HttpReply::error(413, format!("request body over {MAX_BODY} bytes"))
}

fn bad(m: impl Into<String>) -> HttpReply {
    HttpReply::error(400, m)
}

/// The request in `body` and its game replayed, with the person's seat
/// (`true` for first).
fn replayed(body: &[u8]) -> Result<(MoveRequest, Game, bool), HttpReply> {
    let req: MoveRequest =
        serde_json::from_slice(body).map_err(|e| bad(format!("bad request: {e}")))?;
    let you_first = match req.you.as_str() {
        "first" => true,
        "second" => false,
        s => return Err(bad(format!("you: '{s}' is not first or second"))),
    };
    let mut holes = Bitboard::EMPTY;
    for h in &req.holes {
        let sq: Square = h.parse().map_err(|e| bad(format!("holes: {e}")))?;
        if !sq.is_on_board(req.size) || holes.contains(sq) {
            return Err(bad(format!(
                "holes: square {h} is off the board or listed twice"
            )));
        }
        holes.insert(sq);
    }
    let komi = match &req.komi {
        None => Komi::ZERO,
        Some(k) => k.parse().map_err(|e| bad(format!("komi: {e}")))?,
    };
    let start = Position::new(req.size, holes, req.pie, komi).map_err(|e| bad(format!("{e}")))?;
    let mut game = Game::new(start);
    for (i, m) in req.moves.iter().enumerate() {
        let mv: Move = m
            .parse()
            .map_err(|_| bad(format!("move {} '{m}' is not a move", i + 1)))?;
        game.try_play(mv)
            .map_err(|e| bad(format!("move {} '{m}' is illegal: {e}", i + 1)))?;
    }
    Ok((req, game, you_first))
}

/// `POST /api/review`: the game of the body reviewed as `pahtum review`
/// does with its defaults (its bot, solve bound and seed), so the page's
/// review is the file that command writes. The answer has `header` and
/// `rows` (review.csv's fields), `csv` (the whole file) and `summary`
/// (the command's line).
fn review(body: &[u8], gate: &Gate) -> Result<HttpReply, HttpReply> {
    use crate::judge::review::{
        DEFAULT_BOT, DEFAULT_EXACT, ReviewConfig, ReviewError, csv_row, csv_text, header,
        review as review_game, solve_limits, summary_line,
    };
    let (_, game, _) = replayed(body)?;
    let catalog = builtin_catalog();
    let spec = catalog
        .parse_unattended(DEFAULT_BOT)
        .map_err(|e| HttpReply::error(500, format!("review bot: {e}")))?;
    let cfg = ReviewConfig {
        catalog: &catalog,
        spec: &spec,
        // `pahtum review`'s default `--seed`, so the page's review is the
        // command's.
        seed: 1,
        exact: DEFAULT_EXACT,
        limits: solve_limits(),
    };
    let _pass = gate.enter().ok_or_else(|| {
        HttpReply::error(503, "the server is busy with other searches; try again")
    })?;
    let rows = review_game(*game.start(), game.moves(), &cfg, |_| {}).map_err(|e| match e {
        ReviewError::Interrupted => HttpReply::error(503, "the server is stopping"),
        e => HttpReply::error(500, format!("review: {e}")),
    })?;
    let fields: Vec<Vec<String>> = rows
        .iter()
        .map(|p| crate::csv_rows::fields(&csv_row(p)))
        .collect();
    Ok(HttpReply::json(
        200,
        &json!({
            "header": header(),
            "rows": fields,
            "csv": csv_text(&rows),
            "summary": summary_line(&rows),
        }),
    ))
}

fn play(body: &[u8], gate: &Gate, nets: &Nets) -> Result<HttpReply, HttpReply> {
    let (req, mut game, you_first) = replayed(body)?;
    let ms = page_ms(req.ms)?;
    let catalog = builtin_catalog();
    let chosen = choose(&catalog, nets, &req.bot, ms)?;
    let seed = req.seed.unwrap_or(1).wrapping_add(req.moves.len() as u64);
    let mut bot = catalog.build(&chosen.build, seed).map_err(|e| {
        if chosen.named_net {
            // The operator's file changed since the start: the message
            // would name it, which is not the client's business.
            HttpReply::error(500, "bot: a network this server offers could not be read")
        } else {
            bad(format!("bot: {e}"))
        }
    })?;
    let mut reply_move = None;
    if !game.is_over() && owner_is_first(game.position()) != you_first {
        let _pass = gate.enter().ok_or_else(|| {
            HttpReply::error(503, "the server is busy with other searches; try again")
        })?;
        let mv = bot
            .select_move(&game)
            .map_err(|e| HttpReply::error(500, format!("bot: {e}")))?;
        game.try_play(mv)
            .map_err(|e| HttpReply::error(500, format!("bot played {mv}: {e}")))?;
        reply_move = Some(mv.to_string());
    }
    let mut answer = state(&game, you_first, &chosen.label, reply_move);
    answer["budget"] = chosen.budget.into();
    answer["budget_from"] = chosen.from.name().into();
    Ok(HttpReply::json(200, &answer))
}

/// Whether the side to move belongs to the first seat (the one that
/// started as White): after a pie swap the seats own the other colours.
fn owner_is_first(pos: &Position) -> bool {
    (pos.turn() == Player::White) != pos.swapped()
}

/// The game as the page shows it, with its `games.csv` row once over.
fn state(game: &Game, you_first: bool, bot: &str, bot_move: Option<String>) -> serde_json::Value {
    let pos = game.position();
    let scores = pos.scores();
    let over = game.is_over();
    let (mut header, mut row) = (String::new(), String::new());
    if over {
        header = games_header();
        let labels = if you_first {
            ["human".to_string(), bot.to_string()]
        } else {
            [bot.to_string(), "human".to_string()]
        };
        let rec = GameRecord {
            game: 0,
            layout: 0,
            holes: pos.holes(),
            first: 0,
            second: 1,
            swapped: pos.swapped(),
            scores,
            outcome: game.outcome(),
            termination: Termination::Normal,
            plies: game.moves().len() as u32,
            ms: Default::default(),
        };
        push_row(&mut row, &rec, game.moves(), &labels);
    }
    json!({
        "move": bot_move,
        "moves": game.moves().iter().map(Move::to_string).collect::<Vec<_>>(),
        "white": scores[Player::White],
        "black": scores[Player::Black],
        "turn": pos.turn().name(),
        "yours": !over && owner_is_first(pos) == you_first,
        "can_swap": pos.can_swap(),
        "over": over,
        "result": if over { Some(game.outcome().name()) } else { None },
        "header": header,
        "row": row.trim_end(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn post(body: &str) -> HttpReply {
        handle("POST", "/api/move", body.as_bytes(), &Gate::new(1))
    }

    fn value(r: &HttpReply) -> serde_json::Value {
        serde_json::from_str(&r.body).unwrap()
    }

    #[test]
    fn the_bot_answers_the_persons_move() {
        let r = post(r#"{"bot":"greedy","size":5,"holes":["a1"],"moves":["c3"],"you":"first"}"#);
        assert_eq!(r.status, 200, "{}", r.body);
        let v = value(&r);
        assert_eq!(v["moves"].as_array().unwrap().len(), 2);
        assert_eq!(v["move"], v["moves"][1]);
        assert_eq!(v["yours"], true);
        assert_eq!(v["over"], false);
    }

    #[test]
    fn a_refusal_quoting_the_client_stays_one_line() {
        // Found by the serve_request fuzz target: serde quotes an unknown
        // field's name, newline and all.
        for path in ["/api/move", "/api/review"] {
            let r = handle("POST", path, br#"{"bo\nt\u0007":1}"#, &Gate::new(1));
            assert_eq!(r.status, 400, "{}", r.body);
            let message = value(&r)["error"].as_str().unwrap().to_string();
            assert!(message.contains("bo\\nt\\u{7}"), "{message}");
            assert!(!message.contains('\n'), "{message:?}");
        }
    }

    #[test]
    fn a_named_network_is_labelled_by_its_name_never_its_file() {
        let mut nets = Nets::default();
        nets.add(&builtin_catalog(), "lines", Path::new("data/lines-7.net"))
            .unwrap();
        // 3x3 with holes on all but a1 b1 c1: the bot's reply ends it.
        let body = r#"{"bot":"learned:net=lines","size":3,"holes":["a2","b2","c2","a3","b3","c3"],"moves":["a1","b1"],"you":"second"}"#;
        let r = handle_with("POST", "/api/move", body.as_bytes(), &Gate::new(1), &nets);
        assert_eq!(r.status, 200, "{}", r.body);
        let row = value(&r)["row"].as_str().unwrap().to_string();
        assert!(row.contains(",learned:net=lines,human,"), "{row}");
        assert!(!r.body.contains("lines-7.net"), "{}", r.body);
    }

    #[test]
    fn the_bot_waits_when_it_is_the_persons_turn() {
        let r = post(r#"{"bot":"greedy","size":5,"holes":[],"moves":[],"you":"first"}"#);
        assert_eq!(r.status, 200);
        assert_eq!(value(&r)["move"], serde_json::Value::Null);
    }

    #[test]
    fn a_finished_game_has_its_row() {
        // 3x3 with holes on all but a1 b1 c1: White a1 c1, Black b1.
        let holes = r#"["a2","b2","c2","a3","b3","c3"]"#;
        let body = format!(
            r#"{{"bot":"greedy","size":3,"holes":{holes},"moves":["a1","b1"],"you":"second"}}"#
        );
        let v = value(&post(&body));
        assert_eq!(v["over"], true);
        assert_eq!(v["result"], "draw");
        assert_eq!(v["header"], games_header());
        let row = v["row"].as_str().unwrap();
        assert!(
            row.starts_with("0,0,a2 b2 c2 a3 b3 c3,greedy,human,0,0,draw,normal,3,a1 b1 "),
            "{row}"
        );
    }

    #[test]
    fn a_game_is_reviewed_as_the_command_would() {
        let holes = r#"["a2","b2","c2","a3","b3","c3"]"#;
        let body = format!(
            r#"{{"bot":"greedy","size":3,"holes":{holes},"moves":["a1","c1","b1"],"you":"first"}}"#
        );
        let r = handle("POST", "/api/review", body.as_bytes(), &Gate::new(1));
        assert_eq!(r.status, 200, "{}", r.body);
        let v = value(&r);
        assert_eq!(v["header"][0], "ply");
        let rows = v["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[2][2], "b1");
        assert_eq!(rows[0].as_array().unwrap().len(), 12);
        assert!(v["csv"].as_str().unwrap().starts_with("ply,mover,move,"));
        assert!(
            v["summary"]
                .as_str()
                .unwrap()
                .starts_with("plies=3 solved=3 "),
            "{}",
            v["summary"]
        );
        let illegal = r#"{"bot":"greedy","size":3,"holes":[],"moves":["a1","a1"],"you":"first"}"#;
        let r = handle("POST", "/api/review", illegal.as_bytes(), &Gate::new(1));
        assert_eq!(r.status, 400);
        assert!(r.body.contains("move 2 'a1' is illegal"), "{}", r.body);
    }

    #[test]
    fn bad_requests_are_4xx_naming_the_problem() {
        let cases = [
            (
                r#"{"bot":"greedy","size":5,"holes":[],"moves":["c3","c3"],"you":"first"}"#,
                "move 2 'c3' is illegal",
            ),
            (
                r#"{"bot":"nosuch","size":5,"holes":[],"moves":[],"you":"first"}"#,
                "unknown bot",
            ),
            (
                r#"{"bot":"mcts:c=x","size":5,"holes":[],"moves":[],"you":"second"}"#,
                "bot:",
            ),
            (
                r#"{"bot":"greedy","size":5,"holes":["z9"],"moves":[],"you":"first"}"#,
                "holes:",
            ),
            (
                r#"{"bot":"greedy","size":5,"holes":[],"moves":[],"you":"first","ms":99999}"#,
                "ms:",
            ),
            (
                r#"{"bot":"human","size":5,"holes":[],"moves":[],"you":"first"}"#,
                "person",
            ),
            (r#"{"bot":"greedy""#, "bad request"),
        ];
        for (body, says) in cases {
            let r = post(body);
            assert_eq!(r.status, 400, "{body}: {}", r.body);
            assert!(r.body.contains(says), "{body}: {}", r.body);
        }
    }

    #[test]
    fn paths_methods_and_sizes_are_checked() {
        let g = Gate::new(1);
        assert_eq!(handle("GET", "/", b"", &g).status, 200);
        assert_eq!(handle("GET", "/nope", b"", &g).status, 404);
        assert_eq!(handle("GET", "/api/move", b"", &g).status, 405);
        assert_eq!(handle("GET", "/api/review", b"", &g).status, 405);
        let big = vec![b' '; MAX_BODY + 1];
        assert_eq!(handle("POST", "/api/move", &big, &g).status, 413);
    }

    #[test]
    fn a_full_gate_refuses_searches() {
        let g = Gate::new(1);
        let _held = g.enter().unwrap();
        let body = r#"{"bot":"greedy","size":5,"holes":[],"moves":["c3"],"you":"first"}"#;
        assert_eq!(handle("POST", "/api/move", body.as_bytes(), &g).status, 503);
        drop(_held);
        assert_eq!(handle("POST", "/api/move", body.as_bytes(), &g).status, 200);
    }

    #[test]
    fn a_gates_clones_share_one_count_and_a_pass_goes_with_its_thread() {
        let g = Gate::new(2);
        let first = g.clone().enter().unwrap();
        let second = g.enter().unwrap();
        assert!(g.clone().enter().is_none());
        std::thread::spawn(move || drop(second)).join().unwrap();
        let third = g.enter().unwrap();
        let panicked = std::thread::spawn(move || {
            let _held = third;
            panic!("a bot that panics gives its place back");
        });
        assert!(panicked.join().is_err());
        drop(first);
        assert!(g.enter().is_some());
        let three = [g.enter(), g.enter(), g.enter()];
        assert_eq!(three.iter().filter(|p| p.is_some()).count(), 2);
    }

    #[test]
    fn the_page_fetches_nothing() {
        let page = page();
        assert!(!page.contains("http://") && !page.contains("https://"));
        assert!(page.contains("PahTumBoard = (") && !page.contains("/*BOARD_JS*/"));
    }
}
