//! `pahtum solve [FILE]`: exact solutions of positions (docs/CONTRACT.md).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::common::{install_cancel, parse_komi};
use super::error::{CliError, CliResult, usage};
use super::input::read_boards;
use super::num;
use crate::game::outcome::Komi;
use crate::solve::{SolveError, SolveLimits, Solver};

/// Positions with more free squares than this are refused unless
/// `--max-empty` says otherwise: up to here a 7x7 position from random
/// play is solved in seconds on one core, and from 24 free squares it
/// takes many times longer (docs/speed-history.md, "The exact solver's
/// default reach").
pub const DEFAULT_MAX_EMPTY: u32 = 22;

/// Arguments of `solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Board file (docs/RULES.md text format, boards separated by blank lines); stdin if absent
    pub file: Option<PathBuf>,
    /// Refuse positions with more free squares than this (solving time grows steeply)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_EMPTY,
          allow_negative_numbers = true, value_parser = num::int::<u32>(0, 64))]
    pub max_empty: u32,
    /// Points added to Black's total (a half point allowed, e.g. 2.5)
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub komi: Option<String>,
    /// Pie rule: with exactly one White stone and no Black one, Black may swap
    #[arg(long)]
    pub pie: bool,
    /// Transposition table size in MiB, 1 to 4096
    #[arg(long, value_name = "MB", default_value_t = 64, allow_negative_numbers = true,
          value_parser = num::int::<usize>(1, 4096))]
    pub tt_mb: usize,
}

/// Checks every board (stone counts, free squares) before solving any, then
/// prints one line per board in input order, each as soon as it is solved.
///
/// # Errors
/// Bad input or a board that cannot arise or is too large (exit 2); an
/// interrupt (exit 130).
pub fn run(args: SolveArgs) -> CliResult {
    let komi = match &args.komi {
        None => Komi::ZERO,
        Some(k) => parse_komi(k)?,
    };
    let (boards, source) = read_boards(args.file.as_deref())?;
    let mut positions = Vec::with_capacity(boards.len());
    for (i, b) in boards.iter().enumerate() {
        let pos = b
            .to_position(args.pie, komi)
            .map_err(|e| usage(format!("{source}: board {}: {e}", i + 1)))?;
        let empty = pos.empty().count();
        if empty > args.max_empty {
            return Err(usage(format!(
                "{source}: board {}: {empty} empty squares, more than --max-empty {} (raise it to solve anyway)",
                i + 1,
                args.max_empty
            )));
        }
        positions.push(pos);
    }
    let mut solver = Solver::new(args.tt_mb);
    let limits = SolveLimits::default();
    install_cancel("stopping; the lines already printed stand");
    let mut out = std::io::stdout().lock();
    for (i, pos) in positions.iter().enumerate() {
        let solution = match solver.solve(pos, &limits) {
            Ok(s) => s,
            Err(SolveError::Interrupted) => {
                return Err(CliError::Interrupted(format!(
                    "interrupted after {i} of {} boards",
                    positions.len()
                )));
            }
            Err(e) => return Err(anyhow::anyhow!("solver stopped without limits: {e}").into()),
        };
        writeln!(out, "{}", solution.line())?;
        out.flush()?;
    }
    Ok(())
}
