//! `pahtum serve`: play a bot in the browser (docs/CONTRACT.md "Seeing
//! runs"; the requests are answered by [`crate::view::serve`]).

use std::io::Read;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::Args;

use super::common::install_exit;
use super::error::{CliResult, usage};
use crate::view::serve::{HttpReply, MAX_BODY, Nets, SearchGate, handle_with, too_large};

/// Requests handled at once, searches or not. Past it a request is
/// answered 503 at once, so a flood of connections costs a thread each up
/// to this bound and no more.
pub const MAX_REQUESTS: usize = 64;

/// Arguments of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free one). Beyond 127.0.0.1, anyone who can reach it can make this machine search
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// A network the page may name as `net=NAME` (e.g. `zero:net=NAME`), read now from FILE; repeatable. Clients name networks, never files
    #[arg(long, value_name = "NAME=FILE")]
    pub net: Vec<String>,
}

/// Runs `serve` until Ctrl-C (exit 130).
///
/// # Errors
/// A bad `--bind` address or one that cannot be bound, or a `--net` that
/// is not `NAME=FILE` of a network some bot reads (exit 2).
pub fn run(a: ServeArgs) -> CliResult {
    let catalog = crate::bot::builtin_catalog();
    let mut nets = Nets::default();
    for n in &a.net {
        let (name, file) = n
            .split_once('=')
            .ok_or_else(|| usage(format!("--net {n}: expected NAME=FILE")))?;
        nets.add(&catalog, name, std::path::Path::new(file))
            .map_err(|e| usage(format!("--net {n}: {e}")))?;
    }
    let addr: SocketAddr = a
        .bind
        .parse()
        .map_err(|e| usage(format!("--bind {}: {e}", a.bind)))?;
    let server = tiny_http::Server::http(addr)
        .map_err(|e| usage(format!("--bind {}: cannot listen: {e}", a.bind)))?;
    install_exit();
    let bound = server
        .server_addr()
        .to_ip()
        .map_or_else(|| a.bind.clone(), |s| s.to_string());
    eprintln!("pahtum serve: listening on http://{bound}/ (Ctrl-C stops)");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let gate = Arc::new(SearchGate::new(cores));
    let nets = Arc::new(nets);
    let in_flight = Arc::new(AtomicUsize::new(0));
    for request in server.incoming_requests() {
        if in_flight.fetch_add(1, Ordering::AcqRel) >= MAX_REQUESTS {
            in_flight.fetch_sub(1, Ordering::AcqRel);
            respond(
                request,
                HttpReply::error(503, "too many requests at once; try again"),
            );
            continue;
        }
        let (gate, nets, in_flight) =
            (Arc::clone(&gate), Arc::clone(&nets), Arc::clone(&in_flight));
        std::thread::spawn(move || {
            answer(request, &gate, &nets);
            in_flight.fetch_sub(1, Ordering::AcqRel);
        });
    }
    Ok(())
}

/// Reads the body (at most [`MAX_BODY`] bytes, more is 413 unread) and
/// answers.
fn answer(mut request: tiny_http::Request, gate: &SearchGate, nets: &Nets) {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return respond(request, too_large());
    }
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    let reply = match read {
        Err(e) => HttpReply::error(400, format!("cannot read the request body: {e}")),
        Ok(_) if body.len() > MAX_BODY => too_large(),
        Ok(_) => handle_with(request.method().as_str(), request.url(), &body, gate, nets),
    };
    respond(request, reply);
}

fn respond(request: tiny_http::Request, reply: HttpReply) {
    let mut response = tiny_http::Response::from_string(reply.body).with_status_code(reply.status);
    if let Ok(h) = tiny_http::Header::from_bytes("Content-Type", reply.content_type) {
        response = response.with_header(h);
    }
    // A client that went away is no fault of the server's.
    let _ = request.respond(response);
}
