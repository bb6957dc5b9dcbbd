//! `pahtum train`: self-play training of the `zero` bot's network
//! (the loop is `crate::learn::train`, built with `--features train`).

use clap::Args;

use super::common::StudyRunArgs;
use super::error::{CliResult, usage};
use super::num;

/// `--lr`: above zero, at most one.
const LR_RANGE: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 1.0,
    lo_open: true,
    hi_open: false,
};

/// `--noise`: a share.
const SHARE_RANGE: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 1.0,
    lo_open: false,
    hi_open: false,
};

/// `--full-share`: above zero (some moves must be recorded), at most one.
const FULL_SHARE_RANGE: num::FloatRange = num::FloatRange {
    lo: 0.0,
    hi: 1.0,
    lo_open: true,
    hi_open: false,
};

/// train's `--help` line for `--threads`: the self-play games follow from
/// the seeds alone, but the training steps' sums (candle's matrix
/// products) are split among the threads, so the networks follow from
/// the thread count too.
pub const THREADS_HELP: &str = "Threads (default: all cores); the self-play games do not depend on it, the training steps do: the same networks need the same --threads";

/// Arguments of `train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Generations to reach (a resumed run goes on to this many)
    #[arg(long, value_name = "N", default_value_t = 20, allow_negative_numbers = true, value_parser = num::int::<u32>(1, 100_000))]
    pub generations: u32,
    /// Self-play games per generation
    #[arg(long, value_name = "N", default_value_t = 64, allow_negative_numbers = true, value_parser = num::int::<u32>(1, 1_000_000))]
    pub games: u32,
    /// zero's iterations per self-play move
    #[arg(long, value_name = "N", default_value_t = 200, allow_negative_numbers = true, value_parser = num::int::<u64>(1, 1_000_000))]
    pub iters: u64,
    /// Games of the gate: the new network against the best so far, kept if it scores at least half
    #[arg(long, value_name = "N", default_value_t = 20, allow_negative_numbers = true, value_parser = num::int::<u32>(0, 100_000))]
    pub gate_games: u32,
    /// Games of the best network against each anchor (heuristic, mcts:iters=2000) per generation
    #[arg(long, value_name = "N", default_value_t = 10, allow_negative_numbers = true, value_parser = num::int::<u32>(0, 100_000))]
    pub anchor_games: u32,
    /// zero's iterations per move in the gate and against the anchors
    #[arg(long, value_name = "N", default_value_t = 200, allow_negative_numbers = true, value_parser = num::int::<u64>(1, 1_000_000))]
    pub match_iters: u64,
    /// Training steps per generation
    #[arg(long, value_name = "N", default_value_t = 200, allow_negative_numbers = true, value_parser = num::int::<u32>(0, 10_000_000))]
    pub steps: u32,
    /// Samples per training step
    #[arg(long, value_name = "N", default_value_t = 256, allow_negative_numbers = true, value_parser = num::int::<usize>(1, 65_536))]
    pub batch: usize,
    /// AdamW's learning rate
    #[arg(long, value_name = "X", default_value_t = 0.001, allow_hyphen_values = true, value_parser = num::float(LR_RANGE))]
    pub lr: f64,
    /// Generations of self-play samples in the replay buffer
    #[arg(long, value_name = "N", default_value_t = 4, allow_negative_numbers = true, value_parser = num::int::<u32>(1, 1000))]
    pub window: u32,
    /// Channels of a new network's residual tower
    #[arg(long, value_name = "N", default_value_t = 16, allow_negative_numbers = true, value_parser = num::int::<usize>(1, 256))]
    pub channels: usize,
    /// Residual blocks of a new network
    #[arg(long, value_name = "N", default_value_t = 2, allow_negative_numbers = true, value_parser = num::int::<usize>(0, 40))]
    pub blocks: usize,
    /// Hidden units of a new network's value head
    #[arg(long, value_name = "N", default_value_t = 32, allow_negative_numbers = true, value_parser = num::int::<usize>(1, 1024))]
    pub hidden: usize,
    /// Give a new network global pooling in every residual block (the board's channel means and maxima as a bias of each channel)
    #[arg(long)]
    pub global_pool: bool,
    /// Give a new network the auxiliary margin head, trained on each position's final margin beside the value
    #[arg(long)]
    pub margin_head: bool,
    /// Board side
    #[arg(long, value_name = "N", default_value_t = 7, allow_negative_numbers = true, value_parser = num::int::<u8>(3, 8))]
    pub size: u8,
    /// Hole counts the games cycle through (each with and without the pie rule)
    #[arg(
        long,
        value_name = "LIST",
        default_value = "3,5,7",
        allow_negative_numbers = true
    )]
    pub holes: String,
    /// Share of Dirichlet noise in the self-play root's priors
    #[arg(long, value_name = "X", default_value_t = 0.25, allow_hyphen_values = true, value_parser = num::float(SHARE_RANGE))]
    pub noise: f64,
    /// Plies from a self-play game's start whose move is drawn by visit share
    #[arg(long, value_name = "N", default_value_t = 8, allow_negative_numbers = true, value_parser = num::int::<u32>(0, 64))]
    pub explore: u32,
    /// Self-play with zero:root=gumbel (Gumbel-Top-k and sequential halving at the root), learning its improved policy instead of the visit shares; --noise and --explore are not used
    #[arg(long)]
    pub gumbel: bool,
    /// Self-play games played at once, each searching one leaf at a time (no virtual loss), their leaves evaluated in one shared batch (0: a game on each thread, with zero's batches of 8); several games a thread are needed to fill the batches; not with --gumbel
    #[arg(long, value_name = "K", default_value_t = 0, allow_negative_numbers = true, value_parser = num::int::<u32>(0, 1024))]
    pub parallel_games: u32,
    // Self-play's targets and budgets (TrainConfig::targets), all off by
    // default.
    /// Positions with at most N free squares take the exact solver's result as their value target (0: the game's result)
    #[arg(long, value_name = "N", default_value_t = 0, allow_negative_numbers = true, value_parser = num::int::<u32>(0, 20))]
    pub exact_targets: u32,
    /// Share of self-play moves searched at --iters with noise and recorded; the others are searched at --fast-iters and not recorded (playout cap randomisation)
    #[arg(long, value_name = "P", default_value_t = 1.0, allow_hyphen_values = true, value_parser = num::float(FULL_SHARE_RANGE))]
    pub full_share: f64,
    /// zero's iterations per self-play move not searched in full [default: --iters / 4]
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = num::int::<u64>(1, 1_000_000))]
    pub fast_iters: Option<u64>,
    /// Seed, threads, output directory, resume, quiet
    #[command(flatten)]
    pub run: StudyRunArgs,
}

