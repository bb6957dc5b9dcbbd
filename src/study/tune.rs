//! `tune`: SPSA ([`super::spsa`]) over keys of one bot, played in fixed
//! batches of colour-swapped pairs.
//!
//! Iteration `k` plays on its own layout (from `--seed` and `k`) with bot
//! streams from (`--seed`, `k`, game, seat). The iterations of one batch of
//! [`BATCH`] all perturb θ as it stood when the batch began and run in
//! parallel; their steps are then taken in iteration order. So every row
//! of `tune.csv` is a function of the arguments alone, whatever the thread
//! count, and a batch cut short by a kill can be finished later: each of
//! its iterations depends only on the batch's starting θ.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::spsa::{Probe, Spsa, SpsaParam, value_text};
use crate::arena::game::play_game;
use crate::arena::ordered::{each, run_in_order};
use crate::arena::schedule::{GameKey, game_seeds};
use crate::arena::tournament::ArenaError;
use crate::bot::spec::canonical_key;
use crate::bot::{BotSpec, Catalog};
use crate::game::player::Player;
use crate::game::record::Game;
use crate::game::rules::{Rules, layout_rng};
use crate::game::suite::Suite;
use std::sync::Arc;

/// Iterations per batch: a constant, not the thread count, so that the
/// results do not depend on how many threads play them.
pub const BATCH: u64 = 8;

/// What one iteration's games gave.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct IterResult {
    /// Points of θ+ in its pair (against θ−, or against `--vs`).
    pub plus_points: f64,
    /// Points of θ− in its pair.
    pub minus_points: f64,
    /// Milliseconds θ+ spent choosing moves (a timing column).
    pub plus_ms: u64,
    /// Milliseconds θ− spent choosing moves (a timing column).
    pub minus_ms: u64,
}

impl IterResult {
    /// The SPSA result: θ+'s points minus θ−'s, −2 to 2 (θ+'s wins
    /// minus losses when the two play each other).
    pub fn result(&self) -> f64 {
        self.plus_points - self.minus_points
    }
}

/// One row of `tune.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneRow {
    /// The iteration, from 0.
    pub k: u64,
    /// θ before this iteration's step.
    pub theta: Vec<f64>,
    /// The perturbation and the points played.
    pub probe: Probe,
    /// The games' result.
    pub result: IterResult,
}

/// The optimiser between iterations: θ, the centre of the current batch
/// and the next iteration.
#[derive(Clone, Debug)]
pub struct Tuner {
    /// θ and the gains.
    pub spsa: Spsa,
    center: Vec<f64>,
    /// The next iteration to record.
    pub next: u64,
    seed: u64,
}

impl Tuner {
    /// A tune at its start.
    pub fn new(spsa: Spsa, seed: u64) -> Tuner {
        Tuner {
            center: spsa.theta().to_vec(),
            spsa,
            next: 0,
            seed,
        }
    }

    /// One past the last iteration of the batch of the next iteration.
    pub fn batch_end(&self) -> u64 {
        ((self.next / BATCH + 1) * BATCH).min(self.spsa.settings.iterations)
    }

    /// The points iteration `k` (of the current batch) plays.
    pub fn probe(&self, k: u64) -> Probe {
        self.spsa.probe(&self.center, k, self.seed)
    }

    /// Takes the next iteration's result: its row, after which θ has
    /// moved.
    pub fn record(&mut self, result: IterResult) -> TuneRow {
        let k = self.next;
        let probe = self.probe(k);
        let row = TuneRow {
            k,
            theta: self.spsa.theta().to_vec(),
            probe,
            result,
        };
        self.spsa.step(k, &row.probe.delta, result.result());
        self.next += 1;
        if self.next.is_multiple_of(BATCH) {
            self.center = self.spsa.theta().to_vec();
        }
        row
    }
}

/// One game's share of an iteration: whether its tuned side is θ+, that
/// side's points and milliseconds, and the other side's milliseconds.
type GameShare = (bool, f64, u64, u64);

/// A tune: the bot, its tuned keys, the opponent and the games' rules.
#[derive(Clone, Debug)]
pub struct Tune {
    /// The bot as given (`--bot`).
    pub base: BotSpec,
    /// The fixed opponent of both points, if any (`--vs`).
    pub vs: Option<BotSpec>,
    /// The rules, cycled through by iteration.
    pub rules: Vec<Rules>,
    /// `--seed`.
    pub seed: u64,
    /// The start-position suite (`--openings`): iteration `k` plays its
    /// start `k mod N` (both colours) instead of a random layout.
    pub openings: Option<Arc<Suite>>,
}

