//! `pahtum train`: the policy-value network of `zero` trained by
//! self-play, generation after generation (AlphaZero's loop, with AlphaGo
//! Zero's gate).
//!
//! # One generation
//! 1. **Self-play**: `games` games of the best network so far with itself
//!    (`zero` at `iters`, Dirichlet noise at the root, the first
//!    `explore` plies drawn by visit share), on random layouts: the hole
//!    counts cycle through `holes`, and every other game has the pie rule.
//!    Each position becomes a sample: its features, the root's visit
//!    shares (the solver's move, where the exact endgame chose it) and the
//!    game's result and final margin for the side to move. Optionally
//!    ([`TargetConfig`]) positions near the end take the exact solver's
//!    result and margin instead, and only a random share of the moves is
//!    searched in full and recorded, the others searched briefly and
//!    played (playout cap randomisation). With `gumbel`, self-play uses
//!    the Gumbel root search, and its improved policy replaces the visit
//!    shares. With `parallel_games`, that many games are played at once,
//!    each searching one leaf at a time, their leaves evaluated together.
//! 2. **Training**: `steps` AdamW steps on batches drawn from the replay
//!    buffer, the samples of the last `window` generations, each under a
//!    random symmetry of the square. The candidate network goes on from
//!    the last candidate.
//! 3. **The gate**: the candidate plays the best network `gate_games`
//!    games (both colours on each layout pair); it becomes the best when
//!    it scores at least half, so it is kept unless it is weaker.
//! 4. **Anchors**: the best network plays `heuristic` and
//!    `mcts:iters=2000` (without the network: `prior=prune,mix=0,expand=2`);
//!    its Elo against each is the curve of `train.svg`.
//!
//! # Files and resume
//! `run.json`, `train.csv` (a row per generation, written last),
//! `nets/gen-N.safetensors` (the candidate after generation N, and the
//! starting network as generation 0), `samples/gen-N.bin`, `best.safetensors`
//! and `train.svg`. A resumed run reads the rows, checks that their files
//! are there, and goes on from the generation after the last row: an
//! unfinished generation is played again from its own seeds. Every game's
//! seeds come from `--seed`, the generation and the game, so the games do
//! not depend on the threads (they are played on the arena's ordered
//! runner, `games`); the training steps (candle's matrix
//! products) are the same for a fixed thread count.

mod games;
mod learn;
mod plot;
mod rows;
mod samples;
mod targets;
mod together;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use learn::{LearnError, Learner};
pub use plot::plot;
pub use rows::{GenRow, TrainCsvRow, elo_of, header, read_rows};
pub use samples::Sample;

use crate::arena::bench::cpu_seconds;
use crate::game::rng::derive_seed;
use crate::net::PvNet;
use samples::read_samples;

/// The anchors of the Elo curve, fixed so that generations compare. The
/// `mcts` anchor is the default engine before the hybrid one, its three
/// keys written out: the hybrid's prior and value come from the built-in
/// network, and an anchor must not move when that network does.
pub const ANCHORS: [&str; 2] = ["heuristic", "mcts:iters=2000,prior=prune,mix=0,expand=2"];

/// Everything a training run is set to.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Generations to reach.
    pub generations: u32,
    /// Self-play games per generation.
    pub games: u32,
    /// Search budget of a self-play move.
    pub iters: u64,
    /// Games of the gate.
    pub gate_games: u32,
    /// Games against each anchor.
    pub anchor_games: u32,
    /// Search budget of a move in the gate and against the anchors.
    pub match_iters: u64,
    /// Training steps per generation.
    pub steps: u32,
    /// Samples per step.
    pub batch: usize,
    /// AdamW's learning rate.
    pub lr: f64,
    /// Generations of samples in the replay buffer.
    pub window: u32,
    /// Channels, residual blocks and value hidden units of a new network.
    pub shape: (usize, usize, usize),
    /// Whether a new network has global pooling in its blocks and the
    /// auxiliary margin head (`crate::net` says what each is).
    pub extras: (bool, bool),
    /// Board side.
    pub size: u8,
    /// Hole counts the games cycle through.
    pub holes: Vec<u32>,
    /// Root noise share and plies drawn by visits in self-play.
    pub noise: f32,
    /// Plies from the start drawn by visit share.
    pub explore: u32,
    /// `--gumbel`: self-play searches with `zero:root=gumbel` (the Gumbel
    /// draw explores; `noise` and `explore` are not used) and learns its
    /// improved policy instead of the visit shares.
    pub gumbel: bool,
    /// `--parallel-games`: self-play games played at once, their searches
    /// one leaf at a time (no virtual loss) and their leaves evaluated in
    /// one shared batch ([`crate::net::SharedBatch`]); 0: each game alone
    /// (a game on each thread, batches of `zero`'s own).
    pub parallel_games: u32,
    /// The run's seed.
    pub seed: u64,
    /// How self-play spends its searches and what it records as targets
    /// (all off by default: a run without them is the run it always was).
    pub targets: TargetConfig,
}

