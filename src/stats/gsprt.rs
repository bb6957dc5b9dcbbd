//! The generalised sequential probability ratio test (GSPRT) over game
//! pairs, as fishtest and fastchess compute it.
//!
//! Games are played in colour-swapped pairs on one layout. A pair's score
//! for bot A is 0, ½, 1, 1½ or 2 points; the five counts form the
//! *pentanomial* distribution. Scoring pairs rather than games is what makes
//! the test honest here: the two games of a layout are correlated (the same
//! holes favour the same side), and the trinomial model, which treats them
//! as independent, overestimates the variance of the score when the pairing
//! cancels layout luck.
//!
//! The statistic is the generalised log-likelihood ratio of M. Van den
//! Bergh ("Comments on normalized Elo", sections 1 and 4, the note behind
//! fishtest's `LLRcalc.py`): for each hypothesis the maximum-likelihood
//! distribution on the five outcomes subject to that hypothesis is found
//! (a one-dimensional root of a secular equation), and
//! `LLR = N · Σ p̂ᵢ (ln p₁ᵢ − ln p₀ᵢ)` with `N` the number of pairs.
//! Empty cells are replaced by 10⁻³ before anything else, as both fishtest
//! (`regularize`) and fastchess do, so that the first pairs give finite
//! values.
//!
//! Two Elo models are offered, as in fishtest:
//! - [`EloModel::Logistic`]: hypotheses on the expected score per game,
//!   `s = 1 / (1 + 10^(−elo/400))`;
//! - [`EloModel::Normalized`]: hypotheses on the t-value `(μ − ½)/σ` of the
//!   pair score, with `nelo = t · 800/ln 10 / √2` per game (fishtest's
//!   default, independent of the draw rate).
//!
//! The test stops at the first pair where `LLR ≤ ln(β/(1−α))` (H0 accepted)
//! or `LLR ≥ ln((1−β)/α)` (H1 accepted), Wald's bounds.
//!
//! This file holds the counts, the configuration and the decision; the
//! likelihood ratios themselves are in `gsprt/llr.rs`.

use std::fmt;
use std::str::FromStr;

use super::rating::{EloInterval, Z95, elo_from_score, elo_interval, elo_of_points, wilson};

mod llr;

pub use llr::{llr_logistic, llr_logistic_approx, llr_normalized, llr_normalized_approx};

/// `800 / ln 10`: normalised Elo per unit of t-value (fishtest's
/// `nelo_divided_by_nt`, 347.4355…).
pub const NELO_DIVIDED_BY_NT: f64 = 800.0 / std::f64::consts::LN_10;

/// The value fishtest and fastchess put in an empty cell.
pub const REGULARIZE: f64 = 1e-3;

/// The scale the hypotheses `elo0`, `elo1` are stated on.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: a hypothesis on the expected score per game.
    #[default]
    Logistic,
    /// Normalised Elo: a hypothesis on the t-value of the pair score.
    Normalized,
}

impl EloModel {
    /// The model's name on the command line and in outputs.
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EloModel {
    type Err = SprtError;
    fn from_str(s: &str) -> Result<EloModel, SprtError> {
        match s {
            "logistic" => Ok(EloModel::Logistic),
            "normalized" | "normalised" => Ok(EloModel::Normalized),
            _ => Err(SprtError(format!(
                "unknown Elo model '{s}' (models: logistic, normalized)"
            ))),
        }
    }
}

/// Why an SPRT configuration was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SprtError(pub String);

/// What the test concludes after some pairs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The LLR is between the bounds: play on.
    Continue,
    /// The LLR reached the lower bound: A is not `elo1` better (H0).
    H0,
    /// The LLR reached the upper bound: A is at least `elo0` better (H1).
    H1,
}

impl Decision {
    /// The line the `sprt` command ends with.
    pub fn verdict(self) -> &'static str {
        match self {
            Decision::Continue => "inconclusive",
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
        }
    }
}

/// Counts of pair scores for bot A: index `k` holds the pairs in which A
/// scored `k/2` points (LL, LD, WL or DD, WD, WW), fishtest's `Ptnml(0-2)`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Records one pair in which A scored `halves` half points (0..=4).
    ///
    /// # Panics
    /// If `halves > 4`: a pair has two games of at most one point each.
    pub fn add(&mut self, halves: u8) {
        assert!(halves <= 4, "a pair scores at most 2 points");
        self.0[halves as usize] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// A's mean score per game (no regularisation); ½ for no pairs.
    pub fn score_rate(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let pts: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * k as f64 / 4.0)
            .sum();
        pts / n as f64
    }
}

