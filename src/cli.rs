//! The `pahtum` command line (docs/CONTRACT.md): one file per subcommand.

pub mod accuracy;
pub mod bench;
pub mod bots;
pub mod common;
pub mod engine;
pub mod error;
pub mod exact;
pub mod fpa;
pub mod input;
pub mod merge;
pub mod num;
pub mod openings;
pub mod play;
pub mod rate;
pub mod report;
pub mod review;
pub mod score;
pub mod serve;
pub mod solve;
pub mod sprt;
pub mod sweep;
pub mod tournament;
pub mod train;
pub mod tune;

use std::ffi::OsString;

use clap::{Parser, Subcommand};

pub use error::{CliError, CliResult, usage};

/// A research workbench for game-playing AI on Pah Tum.
#[derive(Parser, Debug)]
#[command(name = "pahtum", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of docs/CONTRACT.md.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Score boards: one `WHITE BLACK` line per board
    Score(score::ScoreArgs),
    /// Play one game between two bots (human is a bot); last line result=...
    ///
    /// The last line is `result=white|black|draw white=N black=N`. When a
    /// human's input ends before the game does, it is `result=aborted` with
    /// the scores as the board stands, one line on stderr says so, and the
    /// exit status is 2: the game has no result.
    // One game has one hole count: the rules' list form is not offered.
    #[command(mut_arg("holes", |a| a.help(play::HOLES_HELP).value_name("N")))]
    Play(play::PlayArgs),
    /// Seeded round robin over random layouts, CSV out
    Tournament(tournament::TournamentArgs),
    /// Merge shard outputs into the files an unsharded run writes
    Merge(merge::MergeArgs),
    /// One rating list over several runs' games: a pooled Bradley-Terry fit, --anchor BOT=ELO
    Rate(rate::RateArgs),
    /// Parameter grid of one bot against a reference, CSV + SVG plot
    Sweep(sweep::SweepArgs),
    /// Sequential A/B test of two bots, stops at H0/H1 (one process: each verdict waits for the pairs before it, so it cannot shard; --threads uses a whole machine)
    Sprt(sprt::SprtArgs),
    /// First-player-advantage study, CSV + SVG plot
    // The rules' --holes help names the usual default; fpa's differs.
    #[command(mut_arg("holes", |a| a.help(fpa::HOLES_HELP)))]
    Fpa(fpa::FpaArgs),
    /// Exact solutions: result, margin and best moves, one line per board
    Solve(solve::SolveArgs),
    /// Every hole layout of a small board solved from the start, with and without the pie rule
    Exact(exact::ExactArgs),
    /// SPSA tuning of several keys of one bot at once; last line tuned=SPEC (one process: its batches of pairs run in parallel, so give it a whole node with --threads)
    Tune(tune::TuneArgs),
    /// Build a start-position suite for --openings: random layouts and short openings kept where a search's evaluation lies in a band
    Openings(openings::OpeningsCmdArgs),
    /// A bot's moves on solved positions against perfect play, CSV out
    Accuracy(accuracy::AccuracyArgs),
    /// One game move by move: the bot's evaluation and best move, exact verdicts near the end; review.csv
    // --moves games need a --layout, so --holes has no use here.
    #[command(mut_arg("holes", |a| a.hide(true)))]
    Review(review::ReviewArgs),
    /// A run directory (or several, compared) as one self-contained HTML page
    Report(report::ReportArgs),
    /// Play a bot in the browser: a local web page and its JSON API
    Serve(serve::ServeArgs),
    /// Self-play training of the `zero` bot's network: generations, gate, checkpoints, train.svg (build with --features train)
    // Its training steps, unlike other runs' results, depend on the threads.
    #[command(mut_arg("threads", |a| a.help(train::THREADS_HELP)))]
    Train(train::TrainArgs),
    /// List every bot with its keys, defaults and accepted ranges
    Bots(bots::BotsArgs),
    /// Speed figures, one key=value per line
    Bench(bench::BenchArgs),
    /// Serve a bot over the engine protocol on stdin/stdout (docs/protocol.md)
    Engine(engine::EngineCmdArgs),
}

/// clap's message as the one line a usage error gets: its first
/// paragraph, the lines after the first (where clap lists missing
/// arguments, one a line) joined to it, then its tips (a similar
/// argument's name) in parentheses; the usage is dropped.
fn one_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).take_while(|l| !l.is_empty());
    let mut out = lines
        .next()
        .unwrap_or("bad arguments")
        .trim_start_matches("error: ")
        .to_string();
    for (i, l) in lines.enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        out.push_str(l);
    }
    for tip in text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("tip:"))
    {
        out.push_str(&format!(" ({tip})"));
    }
    out
}

/// Parses `args` and runs the subcommand.
///
/// # Errors
/// Usage errors (exit 2), internal errors (exit 1) and interrupts (exit
/// 130); `--help` and `--version` print and succeed.
pub fn run<I, T>(args: I) -> CliResult
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                print!("{e}");
                return Ok(());
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                eprint!("{e}");
                return Err(usage("a subcommand is needed (see pahtum --help)"));
            }
            return Err(usage(one_line(&e.to_string())));
        }
    };
    match cli.command {
        Command::Score(a) => score::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Tournament(a) => tournament::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Rate(a) => rate::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Sprt(a) => sprt::run(a),
        Command::Fpa(a) => fpa::run(a),
        Command::Engine(a) => engine::run(a),
        Command::Play(a) => play::run(a),
        Command::Bots(a) => bots::run(a),
        Command::Exact(a) => exact::run(a),
        Command::Tune(a) => tune::run(a),
        Command::Openings(a) => openings::run(a),
        Command::Accuracy(a) => accuracy::run(a),
        Command::Review(a) => review::run(a),
        Command::Report(a) => report::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Train(a) => train::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::one_line;

    #[test]
    fn clap_messages_become_one_line_that_keeps_their_substance() {
        let missing = "error: the following required arguments were not provided:\n  \
                       --elo0 <E0>\n  --elo1 <E1>\n\nUsage: pahtum sprt --elo0 <E0> --elo1 <E1>\n\n\
                       For more information, try '--help'.\n";
        assert_eq!(
            one_line(missing),
            "the following required arguments were not provided: --elo0 <E0>, --elo1 <E1>"
        );
        let typo = "error: unexpected argument '--gmaes' found\n\n  \
                    tip: a similar argument exists: '--games'\n\nUsage: pahtum tournament\n";
        assert_eq!(
            one_line(typo),
            "unexpected argument '--gmaes' found (tip: a similar argument exists: '--games')"
        );
        assert_eq!(one_line(""), "bad arguments");
    }
}