/// Self-play's sample targets and search budgets beyond the plain
/// AlphaZero loop, grouped apart from the rest of [`TrainConfig`].
#[derive(Clone, Debug, PartialEq)]
pub struct TargetConfig {
    /// Recorded positions with at most this many free squares take the
    /// solver's exact result as their value target and margin (0: none).
    pub exact: u32,
    /// Share of self-play moves searched at `iters` with root noise and
    /// recorded (playout cap randomisation; 1: every move).
    pub full_share: f64,
    /// Search budget of the other moves, played without noise and not
    /// recorded.
    pub fast_iters: u64,
}

impl TargetConfig {
    /// Every option off: the game's result as the value target, every
    /// move searched in full and recorded.
    pub fn off(iters: u64) -> TargetConfig {
        TargetConfig {
            exact: 0,
            full_share: 1.0,
            fast_iters: (iters / 4).max(1),
        }
    }
}

/// Why a training run stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file of the run could not be read or written.
    #[error("{path}: {why}")]
    File {
        /// The file.
        path: String,
        /// What went wrong.
        why: String,
    },
    /// The trainer failed.
    #[error(transparent)]
    Learn(#[from] LearnError),
    /// Ctrl-C: the generation in flight is dropped.
    #[error("interrupted")]
    Interrupted,
}

fn file_err(path: &Path) -> impl Fn(std::io::Error) -> TrainError + '_ {
    move |e| TrainError::File {
        path: path.display().to_string(),
        why: e.to_string(),
    }
}

/// The net file of generation `g` in `out`.
pub fn net_path(out: &Path, g: u32) -> PathBuf {
    out.join("nets").join(format!("gen-{g:04}.safetensors"))
}

fn samples_path(out: &Path, g: u32) -> PathBuf {
    out.join("samples").join(format!("gen-{g:04}.bin"))
}

/// What the loop reports as it goes, for a progress bar.
pub trait TrainProgress: Sync {
    /// A game of the generation is done (`done` of `total` this generation).
    fn game(&self, generation: u32, done: u64, total: u64);
    /// A generation is done.
    fn generation(&self, row: &GenRow);
}

/// A network for the engine, shared by the bots that play it and freed
/// with the last of them.
fn engine_net(bytes: &[u8]) -> Result<Arc<PvNet>, TrainError> {
    Ok(Arc::new(PvNet::from_bytes(bytes).map_err(LearnError)?))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(file_err(dir))?;
    }
    crate::arena::runinfo::write_atomic(path, bytes).map_err(|e| TrainError::File {
        path: path.display().to_string(),
        why: e.to_string(),
    })
}

/// What the loop carries from one generation to the next.
struct Carried {
    /// The candidate network, trained on from generation to generation.
    learner: Learner,
    /// The best network so far, and its generation.
    best: Arc<PvNet>,
    best_gen: u32,
    /// The samples of the last `window` generations, oldest first.
    buffer: Vec<Vec<Sample>>,
    /// `train.csv`.
    csv: PathBuf,
}

