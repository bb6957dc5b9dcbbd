//! `pahtum serve` through real sockets: the page, a whole game against
//! `greedy` and its review, the refusals, and Ctrl-C.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use pahtum::game::bitboard::Bitboard;
use pahtum::game::outcome::{Komi, Move};
use pahtum::game::player::Player;
use pahtum::game::position::Position;
use pahtum::game::square::Square;

/// The server, killed if a test fails before its Ctrl-C.
struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start() -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pahtum"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server(child, addr)
}

/// Status and body of one request.
fn request(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // A server may answer 413 before reading the whole body.
    let _ = s.write_all(body);
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let status = out
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {out:?}"));
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn post(addr: &str, body: &str) -> (u16, serde_json::Value) {
    let (status, text) = request(addr, "POST", "/api/move", body.as_bytes());
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
    )
}

fn game_body(moves: &[String]) -> String {
    serde_json::json!({
        "bot": "greedy", "size": 5, "holes": ["a1", "e5"], "moves": moves,
        "you": "first", "ms": 100,
    })
    .to_string()
}

#[test]
fn serves_a_game_and_refuses_bad_requests() {
    let server = start();
    let addr = server.1.clone();

    let (status, page) = request(&addr, "GET", "/", b"");
    assert_eq!(status, 200);
    assert!(page.contains("<svg") && !page.contains("http://") && !page.contains("https://"));

    // A whole game: the person takes the first free square each turn.
    let mut moves: Vec<String> = Vec::new();
    let end = loop {
        let (status, v) = post(&addr, &game_body(&moves));
        assert_eq!(status, 200, "{v}");
        moves = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        if v["over"] == true {
            break v;
        }
        assert_eq!(v["yours"], true, "{v}");
        let taken: Vec<&str> = moves.iter().map(String::as_str).collect();
        let free = ["a", "b", "c", "d", "e"]
            .iter()
            .flat_map(|f| (1..=5).map(move |r| format!("{f}{r}")))
            .find(|sq| sq != "a1" && sq != "e5" && !taken.contains(&sq.as_str()))
            .unwrap();
        moves.push(free);
    };
    assert_eq!(moves.len(), 23);
    let mut holes = Bitboard::EMPTY;
    for h in ["a1", "e5"] {
        holes.insert(h.parse::<Square>().unwrap());
    }
    let mut pos = Position::new(5, holes, false, Komi::ZERO).unwrap();
    for m in &moves {
        pos.try_play_move(m.parse::<Move>().unwrap()).unwrap();
    }
    let scores = pos.scores();
    assert_eq!(end["white"], scores[Player::White]);
    assert_eq!(end["black"], scores[Player::Black]);
    assert_eq!(end["result"], pos.outcome().name());
    let row = end["row"].as_str().unwrap();
    assert!(
        row.starts_with(&format!(
            "0,0,a1 e5,human,greedy,{},{},{},normal,23,",
            scores[Player::White],
            scores[Player::Black],
            pos.outcome().name()
        )),
        "{row}"
    );

    // Its review is the command's.
    let (status, text) = request(&addr, "POST", "/api/review", game_body(&moves).as_bytes());
    assert_eq!(status, 200, "{text}");
    let review: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(review["rows"].as_array().unwrap().len(), 23);
    let out = std::env::temp_dir().join(format!("pahtum-serve-review-{}", std::process::id()));
    let own = Command::new(env!("CARGO_BIN_EXE_pahtum"))
        .args([
            "review",
            "--moves",
            &moves.join(" "),
            "--layout",
            "a1,e5",
            "--size",
            "5",
        ])
        .args(["--quiet", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(own.status.success());
    assert_eq!(
        review["summary"].as_str().unwrap(),
        String::from_utf8_lossy(&own.stdout).trim()
    );
    assert_eq!(
        review["csv"].as_str().unwrap(),
        std::fs::read_to_string(out.join("review.csv")).unwrap()
    );
    std::fs::remove_dir_all(&out).unwrap();

    let mut illegal = moves[..2].to_vec();
    illegal.push(moves[0].clone());
    let (status, v) = post(&addr, &game_body(&illegal));
    assert_eq!(status, 400);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains(&format!("move 3 '{}' is illegal", moves[0])),
        "{v}"
    );

    let (status, v) = post(
        &addr,
        r#"{"bot":"mcts:iters=x","size":5,"holes":[],"moves":[],"you":"second"}"#,
    );
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().starts_with("bot:"), "{v}");

    let big = vec![b' '; 70 * 1024];
    assert_eq!(request(&addr, "POST", "/api/move", &big).0, 413);
    assert_eq!(request(&addr, "GET", "/nope", b"").0, 404);
    assert_eq!(request(&addr, "DELETE", "/", b"").0, 405);

    // Many searches at once: each is answered, 200 or 503 past the gate,
    // while a connection that never sends its request holds nothing up.
    let idle = TcpStream::connect(&addr).unwrap();
    let body = r#"{"bot":"mcts","size":5,"holes":[],"moves":["c3"],"you":"first","ms":200}"#;
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..24)
            .map(|_| s.spawn(|| request(&addr, "POST", "/api/move", body.as_bytes()).0))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(
        statuses.iter().all(|&c| c == 200 || c == 503),
        "{statuses:?}"
    );
    assert!(statuses.contains(&200), "{statuses:?}");
    assert_eq!(request(&addr, "GET", "/", b"").0, 200);
    drop(idle);

    let mut server = server;
    let pid = server.0.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(server.0.wait().unwrap().code(), Some(130));
}