impl Pentanomial {
    /// A normal interval for the score rate from the variance *between
    /// pairs* (fishtest's pentanomial estimate): `mean ± z·sd/√pairs`,
    /// clamped to `[0, 1]`. Layout luck that the colour swap cancels does
    /// not inflate it, as a per-game (trinomial) variance would. Fewer than
    /// two pairs give `(0, 1)`.
    pub fn score_interval(&self, z: f64) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n < 2.0 {
            return (0.0, 1.0);
        }
        let m = self.score_rate();
        let ss: f64 = self
            .0
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - m).powi(2))
            .sum();
        let half = z * (ss / (n - 1.0) / n).sqrt();
        ((m - half).max(0.0), (m + half).min(1.0))
    }

    /// The counts seen from the other bot (pair scores mirrored).
    pub fn mirrored(&self) -> Pentanomial {
        let c = self.0;
        Pentanomial([c[4], c[3], c[2], c[1], c[0]])
    }
}

/// A's Elo from `points` of `games` played in the pairs `pent`, with its
/// 95 % interval: the pentanomial one ([`Pentanomial::score_interval`]),
/// which layout luck does not widen, in Elo. Where that cannot give a
/// finite end, the Wilson interval of the points stands in:
/// - when every pair scored the same there is no observed variance, so the
///   whole interval is [`elo_interval`]'s (for a clean sweep, from the
///   sample with one virtual draw added: 10 wins of 10 give 528.9
///   [129.8, 928.0], the estimate the tournaments' ratings give it);
/// - an end of the pentanomial interval that would reach a score of 0 or 1
///   (a normal interval does not know the score is bounded) is replaced by
///   the Wilson interval's end on that side.
///
/// Every end is then finite once a game has been played, and
/// `lo <= elo <= hi`.
pub fn pentanomial_elo_interval(pent: &Pentanomial, points: f64, games: f64) -> EloInterval {
    let varied = pent.0.iter().filter(|&&c| c > 0).count() > 1;
    if !varied {
        return elo_interval(points, games);
    }
    let (wlo, whi) = wilson(points, games, Z95);
    let (lo, hi) = pent.score_interval(Z95);
    EloInterval {
        elo: elo_of_points(points, games),
        lo: elo_from_score(if lo > 0.0 { lo } else { wlo }),
        hi: elo_from_score(if hi < 1.0 { hi } else { whi }),
    }
}

/// The test's parameters: hypotheses and error rates.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtConfig {
    /// H0: A is `elo0` stronger than B (usually 0).
    pub elo0: f64,
    /// H1: A is `elo1` stronger than B; must exceed `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: EloModel,
}

impl SprtConfig {
    /// Checks the parameters.
    ///
    /// # Errors
    /// `alpha` or `beta` outside (0, 0.5), `elo0 >= elo1`, or values that
    /// are not finite; the message names the option.
    pub fn validate(&self) -> Result<(), SprtError> {
        for (name, v) in [("--alpha", self.alpha), ("--beta", self.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(SprtError(format!(
                    "{name} {v}: an error rate must lie strictly between 0 and 0.5"
                )));
            }
        }
        if !self.elo0.is_finite() || !self.elo1.is_finite() {
            return Err(SprtError("--elo0/--elo1 must be finite numbers".into()));
        }
        if self.elo0 >= self.elo1 {
            return Err(SprtError(format!(
                "--elo0 {} must be smaller than --elo1 {}",
                self.elo0, self.elo1
            )));
        }
        if self.model == EloModel::Logistic
            && (self.elo0.abs() >= 2000.0 || self.elo1.abs() >= 2000.0)
        {
            return Err(SprtError(
                "--elo0/--elo1: logistic Elo beyond ±2000 is not a usable hypothesis".into(),
            ));
        }
        Ok(())
    }