/// Runs (or, with `rows` from [`read_rows`], continues) the training in
/// `out` on the current rayon pool.
///
/// # Errors
/// A file, the trainer, or an interrupt (the rows written are kept).
pub fn run(
    cfg: &TrainConfig,
    out: &Path,
    rows: Vec<GenRow>,
    progress: &dyn TrainProgress,
) -> Result<Vec<GenRow>, TrainError> {
    let mut rows = rows;
    let mut carried = resume(cfg, out, &rows)?;
    let last = rows.last().map_or(0, |r| r.generation);
    for g in last + 1..=cfg.generations {
        let row = generation(cfg, out, &mut carried, g, progress)?;
        let csv = &carried.csv;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(csv)
            .map_err(file_err(csv))?;
        writeln!(f, "{}", row.csv(cfg.anchor_games)).map_err(file_err(csv))?;
        f.sync_data().map_err(file_err(csv))?;
        progress.generation(&row);
        rows.push(row);
        write_file(
            &out.join("train.svg"),
            plot(&rows, cfg.anchor_games).as_bytes(),
        )?;
    }
    Ok(rows)
}

/// The loop's state after the generations of `rows` (none: the start,
/// whose random network is written as generation 0), with `train.csv`
/// rewritten to hold those rows alone.
fn resume(cfg: &TrainConfig, out: &Path, rows: &[GenRow]) -> Result<Carried, TrainError> {
    let start_path = net_path(out, 0);
    if rows.is_empty() || !start_path.exists() {
        let (c, b, h) = cfg.shape;
        let mut net = PvNet::random(c, b, h, derive_seed(cfg.seed, &[0]));
        if cfg.extras.0 {
            net = net.with_pooling(derive_seed(cfg.seed, &[0, 1]));
        }
        if cfg.extras.1 {
            net = net.with_margin_head(derive_seed(cfg.seed, &[0, 2]));
        }
        write_file(&start_path, &net.to_bytes())?;
    }
    let last = rows.last().map_or(0, |r| r.generation);
    let read = |p: &Path| std::fs::read(p).map_err(file_err(p));
    let learner = Learner::from_bytes(&read(&net_path(out, last))?)?;
    let best_gen = rows.last().map_or(0, |r| r.best);
    let best = engine_net(&read(&net_path(out, best_gen))?)?;
    let mut buffer: Vec<Vec<Sample>> = Vec::new();
    for g in last.saturating_sub(cfg.window.saturating_sub(1)).max(1)..=last {
        buffer.push(read_samples(out, g, cfg.size)?);
    }
    let csv = out.join("train.csv");
    let kept: String = rows
        .iter()
        .map(|r| r.csv(cfg.anchor_games) + "\n")
        .collect();
    write_file(&csv, format!("{}\n{kept}", header()).as_bytes())?;
    Ok(Carried {
        learner,
        best,
        best_gen,
        buffer,
        csv,
    })
}

