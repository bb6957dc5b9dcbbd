//! `pahtum engine --bot SPEC`: a bot behind the engine protocol on
//! stdin/stdout (docs/protocol.md).

use std::io::{self, BufWriter};

use clap::Args;

use super::common::{EngineArgs, install_exit};
use super::error::{CliResult, usage};
use super::num;
use crate::protocol::Server;

/// Arguments of `engine`.
#[derive(Args, Debug)]
pub struct EngineCmdArgs {
    /// The bot to serve, e.g. greedy or mcts:iters=2000 (see pahtum bots)
    #[arg(long, value_name = "BOT")]
    pub bot: String,
    /// Seed of the bots' random streams: the k-th game's bot gets
    /// derive_seed(SEED, k); the protocol's `seed` command overrides it
    #[arg(long, default_value_t = super::common::DEFAULT_SEED, value_name = "N", allow_negative_numbers = true,
          value_parser = num::seed())]
    pub seed: u64,
    /// External engines the served bot may be (an engine can wrap another)
    #[command(flatten)]
    pub engines: EngineArgs,
}

/// Serves until `quit` or the end of input.
///
/// # Errors
/// A bad bot spec (exit 2); a read error (exit 1). A closed output pipe
/// ends the session quietly.
pub fn run(args: EngineCmdArgs) -> CliResult {
    let catalog = args.engines.catalog()?;
    let spec = catalog
        .parse_unattended(&args.bot)
        .map_err(|e| usage(format!("--bot: {e}")))?;
    if spec.name == "human" {
        return Err(usage("--bot: human cannot be served as an engine"));
    }
    super::common::no_clock(
        &spec,
        "--bot",
        "a served engine is told its clock by the controller (time_settings, time_left)",
        super::common::ANY_BUDGET,
    )?;
    // Nothing to keep on an interrupt: exit 130 at once, engines killed.
    install_exit();
    let mut server = Server::new(catalog, spec, args.seed);
    let stdin = io::stdin().lock();
    let stdout = BufWriter::new(io::stdout().lock());
    match server.serve(stdin, stdout) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
