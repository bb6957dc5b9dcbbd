//! Sequential A/B tests: colour-swapped pairs until the GSPRT decides.
//!
//! The games are those of a two-bot tournament (A first), so they come
//! from the arena's schedule and are handed on in game order whatever the
//! thread count. [`SprtState`] takes them one at a time, closes a pair on
//! every odd game, and checks the LLR after each pair *in pair order*: the
//! stopping point is a function of the seed alone. A bot that was already
//! ahead in a game still running on another thread cannot change it, since
//! games past the stopping pair are never looked at.

use std::ops::ControlFlow;

use crate::plot::{LlrPlot, PlotError, llr_plot};
use serde::{Deserialize, Serialize};

use crate::arena::games_csv::GameRecord;
use crate::arena::tournament::{ArenaError, Observer};
use crate::csv_rows::{self, fixed};
use crate::stats::gsprt::{Decision, Pentanomial, SprtConfig, pentanomial_elo_interval};

/// One line of `sprt.csv`: the test after a pair.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SprtRow {
    /// Pairs played.
    pub pairs: u64,
    /// Games played.
    pub games: u64,
    /// Pairs A lost both games of.
    pub ll: u64,
    /// Pairs of a loss and a draw.
    pub ld: u64,
    /// Pairs of a win and a loss, or two draws.
    pub wl_dd: u64,
    /// Pairs of a win and a draw.
    pub wd: u64,
    /// Pairs A won both games of.
    pub ww: u64,
    /// A's points per game.
    #[serde(serialize_with = "fixed::d4")]
    pub score_rate: f64,
    /// The log-likelihood ratio.
    #[serde(serialize_with = "fixed::d4")]
    pub llr: f64,
    /// The lower (H0) bound.
    #[serde(serialize_with = "fixed::d4")]
    pub llr_lo: f64,
    /// The upper (H1) bound.
    #[serde(serialize_with = "fixed::d4")]
    pub llr_hi: f64,
    /// `continue`, `H0` or `H1`.
    pub decision: String,
}

/// The test after one more pair.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtPoint {
    /// Pairs so far.
    pub pairs: u64,
    /// Pair results so far, for A.
    pub counts: Pentanomial,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The decision at this point.
    pub decision: Decision,
}

/// A running test: pair counts, the LLR after every pair, the decision.
#[derive(Clone, Debug)]
pub struct SprtState {
    /// Hypotheses and error rates.
    pub config: SprtConfig,
    /// Every pair's point, in order.
    pub trajectory: Vec<SprtPoint>,
    counts: Pentanomial,
    pending: Option<GameRecord>,
    decision: Decision,
}

impl SprtState {
    /// A test with no games yet.
    pub fn new(config: SprtConfig) -> SprtState {
        SprtState {
            config,
            trajectory: Vec::new(),
            counts: Pentanomial::default(),
            pending: None,
            decision: Decision::Continue,
        }
    }

    /// Takes the next game (A is bot 0, B bot 1). Returns the decision; once
    /// it is not [`Decision::Continue`], later games are ignored.
    ///
    /// # Errors
    /// A game out of order (not the next of its pair), which would make
    /// the stopping point depend on more than the seed.
    pub fn add_game(&mut self, r: &GameRecord) -> Result<Decision, ArenaError> {
        if self.decision != Decision::Continue {
            return Ok(self.decision);
        }
        let expected = 2 * self.counts.pairs() + u64::from(self.pending.is_some());
        if r.game != expected {
            return Err(ArenaError::Game(format!(
                "sprt: game {} arrived where game {expected} was due",
                r.game
            )));
        }
        let Some(first) = self.pending.take() else {
            self.pending = Some(*r);
            return Ok(Decision::Continue);
        };
        let halves = ((first.points_of(0) + r.points_of(0)) * 2.0).round() as u8;
        self.counts.add(halves.min(4));
        let llr = self.config.llr(&self.counts);
        self.decision = self.config.decide(llr);
        self.trajectory.push(SprtPoint {
            pairs: self.counts.pairs(),
            counts: self.counts,
            llr,
            decision: self.decision,
        });
        Ok(self.decision)
    }

    /// The decision so far.
    pub fn decision(&self) -> Decision {
        self.decision
    }

    /// Pair counts so far.
    pub fn counts(&self) -> Pentanomial {
        self.counts
    }

    /// The latest LLR (0 before the first pair).
    pub fn llr(&self) -> f64 {
        self.trajectory.last().map_or(0.0, |p| p.llr)
    }

    /// Games in complete pairs.
    pub fn games(&self) -> u64 {
        2 * self.counts.pairs()
    }

    /// A's Elo over B from the score so far, with its 95 % interval, by
    /// the rule of [`pentanomial_elo_interval`] (as `sweep` reports it):
    /// finite at both ends once a pair has been played, a clean sweep
    /// counted with one virtual draw.
    pub fn elo(&self) -> (f64, f64, f64) {
        let games = self.games() as f64;
        let e = pentanomial_elo_interval(&self.counts, self.counts.score_rate() * games, games);
        (e.elo, e.lo, e.hi)
    }