impl Tune {
    /// Games of one iteration: a pair θ+ against θ−, or a pair of each
    /// against `--vs`.
    pub fn games_per_iteration(&self) -> u64 {
        if self.vs.is_some() { 4 } else { 2 }
    }

    /// The spec text of the bot with `values` for `params`' keys: keys
    /// already in `--bot` keep their place, the others follow.
    pub fn spec_text(&self, params: &[SpsaParam], values: &[f64]) -> String {
        let mut spec = self.base.clone();
        for (p, &v) in params.iter().zip(values) {
            // A number's text never holds what the syntax refuses.
            if let Ok(s) = spec.with(&p.key, &value_text(v, p.integer)) {
                spec = s;
            }
        }
        spec.as_str().to_string()
    }

    /// Plays game `j` of iteration `k`.
    fn play(
        &self,
        catalog: &Catalog,
        k: u64,
        j: u64,
        plus: &BotSpec,
        minus: &BotSpec,
    ) -> Result<GameShare, ArenaError> {
        let rules = &self.rules[(k % self.rules.len() as u64) as usize];
        let seeds = game_seeds(
            self.seed,
            GameKey::Tuned {
                iteration: k,
                game: j,
            },
        );
        let start = match &self.openings {
            Some(suite) => suite
                .start(k)
                .game(rules.size, rules.pie, rules.komi)
                .map_err(|e| ArenaError::Game(format!("iteration {k}: {e}")))?,
            None => Game::new(
                rules
                    .new_game(&mut layout_rng(seeds.layout))
                    .map_err(|e| ArenaError::Game(format!("iteration {k}: {e}")))?,
            ),
        };
        let (tuned_is_plus, other) = match &self.vs {
            None => (true, minus),
            Some(vs) => (j < 2, vs),
        };
        let tuned = if tuned_is_plus { plus } else { minus };
        let tuned_first = j.is_multiple_of(2);
        let (a, b) = if tuned_first {
            (tuned, other)
        } else {
            (other, tuned)
        };
        let build = |spec: &BotSpec, seat: usize| {
            catalog
                .build(spec, seeds.bots[seat])
                .map_err(|e| ArenaError::Config(format!("--param: {e}")))
        };
        let mut first = build(a, 0)?;
        let mut second = build(b, 1)?;
        let clocks = [a, b].map(|spec| spec.time_control().ok().flatten());
        let r = play_game(start, first.as_mut(), second.as_mut(), clocks, |_| {});
        // A pie swap hands White to the second bot.
        let first_colour = if r.swapped {
            Player::Black
        } else {
            Player::White
        };
        let (tuned_colour, other_colour) = if tuned_first {
            (first_colour, !first_colour)
        } else {
            (!first_colour, first_colour)
        };
        Ok((
            tuned_is_plus,
            r.outcome.points_for(tuned_colour),
            r.ms[tuned_colour],
            r.ms[other_colour],
        ))
    }

    /// Plays iterations `ks` of the tuner's current batch on `threads`
    /// threads; results in iteration order.
    ///
    /// # Errors
    /// A bot that cannot be built from a probed value, a layout that
    /// cannot be drawn; [`ArenaError::Interrupted`] when `cancel` was
    /// set (the batch's games are then dropped).
    pub fn play_batch(
        &self,
        catalog: &Catalog,
        tuner: &Tuner,
        ks: std::ops::Range<u64>,
        threads: usize,
        cancel: &AtomicBool,
    ) -> Result<Vec<IterResult>, ArenaError> {
        let g = self.games_per_iteration();
        let params = &tuner.spsa.params;
        let mut specs = Vec::new();
        for k in ks.clone() {
            let p = tuner.probe(k);
            let parse = |v: &[f64]| -> Result<BotSpec, ArenaError> {
                self.spec_text(params, v)
                    .parse::<BotSpec>()
                    .map_err(|e| ArenaError::Config(format!("--param: {e}")))
            };
            specs.push((parse(&p.plus)?, parse(&p.minus)?));
        }
        let jobs = ((ks.end - ks.start) * g) as usize;
        let mut games = Vec::with_capacity(jobs);
        run_in_order(
            "tune",
            jobs,
            threads,
            cancel,
            || (),
            |(), i| {
                let (it, j) = (i as u64 / g, i as u64 % g);
                let (plus, minus) = &specs[it as usize];
                Some(self.play(catalog, ks.start + it, j, plus, minus))
            },
            &mut each(|_, share| {
                games.push(share);
                Ok(ControlFlow::Continue(()))
            }),
        )?;
        if cancel.load(Ordering::Relaxed) || games.len() < jobs {
            return Err(ArenaError::Interrupted {
                done: tuner.next,
                total: tuner.spsa.settings.iterations,
            });
        }
        Ok(games.chunks(g as usize).map(|c| self.combine(c)).collect())
    }

