//! The trainer's games, played on the arena's ordered runner
//! ([`run_in_order`]): a generation's self-play, and its matches (the
//! gate and the anchors) laid out by the arena's [`Schedule`] (colours
//! alternating on each layout pair, the rules cycling pair by pair).
//!
//! The seeds stay the trainer's own, from `--seed`, a stream tag, the
//! generation and the game (`derive_seed`), not the schedule's: a run's
//! games, and so its networks, are those the trainer has always played.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::targets::{PlayoutCap, Targets};
use super::{ANCHORS, Sample, TrainConfig, TrainProgress};
use crate::arena::game::{Seat, play_game};
use crate::arena::ordered::{each, run_in_order};
use crate::arena::schedule::{Format, Schedule};
use crate::bot::zero::{Budget, RootSearch, ZeroBot, ZeroConfig};
use crate::bot::{Bot, builtin_catalog};
use crate::game::outcome::{Komi, Move};
use crate::game::position::Position;
use crate::game::record::Game;
use crate::game::rng::derive_seed;
use crate::game::rules::{HoleSetup, Rules, layout_rng};
use crate::net::{PvNet, square_index, swap_index};

/// Makes a player of a match from its seed.
pub type MakeBot<'a> = &'a (dyn Fn(u64) -> Box<dyn Bot> + Sync);

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

/// The runner's threads: those of the rayon pool the training runs on
/// (`--threads`).
fn threads() -> usize {
    rayon::current_num_threads()
}

/// Generation `generation`'s self-play games by `net`, each game alone on
/// a thread (`together` plays many at once), their samples in game order;
/// `progress` hears of each game as it is handed on. An interrupt cuts
/// the games short (the caller drops the generation).
pub fn self_play_generation(
    cfg: &TrainConfig,
    net: &Arc<PvNet>,
    generation: u32,
    progress: &dyn TrainProgress,
) -> Vec<Vec<Sample>> {
    let total = u64::from(cfg.games);
    let mut games = Vec::with_capacity(cfg.games as usize);
    // No game fails: the run ends early on an interrupt alone, which the
    // caller checks.
    let _ = run_in_order(
        "self-play",
        cfg.games as usize,
        threads(),
        &AtomicBool::new(false),
        || (),
        |(), i| {
            let mut game = SelfPlayGame::new(cfg, net, generation, i as u32, false);
            while game.advance().is_some() {
                game.bot.evaluate_own();
            }
            Some(Ok::<_, ()>(game.samples()))
        },
        &mut each(|i, samples| {
            games.push(samples);
            progress.game(generation, i as u64 + 1, total);
            Ok(ControlFlow::Continue(()))
        }),
    );
    games
}

/// One self-play game in progress, played a search step at a time so
/// that its leaves may be evaluated with other games' (`--parallel-games`,
/// `together`) or by its own bot.
pub(super) struct SelfPlayGame<'a> {
    cfg: &'a TrainConfig,
    pub(super) bot: ZeroBot,
    cap: PlayoutCap,
    game: Game,
    /// The positions of the moves searched in full, with their policy
    /// targets.
    plies: Vec<(Position, Vec<f32>)>,
    /// The move being searched: its position and whether it is recorded.
    searching: Option<(Position, bool)>,
    interrupted: bool,
}

