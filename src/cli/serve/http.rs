//! `serve`'s HTTP/1.1 on std sockets: one thread per connection, one
//! request per connection, every read under a deadline.
//!
//! Why not a server crate's thread pool: the pool of the small synchronous
//! server used before could queue new connections behind a connection
//! that never sent its request (a browser's speculative preconnect, say),
//! and then answered nothing at all until restarted. Here each connection
//! has its own thread, bounded in number by the caller, and a connection
//! that does not send its whole request within [`REQUEST_DEADLINE`] is
//! answered 408 and closed, so an idle or slow client only ever holds its
//! own thread, and only for a while. The request head is parsed by
//! `httparse`; the answer is always `Connection: close`, which is all a
//! page of a few requests a game needs.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::view::serve::{HttpReply, MAX_BODY, too_large};

/// How long a client has, from when its connection's thread starts
/// reading, to send its whole request (head and body). Past it the request
/// is answered 408.
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(10);

/// How long one write of the answer may block on a client that does not
/// read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// How long, after the answer, what the client still sends is read and
/// dropped before the connection closes.
const DRAIN_LIMIT: Duration = Duration::from_secs(1);

/// The longest request head read; a longer one is answered 431.
pub const MAX_HEAD: usize = 16 * 1024;

/// The most header lines a head may have.
const MAX_HEADERS: usize = 64;

/// A request read off a connection.
#[derive(Debug, PartialEq, Eq)]
pub struct Request {
    /// The method, as sent (`GET`, `POST`, ...).
    pub method: String,
    /// The request target, as sent (path and query).
    pub path: String,
    /// The body, at most [`MAX_BODY`] bytes.
    pub body: Vec<u8>,
}

/// A request that could not be read, and how to refuse it.
#[derive(Debug)]
pub struct Refused {
    /// The answer: 400, 408, 411, 413, 417, 431 or 505.
    pub reply: HttpReply,
    /// Whether the request was a HEAD, whose answer has no body even when
    /// it refuses.
    pub head_only: bool,
}

/// Reads one request from `stream` within `deadline` of now, or the answer
/// that refuses it when it cannot be read. An HTTP/1.1 client that says
/// `Expect: 100-continue` is told to go on before its body is read.
pub fn read_request(stream: &mut TcpStream, deadline: Duration) -> Result<Request, Refused> {
    let mut buf = Vec::with_capacity(1024);
    read_into(stream, deadline, &mut buf).map_err(|reply| Refused {
        reply,
        head_only: request_line(&buf).starts_with(b"HEAD "),
    })
}

/// What `buf` holds from its request line on: the empty lines a client
/// may send before it are skipped, as the parser skips them.
fn request_line(buf: &[u8]) -> &[u8] {
    let at = buf
        .iter()
        .position(|b| !matches!(b, b'\r' | b'\n'))
        .unwrap_or(buf.len());
    &buf[at..]
}

