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
//!    game's result for the side to move.
//! 2. **Training**: `steps` AdamW steps on batches drawn from the replay
//!    buffer, the samples of the last `window` generations, each under a
//!    random symmetry of the square. The candidate network goes on from
//!    the last candidate.
//! 3. **The gate**: the candidate plays the best network `gate_games`
//!    games (both colours on each layout pair); it becomes the best when
//!    it scores at least half, so it is kept unless it is weaker.
//! 4. **Anchors**: the best network plays `heuristic` and
//!    `mcts:iters=2000`; its Elo against each is the curve of `train.svg`.
//!
//! # Files and resume
//! `run.json`, `train.csv` (a row per generation, written last),
//! `nets/gen-N.safetensors` (the candidate after generation N, and the
//! starting network as generation 0), `samples/gen-N.bin`, `best.safetensors`
//! and `train.svg`. A resumed run reads the rows, checks that their files
//! are there, and goes on from the generation after the last row: an
//! unfinished generation is played again from its own seeds. Every game's
//! seeds come from `--seed`, the generation and the game, so the games do
//! not depend on the threads; the training steps (candle's matrix
//! products) are the same for a fixed thread count.

mod learn;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use learn::{LearnError, Learner};

use crate::arena::game::play_game;
use crate::bot::Bot;
use crate::bot::builtin_catalog;
use crate::bot::zero::{Budget, ZeroBot, ZeroConfig};
use crate::csv_rows::{self, fixed};
use crate::game::bitboard::Bitboard;
use crate::game::outcome::{Komi, Move};
use crate::game::player::Player;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::game::rules::{HoleSetup, Rules, layout_rng};
use crate::net::{Features, PvNet, square_index, swap_index};

/// The anchors of the Elo curve, fixed so that generations compare.
pub const ANCHORS: [&str; 2] = ["heuristic", "mcts:iters=2000"];

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
    /// Board side.
    pub size: u8,
    /// Hole counts the games cycle through.
    pub holes: Vec<u32>,
    /// Root noise share and plies drawn by visits in self-play.
    pub noise: f32,
    /// Plies from the start drawn by visit share.
    pub explore: u32,
    /// The run's seed.
    pub seed: u64,
}

/// One position of a self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position.
    pub features: Features,
    /// Visit shares by policy index (`size * size + 1`).
    pub policy: Vec<f32>,
    /// The game's result for the side to move: 1, 0 or -1.
    pub z: f32,
}

impl Sample {
    /// The policy target under symmetry `sym`.
    pub fn transformed_policy(&self, sym: u8) -> Vec<f32> {
        let size = self.features.size;
        let n = swap_index(size);
        let mut out = vec![0f32; n + 1];
        for (i, &p) in self.policy.iter().enumerate().take(n) {
            let sq = crate::net::index_square(i, size).transform(sym, size);
            out[square_index(sq, size)] = p;
        }
        out[n] = self.policy[n];
        out
    }

    fn write(&self, out: &mut Vec<u8>) {
        let f = &self.features;
        for b in [f.mine, f.theirs, f.holes] {
            out.extend_from_slice(&b.0.to_le_bytes());
        }
        out.extend_from_slice(&[f.size, u8::from(f.white), u8::from(f.swap), 0]);
        out.extend_from_slice(&f.komi_halves.to_le_bytes());
        out.extend_from_slice(&self.z.to_le_bytes());
        for p in &self.policy {
            out.extend_from_slice(&p.to_le_bytes());
        }
    }