impl<'a> SelfPlayGame<'a> {
    /// Game `i` of generation `generation`, its position before the first
    /// move; with `one_leaf`, its searches take one leaf a step (no
    /// virtual loss), the leaves of games played at once.
    pub(super) fn new(
        cfg: &'a TrainConfig,
        net: &Arc<PvNet>,
        generation: u32,
        i: u32,
        one_leaf: bool,
    ) -> SelfPlayGame<'a> {
        let rules = rules_of(cfg, i);
        let path = |tag: u64| derive_seed(cfg.seed, &[tag, u64::from(generation), u64::from(i)]);
        let start = rules
            .new_game(&mut layout_rng(path(1)))
            .unwrap_or_else(|e| unreachable!("train checks its rules: {e}"));
        let mut zcfg = zero_config(Arc::clone(net), cfg.iters, cfg.noise, cfg.explore);
        // --gumbel: the Gumbel root search, whose improved policy is the target.
        if cfg.gumbel {
            zcfg.root = RootSearch::Gumbel;
        }
        if one_leaf {
            zcfg.settings.batch = 1;
        }
        SelfPlayGame {
            cfg,
            bot: ZeroBot::new("self", zcfg, path(2)),
            cap: PlayoutCap::new(&cfg.targets, cfg.iters, cfg.noise, path(9)),
            game: Game::new(start),
            plies: Vec::new(),
            searching: None,
            interrupted: false,
        }
    }

    /// Plays on until the search in progress waits for the network (the
    /// number of its leaves, [`ZeroBot::leaves`]) or the game is over
    /// (`None`; an interrupt ends it too).
    pub(super) fn advance(&mut self) -> Option<usize> {
        loop {
            if let Some((pos, recorded)) = self.searching {
                let k = self.bot.next_leaves();
                if k > 0 {
                    return Some(k);
                }
                self.searching = None;
                let mv = self.bot.conclude(&self.game);
                if !self.play(pos, recorded, mv) {
                    return None;
                }
                continue;
            }
            if self.game.is_over() {
                return None;
            }
            if crate::interrupt::requested() {
                self.interrupted = true;
                return None;
            }
            let pos = *self.game.position();
            let (budget, noise, recorded) = self.cap.next();
            self.bot.set_search(budget, noise);
            let chosen = if self.cfg.gumbel {
                self.bot.search(&self.game).map(Some)
            } else {
                self.bot.begin(&self.game)
            };
            match chosen {
                Ok(Some(mv)) => {
                    if !self.play(pos, recorded, mv) {
                        return None;
                    }
                }
                Ok(None) => self.searching = Some((pos, recorded)),
                Err(_) => return None,
            }
        }
    }

    /// Records the searched position `pos` (when `recorded`) and plays
    /// `mv`; says whether the game goes on.
    fn play(&mut self, pos: Position, recorded: bool, mv: Move) -> bool {
        if recorded {
            let width = swap_index(self.cfg.size) + 1;
            let policy = visit_shares(&self.bot, mv, width, self.cfg.size);
            self.plies.push((pos, policy));
        }
        self.game.try_play(mv).is_ok()
    }

    /// The game's samples: the positions of its moves searched in full,
    /// with their targets ([`targets`](super::targets)); none when an
    /// interrupt cut it short.
    pub(super) fn samples(self) -> Vec<Sample> {
        if self.interrupted {
            return Vec::new();
        }
        let end = *self.game.position();
        let mut targets = Targets::new(&self.cfg.targets);
        self.plies
            .into_iter()
            .map(|(pos, policy)| targets.sample(&pos, policy, &end))
            .collect()
    }
}

/// The policy target of the search `bot` just made: its root's visit
/// shares (with `--gumbel`, its improved policy), or the move `mv` alone
/// where the exact solver chose it.
fn visit_shares(bot: &ZeroBot, mv: Move, width: usize, size: u8) -> Vec<f32> {
    let mut policy = vec![0f32; width];
    let target = bot.policy_target();
    let index = |m: Move| match m {
        Move::Swap => width - 1,
        Move::Place(sq) => square_index(sq, size),
    };
    if target.is_empty() {
        policy[index(mv)] = 1.0;
    } else {
        for (m, p) in target {
            policy[index(m)] = p;
        }
    }
    policy
}

