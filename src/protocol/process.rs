//! One running engine: its pipes, an answer reader with a deadline, and the
//! tail of what it wrote on stderr.
//!
//! Reading with a deadline: a thread reads the engine's stdout line by line
//! into a bounded channel, and [`EngineProcess::command`] waits on that
//! channel with `recv_timeout`. A hung engine thus costs the caller exactly
//! the timeout; the process is then killed, which closes the pipe and ends
//! the reader thread. A second thread keeps the last lines of stderr.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::children;
use super::wire::parse_answer_line;
use crate::bot::BotFault;

/// Longest line kept from an engine; the rest of a longer line is dropped,
/// so an engine printing without newlines cannot exhaust memory.
const MAX_LINE: usize = 64 * 1024;
/// Lines of stderr kept for the log.
const STDERR_LINES: usize = 40;
/// Characters kept of each stderr line.
const STDERR_LINE_CHARS: usize = 500;
/// Lines of stdout buffered ahead of the reader: an engine that floods
/// stdout blocks on its pipe instead of growing our memory.
const CHANNEL_LINES: usize = 1024;
/// How often a wait for an engine's answer looks at the interrupt flag.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// How long a polite `quit` may take before the engine is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);

enum Line {
    Text(String),
    Eof,
    Failed(String),
}

/// An engine's answer to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `=` (true) or `?` (false).
    pub ok: bool,
    /// The text after `=` or `?` (and the id, if any) on the answer's
    /// first line.
    pub text: String,
}

/// A started engine. Dropping it kills the engine (and its process group)
/// and reaps it; [`EngineProcess::close`] first asks it to `quit`.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_done: Receiver<()>,
    killed: bool,
}

impl EngineProcess {
    /// Starts `argv` (program, then arguments; no shell involved) with
    /// piped stdin, stdout and stderr, registered with [`children`].
    ///
    /// # Errors
    /// The program could not be started.
    pub fn spawn(argv: &[String]) -> io::Result<EngineProcess> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::other("empty engine command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = children::spawn(&mut cmd)?;
        let (stdin, stdout, stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    children::kill(&mut child);
                    return Err(io::Error::other("engine pipes missing"));
                }
            };
        let (tx, lines) = sync_channel(CHANNEL_LINES);
        thread::Builder::new()
            .name(format!("engine-{}-stdout", child.id()))
            .spawn(move || read_stdout(stdout, tx))?;
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done_tx, stderr_done) = sync_channel(1);
        let tail2 = Arc::clone(&tail);
        thread::Builder::new()
            .name(format!("engine-{}-stderr", child.id()))
            .spawn(move || {
                read_stderr(stderr, &tail2);
                let _ = done_tx.send(());
            })?;
        Ok(EngineProcess {
            child,
            stdin: Some(stdin),
            lines,
            stderr: tail,
            stderr_done,
            killed: false,
        })
    }

    /// Whether the engine has exited (checked without waiting).
    pub fn has_exited(&mut self) -> bool {
        self.killed || !matches!(self.child.try_wait(), Ok(None))
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends `command` and waits up to `timeout` for the first line of its
    /// answer. Blank lines and the rest of earlier multi-line answers are
    /// skipped first.
    ///
    /// # Errors
    /// [`BotFault::Crash`] if the engine is gone (closed stdout, exited,
    /// broken pipe), [`BotFault::Timeout`] if no answer came in time (the
    /// engine is then killed), [`BotFault::Illegal`] if the answer is not an
    /// answer (garbage).
    pub fn command(&mut self, command: &str, timeout: Duration) -> Result<Answer, BotFault> {
        // Lines already waiting belong to earlier answers (their blank
        // terminator, continuation lines); they are not this answer. Bounded,
        // so an engine flooding its output cannot keep us here.
        for _ in 0..CHANNEL_LINES {
            if !matches!(self.lines.try_recv(), Ok(Line::Text(_))) {
                break;
            }
        }
        let deadline = Instant::now() + timeout;
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{command}").and_then(|_| stdin.flush()),
            None => Err(io::Error::other("engine input closed")),
        };
        if let Err(e) = sent {
            return Err(BotFault::Crash(format!(
                "cannot send '{command}' ({e}){}",
                self.exit_note()
            )));
        }
        loop {
            // The wait is sliced so that an interrupted run stops waiting
            // (and kills the engine) within a slice, however long the
            // move timeout.
            if crate::interrupt::requested() {
                self.kill();
                return Err(BotFault::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let slice = left.min(INTERRUPT_POLL);
            match self.lines.recv_timeout(slice) {
                Ok(Line::Text(line)) => {
                    if line.trim().is_empty() {
                        continue;
                    }
                    return match parse_answer_line(&line) {
                        Some((ok, text)) => Ok(Answer {
                            ok,
                            text: text.to_string(),
                        }),
                        None => Err(BotFault::Illegal(format!(
                            "garbage instead of an answer to '{command}': '{}'",
                            shorten(&line, 80)
                        ))),
                    };
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(BotFault::Crash(format!(
                        "engine closed its output during '{command}'{}",
                        self.exit_note()
                    )));
                }
                Ok(Line::Failed(e)) => {
                    return Err(BotFault::Crash(format!(
                        "cannot read the answer to '{command}': {e}"
                    )));
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => {}
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(BotFault::Timeout(format!(
                        "no answer to '{command}' within {} ms",
                        timeout.as_millis()
                    )));
                }
            }
        }
    }

    /// `, exit status N` once the engine has exited (waiting briefly for
    /// it), else nothing.
    fn exit_note(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(100);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!(", {status}"),
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => return String::new(),
            }
        }
    }

    /// The last lines the engine wrote on stderr, oldest first. After the
    /// engine died, waits briefly for the reader to drain the pipe.
    pub fn stderr_tail(&self) -> Vec<String> {
        if self.killed {
            let _ = self.stderr_done.recv_timeout(Duration::from_millis(200));
        }
        self.stderr
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Kills the engine's process group now and reaps it.
    pub fn kill(&mut self) {
        if !self.killed {
            self.killed = true;
            self.stdin = None;
            children::kill(&mut self.child);
        }
    }

    /// Ends the engine politely: `quit`, closed input, a short grace period,
    /// then [`EngineProcess::kill`] (which also removes any processes it
    /// left in its group).
    pub fn close(mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit").and_then(|_| stdin.flush());
        }
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Cuts `s` to `n` characters, marking the cut.
pub fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push_str("...");
        t
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes (the rest is skipped),
/// without its line ending, invalid UTF-8 replaced; `None` at the end of
/// input.
pub(crate) fn read_capped_line(r: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, found) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = found.unwrap_or(buf.len());
        r.consume(used);
        if found.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(String::from_utf8_lossy(&line).into_owned()))
}

