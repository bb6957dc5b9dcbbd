//! Building a start-position suite (`pahtum openings`): random layouts
//! and short random openings, kept where a search's evaluation of White's
//! expected score lies in a band.
//!
//! Candidate `i` is a pure function of the seed and `i`: its holes (the
//! hole counts cycle by candidate) come from `derive_seed(seed, [TAG, i])`,
//! its random plies from the next stream, and the judging bot's seed from
//! a third, so the suite is the same whatever the threads: candidates are
//! judged in parallel and kept in candidate order until enough are kept.

use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use crate::arena::ordered::{Deliver, cancelled, run_in_order};
use crate::bot::{BotSpec, Catalog};
use crate::game::outcome::Move;
use crate::game::player::Player;
use crate::game::record::Game;
use crate::game::rng::{FastRng, derive_seed};
use crate::game::rules::{Rules, layout_rng};
use crate::game::suite::Start;

/// Tag of the candidates' streams.
const TAG: u64 = 0x6f70_656e;

/// What a suite is built from.
#[derive(Clone, Debug)]
pub struct SuiteBuild {
    /// The rules, one per hole count (or one fixed layout), cycled by
    /// candidate; the random plies never swap under the pie rule.
    pub rules: Vec<Rules>,
    /// Random plies played after the holes.
    pub plies: u32,
    /// The judging bot: a search that reports its root evaluation as the
    /// mover's expected score share in `[0, 1]` (`mcts`).
    pub bot: BotSpec,
    /// The band of White's expected score a start must lie in, inclusive.
    pub band: (f64, f64),
    /// Seed of every candidate.
    pub seed: u64,
}

/// One judged candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Its index.
    pub index: u64,
    /// The start.
    pub start: Start,
    /// White's expected score as the bot's root evaluation gives it.
    pub white: f64,
}

/// The bots whose root evaluation is the mover's expected score share in
/// `[0, 1]`, as the band needs.
pub const JUDGES: &[&str] = &["mcts", "flatmc"];

/// Checks that `spec` can judge a start: one of [`JUDGES`], with a search
/// bounded by iterations or playouts, not by time (the suite must be the
/// same on every machine).
///
/// # Errors
/// A message naming `--bot`.
pub fn check_judge(spec: &BotSpec, catalog: &Catalog) -> Result<(), String> {
    if !JUDGES.contains(&spec.name.as_str()) {
        return Err(format!(
            "--bot {}: a judge must be {} (their evaluation is the mover's expected score in [0, 1])",
            spec.as_str(),
            JUDGES.join(" or ")
        ));
    }
    let bot = catalog.build(spec, 0).map_err(|e| format!("--bot: {e}"))?;
    if !bot.is_replayable() || spec.time_control().ok().flatten().is_some() {
        return Err(format!(
            "--bot {}: give the judge an iteration budget, not a time budget, so that the suite is the same on every machine",
            spec.as_str()
        ));
    }
    Ok(())
}

impl SuiteBuild {
    /// Candidate `index`: a layout, random plies, and the bot's verdict.
    ///
    /// # Errors
    /// A bot that cannot be built or reports no evaluation in `[0, 1]`.
    pub fn candidate(&self, catalog: &Catalog, index: u64) -> Result<Candidate, String> {
        let rules = &self.rules[(index % self.rules.len() as u64) as usize];
        let pos = rules
            .new_game(&mut layout_rng(derive_seed(self.seed, &[TAG, index, 0])))
            .map_err(|e| format!("rules: {e}"))?;
        let mut game = Game::new(pos);
        let mut rng = FastRng::new(derive_seed(self.seed, &[TAG, index, 1]));
        // Never the last ply: a start must leave the bots a move.
        for _ in 0..self.plies {
            let legal = game.position().legal_moves();
            if legal.count() <= 1 {
                break;
            }
            let k = rng.below(legal.count());
            if let Some(sq) = legal.nth(k) {
                let _ = game.try_play(Move::Place(sq));
            }
        }
        let mut bot = catalog
            .build(&self.bot, derive_seed(self.seed, &[TAG, index, 2]))
            .map_err(|e| format!("--bot: {e}"))?;
        let choice = bot.select_move(&game).map_err(|e| format!("--bot: {e}"))?;
        // The mover's expected score: the search's mean reward; where it
        // gives none (a move the exact endgame search chose alone, near
        // the end), the result that search proved.
        let share = bot
            .last_search()
            .and_then(|s| s.eval.or(s.expect))
            .filter(|e| (0.0..=1.0).contains(e))
            .ok_or_else(|| {
                format!(
                    "--bot {}: its search gave no expected score in [0, 1] for candidate {index} ({} random plies)",
                    self.bot.as_str(),
                    game.moves().len()
                )
            })?;
        // A swapper takes White: its share is then White's.
        let white = if game.position().turn() == Player::White || choice == Move::Swap {
            share
        } else {
            1.0 - share
        };
        Ok(Candidate {
            index,
            start: Start {
                holes: game.start().holes(),
                moves: game.moves().to_vec(),
            },
            white,
        })
    }

    /// Whether `white` lies in the band.
    pub fn keeps(&self, white: f64) -> bool {
        self.band.0 <= white && white <= self.band.1
    }
}

/// How a build ended.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    /// The kept candidates, in candidate order.
    pub kept: Vec<Candidate>,
    /// Candidates judged up to the last kept one.
    pub tried: u64,
}

