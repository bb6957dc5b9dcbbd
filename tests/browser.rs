//! The report page in a real browser: headless Chromium opens a small
//! tournament's `report.html#game=N&ply=end`, and the DOM after its script
//! ran must show games.csv's final scores in the viewer, summary.csv's
//! crosstable, and no script error; a screenshot is left in
//! `target/screenshots/report.png`. The `serve` page, opened on a game in
//! progress, must show the bot's reply it fetched
//! (`target/screenshots/serve.png`).
//!
//! Ignored by a plain `cargo test` (it needs a browser); `.ci/run` installs
//! Debian's chromium where it is missing and runs it with `--ignored`, or
//! prints `browser: skipped: REASON` where none can be installed. Run with
//! `--ignored`, a missing browser fails it rather than passing unrun.

mod common;

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

fn headless_url(url: &str, extra: &[&str]) -> String {
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
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
    ok(&["report", common::s(&dir)]);
    let page = dir.join("report.html");
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
        for r in read(&dir.join("summary.csv")).lines().skip(1) {
            let r: Vec<&str> = r.split(',').collect();
            let cell = format!(
                "data-bot=\"{}\" data-opp=\"{}\">{} <small>",
                r[0], r[1], r[6]
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
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The `serve` page in the browser: opened on a game where the person
/// has played c3, its script asks the server for the bot's reply and
/// shows it; a screenshot is left in `target/screenshots/serve.png`.
#[test]
#[ignore = "needs chromium; .ci/run runs it"]
fn the_serve_page_shows_the_bots_reply() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(common::BIN)
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pahtum serve");
    let mut line = String::new();
    BufReader::new(child.stderr.take().expect("stderr"))
        .read_line(&mut line)
        .expect("address line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .map(|s| s.trim().to_string());
    let Some(addr) = addr else {
        let _ = child.kill();
        panic!("no address in {line:?}");
    };
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
    let _ = child.kill();
    let _ = child.wait();
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
