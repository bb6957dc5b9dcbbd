//! The `pahtum` command line; everything is in [`pahtum::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    match pahtum::cli::run(std::env::args_os()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pahtum: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