    fn read(bytes: &[u8], size: u8) -> Option<(Sample, usize)> {
        let width = swap_index(size) + 1;
        let len = 24 + 4 + 4 + 4 + 4 * width;
        if bytes.len() < len {
            return None;
        }
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
        let f32_at = |i: usize| f32::from_le_bytes(bytes[i..i + 4].try_into().unwrap_or([0; 4]));
        if bytes[24] != size {
            return None;
        }
        let features = Features {
            mine: Bitboard(u64_at(0)),
            theirs: Bitboard(u64_at(8)),
            holes: Bitboard(u64_at(16)),
            size,
            white: bytes[25] != 0,
            swap: bytes[26] != 0,
            komi_halves: i32::from_le_bytes(bytes[28..32].try_into().unwrap_or([0; 4])),
        };
        let z = f32_at(32);
        let policy = (0..width).map(|i| f32_at(36 + 4 * i)).collect();
        Some((
            Sample {
                features,
                policy,
                z,
            },
            len,
        ))
    }
}

/// A generation's row of `train.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct GenRow {
    /// Generation number, from 1.
    pub generation: u32,
    /// Self-play games played.
    pub games: u32,
    /// Positions they gave.
    pub positions: u64,
    /// Samples in the replay buffer.
    pub buffer: u64,
    /// Mean policy loss (cross-entropy, nats) over the steps.
    pub policy_loss: f64,
    /// Mean value loss (squared error) over the steps.
    pub value_loss: f64,
    /// The candidate's score against the best network.
    pub gate_score: f64,
    /// Whether the candidate became the best.
    pub kept: bool,
    /// The generation whose network is now the best.
    pub best: u32,
    /// The best network's score against each anchor.
    pub anchor_scores: Vec<f64>,
    /// Seconds the generation took (not reproducible).
    pub seconds: f64,
}

/// One line of `train.csv`: a [`GenRow`] with the anchors' Elo.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TrainCsvRow {
    /// Generation number, from 1.
    pub generation: u32,
    /// Self-play games played.
    pub games: u32,
    /// Positions they gave.
    pub positions: u64,
    /// Samples in the replay buffer.
    pub buffer: u64,
    /// Mean policy loss over the steps.
    #[serde(serialize_with = "fixed::d4")]
    pub policy_loss: f64,
    /// Mean value loss over the steps.
    #[serde(serialize_with = "fixed::d4")]
    pub value_loss: f64,
    /// The candidate's score against the best network.
    #[serde(serialize_with = "fixed::d4")]
    pub gate_score: f64,
    /// Whether the candidate became the best.
    pub kept: bool,
    /// The generation whose network is now the best.
    pub best: u32,
    /// The best network's score against `heuristic`.
    #[serde(serialize_with = "fixed::d4")]
    pub score_heuristic: f64,
    /// Against `mcts:iters=2000`.
    #[serde(serialize_with = "fixed::d4")]
    pub score_mcts2000: f64,
    /// The Elo that score means.
    #[serde(serialize_with = "fixed::d1")]
    pub elo_heuristic: f64,
    /// The Elo that score means.
    #[serde(serialize_with = "fixed::d1")]
    pub elo_mcts2000: f64,
    /// Seconds the generation took.
    #[serde(serialize_with = "fixed::d1")]
    pub seconds: f64,
}

/// The header of `train.csv`, without its newline.
pub fn header() -> String {
    csv_rows::header::<TrainCsvRow>()
}

/// The Elo difference a score rate over `games` games means, a clean
/// sweep counted with one virtual draw as everywhere else
/// ([`crate::stats::rating::regularised`]), so that it stays finite.
pub fn elo_of(score: f64, games: u32) -> f64 {
    let g = f64::from(games.max(1));
    crate::stats::rating::elo_of_points(score.clamp(0.0, 1.0) * g, g)
}

impl GenRow {
    /// The row of `train.csv`.
    pub fn csv_row(&self, anchor_games: u32) -> TrainCsvRow {
        let a = |i: usize| self.anchor_scores.get(i).copied().unwrap_or(0.0);
        TrainCsvRow {
            generation: self.generation,
            games: self.games,
            positions: self.positions,
            buffer: self.buffer,
            policy_loss: self.policy_loss,
            value_loss: self.value_loss,
            gate_score: self.gate_score,
            kept: self.kept,
            best: self.best,
            score_heuristic: a(0),
            score_mcts2000: a(1),
            elo_heuristic: elo_of(a(0), anchor_games),
            elo_mcts2000: elo_of(a(1), anchor_games),
            seconds: self.seconds,
        }
    }