/// [`read_request`], reading into `buf`, which keeps the request's head
/// (or what came of it) for the refusal.
fn read_into(
    stream: &mut TcpStream,
    deadline: Duration,
    buf: &mut Vec<u8>,
) -> Result<Request, HttpReply> {
    let until = Instant::now() + deadline;
    let head = loop {
        if let Some(head) = parse_head(buf)? {
            break head;
        }
        if buf.len() > MAX_HEAD {
            return Err(HttpReply::error(
                431,
                format!("request head over {MAX_HEAD} bytes"),
            ));
        }
        read_some(stream, buf, until)?;
    };
    if head.length > MAX_BODY {
        return Err(too_large());
    }
    let mut body = buf.split_off(head.len);
    if head.expect_continue && body.len() < head.length {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    while body.len() < head.length {
        read_some(stream, &mut body, until)?;
    }
    // Bytes past the declared length (a pipelined request) are not read:
    // the connection closes after this answer.
    body.truncate(head.length);
    Ok(Request {
        method: head.method,
        path: head.path,
        body,
    })
}

/// A request head, parsed.
struct Head {
    /// Its length in bytes, the blank line included.
    len: usize,
    method: String,
    path: String,
    /// The body's declared length (0 when none is declared).
    length: usize,
    /// Whether the client waits for `100 Continue` before its body.
    expect_continue: bool,
}

/// The head in `buf` once it is whole; `None` while more is needed.
fn parse_head(buf: &[u8]) -> Result<Option<Head>, HttpReply> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let len = match req.parse(buf) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(HttpReply::error(
                431,
                format!("more than {MAX_HEADERS} header lines"),
            ));
        }
        // The parser takes HTTP/1.0 and 1.1 only: another HTTP version is
        // 505, a request line that is no HTTP at all 400.
        Err(httparse::Error::Version) if request_line_is_http(buf) => {
            return Err(HttpReply::error(505, "only HTTP/1.0 and 1.1 are served"));
        }
        Err(e) => return Err(HttpReply::error(400, format!("bad request head: {e}"))),
    };
    let mut length: Option<usize> = None;
    let mut expect_continue = false;
    for h in req.headers.iter() {
        let value = String::from_utf8_lossy(h.value);
        let value = value.trim();
        if h.name.eq_ignore_ascii_case("content-length") {
            // Digits only (Rust's parser would take `+5`), and two lengths
            // that differ are a malformed request (RFC 9112 6.3).
            let n = value
                .bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| value.parse::<usize>().ok())
                .flatten()
                .ok_or_else(|| {
                    HttpReply::error(400, format!("Content-Length: '{value}' is not a length"))
                })?;
            if length.is_some_and(|l| l != n) {
                return Err(HttpReply::error(
                    400,
                    "two Content-Length headers that differ",
                ));
            }
            length = Some(n);
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(HttpReply::error(
                411,
                "a body must come with Content-Length, not Transfer-Encoding",
            ));
        } else if h.name.eq_ignore_ascii_case("expect") {
            if !value.eq_ignore_ascii_case("100-continue") {
                return Err(HttpReply::error(
                    417,
                    format!("Expect: '{value}' is not met"),
                ));
            }
            // An HTTP/1.0 client does not wait for it (RFC 9110 10.1.1).
            expect_continue = req.version == Some(1);
        }
    }
    Ok(Some(Head {
        len,
        method: req.method.unwrap_or_default().to_string(),
        path: req.path.unwrap_or_default().to_string(),
        length: length.unwrap_or(0),
        expect_continue,
    }))
}

/// Whether the request line in `buf` ends in an HTTP version, whatever
/// its number.
fn request_line_is_http(buf: &[u8]) -> bool {
    let line = request_line(buf)
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or_default();
    line.split(|&b| b == b' ')
        .nth(2)
        .is_some_and(|v| v.starts_with(b"HTTP/"))
}

/// Appends what `stream` has to `buf`, waiting at most until `until`.
fn read_some(stream: &mut TcpStream, buf: &mut Vec<u8>, until: Instant) -> Result<(), HttpReply> {
    let timed_out = || HttpReply::error(408, "the request did not come in time");
    let left = until
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or_else(timed_out)?;
    stream
        .set_read_timeout(Some(left))
        .map_err(|e| HttpReply::error(400, format!("cannot read the request: {e}")))?;
    let mut chunk = [0u8; 4096];
    match stream.read(&mut chunk) {
        Ok(0) => Err(HttpReply::error(
            400,
            "the client closed before its request ended",
        )),
        Ok(n) => {
            buf.extend_from_slice(&chunk[..n]);
            Ok(())
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Err(timed_out())
        }
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(()),
        Err(e) => Err(HttpReply::error(
            400,
            format!("cannot read the request: {e}"),
        )),
    }
}

/// Writes `reply` and closes; a HEAD request's answer has no body. A
/// client that went away is no fault of the server's, so errors are
/// dropped.
pub fn respond(mut stream: TcpStream, reply: &HttpReply, head_only: bool) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    if stream.write_all(&answer_bytes(reply, head_only)).is_ok() {
        let _ = stream.flush();
        // Unread request bytes at close would make the kernel reset the
        // connection, and a client could lose the answer before reading it:
        // what the client still sends is read and dropped, but for at most
        // DRAIN_LIMIT and MAX_BODY bytes, so a slow sender cannot keep the
        // thread.
        let _ = stream.shutdown(std::net::Shutdown::Write);
        let until = Instant::now() + DRAIN_LIMIT;
        let mut sink = [0u8; 4096];
        let mut drained = 0;
        while drained < MAX_BODY {
            let Some(left) = until
                .checked_duration_since(Instant::now())
                .filter(|d| !d.is_zero())
            else {
                break;
            };
            let _ = stream.set_read_timeout(Some(left.min(Duration::from_millis(200))));
            match stream.read(&mut sink) {
                Ok(n) if n > 0 => drained += n,
                _ => break,
            }
        }
    }
}

