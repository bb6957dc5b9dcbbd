//! Trains a learned line network (`bot::learned`) by self-play and writes
//! it to a file that `mcts:rollout=net,net=FILE` and `learned:net=FILE`
//! read. With no options it writes the built-in network's bytes:
//! `cargo run --release --example train_lines -- --out data/lines-7.net`.

use std::time::Instant;

use clap::Parser;
use pahtum::learn::lines::{LinesTrainConfig, train};

/// Self-play training of a line network.
#[derive(Parser, Debug)]
struct Args {
    /// File to write.
    #[arg(long)]
    out: std::path::PathBuf,
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 3)]
    seed: u64,
    /// Games of self-play (default: the built-in network's).
    #[arg(long)]
    games: Option<u64>,
    /// Board side, 3 to 8.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(3..=8))]
    size: u8,
    /// Holes of each game, drawn uniformly from LO..=HI (default 0-10).
    #[arg(long, value_parser = holes)]
    holes: Option<(u32, u32)>,
}

fn holes(s: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = s.split_once('-').unwrap_or((s, s));
    let parse = |x: &str| x.trim().parse::<u32>().map_err(|e| format!("'{x}': {e}"));
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    if lo > hi {
        return Err(format!("{lo} is more than {hi}"));
    }
    Ok((lo, hi))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let d = LinesTrainConfig::default();
    let cfg = LinesTrainConfig {
        size: args.size,
        games: args.games.unwrap_or(d.games),
        holes: args.holes.map_or(d.holes.clone(), |(lo, hi)| lo..=hi),
        ..d
    };
    let start = Instant::now();
    let net = train(&cfg, args.seed, |g| {
        if g % 1_000_000 == 0 {
            eprintln!("{g} games, {:.0} s", start.elapsed().as_secs_f64());
        }
    });
    // Written whole, then renamed: no half-written network is left behind.
    let tmp = args.out.with_extension("partial");
    std::fs::write(&tmp, net.to_bytes())?;
    std::fs::rename(&tmp, &args.out)?;
    eprintln!(
        "{} games in {:.0} s: {}",
        cfg.games,
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}
