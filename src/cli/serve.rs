//! `pahtum serve`: play a bot in the browser (docs/CONTRACT.md "Seeing
//! runs"; the requests are answered by [`crate::view::serve`]).

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;

use clap::Args;

use super::common::install_exit;
use super::error::{CliResult, usage};
use crate::view::serve::{Gate, HttpReply, Nets, handle_with};

pub mod http;

/// Connections handled at once, searches or not, each on a thread of its
/// own. Past it a connection is answered 503 at once, so a flood of
/// connections costs a thread each up to this bound and no more, and a
/// connection that sends nothing is closed at [`http::REQUEST_DEADLINE`].
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
    let listener = TcpListener::bind(addr)
        .map_err(|e| usage(format!("--bind {}: cannot listen: {e}", a.bind)))?;
    install_exit();
    let bound = listener
        .local_addr()
        .map_or_else(|_| a.bind.clone(), |s| s.to_string());
    eprintln!("pahtum serve: listening on http://{bound}/ (Ctrl-C stops)");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let searches = Gate::new(cores);
    let connections = Gate::new(MAX_REQUESTS);
    let nets = Arc::new(nets);
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            // A connection that failed before it was accepted is the
            // client's loss; out of descriptors, the pause keeps the loop
            // from spinning until some close.
            Err(_) => {
                std::thread::sleep(std::time::Duration::from_millis(10));
                continue;
            }
        };
        let Some(pass) = connections.enter() else {
            let busy = HttpReply::error(503, "too many requests at once; try again");
            http::refuse_at_once(stream, &busy);
            continue;
        };
        let (searches, nets) = (searches.clone(), Arc::clone(&nets));
        // A second handle on the connection, to refuse it with should no
        // thread be made for it (the thread's own handle, and the pass,
        // are dropped with the closure).
        let spare = stream.try_clone().ok();
        let spawned = std::thread::Builder::new().spawn(move || {
            let _pass = pass;
            answer(stream, &searches, &nets);
        });
        if let (Err(_), Some(stream)) = (spawned, spare) {
            let busy = HttpReply::error(503, "the server cannot take more work now; try again");
            http::refuse_at_once(stream, &busy);
        }
    }
    Ok(())
}

/// Reads the request (at most [`crate::view::serve::MAX_BODY`] bytes of
/// body, within [`http::REQUEST_DEADLINE`]) and answers.
fn answer(mut stream: TcpStream, searches: &Gate, nets: &Nets) {
    let (reply, head_only) = match http::read_request(&mut stream, http::REQUEST_DEADLINE) {
        Ok(r) => (
            handle_with(&r.method, &r.path, &r.body, searches, nets),
            r.method == "HEAD",
        ),
        Err(refused) => (refused.reply, refused.head_only),
    };
    http::respond(stream, &reply, head_only);
}