/// Writes `reply` without reading the request or waiting on the client,
/// and closes: the answer of a server already at its bound of
/// connections, which must not spend a thread or the accepting loop's
/// time on one more. A client whose request is still unread may see the
/// connection reset instead of the answer.
pub fn refuse_at_once(stream: TcpStream, reply: &HttpReply) {
    let _ = stream.set_nonblocking(true);
    let _ = (&stream).write_all(&answer_bytes(reply, false));
    let _ = stream.shutdown(std::net::Shutdown::Both);
}

/// The whole answer: status line, headers and (unless `head_only`) body.
fn answer_bytes(reply: &HttpReply, head_only: bool) -> Vec<u8> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        reply.status,
        reason(reply.status),
        reply.content_type,
        reply.body.len()
    );
    let mut out = head.into_bytes();
    if !head_only {
        out.extend_from_slice(reply.body.as_bytes());
    }
    out
}

/// The reason phrase of the statuses `serve` answers with.
fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        417 => "Expectation Failed",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// A connected pair: what the client writes, the server reads.
    fn pair() -> (TcpStream, TcpStream) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (server, _) = l.accept().unwrap();
        (client, server)
    }

    fn read_after(client_sends: &[&[u8]], deadline: Duration) -> Result<Request, Refused> {
        let (mut client, mut server) = pair();
        for part in client_sends {
            client.write_all(part).unwrap();
            std::thread::sleep(Duration::from_millis(5));
        }
        read_request(&mut server, deadline)
    }

    #[test]
    fn a_request_in_pieces_is_read_whole() {
        let r = read_after(
            &[
                b"POST /api/move?x=1 HTTP/1.1\r\nHost: h\r\nconTent-length: 5\r",
                b"\n\r\nab",
                b"cde",
            ],
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(
            r,
            Request {
                method: "POST".into(),
                path: "/api/move?x=1".into(),
                body: b"abcde".to_vec()
            }
        );
        let r = read_after(&[b"GET / HTTP/1.0\r\n\r\n"], Duration::from_secs(5)).unwrap();
        assert_eq!((r.method.as_str(), r.body.len()), ("GET", 0));
    }

    #[test]
    fn a_client_that_sends_nothing_is_answered_408_at_the_deadline() {
        let (_client, mut server) = pair();
        let t = Instant::now();
        let e = read_request(&mut server, Duration::from_millis(200)).unwrap_err();
        assert_eq!((e.reply.status, e.head_only), (408, false));
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        // Half a body is no better.
        let e = read_after(
            &[b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc"],
            Duration::from_millis(200),
        )
        .unwrap_err();
        assert_eq!((e.reply.status, e.head_only), (408, false));
    }

    #[test]
    fn bad_heads_are_refused_with_their_status() {
        let d = Duration::from_secs(5);
        let big = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY + 1
        );
        let long = format!("GET / HTTP/1.1\r\nX: {}", "a".repeat(MAX_HEAD + 10));
        let many: String = (0..MAX_HEADERS + 1)
            .map(|i| format!("X{i}: 1\r\n"))
            .collect();
        let many = format!("GET / HTTP/1.1\r\n{many}\r\n");
        let cases: [(&[u8], u16); 10] = [
            (b"NOT HTTP AT ALL\r\n\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
            (b"POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\nabcde", 400),
            (
                b"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
                400,
            ),
            (big.as_bytes(), 413),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                411,
            ),
            (
                b"POST / HTTP/1.1\r\nExpect: something\r\nContent-Length: 1\r\n\r\na",
                417,
            ),
            (b"GET / HTTP/2.0\r\n\r\n", 505),
            (long.as_bytes(), 431),
            (many.as_bytes(), 431),
        ];
        for (head, want) in cases {
            let got = read_after(&[head], d).unwrap_err();
            assert_eq!(
                (got.reply.status, got.head_only),
                (want, false),
                "{}: {got:?}",
                String::from_utf8_lossy(head)
            );
        }
        // A HEAD is answered without a body, refused or not.
        let head = format!(
            "HEAD / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY + 1
        );
        for (head, want) in [
            (head.as_bytes(), 413),
            (b"HEAD / HTTP/2.0\r\n\r\n", 505),
            (b"\r\nHEAD / HTTP/2.0\r\n\r\n", 505),
        ] {
            let got = read_after(&[head], d).unwrap_err();
            assert_eq!((got.reply.status, got.head_only), (want, true), "{got:?}");
        }
        // The client closing early is a 400 nobody will read, not a wait.
        let (client, mut server) = pair();
        drop(client);
        assert_eq!(read_request(&mut server, d).unwrap_err().reply.status, 400);
    }

    #[test]
    fn a_client_that_expects_100_continue_is_told_to_go_on() {
        let (mut client, mut server) = pair();
        client
            .write_all(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            .unwrap();
        let reader = std::thread::spawn(move || read_request(&mut server, Duration::from_secs(5)));
        let mut got = [0u8; 25];
        client.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"HTTP/1.1 100 Continue\r\n\r\n");
        client.write_all(b"hi").unwrap();
        assert_eq!(reader.join().unwrap().unwrap().body, b"hi");
    }

    #[test]
    fn a_client_that_keeps_sending_after_the_answer_is_cut_off() {
        let (mut client, server) = pair();
        let sender = std::thread::spawn(move || {
            let mut sent = 0;
            while sent < 100 && client.write_all(b"x").is_ok() {
                std::thread::sleep(Duration::from_millis(50));
                sent += 1;
            }
        });
        let t = Instant::now();
        respond(server, &HttpReply::error(413, "too large"), false);
        assert!(
            t.elapsed() < DRAIN_LIMIT + Duration::from_secs(2),
            "{:?}",
            t.elapsed()
        );
        sender.join().unwrap();
    }

    #[test]
    fn the_same_length_twice_is_one_and_http_1_0_is_not_told_to_go_on() {
        let r = read_after(
            &[b"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nab"],
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(r.body, b"ab");
        let (mut client, mut server) = pair();
        client
            .write_all(b"POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
            .unwrap();
        let reader = std::thread::spawn(move || read_request(&mut server, Duration::from_secs(5)));
        std::thread::sleep(Duration::from_millis(100));
        client.write_all(b"hi").unwrap();
        assert_eq!(reader.join().unwrap().unwrap().body, b"hi");
        client
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        let mut got = [0u8; 1];
        assert!(
            !matches!(client.read(&mut got), Ok(n) if n > 0),
            "told to go on: {got:?}"
        );
    }

    #[test]
    fn a_refusal_at_once_is_a_whole_answer() {
        let (mut client, server) = pair();
        refuse_at_once(server, &HttpReply::error(503, "busy"));
        let mut out = String::new();
        client.read_to_string(&mut out).unwrap();
        assert!(
            out.starts_with("HTTP/1.1 503 Service Unavailable\r\n"),
            "{out}"
        );
        assert!(out.ends_with(r#"{"error":"busy"}"#), "{out}");
    }

    #[test]
    fn the_answer_has_its_length_and_closes_and_head_has_no_body() {
        for head_only in [false, true] {
            let (mut client, server) = pair();
            respond(server, &HttpReply::error(404, "x: no such page"), head_only);
            let mut out = String::new();
            client.read_to_string(&mut out).unwrap();
            let (head, body) = out.split_once("\r\n\r\n").unwrap();
            assert!(head.starts_with("HTTP/1.1 404 Not Found\r\n"), "{head}");
            assert!(head.contains("Connection: close"), "{head}");
            assert!(head.contains("Content-Type: application/json"), "{head}");
            let json = r#"{"error":"x: no such page"}"#;
            assert!(
                head.contains(&format!("Content-Length: {}", json.len())),
                "{head}"
            );
            assert_eq!(body, if head_only { "" } else { json });
        }
    }
}
