//! The `pahtum` command line; everything is in [`pahtum::cli`].

#![forbid(unsafe_code)]

use std::panic;
use std::process::ExitCode;

fn main() -> ExitCode {
    // A panic is our bug, never the user's: report it in one line and exit 1
    // (docs/CONTRACT.md: internal errors), without a backtrace.
    panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()));
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        eprintln!("pahtum: internal error: {msg}{}", place.unwrap_or_default());
    }));
    match panic::catch_unwind(|| pahtum::cli::run(std::env::args_os())) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            // The message may quote the user's text, newlines and all.
            eprintln!("pahtum: {}", pahtum::game::text::one_line(&e.to_string()));
            ExitCode::from(e.exit_code())
        }
        Err(_) => ExitCode::from(1),
    }
}