    /// An iteration's result from its games.
    fn combine(&self, games: &[GameShare]) -> IterResult {
        let mut r = IterResult {
            plus_points: 0.0,
            minus_points: 0.0,
            plus_ms: 0,
            minus_ms: 0,
        };
        for &(is_plus, points, ms, other_ms) in games {
            if is_plus {
                r.plus_points += points;
                r.plus_ms += ms;
            } else {
                r.minus_points += points;
                r.minus_ms += ms;
            }
            if self.vs.is_none() {
                // θ+ against θ−: the other side is θ−.
                r.minus_points += 1.0 - points;
                r.minus_ms += other_ms;
            }
        }
        r
    }
}

/// Parses one `--param KEY=LO..HI[:C_END:R_END]` and checks it against
/// the bot's own keys and ranges: the key must be one of the bot's, LO
/// below HI, both accepted by the bot, and the start (the value in
/// `--bot`, else the key's default) inside LO..HI.
///
/// # Errors
/// A one-line message starting with `--param ARG:`.
pub fn parse_param(
    arg: &str,
    base: &BotSpec,
    catalog: &Catalog,
    c_end: f64,
    r_end: f64,
) -> Result<SpsaParam, String> {
    let bad = |m: String| format!("--param {arg}: {m}");
    let (key, rest) = arg
        .split_once('=')
        .ok_or_else(|| bad("expected KEY=LO..HI[:C_END:R_END]".into()))?;
    let key = canonical_key(key.trim()).to_string();
    let info = key_to_tune(catalog, base, &key).map_err(bad)?;
    let parts: Vec<&str> = rest.split(':').collect();
    if parts.len() != 1 && parts.len() != 3 {
        return Err(bad("expected KEY=LO..HI or KEY=LO..HI:C_END:R_END".into()));
    }
    let (lo_text, hi_text) = parts[0]
        .split_once("..")
        .ok_or_else(|| bad("expected a range LO..HI".into()))?;
    let (lo_text, hi_text) = (lo_text.trim(), hi_text.trim());
    let number = |t: &str, what: &str| -> Result<f64, String> {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| bad(format!("{what} '{}' is not a number", t.trim())))
    };
    let lo = number(lo_text, "LO")?;
    let hi = number(hi_text, "HI")?;
    if lo >= hi {
        return Err(bad(format!("LO ({lo}) must be below HI ({hi})")));
    }
    let (c_end, r_end) = if parts.len() == 3 {
        (number(parts[1], "C_END")?, number(parts[2], "R_END")?)
    } else {
        (c_end, r_end)
    };
    if !(c_end > 0.0 && c_end <= 1.0) {
        return Err(bad(format!(
            "C_END {c_end} is not a share of the range in (0, 1]"
        )));
    }
    if r_end <= 0.0 {
        return Err(bad(format!("R_END {r_end} must be above 0")));
    }
    // The declared range first, then the bot itself, which also checks
    // what one key's value means for another.
    let Some((key_lo, key_hi)) = info.range() else {
        return Err(bad(format!(
            "'{key}' is not a number key (it takes {})",
            info.accepts()
        )));
    };
    for (v, t, what) in [(lo, lo_text, "LO"), (hi, hi_text, "HI")] {
        if !(key_lo..=key_hi).contains(&v) {
            return Err(bad(format!(
                "{what} {t} is outside what '{key}' accepts ({})",
                info.accepts()
            )));
        }
        base.without(&key)
            .with(&key, t)
            .and_then(|s| catalog.parse(s.as_str()))
            .map_err(|e| bad(format!("{what} {t} is outside what '{key}' accepts: {e}")))?;
    }
    let integer = info.is_integer();
    let start_text = base
        .params
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(info.default_text(), |(_, v)| v.clone());
    let start = start_text.parse::<f64>().map_err(|_| {
        bad(format!(
            "the start {key}={start_text} (from --bot or the key's default) is not a number"
        ))
    })?;
    if !(lo..=hi).contains(&start) {
        return Err(bad(format!(
            "the start {key}={start_text} (from --bot or the key's default) lies outside {lo}..{hi}"
        )));
    }
    Ok(SpsaParam {
        key,
        lo,
        hi,
        integer,
        start,
        c_end,
        r_end,
    })
}

