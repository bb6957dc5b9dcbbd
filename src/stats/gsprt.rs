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

use std::fmt;
use std::str::FromStr;

use super::rating::{Z95, wilson};

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

/// The 95 % interval of a score rate: from the variance between pairs
/// ([`Pentanomial::score_interval`]), or, when every pair scored the same
/// (no observed variance, e.g. a clean sweep), the Wilson interval of the
/// points over `games`, so that 20 wins of 20 give a finite lower end
/// instead of a zero-width interval.
pub fn score_interval(pent: &Pentanomial, points: f64, games: f64) -> (f64, f64) {
    let varied = pent.0.iter().filter(|&&c| c > 0).count() > 1;
    if varied {
        pent.score_interval(Z95)
    } else {
        wilson(points, games, Z95)
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

/// Counts (trinomial L,D,W or pentanomial LL..WW) as `(N, outcome values,
/// empirical probabilities)` after fishtest's regularisation.
fn to_pdf(counts: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
    let reg: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { REGULARIZE } else { c })
        .collect();
    let n: f64 = reg.iter().sum();
    let k = reg.len() as f64 - 1.0;
    let values = (0..reg.len()).map(|i| i as f64 / k).collect();
    let probs = reg.iter().map(|c| c / n).collect();
    (n, values, probs)
}

/// Mean and variance of a distribution on `values`.
fn stats(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mu: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var = values
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mu) * (a - mu))
        .sum();
    (mu, var)
}

/// The root `x` of the secular equation `Σ p̂ᵢ aᵢ / (1 + x aᵢ) = 0` on
/// `(−1/max a, −1/min a)`, where the left side falls from +∞ to −∞; `None`
/// when the `aᵢ` do not change sign (no such distribution exists).
/// Bisection to the last bit: exact enough and never diverges.
fn secular(a: &[f64], probs: &[f64]) -> Option<f64> {
    let lo_a = a.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_a = a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_a < 0.0 && hi_a > 0.0) {
        return None;
    }
    let f = |x: f64| -> f64 {
        a.iter()
            .zip(probs)
            .map(|(ai, pi)| pi * ai / (1.0 + x * ai))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / hi_a, -1.0 / lo_a);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution with mean `s` given the empirical
/// `probs` (Van den Bergh, proposition 1.1): `pᵢ = p̂ᵢ / (1 + x(aᵢ − s))`.
fn mle_expected(values: &[f64], probs: &[f64], s: f64) -> Option<Vec<f64>> {
    let a: Vec<f64> = values.iter().map(|v| v - s).collect();
    let x = secular(&a, probs)?;
    Some(
        probs
            .iter()
            .zip(&a)
            .map(|(p, ai)| p / (1.0 + x * ai))
            .collect(),
    )
}

