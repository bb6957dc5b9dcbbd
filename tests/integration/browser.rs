//! The report page in a real browser: headless Chromium opens a small
//! tournament's `report.html#game=N&ply=end`, and the DOM after its script
//! ran must show games.csv's final scores in the viewer, summary.csv's
//! crosstable, the evaluation graph of the game `report --review`
//! reviewed with its blunders marked (a click on a mark steps the viewer
//! to its ply), and no script error; a screenshot is left in
//! `target/screenshots/report.png`. The `serve` page, opened
//! on a game in progress, must show the bot's reply it fetched
//! (`target/screenshots/serve.png`); a whole game against `greedy` is
//! played on it by mouse clicks, its final scores checked against
//! `pahtum score`, its games.csv row and its review against the
//! commands' (`target/screenshots/serve-game.png`).
//!
//! Ignored by a plain `cargo test` (it needs a browser); `.ci/run` installs
//! Debian's chromium where it is missing and runs it with `--ignored`, or
//! prints `browser: skipped: REASON` where none can be installed. Run with
//! `--ignored`, a missing browser fails it rather than passing unrun.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{TOURNAMENT_RANDOM_GREEDY, ok, read};

/// The browser: `$PAHTUM_CHROMIUM`, else the first of Debian's names on
/// the PATH.
fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("PAHTUM_CHROMIUM") {
        return p.into();
    }
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        let found = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .map(|d| d.join(name))
            .find(|p| p.is_file());
        if let Some(p) = found {
            return p;
        }
    }
    panic!("no chromium on the PATH (apt-get install chromium, or set PAHTUM_CHROMIUM)");
}

fn headless(page: &Path, hash: &str, extra: &[&str]) -> String {
    headless_url(&format!("file://{}#{hash}", page.display()), extra)
}

/// The flags of every browser run: headless, nothing fetched or synced in
/// the background; each run adds a fresh `--user-data-dir`, so runs in
/// parallel tests never share a profile.
const QUIET_FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
];

fn headless_url(url: &str, extra: &[&str]) -> String {
    let profile = tempfile::tempdir().expect("profile directory");
    let out = Command::new(chromium())
        .args(QUIET_FLAGS)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--virtual-time-budget=5000")
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium starts");
    assert!(
        out.status.success(),
        "chromium {url}: {}",
        common::text(&out.stderr)
    );
    common::text(&out.stdout)
}

/// Where a screenshot named `name` goes (`target/screenshots/`), with no
/// earlier one left there.
fn screenshot_path(name: &str) -> PathBuf {
    let shots =
        PathBuf::from(std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into()))
            .join("screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join(name);
    let _ = std::fs::remove_file(&shot);
    shot
}

/// The text of the element with id `id` in a DOM dump.
fn by_id<'a>(dom: &'a str, id: &str) -> &'a str {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let start = at + dom[at..].find('>').unwrap() + 1;
    &dom[start..start + dom[start..].find('<').unwrap()]
}