/// The key `key` of `base`'s bot, which a tune moves; why not, when the
/// bot lists no keys (an external engine) or not this one.
fn key_to_tune(
    catalog: &Catalog,
    base: &BotSpec,
    key: &str,
) -> Result<&'static crate::bot::spec::KeyInfo, String> {
    let Some(kind) = catalog.kind(&base.name) else {
        return Err(format!(
            "bot '{}' lists no keys to tune (an external engine)",
            base.name
        ));
    };
    let Some(info) = kind.keys.iter().find(|k| k.key == key) else {
        let keys: Vec<&str> = kind.keys.iter().map(|k| k.key).collect();
        return Err(format!(
            "bot '{}' has no key '{key}' (keys: {})",
            base.name,
            if keys.is_empty() {
                "none".into()
            } else {
                keys.join(", ")
            }
        ));
    };
    Ok(info)
}

/// A parameter as `run.json` records it: every setting written out.
pub fn param_text(p: &SpsaParam) -> String {
    format!("{}={}..{}:{}:{}", p.key, p.lo, p.hi, p.c_end, p.r_end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::builtin_catalog;

    #[test]
    fn params_are_checked_against_the_bot() {
        let catalog = builtin_catalog();
        let base = catalog.parse("heuristic:decay=0.8").expect("spec");
        let d = parse_param("decay=0..1", &base, &catalog, 0.05, 0.002).expect("decay");
        assert!(!d.integer && d.start == 0.8);
        let r = parse_param("reach=1..8:0.1:0.01", &base, &catalog, 0.05, 0.002).expect("reach");
        assert!(r.integer && r.start == 3.0 && r.c_end == 0.1);
        let e = parse_param("nope=0..1", &base, &catalog, 0.05, 0.002).unwrap_err();
        assert!(e.contains("'nope'") && e.contains("decay"), "{e}");
        let e = parse_param("decay=1..0", &base, &catalog, 0.05, 0.002).unwrap_err();
        assert!(e.contains("below"), "{e}");
        let e = parse_param("decay=0..2", &base, &catalog, 0.05, 0.002).unwrap_err();
        assert!(e.contains("HI 2"), "{e}");
        let e = parse_param("decay=0..0.5", &base, &catalog, 0.05, 0.002).unwrap_err();
        assert!(e.contains("outside 0..0.5"), "{e}");
        let tune = Tune {
            base,
            vs: None,
            rules: vec![Rules::default()],
            seed: 1,
            openings: None,
        };
        assert_eq!(
            tune.spec_text(&[d, r], &[0.25, 4.0]),
            "heuristic:decay=0.25,reach=4"
        );
    }

    #[test]
    fn iteration_k_plays_start_k_of_the_suite() {
        use crate::game::outcome::Komi;
        let catalog = builtin_catalog();
        // Start 1 plays a7, off a 5x5 board: iteration 1 fails there,
        // iterations 0 and 2 (start 0 again, the suite cycling) play.
        let text = "a1 | b2\na2 | a7\n";
        let suite = Suite::parse(text, 7, false, Komi::ZERO).expect("suite");
        let rules = Rules {
            size: 5,
            ..Rules::default()
        };
        let spec = catalog.parse("greedy").expect("spec");
        let tune = Tune {
            base: spec.clone(),
            vs: None,
            rules: vec![rules],
            seed: 1,
            openings: Some(Arc::new(suite)),
        };
        let play = |k| tune.play(&catalog, k, 0, &spec, &spec);
        assert!(play(0).is_ok());
        let e = play(1).map(|_| ()).unwrap_err().to_string();
        assert!(e.contains("iteration 1") && e.contains("a7"), "{e}");
        assert!(play(2).is_ok());
    }
}