/// The maximum-likelihood distribution with t-value `(μ − ref)/σ = t` given
/// the empirical `probs` (Van den Bergh, section 4.1): a fixed-point
/// iteration from the uniform distribution, each step a secular equation.
fn mle_t_value(values: &[f64], probs: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let n = values.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..100 {
        let (mu, var) = stats(values, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = values
            .iter()
            .map(|&ai| ai - reference - t * sigma * (1.0 + ((mu - ai) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(&phi, probs)?;
        let next: Vec<f64> = probs
            .iter()
            .zip(&phi)
            .map(|(q, f)| q / (1.0 + x * f))
            .collect();
        let diff = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if diff < 1e-12 {
            break;
        }
    }
    Some(p)
}

/// `N · Σ p̂ᵢ (ln p₁ᵢ − ln p₀ᵢ)`.
fn llr_of(n: f64, probs: &[f64], p0: &[f64], p1: &[f64]) -> f64 {
    n * probs
        .iter()
        .zip(p0.iter().zip(p1))
        .map(|(p, (a, b))| p * (b.ln() - a.ln()))
        .sum::<f64>()
}

/// The GSPRT log-likelihood ratio for logistic Elo hypotheses `elo0`,
/// `elo1` (fishtest's `LLR_logistic`). `counts` are trinomial (L, D, W) or
/// pentanomial (LL, LD, WL+DD, WD, WW) frequencies.
///
/// # Panics
/// If `counts` has neither 3 nor 5 entries.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[f64]) -> f64 {
    assert!(counts.len() == 3 || counts.len() == 5, "3 or 5 counts");
    let (n, values, probs) = to_pdf(counts);
    let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
    match (
        mle_expected(&values, &probs, s0),
        mle_expected(&values, &probs, s1),
    ) {
        (Some(p0), Some(p1)) => llr_of(n, &probs, &p0, &p1),
        // Only for scores outside (0, 1), which validate() rules out.
        _ => llr_logistic_approx(elo0, elo1, counts),
    }
}

/// The Brownian approximation of [`llr_logistic`] (fishtest's `LLR_alt2`,
/// Van den Bergh "GSPRT approximation"):
/// `N (s₁ − s₀)(2s − s₀ − s₁) / (2 var)` with `s`, `var` the empirical mean
/// and variance of the per-pair (or per-game) score. Close to the exact
/// value when `elo1 − elo0` is small.
///
/// # Panics
/// If `counts` has neither 3 nor 5 entries.
pub fn llr_logistic_approx(elo0: f64, elo1: f64, counts: &[f64]) -> f64 {
    assert!(counts.len() == 3 || counts.len() == 5, "3 or 5 counts");
    let (n, values, probs) = to_pdf(counts);
    let (s, var) = stats(&values, &probs);
    let (s0, s1) = (logistic_score(elo0), logistic_score(elo1));
    n * (s1 - s0) * (2.0 * s - s0 - s1) / var / 2.0
}

/// The closed-form approximation of [`llr_normalized`] (fishtest's
/// `LLR_normalized_alt`): `games/2 · ln((1 + (t − t₀)²)/(1 + (t − t₁)²))`
/// with `t = (μ − ½)/σ` per game.
///
/// # Panics
/// If `counts` has neither 3 nor 5 entries.
pub fn llr_normalized_approx(nelo0: f64, nelo1: f64, counts: &[f64]) -> f64 {
    assert!(counts.len() == 3 || counts.len() == 5, "3 or 5 counts");
    let (n, values, probs) = to_pdf(counts);
    let (mu, var) = stats(&values, &probs);
    let (sigma_pg, games) = if counts.len() == 5 {
        ((2.0 * var).sqrt(), 2.0 * n)
    } else {
        (var.sqrt(), n)
    };
    let (t0, t1) = (nelo0 / NELO_DIVIDED_BY_NT, nelo1 / NELO_DIVIDED_BY_NT);
    let t = (mu - 0.5) / sigma_pg;
    games / 2.0 * ((1.0 + (t - t0).powi(2)) / (1.0 + (t - t1).powi(2))).ln()
}

/// The GSPRT log-likelihood ratio for normalised Elo hypotheses (fishtest's
/// `LLR_normalized`, fastchess's `normalized` model). For pentanomial
/// counts the per-game t-values are scaled by √2 to per-pair ones.
///
/// # Panics
/// If `counts` has neither 3 nor 5 entries.
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &[f64]) -> f64 {
    assert!(counts.len() == 3 || counts.len() == 5, "3 or 5 counts");
    let scale = if counts.len() == 5 {
        std::f64::consts::SQRT_2
    } else {
        1.0
    };
    let (t0, t1) = (
        nelo0 / NELO_DIVIDED_BY_NT * scale,
        nelo1 / NELO_DIVIDED_BY_NT * scale,
    );
    let (n, values, probs) = to_pdf(counts);
    match (
        mle_t_value(&values, &probs, 0.5, t0),
        mle_t_value(&values, &probs, 0.5, t1),
    ) {
        (Some(p0), Some(p1)) => llr_of(n, &probs, &p0, &p1),
        // The fixed point left the region where a distribution with the
        // asked t-value exists (extreme hypotheses): use the closed form.
        _ => llr_normalized_approx(nelo0, nelo1, counts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
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

    /// Published fastchess reports (normalised model, pentanomial):
    /// `Ptnml(0-2): [0, 0, 1, 8, 1]`, `[0.00, 50.00]` -> `LLR: 1.24`, and
    /// `Ptnml(0-2): [352, 579, 1264, 743, 464]`, `[9.00, 16.00]` ->
    /// `LLR: 4.60` (the run stopped there at bounds ±4.60).
    #[test]
    fn matches_published_fastchess_reports() {
        let llr = llr_normalized(0.0, 50.0, &[0.0, 0.0, 1.0, 8.0, 1.0]);
        assert!(close(llr, 1.24, 0.005), "{llr}");
        let llr = llr_normalized(9.0, 16.0, &[352.0, 579.0, 1264.0, 743.0, 464.0]);
        assert!((4.595..4.605).contains(&llr), "{llr}");
    }

    /// Values from an independent Python transcription of fishtest's
    /// `LLRcalc.py` (`LLR_logistic`, `LLR_normalized`; scipy's brentq
    /// replaced by plain bisection), which also reproduces the two
    /// published fastchess figures above (1.2394 and 4.5960).
    #[test]
    fn against_python_transcription_of_fishtest() {
        let c = [352.0, 579.0, 1264.0, 743.0, 464.0];
        assert!(close(llr_logistic(0.0, 10.0, &c), 12.389_950_108, 1e-6));
        assert!(close(
            llr_logistic(0.0, 50.0, &[0.0, 0.0, 1.0, 8.0, 1.0]),
            1.335_683_019,
            1e-6
        ));
        let d = [10.0, 30.0, 60.0, 35.0, 12.0];
        assert!(close(llr_logistic(0.0, 5.0, &d), 0.190_375_374, 1e-6));
        assert!(close(
            llr_logistic(-5.0, 5.0, &[10.0, 5.0, 20.0]),
            0.335_789_081,
            1e-6
        ));
        assert!(close(llr_normalized(0.0, 2.0, &d), 0.066_904_000, 1e-6));
        // For a 10 Elo gap the Brownian approximation is within a fraction
        // of a per cent of the exact value.
        let approx = llr_logistic_approx(0.0, 10.0, &c);
        assert!(close(12.389_950_108, approx, 0.01 * approx), "{approx}");
    }

    #[test]
    fn mle_has_the_asked_mean() {
        let (_, values, probs) = to_pdf(&[3.0, 10.0, 30.0, 12.0, 5.0]);
        for s in [0.3, 0.5, 0.55, 0.8] {
            let p = mle_expected(&values, &probs, s).expect("mle");
            let (mu, _) = stats(&values, &p);
            assert!(close(p.iter().sum::<f64>(), 1.0, 1e-9));
            assert!(close(mu, s, 1e-9), "{mu} vs {s}");
        }
        let p = mle_t_value(&values, &probs, 0.5, 0.2).expect("mle");
        let (mu, var) = stats(&values, &p);
        assert!(close((mu - 0.5) / var.sqrt(), 0.2, 1e-6));
    }

    #[test]
    fn mirror_symmetry() {
        // Swapping A and B mirrors the counts and negates the hypotheses.
        let c = [4.0, 11.0, 25.0, 14.0, 6.0];
        let m = [6.0, 14.0, 25.0, 11.0, 4.0];
        let a = llr_logistic(0.0, 20.0, &c);
        let b = llr_logistic(-20.0, 0.0, &m);
        assert!(close(a, -b, 1e-9), "{a} {b}");
        let a = llr_normalized(0.0, 20.0, &c);
        let b = llr_normalized(-20.0, 0.0, &m);
        assert!(close(a, -b, 1e-6), "{a} {b}");
    }

    #[test]
    fn equal_hypotheses_and_direction() {
        let c = [4.0, 11.0, 25.0, 14.0, 6.0];
        assert!(close(llr_logistic(5.0, 5.0, &c), 0.0, 1e-12));
        // A scores above ½: evidence for the higher hypothesis grows with N.
        let big = c.map(|x| x * 10.0);
        assert!(llr_logistic(0.0, 30.0, &big) > llr_logistic(0.0, 30.0, &c));
        assert!(llr_logistic(0.0, 30.0, &c) > 0.0);
        // A trinomial input works too.
        assert!(llr_logistic(0.0, 30.0, &[10.0, 5.0, 20.0]) > 0.0);
    }

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
