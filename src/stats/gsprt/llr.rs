//! The log-likelihood ratios of the GSPRT, as fishtest computes them: the
//! maximum-likelihood distributions under each hypothesis (logistic or
//! normalised Elo), exact and approximate.

use super::{NELO_DIVIDED_BY_NT, REGULARIZE, logistic_score};

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
    use super::super::tests::close;
    use super::*;

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
}
