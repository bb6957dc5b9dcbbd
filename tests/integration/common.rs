//! Helpers shared by the integration tests that run `pahtum` and external
//! engines as processes.

// Some helpers serve only the modules a feature turns on (`train`), so a
// build without it leaves them unused; they are not dead.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use pahtum::{Player, Position};

/// The `pahtum` binary Cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_pahtum");

/// Runs `pahtum exact ARGS --out OUT --quiet`.
pub fn exact(args: &[&str], out: &Path) -> Output {
    Command::new(BIN)
        .arg("exact")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .output()
        .expect("runs")
}

/// Runs `pahtum` with `args` and no input; its exit status and output.
pub fn pahtum(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run pahtum")
}

/// Runs `pahtum` with `args`, `input` on its stdin (a command that exits
/// before reading all of it is no failure here).
pub fn pahtum_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pahtum");
    let mut stdin = child.stdin.take().expect("stdin");
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("wait for pahtum")
}

/// The start of a tournament of random against greedy; the caller adds
/// more bots or `--games` and the rest.
pub const TOURNAMENT_RANDOM_GREEDY: [&str; 5] =
    ["tournament", "--bot", "random", "--bot", "greedy"];

/// The start of a quick `sprt` of greedy against random from `--elo0 0`;
/// the caller adds `--elo1` and the game cap.
pub const SPRT_GREEDY_RANDOM: [&str; 7] = ["sprt", "--a", "greedy", "--b", "random", "--elo0", "0"];

/// The end of a quick `sprt` from `--elo0 0` to `--elo1 5`, capped at
/// ten games; the caller puts the bots first.
pub const SPRT_TEN_GAMES: [&str; 6] = ["--elo0", "0", "--elo1", "5", "--max-games", "10"];

/// Starts `cmd` with stdout dropped and stderr kept for the test to read,
/// and gives it 700 ms to get well into its work, so that a signal sent
/// next lands during the search, not before it.
pub fn start_busy(cmd: &mut Command) -> std::process::Child {
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    std::thread::sleep(Duration::from_millis(700));
    child
}

/// A `review` into `out` of two moves by a bot that would think for
/// minutes over each: a run to interrupt.
pub fn endless_review(out: &Path) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(["review", "--moves", "d4 c3", "--layout", "a1", "--quiet"])
        .args(["--bot", "mcts:iters=100000000", "--out"])
        .arg(out);
    cmd
}

/// The start of a `sweep` of greedy's `block` against random; the caller
/// adds `--games` and the rest.
pub const SWEEP_BLOCK: [&str; 7] = [
    "sweep",
    "--bot",
    "greedy",
    "--param",
    "block=0,1",
    "--vs",
    "random",
];

/// `a` then `b` as one array (`N` must be `A + B`), so that a test's
/// argument consts can start from the shared ones above.
pub const fn joined<const A: usize, const B: usize, const N: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; N] {
    assert!(A + B == N, "joined: N must be A + B");
    let mut out = [""; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// Runs `pahtum` with `args`, which must succeed; its stdout.
pub fn ok(args: &[&str]) -> String {
    let o = pahtum(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    text(&o.stdout)
}

/// Runs `pahtum` with `args`, which must be refused as bad input: exit 2,
/// nothing on stdout, one line on stderr; that line.
pub fn refused(args: &[&str]) -> String {
    let o = pahtum(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(o.stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

/// Bytes of an output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The text of file `p`; panics naming it.
pub fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A CSV file's text without its timing columns (those whose names end
/// in `_ms`), which are the only ones that may differ between two runs of
/// the same command.
pub fn without_ms(text: &str) -> String {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let keep: Vec<bool> = header.iter().map(|h| !h.ends_with("_ms")).collect();
    std::iter::once(header.join(","))
        .chain(lines.map(|l| {
            l.split(',')
                .zip(&keep)
                .filter(|(_, k)| **k)
                .map(|(f, _)| f)
                .collect::<Vec<_>>()
                .join(",")
        }))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `p` as an argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Waits for `child` up to `limit`; kills it (and fails) if it outlives it.
pub fn wait_exit(child: &mut Child, limit: Duration) -> (Option<i32>, Duration) {
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return (status.code(), t0.elapsed());
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` to process `pid`, as `kill -SIG pid` would.
#[cfg(unix)]
pub fn send(pid: u32, signal: nix::sys::signal::Signal) {
    let pid = nix::unistd::Pid::from_raw(i32::try_from(pid).expect("a pid"));
    nix::sys::signal::kill(pid, signal).expect("signal");
}

/// Plain minimax, no pruning, no table: the value of `pos` for the player
/// to move in half points, komi included. The reference the solver and the
/// studies built on it are checked against.
pub fn minimax(pos: &mut Position) -> i32 {
    if pos.is_game_over() {
        let m = pos.margin_halves();
        return if pos.turn() == Player::White { m } else { -m };
    }
    let mut best = i32::MIN;
    for sq in pos.legal_moves() {
        pos.play(sq);
        best = best.max(-minimax(pos));
        pos.undo_unchecked(sq);
    }
    best
}

/// `path` (relative to the crate root) as an absolute path, so that engine
/// command lines work whatever directory the test runs in.
pub fn repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// Pids of live processes whose command line contains `tag`, the test
/// process itself aside: it is never one of the processes looked for.
pub fn processes_with(tag: &str) -> Vec<u32> {
    let mut pids = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return pids;
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline"))
            && String::from_utf8_lossy(&cmd).contains(tag)
        {
            pids.push(pid);
        }
    }
    pids
}

/// Waits until some process carries `tag`; panics with "engine never
/// started" after `limit` (an engine started by a child process appears
/// only after a while).
pub fn wait_for_process(tag: &str, limit: Duration) {
    let t0 = Instant::now();
    while processes_with(tag).is_empty() {
        assert!(t0.elapsed() < limit, "engine never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits (briefly) until no process carries `tag`: a killed process may
/// linger for a moment before it is gone from /proc.
pub fn assert_none_left(tag: &str) {
    let t0 = Instant::now();
    while !processes_with(tag).is_empty() {
        assert!(
            t0.elapsed() < Duration::from_secs(3),
            "processes left behind: {:?}",
            processes_with(tag)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Wilson 95 % interval of a proportion `p` over `n` trials, for the
/// strength measurements' reports.
pub fn wilson(p: f64, n: u32) -> (f64, f64) {
    let n = n as f64;
    let z = 1.959_964;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}

/// A `pahtum engine --bot BOT` session driven command by command.
pub struct Served {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Served {
    /// Starts `pahtum engine --bot bot`.
    pub fn start(bot: &str) -> Served {
        let mut child = Command::new(BIN)
            .args(["engine", "--bot", bot])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start pahtum engine");
        let stdin = child.stdin.take();
        let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        Served {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends `cmd` and returns its answer, which must be a success: the
    /// text after `=`, its lines joined, trimmed.
    pub fn ask(&mut self, cmd: &str) -> String {
        use std::io::BufRead;
        let stdin = self.stdin.as_mut().expect("stdin");
        writeln!(stdin, "{cmd}").expect("write");
        stdin.flush().expect("flush");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).expect("read") > 0,
                "{cmd}: eof"
            );
            if line.trim().is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        assert!(answer.starts_with('='), "{cmd}: {answer}");
        answer[1..].trim().to_string()
    }

    /// Closes its input and waits for it to exit.
    pub fn finish(mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}