    /// The one-line status: games, pair counts, score, LLR and bounds.
    pub fn status_line(&self) -> String {
        let (lo, hi) = self.config.bounds();
        let c = self.counts.0;
        let (e, elo_lo, elo_hi) = self.elo();
        format!(
            "games={} ptnml={},{},{},{},{} score={:.4} elo={:.1} [{:.1}, {:.1}] llr={:.3} bounds=[{:.3}, {:.3}]",
            self.games(),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            self.counts.score_rate(),
            e,
            elo_lo,
            elo_hi,
            self.llr(),
            lo,
            hi
        )
    }

    /// `sprt.csv`: one row per pair with the counts, score, LLR and bounds.
    pub fn csv(&self) -> String {
        let (lo, hi) = self.config.bounds();
        csv_rows::text(self.trajectory.iter().map(|p| {
            let c = p.counts.0;
            SprtRow {
                pairs: p.pairs,
                games: 2 * p.pairs,
                ll: c[0],
                ld: c[1],
                wl_dd: c[2],
                wd: c[3],
                ww: c[4],
                score_rate: p.counts.score_rate(),
                llr: p.llr,
                llr_lo: lo,
                llr_hi: hi,
                decision: match p.decision {
                    Decision::Continue => "continue",
                    Decision::H0 => "H0",
                    Decision::H1 => "H1",
                }
                .to_string(),
            }
        }))
    }

    /// `sprt.svg`: the LLR against games with both bounds.
    ///
    /// # Errors
    /// A drawing failure.
    pub fn plot(&self, a: &str, b: &str) -> Result<String, PlotError> {
        let (lower, upper) = self.config.bounds();
        let c = &self.config;
        llr_plot(&LlrPlot {
            title: format!(
                "SPRT {a} vs {b}: {} after {} games",
                self.decision.verdict(),
                self.games()
            ),
            note: format!(
                "H0: elo {}, H1: elo {} ({} Elo), alpha {}, beta {}",
                c.elo0, c.elo1, c.model, c.alpha, c.beta
            ),
            points: self
                .trajectory
                .iter()
                .map(|p| ((2 * p.pairs) as f64, p.llr))
                .collect(),
            lower,
            upper,
        })
    }
}

/// An [`Observer`] that feeds a [`SprtState`], stops the run when it
/// decides, and keeps the records; `on_pair` sees the state after every
/// game (progress display).
pub struct SprtObserver<'a> {
    /// The test.
    pub state: SprtState,
    /// Every game seen (resumed ones included), in order.
    pub records: Vec<GameRecord>,
    /// Called after every game with the test's state.
    pub on_game: &'a mut dyn FnMut(&SprtState),
}

impl Observer for SprtObserver<'_> {
    fn on_start(&mut self, done: &[GameRecord], _total: u64) {
        for r in done {
            // Rows already checked against the schedule: in order.
            let _ = self.state.add_game(r);
            self.records.push(*r);
        }
    }

    fn on_game(&mut self, r: &GameRecord, _row: &str) -> Result<ControlFlow<()>, ArenaError> {
        self.records.push(*r);
        let d = self.state.add_game(r)?;
        (self.on_game)(&self.state);
        Ok(if d == Decision::Continue {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::arena::parallel::run_games;
    use crate::arena::schedule::{Format, Shard};
    use crate::arena::tournament::TournamentConfig;
    use crate::bot::builtin_catalog;
    use crate::game::rules::Rules;
    use crate::stats::gsprt::EloModel;

    fn test(a: &str, b: &str, threads: usize) -> SprtState {
        let catalog = builtin_catalog();
        let config = TournamentConfig {
            bots: vec![catalog.parse(a).expect("a"), catalog.parse(b).expect("b")],
            games_per_pairing: 400,
            rules: vec![Rules::default()],
            format: Format::Gauntlet,
            seed: 5,
            threads,
            shard: Shard::ALL,
            openings: None,
        };
        let games: Vec<u64> = (0..400).collect();
        let mut quiet = |_: &SprtState| {};
        let mut obs = SprtObserver {
            state: SprtState::new(SprtConfig {
                elo0: 0.0,
                elo1: 100.0,
                alpha: 0.05,
                beta: 0.05,
                model: EloModel::Logistic,
            }),
            records: Vec::new(),
            on_game: &mut quiet,
        };
        run_games(&config, &catalog, &games, &AtomicBool::new(false), &mut obs).expect("run");
        obs.state
    }

    #[test]
    fn greedy_beats_random_and_stops_at_the_same_pair_for_any_threads() {
        let s1 = test("greedy", "random", 1);
        assert_eq!(s1.decision(), Decision::H1);
        assert!(s1.games() < 40, "{}", s1.games());
        let s2 = test("greedy", "random", 2);
        assert_eq!(s1.trajectory, s2.trajectory);
        assert!(s1.csv().lines().count() == s1.trajectory.len() + 1);
        assert!(
            s1.plot("greedy", "random")
                .expect("plot")
                .contains("H1 accepted")
        );
    }

    #[test]
    fn random_against_itself_accepts_h0() {
        let s = test("random", "random:label=random2", 2);
        assert_eq!(s.decision(), Decision::H0, "{}", s.status_line());
    }
}