fn read_stdout(stdout: impl Read, tx: SyncSender<Line>) {
    let mut r = BufReader::new(stdout);
    loop {
        let msg = match read_capped_line(&mut r) {
            Ok(Some(l)) => Line::Text(l),
            Ok(None) => Line::Eof,
            Err(e) => Line::Failed(e.to_string()),
        };
        let last = !matches!(msg, Line::Text(_));
        // A send fails once the process handle is gone: stop reading.
        if tx.send(msg).is_err() || last {
            return;
        }
    }
}

fn read_stderr(stderr: impl Read, tail: &Mutex<VecDeque<String>>) {
    let mut r = BufReader::new(stderr);
    while let Ok(Some(line)) = read_capped_line(&mut r) {
        let Ok(mut t) = tail.lock() else { return };
        if t.len() == STDERR_LINES {
            t.pop_front();
        }
        t.push_back(shorten(&line, STDERR_LINE_CHARS));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capped_lines() {
        let long = "x".repeat(MAX_LINE + 10);
        let input = format!("a\r\n\n{long}\nlast");
        let mut r = BufReader::with_capacity(16, input.as_bytes());
        let mut got = Vec::new();
        while let Some(l) = read_capped_line(&mut r).expect("read") {
            got.push(l);
        }
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], "a");
        assert_eq!(got[1], "");
        assert_eq!(got[2].len(), MAX_LINE);
        assert_eq!(got[3], "last");
    }

    #[test]
    fn shortens() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdef", 3), "abc...");
    }

    #[cfg(unix)]
    #[test]
    fn talks_times_out_and_dies() {
        let sh = |script: &str| vec!["sh".to_string(), "-c".to_string(), script.to_string()];
        let t = Duration::from_secs(5);
        let mut p = EngineProcess::spawn(&sh(
            "while read -r l; do case $l in hang) sleep 30;; bye) echo oops >&2; exit 3;; \
             junk) echo junk;; *) printf '= %s\\n\\n' \"$l\";; esac; done",
        ))
        .expect("spawn");
        assert_eq!(
            p.command("hi", t),
            Ok(Answer {
                ok: true,
                text: "hi".into()
            })
        );
        assert!(matches!(p.command("junk", t), Err(BotFault::Illegal(_))));
        match p.command("bye", t) {
            Err(BotFault::Crash(m)) => assert!(m.contains("exit status: 3"), "{m}"),
            other => panic!("expected a crash, got {other:?}"),
        }
        p.kill();
        assert_eq!(p.stderr_tail(), vec!["oops".to_string()]);
        let mut p = EngineProcess::spawn(&sh("read -r l; sleep 30")).expect("spawn");
        let t0 = Instant::now();
        assert!(matches!(
            p.command("x", Duration::from_millis(100)),
            Err(BotFault::Timeout(_))
        ));
        assert!(t0.elapsed() < Duration::from_secs(5));
    }
}
