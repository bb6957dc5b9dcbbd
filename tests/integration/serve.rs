//! `pahtum serve` through real sockets: the page, a whole game against
//! `greedy` and its review, the refusals, and Ctrl-C.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

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
    start_with(&[])
}

/// The server with `extra` arguments after `--bind`.
fn start_with(extra: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pahtum"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    err.read_line(&mut line).unwrap();
    // The rest of the server's stderr is shown with a failing test's
    // output, and the server never writes into a closed pipe.
    std::thread::spawn(move || {
        for l in err.lines().map_while(Result::ok) {
            eprintln!("serve: {l}");
        }
    });
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server(child, addr)
}

/// How long a request may wait for its answer before the test fails
/// naming it (instead of waiting forever on a server that never answers).
const ANSWER_LIMIT: Duration = Duration::from_secs(60);

/// Status and body of one request.
fn request(addr: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    request_on(TcpStream::connect(addr).unwrap(), addr, method, path, body)
}

/// Status and body of one request on the open connection `s`.
fn request_on(
    mut s: TcpStream,
    addr: &str,
    method: &str,
    path: &str,
    body: &[u8],
) -> (u16, String) {
    s.set_read_timeout(Some(ANSWER_LIMIT)).unwrap();
    s.set_write_timeout(Some(ANSWER_LIMIT)).unwrap();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    // A server may answer 413 before reading the whole body.
    let _ = s.write_all(body);
    let mut out = String::new();
    if let Err(e) = s.read_to_string(&mut out) {
        panic!("{method} {path}: no whole answer within {ANSWER_LIMIT:?}: {e} (read {out:?})");
    }
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

/// Ctrl-C stops the server with exit status 130 (killed, and the test
/// failed, if it still runs 30 s later).
fn ctrl_c_exits_130(mut server: Server) {
    let pid = server.0.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(
        crate::common::wait_exit(&mut server.0, Duration::from_secs(30)).0,
        Some(130)
    );
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

    ctrl_c_exits_130(server);
}

/// Many searches at once: each is answered, 200 or 503 past the gate,
/// while a connection that never sends its request holds nothing up.
///
/// The 24 connections are all open before any sends its request, and
/// come after a quiet spell that followed many idle connections, as a
/// browser's preconnects and a person's thinking make them: the thread
/// pool of the server crate used before shrank in that spell to one
/// thread, queued the burst behind the idle connection, and answered
/// none of it.
#[test]
fn many_searches_at_once_are_each_answered() {
    let server = start();
    let addr = server.1.clone();
    let idle: Vec<TcpStream> = (0..8)
        .map(|_| {
            std::thread::sleep(Duration::from_millis(50));
            TcpStream::connect(&addr).unwrap()
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    drop(idle);
    std::thread::sleep(Duration::from_millis(6500));
    assert_eq!(request(&addr, "GET", "/", b"").0, 200);

    let idle = TcpStream::connect(&addr).unwrap();
    let body = r#"{"bot":"mcts","size":5,"holes":[],"moves":["c3"],"you":"first","ms":200}"#;
    let burst: Vec<TcpStream> = (0..24)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    let statuses: Vec<u16> = std::thread::scope(|s| {
        let handles: Vec<_> = burst
            .into_iter()
            .map(|c| s.spawn(|| request_on(c, &addr, "POST", "/api/move", body.as_bytes()).0))
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

    ctrl_c_exits_130(server);
}

/// A connection that sends nothing is answered 408 and closed at the
/// server's deadline, one past the bound of connections at once is
/// refused 503 at once, and a request that does not fit is refused with
/// its status, the server going on.
#[test]
fn an_idle_connection_is_closed_and_bad_requests_are_refused() {
    let server = start();
    let addr = server.1.clone();
    let answer_of = |mut s: TcpStream| {
        s.set_read_timeout(Some(ANSWER_LIMIT)).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    };
    let t = std::time::Instant::now();
    let idle: Vec<TcpStream> = (0..64)
        .map(|_| TcpStream::connect(&addr).unwrap())
        .collect();
    // Past the bound of connections at once, the next is refused at once.
    std::thread::sleep(Duration::from_millis(500));
    let out = answer_of(TcpStream::connect(&addr).unwrap());
    assert!(out.starts_with("HTTP/1.1 503 "), "{out:?}");
    for s in idle {
        let out = answer_of(s);
        assert!(out.starts_with("HTTP/1.1 408 "), "{out:?}");
    }
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());

    let sent = |bytes: &[u8]| {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.write_all(bytes).unwrap();
        answer_of(s)
    };
    let out = sent(b"POST /api/move HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    assert!(out.starts_with("HTTP/1.1 411 "), "{out:?}");
    // A refused HEAD has its head and no body.
    let out = sent(b"HEAD / HTTP/2.0\r\n\r\n");
    assert!(out.starts_with("HTTP/1.1 505 "), "{out:?}");
    assert!(
        out.ends_with("\r\n\r\n") && !out.contains("Content-Length: 0"),
        "{out:?}"
    );
    assert_eq!(request(&addr, "HEAD", "/", b"").0, 200);
    assert_eq!(request(&addr, "GET", "/", b"").0, 200);

    ctrl_c_exits_130(server);
}

/// A move's body for `bot` as the bot's first move (the person plays
/// second), with the page's time `ms`.
fn first_move(bot: &str, ms: u64) -> String {
    serde_json::json!({
        "bot": bot, "size": 5, "holes": [], "pie": false, "komi": "0",
        "moves": [], "you": "second", "ms": ms, "seed": 1,
    })
    .to_string()
}

/// The answer to the bot's first move and how long it took.
fn timed_move(addr: &str, bot: &str, ms: u64) -> (u16, serde_json::Value, std::time::Duration) {
    let t = std::time::Instant::now();
    let (status, v) = post(addr, &first_move(bot, ms));
    (status, v, t.elapsed())
}

fn budget_of(addr: &str, bot: &str, ms: u64) -> (u16, serde_json::Value) {
    let body = serde_json::json!({"bot": bot, "ms": ms}).to_string();
    let (status, text) = request(addr, "POST", "/api/budget", body.as_bytes());
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")),
    )
}

#[test]
fn a_bot_spec_keeps_its_own_budget_and_the_page_time_fills_in() {
    let server = start();
    let addr = server.1.clone();

    // The issue's repro: refused before, as `iters=` met the page's `ms=`.
    let (status, v, _) = timed_move(&addr, "mcts:iters=200", 1500);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(
        (v["budget"].as_str(), v["budget_from"].as_str()),
        (Some("iters=200"), Some("bot"))
    );

    // Budgets the spec gives are used, not the page's 5 s.
    for (bot, budget) in [
        ("mcts:ms=50", "ms=50"),
        ("zero:iters=5", "iters=5"),
        ("zero:ms=50", "ms=50"),
        ("flatmc:playouts=50", "playouts=50"),
        ("alphabeta:depth=2", "depth=2,nodes=1000000"),
        ("alphabeta:nodes=500,ms=100", "nodes=500,ms=100"),
    ] {
        let (status, v, took) = timed_move(&addr, bot, 5000);
        assert_eq!(status, 200, "{bot}: {v}");
        assert_eq!(v["budget"], budget, "{bot}: {v}");
        assert_eq!(v["budget_from"], "bot", "{bot}: {v}");
        assert!(
            took.as_millis() < 2500,
            "{bot} took {took:?} with the page at 5000 ms"
        );
        assert_eq!(budget_of(&addr, bot, 5000).1["budget"], budget, "{bot}");
    }

    // A spec without a budget: the page's time where the bot has a time
    // key, else the bot's defaults; a bot that does not search has none.
    for (bot, budget, from) in [
        ("mcts", "ms=300", "page"),
        ("zero", "ms=300", "page"),
        ("alphabeta:tt=4", "ms=300", "page"),
        ("flatmc", "playouts=2000", "default"),
        ("greedy", "", "none"),
        ("learned", "", "none"),
    ] {
        let (status, v) = budget_of(&addr, bot, 300);
        assert_eq!(status, 200, "{bot}: {v}");
        assert_eq!(
            (v["budget"].as_str(), v["budget_from"].as_str()),
            (Some(budget), Some(from)),
            "{bot}: {v}"
        );
    }
    let (status, v, took) = timed_move(&addr, "mcts", 300);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["budget"], "ms=300");
    assert!(took.as_millis() >= 300, "{took:?}");

    // A budget past serve's bounds is refused, naming the key and bound.
    for (bot, says) in [
        ("mcts:ms=20000", "ms=20000: serve thinks 1 to 10000 ms"),
        (
            "mcts:iters=1000000",
            "iters=1000000: serve takes 1 to 200000",
        ),
        ("alphabeta:nodes=0", "nodes=0: serve takes 1 to 10000000"),
        ("alphabeta:ms=0", "ms=0: serve thinks 1 to 10000 ms"),
        (
            "flatmc:playouts=100000000",
            "playouts=100000000: serve takes 1 to 20000",
        ),
        ("mcts:iters=200,ms=50", "give iters= or ms=, not both"),
    ] {
        for (status, v) in [
            post(&addr, &first_move(bot, 1000)),
            budget_of(&addr, bot, 1000),
        ] {
            assert_eq!(status, 400, "{bot}: {v}");
            assert!(v["error"].as_str().unwrap().contains(says), "{bot}: {v}");
        }
    }
}

#[test]
fn clients_name_networks_and_never_files() {
    let server = start();
    let addr = server.1.clone();
    // Every file-valued key, with files that exist, do not exist or are
    // not networks: the same refusal, which says nothing of the file.
    for key in ["learned:net", "mcts:net", "zero:net"] {
        let answers: Vec<String> = [
            "/etc/passwd",
            "/nonexistent",
            "data/lines-7.net",
            "../x",
            "C:\\x",
        ]
        .iter()
        .map(|file| {
            let bot = format!("{key}={file}");
            let (status, v) = post(&addr, &first_move(&bot, 100));
            assert_eq!(status, 400, "{bot}: {v}");
            assert_eq!(budget_of(&addr, &bot, 100).0, 400, "{bot}");
            let e = v["error"].as_str().unwrap().to_string();
            for leak in [
                "os error",
                "No such file",
                "header",
                "network '",
                "cannot read",
            ] {
                assert!(!e.contains(leak), "{bot}: {e}");
            }
            e.replace(file, "FILE")
        })
        .collect();
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
        assert!(answers[0].contains("--net NAME=FILE"), "{answers:?}");
    }
    assert_eq!(
        post(&addr, &first_move("mcts:net=builtin,iters=50", 100)).0,
        200
    );
}

#[test]
fn a_key_the_named_network_cannot_take_is_the_clients_400_naming_the_network() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bare.safetensors");
    std::fs::write(&file, pahtum::net::PvNet::random(8, 1, 8, 1).to_bytes()).unwrap();
    let net = format!("bare={}", file.to_str().unwrap());
    let server = start_with(&["--net", &net]);
    let addr = server.1.clone();
    let (status, v) = post(&addr, &first_move("zero:net=bare,score=0.2,iters=5", 100));
    assert_eq!(status, 400, "{v}");
    let e = v["error"].as_str().unwrap();
    assert!(e.starts_with("bot: ") && e.contains("margin head"), "{e}");
    assert!(e.contains("net=bare") && !e.contains("safetensors"), "{e}");
    let (status, v) = post(&addr, &first_move("zero:net=bare,iters=5", 100));
    assert_eq!(status, 200, "{v}");
}

#[test]
fn networks_named_at_the_start_are_played_by_name() {
    let server = start_with(&[
        "--net",
        "lines=data/lines-7.net",
        "--net",
        "pv=data/zero-7.safetensors",
    ]);
    let addr = server.1.clone();
    for bot in [
        "learned:net=lines",
        "mcts:net=lines,iters=50",
        "zero:net=pv,iters=5",
    ] {
        let (status, v) = post(&addr, &first_move(bot, 100));
        assert_eq!(status, 200, "{bot}: {v}");
        assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{bot}: {v}");
    }
    // A name for a network of the other kind, or a path to the same file.
    for bot in [
        "zero:net=lines",
        "learned:net=pv",
        "zero:net=data/zero-7.safetensors",
    ] {
        let (status, v) = post(&addr, &first_move(bot, 100));
        assert_eq!(status, 400, "{bot}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(e.contains("not a network this server offers"), "{bot}: {e}");
        assert!(
            !e.contains("safetensors") || bot.contains("safetensors"),
            "{bot}: {e}"
        );
    }
    let (_, v) = post(&addr, &first_move("zero:net=lines", 100));
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("(offered: builtin, pv)"),
        "{v}"
    );

    // A bad --net is a usage error naming it, before anything listens.
    for (net, says) in [
        (
            "x=/nonexistent",
            "--net x=/nonexistent: /nonexistent is not a network any bot reads",
        ),
        ("x", "--net x: expected NAME=FILE"),
        (
            "builtin=data/lines-7.net",
            "--net builtin=data/lines-7.net: name 'builtin'",
        ),
        (
            "a/b=data/lines-7.net",
            "--net a/b=data/lines-7.net: name 'a/b'",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_pahtum"))
            .args(["serve", "--bind", "127.0.0.1:0", "--net", net])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{net}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(says) && !err.contains("listening"),
            "{net}: {err}"
        );
    }
    let twice = Command::new(env!("CARGO_BIN_EXE_pahtum"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--net",
            "a=data/lines-7.net",
            "--net",
            "a=data/lines-7.net",
        ])
        .output()
        .unwrap();
    assert_eq!(twice.status.code(), Some(2));
}