/// The score of `a` against `b` over `games` games of generation
/// `generation`, on the stream `tag`: the first `games` games of the
/// arena's schedule of the two (bot 0 is `a`, and moves first in the even
/// game of each pair), the rules of pair `L` those of self-play game `L`.
fn match_score(
    cfg: &TrainConfig,
    tag: u64,
    generation: u32,
    games: u32,
    make_a: MakeBot<'_>,
    make_b: MakeBot<'_>,
) -> f64 {
    if games == 0 {
        return 0.5;
    }
    // Rules repeat every two turns of the hole cycle (with and without
    // the pie rule), so one such period is the schedule's list.
    let period = 2 * cfg.holes.len().max(1) as u32;
    let rules = (0..period).map(|i| rules_of(cfg, i)).collect();
    let schedule = Schedule::new(2, Format::Gauntlet, u64::from(games), rules, cfg.seed);
    let mut points = Vec::with_capacity(games as usize);
    // No game fails: the run ends early on an interrupt alone, after
    // which the caller drops the generation.
    let _ = run_in_order(
        "match",
        games as usize,
        threads(),
        &AtomicBool::new(false),
        || (),
        |(), i| {
            let game = schedule.game(i as u64);
            let start = schedule.rules()[game.rules]
                .new_game(&mut layout_rng(derive_seed(
                    cfg.seed,
                    &[tag, u64::from(generation), game.layout],
                )))
                .unwrap_or_else(|e| unreachable!("train checks its rules: {e}"));
            let seeds =
                [3, 4].map(|s| derive_seed(cfg.seed, &[tag, s, u64::from(generation), i as u64]));
            let (mut a, mut b) = (make_a(seeds[0]), make_b(seeds[1]));
            let a_seat = if game.first == 0 {
                Seat::First
            } else {
                Seat::Second
            };
            let r = match a_seat {
                Seat::First => {
                    play_game(Game::new(start), a.as_mut(), b.as_mut(), [None; 2], |_| {})
                }
                Seat::Second => {
                    play_game(Game::new(start), b.as_mut(), a.as_mut(), [None; 2], |_| {})
                }
            };
            Some(Ok::<_, ()>(match r.outcome.winner() {
                None => 0.5,
                Some(c) if r.seat_of(c) == a_seat => 1.0,
                Some(_) => 0.0,
            }))
        },
        &mut each(|_, p| {
            points.push(p);
            Ok(ControlFlow::Continue(()))
        }),
    );
    points.iter().sum::<f64>() / f64::from(games)
}

/// The gate: the candidate's score against the best network
/// (`--gate-games` games on stream 6), both searching `--match-iters`.
pub fn gate_score(
    cfg: &TrainConfig,
    generation: u32,
    candidate: &Arc<PvNet>,
    best: &Arc<PvNet>,
) -> f64 {
    let mi = cfg.match_iters;
    match_score(
        cfg,
        6,
        generation,
        cfg.gate_games,
        &|s| match_bot("candidate", candidate, mi, s),
        &|s| match_bot("best", best, mi, s),
    )
}

/// A match player: `net` searching `iters` leaves a move, without
/// exploration noise or drawn opening moves.
fn match_bot(name: &str, net: &Arc<PvNet>, iters: u64, seed: u64) -> Box<dyn Bot> {
    Box::new(ZeroBot::new(
        name,
        zero_config(Arc::clone(net), iters, 0.0, 0),
        seed,
    ))
}

/// The best network's score against each of [`ANCHORS`]
/// (`--anchor-games` games each, on streams 7 and 8).
pub fn anchor_scores(cfg: &TrainConfig, generation: u32, best: &Arc<PvNet>) -> Vec<f64> {
    let mi = cfg.match_iters;
    let catalog = builtin_catalog();
    let mut scores = Vec::new();
    for (k, spec) in ANCHORS.iter().enumerate() {
        let spec = catalog
            .parse(spec)
            .unwrap_or_else(|e| unreachable!("the anchors are valid specs: {e}"));
        scores.push(match_score(
            cfg,
            7 + k as u64,
            generation,
            cfg.anchor_games,
            &|s| match_bot("best", best, mi, s),
            &|s| {
                catalog
                    .build(&spec, s)
                    .unwrap_or_else(|e| unreachable!("the anchors build: {e}"))
            },
        ));
    }
    scores
}