#[test]
#[ignore = "needs chromium; .ci/run runs it"]
fn the_viewer_shows_games_csv_scores_and_the_page_has_no_script_error() {
    let dir = std::env::temp_dir().join(format!("pahtum-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    ok(&[
        &TOURNAMENT_RANDOM_GREEDY[..],
        &[
            "--games",
            "6",
            "--threads",
            "2",
            "--quiet",
            "--out",
            common::s(&dir),
        ],
    ]
    .concat());
    ok(&["report", common::s(&dir), "--review", "--review-game", "3"]);
    let page = dir.join("report.html");
    let review = read(&dir.join("review-3/review.csv"));
    let marks = |verdict: &str| {
        review
            .lines()
            .filter(|l| l.contains(&format!(",{verdict},")))
            .count()
    };
    let dom = headless(&page, "game=3&ply=10", &["--dump-dom"]);
    assert_eq!(by_id(&dom, "errors"), "", "script errors, game 3");
    assert!(
        dom.contains("id=\"viewer-eval-graph\""),
        "no evaluation graph"
    );
    for verdict in ["blunder", "inaccuracy"] {
        assert_eq!(
            dom.matches(&format!("class=\"{verdict}\" data-ply="))
                .count(),
            marks(verdict),
            "a mark per {verdict} of review-3/review.csv"
        );
    }
    assert!(dom.contains("class=\"at-ply\""), "the graph marks ply 10");
    let games = read(&dir.join("games.csv"));
    for line in games.lines().skip(1).step_by(2) {
        let f: Vec<&str> = line.split(',').collect();
        let dom = headless(&page, &format!("game={}&ply=end", f[0]), &["--dump-dom"]);
        assert_eq!(by_id(&dom, "errors"), "", "script errors, game {}", f[0]);
        assert_eq!(by_id(&dom, "viewer-white-score"), f[5], "game {}", f[0]);
        assert_eq!(by_id(&dom, "viewer-black-score"), f[6], "game {}", f[0]);
        assert!(
            dom.contains("id=\"viewer-check\" class=\"ok\""),
            "game {}",
            f[0]
        );
        assert_eq!(
            dom.contains("id=\"viewer-eval-graph\""),
            f[0] == "3",
            "only the reviewed game has a graph, game {}",
            f[0]
        );
        for r in read(&dir.join("summary.csv")).lines().skip(1) {
            let r: Vec<&str> = r.split(',').collect();
            let rate: f64 = r[6].parse().expect("score_rate");
            let cell = format!(
                "data-bot=\"{}\" data-opp=\"{}\">{:.1}% <small>",
                r[0],
                r[1],
                100.0 * rate
            );
            assert!(dom.contains(&cell), "crosstable lacks {cell}");
        }
    }
    let shot = screenshot_path("report.png");
    headless(
        &page,
        "game=3&ply=end",
        &[
            "--window-size=1280,1600",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "no screenshot"
    );
    // A mouse click on a mark of the graph steps the viewer to its ply.
    let mut b = Cdp::launch(
        &format!("file://{}#game=3&ply=end", page.display()),
        1280,
        1000,
    );
    b.wait_for(
        "document.readyState === 'complete' && !!document.getElementById('viewer-eval-graph')",
        std::time::Duration::from_secs(20),
    );
    let mark = "#viewer-eval-graph circle[data-ply]";
    let ply = b.eval(&format!(
        "(() => {{ const c = document.querySelector({mark:?}); return c ? c.dataset.ply : null; }})()"
    ));
    if let Some(ply) = ply.as_str() {
        b.click(mark);
        b.wait_for(
            &format!("document.getElementById('viewer-ply').textContent.startsWith('ply {ply} /')"),
            std::time::Duration::from_secs(5),
        );
    } else {
        assert_eq!(marks("blunder") + marks("inaccuracy"), 0, "no mark drawn");
    }
    drop(b);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The game viewer draws the bots' own evaluations from `moves.csv`, one
/// line for each bot, beside a review or without one.
#[test]
#[ignore = "needs chromium; .ci/run runs it"]
fn the_viewer_draws_each_bots_own_evaluation() {
    let dir = std::env::temp_dir().join(format!("pahtum-bot-eval-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    ok(&[
        "tournament",
        "--bot",
        "mcts:iters=40",
        "--bot",
        "flatmc:playouts=40",
        "--games",
        "2",
        "--pie",
        "--seed",
        "3",
        "--quiet",
        "--out",
        common::s(&dir),
    ]);
    ok(&["report", common::s(&dir)]);
    let page = dir.join("report.html");
    for game in ["0", "1"] {
        let dom = headless(&page, &format!("game={game}&ply=12"), &["--dump-dom"]);
        assert_eq!(by_id(&dom, "errors"), "", "script errors, game {game}");
        assert!(
            dom.contains("id=\"viewer-bot-eval-graph\""),
            "no graph of the bots' evaluations, game {game}"
        );
        for owner in ["white", "black"] {
            assert!(
                dom.contains(&format!("class=\"bot-{owner}\"")),
                "no line for the bot that ends as {owner}, game {game}"
            );
        }
        assert!(
            !dom.contains("id=\"viewer-eval-graph\""),
            "no review, no review graph"
        );
    }
    let shot = screenshot_path("bot-eval.png");
    headless(
        &page,
        "game=1&ply=20",
        &[
            "--window-size=1280,1600",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `serve` page in the browser: opened on a game where the person
/// has played c3, its script asks the server for the bot's reply and
/// shows it; a screenshot is left in `target/screenshots/serve.png`.
#[test]
#[ignore = "needs chromium; .ci/run runs it"]
fn the_serve_page_shows_the_bots_reply() {
    let (server, addr) = serve();
    let url = format!("http://{addr}/#bot=greedy&size=5&holes=a1,e5&moves=c3&you=first");
    let dom = headless_url(&url, &["--dump-dom"]);
    let shot = screenshot_path("serve.png");
    headless_url(
        &url,
        &[
            "--window-size=1200,900",
            &format!("--screenshot={}", shot.display()),
        ],
    );
    drop(server);
    let moves = by_id(&dom, "moves");
    let played: Vec<&str> = moves
        .trim_start_matches("moves:")
        .split_whitespace()
        .collect();
    assert_eq!(played.len(), 2, "the bot's reply after c3: {moves:?}");
    assert_eq!(played[0], "c3");
    assert!(by_id(&dom, "status").contains("your move"), "{dom}");
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "no screenshot"
    );
}

/// A headless Chromium driven over the DevTools protocol (its
/// `--remote-debugging-port` websocket), attached to its one page: what
/// a test needs to click like a person, read the DOM and take a
/// screenshot, without a driver program. The browser is killed when this
/// is dropped.
struct Cdp {
    ws: tungstenite::WebSocket<std::net::TcpStream>,
    session: String,
    next: u64,
    child: std::process::Child,
    _profile: tempfile::TempDir,
}

/// How long one protocol answer may take before the test fails, so a
/// hung browser fails it rather than hanging it.
const CDP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

impl Cdp {
    /// Starts the browser on `url` in a window of `width` x `height`.
    fn launch(url: &str, width: u32, height: u32) -> Cdp {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        let profile = tempfile::tempdir().expect("profile directory");
        let mut child = Command::new(chromium())
            .args(QUIET_FLAGS)
            .arg("--remote-debugging-port=0")
            .arg(format!("--window-size={width},{height}"))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        // The browser names its websocket on stderr; the rest of stderr is
        // drained so that it never blocks on a full pipe.
        let stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(at) = line.find("ws://") {
                    let _ = tx.send(line[at..].trim().to_string());
                }
            }
        });
        let Ok(ws_url) = rx.recv_timeout(CDP_TIMEOUT) else {
            let _ = child.kill();
            panic!("chromium named no DevTools websocket within {CDP_TIMEOUT:?}");
        };
        let addr = ws_url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let stream = std::net::TcpStream::connect(&addr).expect("connect to DevTools");
        stream.set_read_timeout(Some(CDP_TIMEOUT)).unwrap();
        let (ws, _) = tungstenite::client(ws_url.as_str(), stream).expect("DevTools handshake");
        let mut cdp = Cdp {
            ws,
            session: String::new(),
            next: 0,
            child,
            _profile: profile,
        };
        let deadline = std::time::Instant::now() + CDP_TIMEOUT;
        let target = loop {
            let targets = cdp.call("Target.getTargets", serde_json::json!({}));
            let page = targets["targetInfos"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|t| t["type"] == "page")
                .map(|t| t["targetId"].as_str().unwrap().to_string());
            match page {
                Some(id) => break id,
                None if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                None => panic!("chromium opened no page"),
            }
        };
        let attached = cdp.call(
            "Target.attachToTarget",
            serde_json::json!({"targetId": target, "flatten": true}),
        );
        cdp.session = attached["sessionId"].as_str().unwrap().to_string();
        cdp
    }

    /// Sends `method` (to the page once attached) and waits for its
    /// answer, past the events that come first; its `result`.
    fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.next += 1;
        let id = self.next;
        let mut msg = serde_json::json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = self.session.clone().into();
        }
        self.ws
            .send(tungstenite::Message::text(msg.to_string()))
            .expect("send to DevTools");
        loop {
            let m = self.ws.read().expect("DevTools answers");
            let Ok(text) = m.to_text() else { continue };
            let v: serde_json::Value = serde_json::from_str(text).expect("DevTools JSON");
            if v["id"] == id {
                assert!(v["error"].is_null(), "{method}: {}", v["error"]);
                return v["result"].clone();
            }
        }
    }

    /// The value of the script `expr` (a promise is awaited); a script
    /// error fails the test.
    fn eval(&mut self, expr: &str) -> serde_json::Value {
        let r = self.call(
            "Runtime.evaluate",
            serde_json::json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(
            r["exceptionDetails"].is_null(),
            "{expr}: {}",
            r["exceptionDetails"]
        );
        r["result"]["value"].clone()
    }

    /// Waits until the script `cond` is true, failing after `limit`.
    fn wait_for(&mut self, cond: &str, limit: std::time::Duration) {
        let deadline = std::time::Instant::now() + limit;
        while self.eval(cond) != serde_json::Value::Bool(true) {
            assert!(
                std::time::Instant::now() < deadline,
                "not true within {limit:?}: {cond}\npage: {}",
                self.eval("document.body.innerText")
            );
            std::thread::sleep(std::time::Duration::from_millis(30));
        }
    }

    /// A left click as a mouse makes it, at page coordinates (x, y).
    fn click_at(&mut self, x: f64, y: f64) {
        for (kind, buttons) in [("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)] {
            self.call(
                "Input.dispatchMouseEvent",
                serde_json::json!({"type": kind, "x": x, "y": y, "button": "left",
                                   "buttons": buttons, "clickCount": 1}),
            );
        }
    }

    /// A mouse click on the middle of the element `selector`, scrolled
    /// into view first.
    fn click(&mut self, selector: &str) {
        let r = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.scrollIntoView({{block: 'center'}}); \
             const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        self.click_at(r[0].as_f64().unwrap(), r[1].as_f64().unwrap());
    }

    /// A PNG of the whole page, below the window's edge too, written to
    /// `path`.
    fn screenshot(&mut self, path: &Path) {
        let size =
            self.call("Page.getLayoutMetrics", serde_json::json!({}))["cssContentSize"].clone();
        let r = self.call(
            "Page.captureScreenshot",
            serde_json::json!({"format": "png", "captureBeyondViewport": true,
                               "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}}),
        );
        std::fs::write(path, base64(r["data"].as_str().unwrap())).unwrap();
    }
}

impl Drop for Cdp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64 decoded (the screenshot's encoding).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// A running `pahtum serve`, stopped when dropped, so a failed check
/// leaves no server behind.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `pahtum serve` on a free port; the server and its address.
fn serve() -> (Server, String) {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(common::BIN)
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pahtum serve");
    let stderr = child.stderr.take().expect("stderr");
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stderr)
        .read_line(&mut line)
        .expect("address line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .map(|s| s.trim().to_string());
    let Some(addr) = addr else {
        panic!("no address in {line:?}");
    };
    (server, addr)
}

/// The board of `holes` and `moves` (no swap) of size `n` in the text of
/// docs/RULES.md, rank `n` first.
fn board_text(n: usize, holes: &[&str], moves: &[String]) -> String {
    let mut cells = vec![vec!['.'; n]; n];
    let at = |s: &str| {
        let b = s.as_bytes();
        (
            usize::from(b[0] - b'a'),
            s[1..].parse::<usize>().unwrap() - 1,
        )
    };
    for h in holes {
        let (f, r) = at(h);
        cells[r][f] = '#';
    }
    for (k, m) in moves.iter().enumerate() {
        let (f, r) = at(m);
        cells[r][f] = if k % 2 == 0 { 'W' } else { 'B' };
    }
    cells
        .iter()
        .rev()
        .map(|row| row.iter().collect::<String>() + "\n")
        .collect()
}

/// A whole game against `greedy` on the `serve` page, every move of the
/// person a real mouse click (`Input.dispatchMouseEvent`) on the middle
/// of a free square of the board: the final scores the page shows are
/// `pahtum score`'s of the final board, the games.csv row that its button
/// shows and its link saves has them and the moves, and its review button
/// draws the graph of the review `pahtum review` makes of the same moves.
#[test]
#[ignore = "needs chromium; .ci/run runs it"]
fn a_whole_game_against_greedy_is_clicked_through_on_the_serve_page() {
    use std::time::Duration;
    const N: usize = 5;
    let holes = ["a1", "e5"];
    let (server, addr) = serve();
    let url = format!(
        "http://{addr}/#bot=greedy&size={N}&holes={}&you=first&seed=7",
        holes.join(",")
    );
    let mut b = Cdp::launch(&url, 1200, 1000);
    let moves_now = |b: &mut Cdp| -> Vec<String> {
        b.eval("document.getElementById('moves').textContent")
            .as_str()
            .unwrap()
            .trim_start_matches("moves:")
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let status = "document.getElementById('status').textContent";
    b.wait_for(
        "document.readyState === 'complete' && !!document.getElementById('status')",
        Duration::from_secs(20),
    );
    b.wait_for(
        &format!("{status}.includes('your move')"),
        Duration::from_secs(20),
    );
    // The squares in an order that wanders over the board (7 is prime to
    // 25), the first free one clicked each turn.
    let order: Vec<(usize, usize)> = (0..N * N)
        .map(|i| (i * 7 + 3) % (N * N))
        .map(|k| (k % N, k / N))
        .collect();
    for turn in 0..N * N {
        let played = moves_now(&mut b);
        let name = |(f, r): (usize, usize)| format!("{}{}", (b'a' + f as u8) as char, r + 1);
        let Some(&sq) = order
            .iter()
            .find(|&&sq| !holes.contains(&name(sq).as_str()) && !played.contains(&name(sq)))
        else {
            panic!("turn {turn}: no free square, yet the page waits for a move");
        };
        // The square's middle in page coordinates, through the board's
        // own transform (its grid is 100 x 100 units).
        let (f, r) = (sq.0 as f64, sq.1 as f64);
        let cell = 100.0 / N as f64;
        let at = b.eval(&format!(
            "(() => {{ const b = document.getElementById('board'); const p = b.createSVGPoint(); \
             p.x = {}; p.y = {}; const q = p.matrixTransform(b.getScreenCTM()); return [q.x, q.y]; }})()",
            (f + 0.5) * cell,
            (N as f64 - r - 0.5) * cell
        ));
        b.click_at(at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        let before = played.len();
        b.wait_for(
            &format!(
                "(() => {{ const m = document.getElementById('moves').textContent.split(' ').length - 1; \
                 const s = {status}; return s.includes('game over') ? m >= {} : m >= {} && s.includes('your move'); }})()",
                before + 1,
                before + 2
            ),
            Duration::from_secs(20),
        );
        assert_eq!(
            moves_now(&mut b)[before],
            name(sq),
            "the click played its square"
        );
        if b.eval(&format!("{status}.includes('game over')")) == serde_json::Value::Bool(true) {
            break;
        }
    }
    let moves = moves_now(&mut b);
    assert_eq!(moves.len(), N * N - holes.len(), "the game fills the board");
    let text = |b: &mut Cdp, id: &str| {
        b.eval(&format!("document.getElementById('{id}').textContent"))
            .as_str()
            .unwrap()
            .to_string()
    };
    let (white, black) = (text(&mut b, "white-score"), text(&mut b, "black-score"));
    let board = board_text(N, &holes, &moves);
    let scored = common::pahtum_with_input(&["score"], board.as_bytes());
    assert!(scored.status.success());
    assert_eq!(
        common::text(&scored.stdout).trim(),
        format!("{white} {black}"),
        "the page's scores of\n{board}"
    );
    let said = text(&mut b, "status");
    assert!(
        said.contains(&format!("({white} to {black}")),
        "status: {said}"
    );

    // The games.csv row: shown by its button, saved by its link.
    b.click("#show-csv");
    b.wait_for(
        "!document.getElementById('csv').hidden",
        Duration::from_secs(5),
    );
    let csv = b
        .eval("document.getElementById('csv').value")
        .as_str()
        .unwrap()
        .to_string();
    let saved = b
        .eval("decodeURIComponent(document.getElementById('save-csv').href.split(',').slice(1).join(','))")
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(saved, csv, "the link saves what the button shows");
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!((col("white"), col("black")), ("human", "greedy"));
    assert_eq!(
        (col("white_score"), col("black_score")),
        (white.as_str(), black.as_str())
    );
    assert_eq!(col("moves"), moves.join(" "));
    assert_eq!(col("holes"), holes.join(" "));

    // The review: one click, the graph drawn, the command's summary line.
    b.click("#review-game");
    b.wait_for(
        "document.getElementById('review-summary').textContent.startsWith('review: plies=')",
        Duration::from_secs(60),
    );
    let summary = text(&mut b, "review-summary");
    let out = tempfile::tempdir().unwrap();
    let own = common::ok(&[
        "review",
        "--moves",
        &moves.join(" "),
        "--layout",
        &holes.join(","),
        "--size",
        &N.to_string(),
        "--quiet",
        "--out",
        common::s(out.path()),
    ]);
    assert_eq!(summary, format!("review: {}", own.trim()));
    let dots = b.eval("document.querySelectorAll('#review-svg circle').length");
    let marked = common::read(&out.path().join("review.csv"))
        .lines()
        .filter(|l| l.contains(",blunder,") || l.contains(",inaccuracy,"))
        .count();
    assert_eq!(
        dots,
        serde_json::json!(marked),
        "a dot per blunder and inaccuracy"
    );
    assert_eq!(
        b.eval("document.getElementById('review-svg').querySelectorAll('polyline').length"),
        serde_json::json!(1)
    );
    assert_eq!(text(&mut b, "error"), "");
    let shot = screenshot_path("serve-game.png");
    b.screenshot(&shot);
    drop(b);
    drop(server);
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "no screenshot"
    );
}

/// The `serve` page names the budget a move will use beside the time
/// field, from the server (`POST /api/budget`): the bot spec's own
/// budget, else the time per move, updated as the bot field is typed
/// in. A refused bot spec leaves its error and no "thinking..." for good.
/// Screenshots are left in `target/screenshots/serve-budget.png` and
/// `serve-refused.png`.
#[test]
#[ignore = "needs chromium; .ci/run runs it"]
fn the_serve_page_shows_the_budget_used_and_a_refusal_clears_thinking() {
    use std::time::Duration;
    let (server, addr) = serve();
    let text = |b: &mut Cdp, id: &str| {
        b.eval(&format!("document.getElementById('{id}').textContent"))
            .as_str()
            .unwrap()
            .to_string()
    };
    let url = format!("http://{addr}/#bot=mcts:iters=200&ms=1500&size=5&holes=a1,e5&you=second");
    let mut b = Cdp::launch(&url, 1200, 900);
    b.wait_for(
        "document.readyState === 'complete' && !!document.getElementById('status') \
         && document.getElementById('status').textContent.includes('your move')",
        Duration::from_secs(20),
    );
    b.wait_for(
        "document.getElementById('budget').textContent !== ''",
        Duration::from_secs(20),
    );
    assert_eq!(text(&mut b, "budget"), "iters=200 (the bot spec's)");
    assert_eq!(text(&mut b, "error"), "");
    let shot = screenshot_path("serve-budget.png");
    b.screenshot(&shot);
    assert!(
        std::fs::metadata(&shot).unwrap().len() > 10_000,
        "no screenshot"
    );

    // Typing another spec in the bot field names its budget.
    let typed = |b: &mut Cdp, spec: &str| {
        b.eval(&format!(
            "(() => {{ const e = document.getElementById('bot'); e.value = {spec:?}; \
             e.dispatchEvent(new Event('input')); return true; }})()"
        ));
    };
    for (spec, shown) in [
        ("mcts", "ms=1500 (the time per move)"),
        ("zero:iters=5", "iters=5 (the bot spec's)"),
        ("flatmc", "playouts=2000 (the bot's default)"),
        ("greedy", "none: the bot does not search"),
    ] {
        typed(&mut b, spec);
        b.wait_for(
            &format!("document.getElementById('budget').textContent === {shown:?}"),
            Duration::from_secs(20),
        );
    }

    // A refused spec: its error is shown, for the budget and the game,
    // and the status does not stay "thinking...".
    typed(&mut b, "mcts:iters=x");
    b.wait_for(
        "document.getElementById('budget').className === 'refused'",
        Duration::from_secs(20),
    );
    assert!(text(&mut b, "budget").contains("iters=x"));
    b.click("#start");
    b.wait_for(
        "document.getElementById('error').textContent.startsWith('bot:')",
        Duration::from_secs(20),
    );
    std::thread::sleep(Duration::from_millis(300));
    let status = text(&mut b, "status");
    assert!(!status.contains("thinking"), "{status}");
    b.screenshot(&screenshot_path("serve-refused.png"));
    drop(b);
    drop(server);
}