    /// Wald's bounds `(ln(β/(1−α)), ln((1−β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        bounds(self.alpha, self.beta)
    }

    /// The LLR of `counts` under these hypotheses.
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        let c = counts.0.map(|x| x as f64);
        match self.model {
            EloModel::Logistic => llr_logistic(self.elo0, self.elo1, &c),
            EloModel::Normalized => llr_normalized(self.elo0, self.elo1, &c),
        }
    }

    /// The decision for a given LLR.
    pub fn decide(&self, llr: f64) -> Decision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Decision::H1
        } else if llr <= lo {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

/// Wald's stopping bounds for error rates `alpha` and `beta`:
/// `(ln(β/(1−α)), ln((1−β)/α))`, e.g. ±2.944 for 0.05/0.05.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// Expected score per game of a logistic Elo difference.
pub fn logistic_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wald_bounds() {
        let (lo, hi) = bounds(0.05, 0.05);
        assert!(close(lo, -2.944_438_979_166_44, 1e-12));
        assert!(close(hi, 2.944_438_979_166_44, 1e-12));
        // fastchess prints (-4.60, 4.60) for alpha = beta = 0.01.
        let (lo, hi) = bounds(0.01, 0.01);
        assert!(close(lo, -4.595_119_850_134_59, 1e-12) && close(hi, 4.595_119_850_134_59, 1e-12));
    }

    /// Every pentanomial of 1 to 24 pairs, and for 25 to 100 pairs the
    /// clean sweeps both ways and a spread of others: finite ends around
    /// the estimate, whatever the pairs.
    #[test]
    fn pentanomial_elo_intervals_are_finite_and_ordered() {
        fn check(c: [u64; 5]) {
            let p = Pentanomial(c);
            let games = 2.0 * p.pairs() as f64;
            let e = pentanomial_elo_interval(&p, p.score_rate() * games, games);
            assert!(
                e.elo.is_finite() && e.lo.is_finite() && e.hi.is_finite(),
                "{c:?}: {e:?}"
            );
            assert!(e.lo < e.elo && e.elo < e.hi, "{c:?}: {e:?}");
        }
        for n in 1..=100u64 {
            check([n, 0, 0, 0, 0]);
            check([0, 0, 0, 0, n]);
            let step = if n <= 24 { 1 } else { n / 6 };
            for a in (0..=n).step_by(step as usize) {
                for b in (0..=n - a).step_by(step as usize) {
                    for c in (0..=n - a - b).step_by(step as usize) {
                        for d in (0..=n - a - b - c).step_by(step as usize) {
                            check([a, b, c, d, n - a - b - c - d]);
                        }
                    }
                }
            }
        }
        // Pairs scoring 2 and 1½: the normal interval would pass a score of
        // 1, so its upper end is Wilson's.
        let p = Pentanomial([0, 0, 0, 1, 1]);
        let e = pentanomial_elo_interval(&p, 3.5, 4.0);
        let (_, whi) = wilson(3.5, 4.0, Z95);
        assert!(close(e.hi, elo_from_score(whi), 1e-9), "{e:?}");
        // A clean sweep of 5 pairs, as `sprt` prints it: 528.9 [129.8, 928.0].
        let e = pentanomial_elo_interval(&Pentanomial([0, 0, 0, 0, 5]), 10.0, 10.0);
        let shown = format!("{:.1} [{:.1}, {:.1}]", e.elo, e.lo, e.hi);
        assert_eq!(shown, "528.9 [129.8, 928.0]");
    }

    /// Published fastchess reports (normalised model, pentanomial):
    /// `Ptnml(0-2): [0, 0, 1, 8, 1]`, `[0.00, 50.00]` -> `LLR: 1.24`, and
    /// `Ptnml(0-2): [352, 579, 1264, 743, 464]`, `[9.00, 16.00]` ->
    /// `LLR: 4.60` (the run stopped there at bounds ±4.60).
    #[test]
    fn decisions_and_validation() {
        let cfg = SprtConfig {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        assert!(cfg.validate().is_ok());
        assert_eq!(cfg.decide(3.0), Decision::H1);
        assert_eq!(cfg.decide(-3.0), Decision::H0);
        assert_eq!(cfg.decide(0.0), Decision::Continue);
        assert!(SprtConfig { alpha: 0.5, ..cfg }.validate().is_err());
        assert!(SprtConfig { beta: 0.0, ..cfg }.validate().is_err());
        assert!(SprtConfig { elo1: 0.0, ..cfg }.validate().is_err());
        assert_eq!("normalized".parse::<EloModel>(), Ok(EloModel::Normalized));
        assert!("x".parse::<EloModel>().is_err());
        let mut p = Pentanomial::default();
        p.add(4);
        p.add(2);
        assert_eq!(p.pairs(), 2);
        assert!(close(p.score_rate(), 0.75, 1e-12));
        // Pair scores 1 and 0.5: mean 0.75, sd 0.3536, half-width
        // 1.96 * 0.3536 / sqrt(2) = 0.49 -> clamped at 1.
        let (lo, hi) = p.score_interval(1.959_963_984_540_054);
        assert!(close(lo, 0.75 - 0.49, 1e-3) && hi == 1.0, "{lo} {hi}");
        assert_eq!(p.mirrored().0, [1, 0, 1, 0, 0]);
    }
}