    /// The row as CSV (no newline).
    pub fn csv(&self, anchor_games: u32) -> String {
        let mut s = String::new();
        csv_rows::push(&mut s, &self.csv_row(anchor_games));
        s.truncate(s.trim_end().len());
        s
    }

    /// The row a `train.csv` line holds (the Elo columns follow from
    /// the scores).
    pub fn from_csv(f: TrainCsvRow) -> GenRow {
        GenRow {
            generation: f.generation,
            games: f.games,
            positions: f.positions,
            buffer: f.buffer,
            policy_loss: f.policy_loss,
            value_loss: f.value_loss,
            gate_score: f.gate_score,
            kept: f.kept,
            best: f.best,
            anchor_scores: vec![f.score_heuristic, f.score_mcts2000],
            seconds: f.seconds,
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

/// `zero`'s defaults with the trainer's network, budget, root noise and
/// exploring plies.
fn zero_config(net: Arc<PvNet>, iters: u64, noise: f32, explore: u32) -> ZeroConfig {
    let mut cfg = ZeroConfig::defaults();
    cfg.net = net;
    cfg.budget = Budget::Iters(iters);
    cfg.settings.noise = noise;
    cfg.explore = explore;
    cfg
}

/// The rules of game `i` of a generation: hole counts cycled, the pie
/// rule on every other turn of the cycle.
fn rules_of(cfg: &TrainConfig, i: u32) -> Rules {
    let k = cfg.holes.len().max(1) as u32;
    Rules {
        size: cfg.size,
        holes: HoleSetup::Random(cfg.holes.get((i % k) as usize).copied().unwrap_or(0)),
        pie: (i / k) % 2 == 1,
        komi: Komi::ZERO,
    }
}

/// One self-play game's samples.
fn self_play(cfg: &TrainConfig, net: &Arc<PvNet>, generation: u32, i: u32) -> Vec<Sample> {
    let rules = rules_of(cfg, i);
    let start = rules
        .new_game(&mut layout_rng(derive_seed(
            cfg.seed,
            &[1, u64::from(generation), u64::from(i)],
        )))
        .unwrap_or_else(|e| unreachable!("train checks its rules: {e}"));
    let seed = derive_seed(cfg.seed, &[2, u64::from(generation), u64::from(i)]);
    let mut bot = ZeroBot::new(
        "self",
        zero_config(Arc::clone(net), cfg.iters, cfg.noise, cfg.explore),
        seed,
    );
    let mut game = Game::new(start);
    let mut plies: Vec<(Features, Vec<f32>, Player)> = Vec::new();
    let width = swap_index(cfg.size) + 1;
    while !game.is_over() {
        if crate::interrupt::requested() {
            return Vec::new();
        }
        let pos = *game.position();
        let Ok(mv) = bot.search(&game) else { break };
        let mut policy = vec![0f32; width];
        let visits = bot.root_visits();
        let total: u32 = visits.iter().map(|v| v.1).sum();
        let index = |m: Move| match m {
            Move::Swap => width - 1,
            Move::Place(sq) => square_index(sq, cfg.size),
        };
        if total > 0 {
            for (m, v) in visits {
                policy[index(m)] = v as f32 / total as f32;
            }
        } else {
            policy[index(mv)] = 1.0;
        }
        plies.push((Features::of(&pos), policy, pos.turn()));
        if game.try_play(mv).is_err() {
            break;
        }
    }
    let winner = game.outcome().winner();
    plies
        .into_iter()
        .map(|(features, policy, turn)| Sample {
            features,
            policy,
            z: match winner {
                None => 0.0,
                Some(w) if w == turn => 1.0,
                Some(_) => -1.0,
            },
        })
        .collect()
}

/// The score of `a` against `b` over `games` games (colours alternating
/// on each layout, pie rule on every other layout pair).
fn match_score(
    cfg: &TrainConfig,
    tag: u64,
    generation: u32,
    games: u32,
    make_a: &(dyn Fn(u64) -> Box<dyn Bot> + Sync),
    make_b: &(dyn Fn(u64) -> Box<dyn Bot> + Sync),
) -> f64 {
    if games == 0 {
        return 0.5;
    }
    let points: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|i| {
            let pair = i / 2;
            let rules = rules_of(cfg, pair);
            let start = rules
                .new_game(&mut layout_rng(derive_seed(
                    cfg.seed,
                    &[tag, u64::from(generation), u64::from(pair)],
                )))
                .unwrap_or_else(|e| unreachable!("train checks its rules: {e}"));
            let seeds = [3, 4]
                .map(|s| derive_seed(cfg.seed, &[tag, s, u64::from(generation), u64::from(i)]));
            let (mut a, mut b) = (make_a(seeds[0]), make_b(seeds[1]));
            let a_first = i % 2 == 0;
            let r = if a_first {
                play_game(start, a.as_mut(), b.as_mut(), |_| {})
            } else {
                play_game(start, b.as_mut(), a.as_mut(), |_| {})
            };
            let a_seat = if a_first {
                crate::arena::game::Seat::First
            } else {
                crate::arena::game::Seat::Second
            };
            match r.outcome.winner() {
                None => 0.5,
                Some(c) if r.seat_of(c) == a_seat => 1.0,
                Some(_) => 0.0,
            }
        })
        .collect();
    points.iter().sum::<f64>() / f64::from(games)
}

/// Reads the rows of `train.csv` and checks their files, for a resume.
///
/// # Errors
/// A row that does not parse or a file that is missing.
pub fn read_rows(out: &Path) -> Result<Vec<GenRow>, TrainError> {
    let path = out.join("train.csv");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(file_err(&path)(e)),
    };
    // A kill in the middle of a write leaves a torn last line: it is
    // dropped, and that generation is played again.
    let whole = csv_rows::complete(&text);
    if whole.is_empty() {
        return Ok(Vec::new());
    }
    let bad = |n: usize, why: &str| TrainError::File {
        path: format!("{}:{n}", path.display()),
        why: why.to_string(),
    };
    let parsed = csv_rows::parse::<TrainCsvRow>(whole)
        .map_err(|(n, m)| bad(n, &format!("not a train.csv row: {m}")))?;
    let mut rows = Vec::new();
    for (n, f) in parsed {
        let bad = |why: &str| bad(n, why);
        let row = GenRow::from_csv(f);
        if row.generation as usize != rows.len() + 1 {
            return Err(bad("generations are not consecutive from 1"));
        }
        for p in [
            net_path(out, row.generation),
            samples_path(out, row.generation),
        ] {
            if !p.exists() {
                return Err(bad(&format!("its file {} is missing", p.display())));
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

fn read_samples(out: &Path, g: u32, size: u8) -> Result<Vec<Sample>, TrainError> {
    let path = samples_path(out, g);
    let bytes = std::fs::read(&path).map_err(file_err(&path))?;
    let mut at = 0;
    let mut v = Vec::new();
    while at < bytes.len() {
        let Some((s, len)) = Sample::read(&bytes[at..], size) else {
            return Err(TrainError::File {
                path: path.display().to_string(),
                why: format!("a sample at byte {at} is cut short or of another board"),
            });
        };
        v.push(s);
        at += len;
    }
    Ok(v)
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
    let start_path = net_path(out, 0);
    if rows.is_empty() || !start_path.exists() {
        let (c, b, h) = cfg.shape;
        let net = PvNet::random(c, b, h, derive_seed(cfg.seed, &[0]));
        write_file(&start_path, &net.to_bytes())?;
    }
    let last = rows.last().map_or(0, |r| r.generation);
    let read = |p: &Path| std::fs::read(p).map_err(file_err(p));
    let mut learner = Learner::from_bytes(&read(&net_path(out, last))?)?;
    let best_gen = rows.last().map_or(0, |r| r.best);
    let mut best = engine_net(&read(&net_path(out, best_gen))?)?;
    let mut best_gen = best_gen;
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
    for g in last + 1..=cfg.generations {
        let started = std::time::Instant::now();
        let done = std::sync::atomic::AtomicU64::new(0);
        let total = u64::from(cfg.games);
        let games: Vec<Vec<Sample>> = (0..cfg.games)
            .into_par_iter()
            .map(|i| {
                let s = self_play(cfg, &best, g, i);
                let d = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress.game(g, d, total);
                s
            })
            .collect();
        if crate::interrupt::requested() {
            return Err(TrainError::Interrupted);
        }
        let samples: Vec<Sample> = games.into_iter().flatten().collect();
        let mut bytes = Vec::new();
        for s in &samples {
            s.write(&mut bytes);
        }
        write_file(&samples_path(out, g), &bytes)?;
        let positions = samples.len() as u64;
        buffer.push(samples);
        while buffer.len() > cfg.window.max(1) as usize {
            buffer.remove(0);
        }
        let all: Vec<Sample> = buffer.iter().flatten().cloned().collect();
        let mut rng = ChaCha8Rng::seed_from_u64(derive_seed(cfg.seed, &[5, u64::from(g)]));
        let (policy_loss, value_loss) =
            learner.train(&all, cfg.steps, cfg.batch, cfg.lr, &mut rng)?;
        let cand_bytes = learner.to_bytes()?;
        let candidate = engine_net(&cand_bytes)?;
        if crate::interrupt::requested() {
            return Err(TrainError::Interrupted);
        }
        let mi = cfg.match_iters;
        let gate_score = match_score(
            cfg,
            6,
            g,
            cfg.gate_games,
            &|s| {
                Box::new(ZeroBot::new(
                    "candidate",
                    zero_config(Arc::clone(&candidate), mi, 0.0, 0),
                    s,
                ))
            },
            &|s| {
                Box::new(ZeroBot::new(
                    "best",
                    zero_config(Arc::clone(&best), mi, 0.0, 0),
                    s,
                ))
            },
        );
        let kept = gate_score >= 0.5;
        if kept {
            best = candidate;
            best_gen = g;
        }
        let catalog = builtin_catalog();
        let mut anchor_scores = Vec::new();
        for (k, spec) in ANCHORS.iter().enumerate() {
            let spec = catalog
                .parse(spec)
                .unwrap_or_else(|e| unreachable!("the anchors are valid specs: {e}"));
            let best_now = &best;
            anchor_scores.push(match_score(
                cfg,
                7 + k as u64,
                g,
                cfg.anchor_games,
                &|s| {
                    Box::new(ZeroBot::new(
                        "best",
                        zero_config(Arc::clone(best_now), mi, 0.0, 0),
                        s,
                    ))
                },
                &|s| {
                    catalog
                        .build(&spec, s)
                        .unwrap_or_else(|e| unreachable!("the anchors build: {e}"))
                },
            ));
        }
        if crate::interrupt::requested() {
            return Err(TrainError::Interrupted);
        }
        write_file(&net_path(out, g), &cand_bytes)?;
        write_file(&out.join("best.safetensors"), &best.to_bytes())?;
        let row = GenRow {
            generation: g,
            games: cfg.games,
            positions,
            buffer: all.len() as u64,
            policy_loss,
            value_loss,
            gate_score,
            kept,
            best: best_gen,
            anchor_scores,
            seconds: started.elapsed().as_secs_f64(),
        };
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&csv)
            .map_err(file_err(&csv))?;
        writeln!(f, "{}", row.csv(cfg.anchor_games)).map_err(file_err(&csv))?;
        f.sync_data().map_err(file_err(&csv))?;
        progress.generation(&row);
        rows.push(row);
        write_file(
            &out.join("train.svg"),
            plot(&rows, cfg.anchor_games).as_bytes(),
        )?;
    }
    Ok(rows)
}

/// `train.svg`: the losses and the Elo against the anchors by generation,
/// one above the other.
pub fn plot(rows: &[GenRow], anchor_games: u32) -> String {
    use crate::plot::{Estimate, LinePlot, Series, line_plot};
    let pt = |x: u32, y: f64| Estimate {
        x: f64::from(x),
        y,
        lo: y,
        hi: y,
    };
    let losses = LinePlot {
        title: "Training loss by generation".into(),
        x_label: "generation".into(),
        y_label: "mean loss over the generation's steps".into(),
        series: vec![
            Series {
                label: "policy (cross-entropy, nats)".into(),
                points: rows
                    .iter()
                    .map(|r| pt(r.generation, r.policy_loss))
                    .collect(),
            },
            Series {
                label: "value (squared error)".into(),
                points: rows
                    .iter()
                    .map(|r| pt(r.generation, r.value_loss))
                    .collect(),
            },
        ],
        connect: true,
        ..Default::default()
    };
    let g = f64::from(anchor_games.max(1));
    let elo = LinePlot {
        title: "Elo of the best network against fixed anchors".into(),
        x_label: "generation".into(),
        y_label: "Elo difference (95% interval of the score)".into(),
        series: ANCHORS
            .iter()
            .enumerate()
            .map(|(k, a)| Series {
                label: format!("against {a}"),
                points: rows
                    .iter()
                    .map(|r| {
                        let s = r.anchor_scores.get(k).copied().unwrap_or(0.5);
                        let e = crate::stats::rating::elo_interval(s.clamp(0.0, 1.0) * g, g);
                        Estimate {
                            x: f64::from(r.generation),
                            y: e.elo,
                            lo: e.lo,
                            hi: e.hi,
                        }
                    })
                    .collect(),
            })
            .collect(),
        reference: Some((0.0, "equal strength".into())),
        connect: true,
        ..Default::default()
    };
    let a = line_plot(&losses).unwrap_or_default();
    let b = line_plot(&elo).unwrap_or_default();
    let strip = |s: &str| -> String {
        // Drop the XML declaration so that the two plots nest.
        s.trim_start_matches(|c| c != '<')
            .split_once("?>")
            .map_or(s.to_string(), |(_, rest)| rest.to_string())
    };
    let (w, h) = crate::plot::SIZE;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\">\n<g>{}</g>\n<g transform=\"translate(0,{h})\">{}</g>\n</svg>\n",
        2 * h,
        strip(&a),
        strip(&b)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::position::Position;
    use crate::game::rng::FastRng;

    #[test]
    fn train_csv_rows_keep_their_bytes_and_read_back() {
        let row = GenRow {
            generation: 3,
            games: 40,
            positions: 1234,
            buffer: 5678,
            policy_loss: 1.234_56,
            value_loss: 0.5,
            gate_score: 0.55,
            kept: true,
            best: 3,
            anchor_scores: vec![0.75, 0.125],
            seconds: 12.34,
        };
        let line = row.csv(20);
        assert_eq!(
            line,
            "3,40,1234,5678,1.2346,0.5000,0.5500,true,3,0.7500,0.1250,190.8,-338.0,12.3"
        );
        let text = format!("{}\n{line}\n", header());
        let back = csv_rows::parse::<TrainCsvRow>(&text).expect("parse");
        let again = GenRow::from_csv(back[0].1.clone());
        assert_eq!(again.csv(20), line);
    }

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
    /// give the same logits and values for the same file.
    #[test]
    fn candle_and_the_engine_agree_on_a_network() {
        let net = PvNet::random(8, 2, 16, 3);
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
        assert_eq!(back, net);
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