/// Generation `g`: self-play, training, the gate and the anchors; writes
/// its samples and networks and returns its row.
fn generation(
    cfg: &TrainConfig,
    out: &Path,
    carried: &mut Carried,
    g: u32,
    progress: &dyn TrainProgress,
) -> Result<GenRow, TrainError> {
    let started = std::time::Instant::now();
    let cpu_start = cpu_seconds().unwrap_or(0.0);
    let games = if cfg.parallel_games > 0 {
        together::self_play_together(cfg, &carried.best, g, progress)
    } else {
        games::self_play_generation(cfg, &carried.best, g, progress)
    };
    if crate::interrupt::requested() {
        return Err(TrainError::Interrupted);
    }
    let samples: Vec<Sample> = games.into_iter().flatten().collect();
    write_file(&samples_path(out, g), &samples::samples_bytes(&samples))?;
    let positions = samples.len() as u64;
    let buffer = &mut carried.buffer;
    buffer.push(samples);
    while buffer.len() > cfg.window.max(1) as usize {
        buffer.remove(0);
    }
    let all: Vec<Sample> = buffer.iter().flatten().cloned().collect();
    let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(cfg.seed, &[5, u64::from(g)]));
    let (policy_loss, value_loss) = carried
        .learner
        .train(&all, cfg.steps, cfg.batch, cfg.lr, &mut rng)?;
    let cand_bytes = carried.learner.to_bytes()?;
    let candidate = engine_net(&cand_bytes)?;
    if crate::interrupt::requested() {
        return Err(TrainError::Interrupted);
    }
    let gate_score = games::gate_score(cfg, g, &candidate, &carried.best);
    let kept = gate_score >= 0.5;
    if kept {
        carried.best = candidate;
        carried.best_gen = g;
    }
    let anchor_scores = games::anchor_scores(cfg, g, &carried.best);
    if crate::interrupt::requested() {
        return Err(TrainError::Interrupted);
    }
    write_file(&net_path(out, g), &cand_bytes)?;
    write_file(&out.join("best.safetensors"), &carried.best.to_bytes())?;
    Ok(GenRow {
        generation: g,
        games: cfg.games,
        positions,
        buffer: all.len() as u64,
        policy_loss,
        value_loss,
        gate_score,
        kept,
        best: carried.best_gen,
        anchor_scores,
        seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu_seconds().map_or(0.0, |c| c - cpu_start),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;
    use crate::game::position::Position;
    use crate::game::rng::FastRng;
    use crate::game::rules::{HoleSetup, Rules, layout_rng};
    use crate::net::{Features, swap_index};

    fn positions() -> Vec<Position> {
        let mut rng = FastRng::new(5);
        let mut out = Vec::new();
        for (size, pie) in [(7u8, false), (7, true), (5, true)] {
            let rules = Rules {
                size,
                holes: HoleSetup::Random(3),
                pie,
                komi: Komi::from_halves(3),
            };
            let pos = rules
                .new_game(&mut layout_rng(rng.next_word()))
                .expect("rules");
            crate::net::game_positions(pos, &mut rng, &mut out);
        }
        out
    }

    /// The trainer's forward pass (candle) and the engine's (`crate::net`)
    /// give the same logits and values for the same file, with and
    /// without global pooling and the margin head.
    #[test]
    fn candle_and_the_engine_agree_on_a_network() {
        let plain = PvNet::random(8, 2, 16, 3);
        for net in [
            plain.clone(),
            plain.clone().with_pooling(4),
            plain.clone().with_margin_head(5).with_pooling(6),
        ] {
            agree(&net);
        }
    }

    fn agree(net: &PvNet) {
        let learner = Learner::from_bytes(&net.to_bytes()).expect("learner");
        let mut scratch = crate::net::Scratch::default();
        for size in [7u8, 5] {
            let ps: Vec<Position> = positions()
                .into_iter()
                .filter(|p| p.size() == size)
                .collect();
            let samples: Vec<Sample> = ps
                .iter()
                .map(|p| Sample {
                    features: Features::of(p),
                    policy: vec![0.0; swap_index(size) + 1],
                    z: 0.0,
                    margin: 0.0,
                })
                .collect();
            let (logits, values) = learner.evaluate(&samples).expect("forward");
            for (i, p) in ps.iter().enumerate() {
                let e = net.evaluate(p, &mut scratch);
                assert!(
                    (e.value - values[i]).abs() < 1e-4,
                    "{} vs {}",
                    e.value,
                    values[i]
                );
                for (a, b) in e.logits.iter().zip(&logits[i]) {
                    assert!((a - b).abs() < 1e-3, "logit {a} vs {b}");
                }
            }
        }
        // And the file written back is the same network.
        let back = PvNet::from_bytes(&learner.to_bytes().expect("bytes")).expect("net");
        assert_eq!(&back, net);
    }

    /// The shipped network read as a checkpoint by the trainer gives what
    /// the engine's built-in one gives.
    #[test]
    fn the_shipped_network_is_the_same_as_a_checkpoint_and_as_the_engines() {
        let bytes = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/data/zero-7.safetensors"
        ))
        .expect("data/zero-7.safetensors");
        let learner = Learner::from_bytes(&bytes).expect("checkpoint");
        let net = PvNet::builtin();
        let ps: Vec<Position> = positions().into_iter().filter(|p| p.size() == 7).collect();
        let samples: Vec<Sample> = ps
            .iter()
            .map(|p| Sample {
                features: Features::of(p),
                policy: vec![0.0; 50],
                z: 0.0,
                margin: 0.0,
            })
            .collect();
        let (logits, values) = learner.evaluate(&samples).expect("forward");
        let mut scratch = crate::net::Scratch::default();
        for (i, p) in ps.iter().enumerate() {
            let e = net.evaluate(p, &mut scratch);
            assert!((e.value - values[i]).abs() < 1e-4);
            for (a, b) in e.logits.iter().zip(&logits[i]) {
                assert!((a - b).abs() < 1e-3, "logit {a} vs {b}");
            }
        }
    }
}
