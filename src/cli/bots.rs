//! `pahtum bots`: every bot, its keys, defaults and accepted ranges.

use std::io::Write;

use clap::Args;

use super::common::EngineArgs;
use super::error::CliResult;
use crate::bot::Catalog;

/// Arguments of `bots`.
#[derive(Args, Debug)]
pub struct BotsArgs {
    /// External engines to list too
    #[command(flatten)]
    pub engines: EngineArgs,
}

/// The catalogue as `pahtum bots` prints it: every kind of bot with its
/// keys, defaults and accepted ranges, then the external engines. The
/// Python package's `bots_text` is this text too.
pub fn catalog_text(catalog: &Catalog) -> String {
    let mut s = String::from(
        "Bot specs are NAME[:KEY=VALUE,...], e.g. heuristic:decay=0.4,label=H.\n\
         Every bot also takes label=NAME (its name in outputs).\n",
    );
    for kind in catalog.kinds() {
        s.push_str(&format!("\n{}  {}\n", kind.name, kind.summary));
        if kind.keys.is_empty() {
            s.push_str("  (no keys)\n");
        }
        let width = kind
            .keys
            .iter()
            .map(|k| k.key.len() + k.default.len() + 1)
            .max()
            .unwrap_or(0);
        for k in kind.keys {
            let kv = format!("{}={}", k.key, k.default);
            s.push_str(&format!("  {kv:<width$}  {}: {}\n", k.accepts, k.help));
        }
    }
    for (name, summary) in catalog.engines() {
        s.push_str(&format!(
            "\n{name}  {summary}\n  (external engine, no keys)\n"
        ));
    }
    s
}

/// Prints the catalogue.
///
/// # Errors
/// A bad `--engine` (exit 2) or a failed write (exit 1).
pub fn run(args: BotsArgs) -> CliResult {
    let s = catalog_text(&args.engines.catalog()?);
    let mut out = std::io::stdout().lock();
    match out.write_all(s.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