/// Runs `train`.
///
/// # Errors
/// Bad arguments (exit 2), a build without the trainer (exit 2), an
/// interrupt (exit 130).
pub fn run(a: TrainArgs) -> CliResult {
    #[cfg(feature = "train")]
    {
        with_trainer::run(a)
    }
    #[cfg(not(feature = "train"))]
    {
        let _ = a;
        Err(usage(
            "train: this build has no trainer; build it with `cargo build --release --features train` (candle, about two minutes more)",
        ))
    }
}

#[cfg(feature = "train")]
mod with_trainer {
    use super::*;
    use crate::arena::runopts::RunOptions;
    use crate::cli::common::{
        install_cancel, open_run, parse_holes, run_interrupt_note, save_run, terminal_bar, threads,
    };
    use crate::cli::error::CliError;
    use crate::learn::train::{
        GenRow, TargetConfig, TrainConfig, TrainError, TrainProgress, read_rows,
    };

    struct TrainBar {
        bar: indicatif::ProgressBar,
        anchor_games: u32,
        quiet: bool,
    }

    impl TrainProgress for TrainBar {
        fn game(&self, generation: u32, done: u64, total: u64) {
            if self.bar.length() != Some(total) {
                self.bar.set_length(total);
            }
            self.bar.set_prefix(format!("gen {generation}"));
            self.bar.set_position(done);
        }

        fn generation(&self, r: &GenRow) {
            let elo = |i| crate::learn::train::elo_of(r.anchor_scores[i], self.anchor_games);
            let line = format!(
                "gen {}: {:.0} positions/s, loss {:.3} + {:.3}, gate {:.2} ({}), Elo {:+.0} vs heuristic, {:+.0} vs mcts:iters=2000",
                r.generation,
                r.positions as f64 / r.seconds.max(1e-9),
                r.policy_loss,
                r.value_loss,
                r.gate_score,
                if r.kept { "kept" } else { "rejected" },
                elo(0),
                elo(1)
            );
            self.bar.set_message(line.clone());
            if self.quiet {
            } else if self.bar.is_hidden() {
                // A log gets one line a generation.
                eprintln!("{line}");
            } else {
                self.bar.println(line);
            }
            self.bar.reset();
        }
    }