/// Judges candidates `0..most` on `threads` threads, in order, until
/// `count` are kept; `on_candidate` sees each judged candidate in order
/// with whether it was kept (for progress).
///
/// # Errors
/// The first candidate's error; [`BuildError::Interrupted`] when `cancel`
/// was set; [`BuildError::TooFew`] when `most` candidates keep fewer.
pub fn build_suite(
    build: &SuiteBuild,
    catalog: &Catalog,
    count: usize,
    most: u64,
    threads: usize,
    cancel: &AtomicBool,
    on_candidate: &mut dyn FnMut(&Candidate, bool),
) -> Result<Built, BuildError> {
    struct Sink<'a> {
        build: &'a SuiteBuild,
        count: usize,
        kept: Vec<Candidate>,
        tried: u64,
        on: &'a mut dyn FnMut(&Candidate, bool),
    }
    impl Deliver<Candidate, String> for Sink<'_> {
        fn deliver(&mut self, _: usize, c: Candidate) -> Result<ControlFlow<()>, String> {
            let keep = self.build.keeps(c.white);
            self.tried = c.index + 1;
            (self.on)(&c, keep);
            if keep {
                self.kept.push(c);
            }
            Ok(if self.kept.len() >= self.count {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        }
    }
    let mut sink = Sink {
        build,
        count,
        kept: Vec::with_capacity(count),
        tried: 0,
        on: on_candidate,
    };
    let jobs = usize::try_from(most).unwrap_or(usize::MAX);
    let work = |_: &mut (), i: usize| {
        let r = build.candidate(catalog, i as u64);
        (!cancelled(cancel)).then_some(r)
    };
    let status = run_in_order("openings", jobs, threads, cancel, || (), work, &mut sink)
        .map_err(BuildError::Candidate)?;
    if sink.kept.len() < count {
        if status.stopped && cancelled(cancel) {
            return Err(BuildError::Interrupted {
                kept: sink.kept.len(),
            });
        }
        return Err(BuildError::TooFew {
            kept: sink.kept.len(),
            tried: sink.tried,
        });
    }
    Ok(Built {
        kept: sink.kept,
        tried: sink.tried,
    })
}

/// Why a build stopped without a suite.
#[derive(Clone, Debug, PartialEq)]
pub enum BuildError {
    /// A candidate could not be judged.
    Candidate(String),
    /// Stopped by an interrupt.
    Interrupted {
        /// Starts kept by then.
        kept: usize,
    },
    /// Every allowed candidate was judged and too few lay in the band.
    TooFew {
        /// Starts kept.
        kept: usize,
        /// Candidates judged.
        tried: u64,
    },
}

/// The suite file of `built`: a header of `header` lines as comments, then
/// one start a line with White's expected score as a trailing comment.
pub fn suite_text(header: &[String], built: &Built) -> String {
    let mut s = String::new();
    for h in header {
        s.push_str("# ");
        s.push_str(h);
        s.push('\n');
    }
    for c in &built.kept {
        s.push_str(&format!("{}  # white {:.3}\n", c.start.line(), c.white));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin_catalog;
    use crate::game::outcome::Komi;
    use crate::game::rules::HoleSetup;
    use crate::game::suite::Suite;

    fn build(band: (f64, f64)) -> SuiteBuild {
        SuiteBuild {
            rules: Rules::for_setups(
                5,
                [HoleSetup::Random(3), HoleSetup::Random(5)],
                false,
                Komi::ZERO,
            ),
            plies: 3,
            bot: builtin_catalog().parse("mcts:iters=200").expect("bot"),
            band,
            seed: 4,
        }
    }

    #[test]
    fn same_suite_for_any_threads_and_it_parses_back() {
        let catalog = builtin_catalog();
        let b = build((0.3, 0.7));
        let run = |t| {
            build_suite(
                &b,
                &catalog,
                6,
                200,
                t,
                &AtomicBool::new(false),
                &mut |_, _| {},
            )
            .expect("built")
        };
        let one = run(1);
        assert_eq!(one, run(3));
        assert_eq!(one.kept.len(), 6);
        assert!(one.kept.iter().all(|c| b.keeps(c.white)));
        assert!(one.kept.iter().all(|c| c.start.moves.len() == 3));
        let text = suite_text(&["a header".into()], &one);
        let suite = Suite::parse(&text, 5, false, Komi::ZERO).expect("parses");
        let starts: Vec<Start> = one.kept.iter().map(|c| c.start.clone()).collect();
        assert_eq!(suite.starts, starts);
    }

    #[test]
    fn an_empty_band_keeps_nothing_and_says_so() {
        let catalog = builtin_catalog();
        let b = build((2.0, 3.0));
        let r = build_suite(
            &b,
            &catalog,
            2,
            5,
            2,
            &AtomicBool::new(false),
            &mut |_, _| {},
        );
        assert_eq!(r, Err(BuildError::TooFew { kept: 0, tried: 5 }));
        let greedy = SuiteBuild {
            bot: catalog.parse("greedy").expect("bot"),
            ..build((0.0, 1.0))
        };
        assert!(check_judge(&greedy.bot, &catalog).is_err());
        let timed = catalog.parse("mcts:ms=10").expect("bot");
        assert!(check_judge(&timed, &catalog).is_err());
        assert!(check_judge(&build((0.0, 1.0)).bot, &catalog).is_ok());
    }
}