    pub(super) fn run(a: TrainArgs) -> CliResult {
        let holes = parse_holes(&a.holes)?;
        let max = u32::from(a.size) * u32::from(a.size) - 1;
        if let Some(h) = holes.iter().find(|&&h| h > max) {
            return Err(usage(format!(
                "--holes: {h} holes do not fit a {0}x{0} board (at most {max})",
                a.size
            )));
        }
        if a.gumbel && a.parallel_games > 0 {
            // The Gumbel root's sequential halving runs its own steps; it
            // has no leaves to hand to a shared batch.
            return Err(usage(
                "--parallel-games: not with --gumbel (the Gumbel root search evaluates its own leaves)",
            ));
        }
        let t = threads(a.run.threads)?;
        let out = a.run.out_dir(|| {
            std::path::PathBuf::from("results")
                .join(format!("train-{}", crate::arena::runinfo::utc_stamp()))
        })?;
        let cfg = config(&a, holes);
        let options = run_options(&a, &cfg);
        let (mut info, resumed) = open_run(&out, "train", options, t, a.run.resume)?;
        std::fs::create_dir_all(&out)
            .map_err(|e| usage(format!("--out {}: {e}", out.display())))?;
        let rows = if resumed {
            read_rows(&out).map_err(|e| usage(format!("--resume: {e}")))?
        } else {
            Vec::new()
        };
        save_run(&info, &out)?;
        install_cancel(run_interrupt_note(&out));
        let bar = terminal_bar(
            a.run.quiet,
            "{prefix} [{bar:30}] {pos}/{len} games {per_sec} {wide_msg}",
            0,
            u64::from(cfg.games),
        );
        let progress = TrainBar {
            bar,
            anchor_games: cfg.anchor_games,
            quiet: a.run.quiet,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .map_err(|e| CliError::Internal(e.into()))?;
        let result = pool.install(|| crate::learn::train::run(&cfg, &out, rows, &progress));
        progress.bar.finish_and_clear();
        match result {
            Ok(rows) => {
                info.end_time = Some(crate::arena::runinfo::utc_now());
                save_run(&info, &out)?;
                let best = rows.last().map_or(0, |r| r.best);
                println!(
                    "best=generation {best} net={}",
                    out.join("best.safetensors").display()
                );
                crate::cli::common::name_picked_dir(&out, a.run.quiet, a.run.out.is_none());
                Ok(())
            }
            Err(TrainError::Interrupted) => Err(CliError::Interrupted(format!(
                "interrupted: the generations in {}/train.csv are kept; --resume --out {} goes on",
                out.display(),
                out.display()
            ))),
            Err(e) => Err(CliError::Internal(anyhow::Error::new(e))),
        }
    }

    /// The trainer's settings from the command line.
    fn config(a: &TrainArgs, holes: Vec<u32>) -> TrainConfig {
        TrainConfig {
            generations: a.generations,
            games: a.games,
            iters: a.iters,
            gate_games: a.gate_games,
            anchor_games: a.anchor_games,
            match_iters: a.match_iters,
            steps: a.steps,
            batch: a.batch,
            lr: a.lr,
            window: a.window,
            shape: (a.channels, a.blocks, a.hidden),
            extras: (a.global_pool, a.margin_head),
            size: a.size,
            holes,
            noise: a.noise as f32,
            explore: a.explore,
            gumbel: a.gumbel,
            parallel_games: a.parallel_games,
            seed: a.run.seed,
            targets: TargetConfig {
                exact: a.exact_targets,
                full_share: a.full_share,
                fast_iters: a
                    .fast_iters
                    .unwrap_or(TargetConfig::off(a.iters).fast_iters),
            },
        }
    }

    /// The options `run.json` records: `--generations` may grow on a
    /// resume; everything else must match.
    fn run_options(a: &TrainArgs, cfg: &TrainConfig) -> RunOptions {
        let mut options = RunOptions::new();
        options
            .add("--games", cfg.games)
            .add("--iters", cfg.iters)
            .add("--gate-games", cfg.gate_games)
            .add("--anchor-games", cfg.anchor_games)
            .add("--match-iters", cfg.match_iters)
            .add("--steps", cfg.steps)
            .add("--batch", cfg.batch)
            .add("--lr", cfg.lr)
            .add("--window", cfg.window)
            .add("--channels", a.channels)
            .add("--blocks", a.blocks)
            .add("--hidden", a.hidden)
            .add("--size", cfg.size)
            .add("--holes", &a.holes)
            .add("--noise", cfg.noise)
            .add("--explore", cfg.explore)
            .add("--seed", cfg.seed);
        // Recorded only when given, so that a run from before the option
        // resumes as it was recorded.
        if cfg.gumbel {
            options.add("--gumbel", true);
        }
        if cfg.parallel_games > 0 {
            options.add("--parallel-games", cfg.parallel_games);
        }
        // Recorded when on alone, so that a run from before them resumes.
        let tc = &cfg.targets;
        if tc.exact > 0 {
            options.add("--exact-targets", tc.exact);
        }
        if a.global_pool {
            options.add("--global-pool", true);
        }
        if a.margin_head {
            options.add("--margin-head", true);
        }
        if tc.full_share < 1.0 {
            options
                .add("--full-share", tc.full_share)
                .add("--fast-iters", tc.fast_iters);
        }
        options
    }
}
