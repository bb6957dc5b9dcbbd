//! Fair komi: the komi that makes the first player's expected score one
//! half, estimated from the margins of self-play games.
//!
//! # Method
//! Let `M = W − B` be a game's score difference before komi. With komi `k`
//! added to Black, White wins when `M > k`, draws when `M = k`, so White's
//! expected score is `S(k) = P(M > k) + ½ P(M = k)`. `S` falls from 1 to 0
//! as `k` grows, and `S(k) = ½` exactly where `k` is a median of `M`. The
//! fair komi is therefore the median of the margin distribution, and a
//! distribution-free interval for it comes from order statistics: with the
//! `n` margins sorted, `[x₍ₗ₎, x₍ₙ₊₁₋ₗ₎]` covers the median with probability
//! `1 − 2·P(Bin(n, ½) < l)`, and `l` is the largest index that keeps this at
//! least 95 % (the classical sign-test interval, e.g. Conover, *Practical
//! Nonparametric Statistics*, 3.2). It needs independent games (one fresh
//! layout per game) and no distributional assumption; with fewer than six
//! games no 95 % interval exists and the whole observed range is reported.
//!
//! Margins are whole points and draws are common, so `S` is a step
//! function that usually jumps across ½ at the median instead of passing
//! through it: no komi makes the game exactly even. The estimate then says
//! where the jump is, and [`FairKomi::score_below`], [`FairKomi::score_at`]
//! and [`FairKomi::score_above`] give White's score half a point below the
//! estimate, at it, and half a point above it: since margins are whole
//! points, `S(k − ½) = P(M ≥ k) ≥ ½ ≥ P(M > k) = S(k + ½)` at the median
//! `k`, so these bracket the even game (e.g. 0.80, 0.37, 0.20 at komi 3).
//!
//! One caveat the numbers cannot remove: bots that play for the margin
//! would meet a real komi by shifting their margin, but bots that play for
//! the win change their play under komi, so the estimate is the komi that
//! would have made *these* games even.

/// A fair-komi estimate with its interval, in points added to Black.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FairKomi {
    /// The sample median of the margins (a half point when the two middle
    /// margins differ by an odd amount).
    pub komi: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end of the interval.
    pub hi: f64,
    /// The interval's exact coverage under independence (≥ 0.95 when
    /// there are at least six games).
    pub coverage: f64,
    /// `S(komi − ½)`, at least ½ (margins are whole points).
    pub score_below: f64,
    /// White's expected score `S(komi)` in these games at the estimate.
    pub score_at: f64,
    /// `S(komi + ½)`, at most ½: with draws common, `S` jumps across ½ at
    /// the median, and these three values show where and by how much.
    pub score_above: f64,
}

/// The fair komi of games with score differences `margins` (White's total
/// minus Black's, komi not included); `None` for no games.
pub fn fair_komi(margins: &[i64]) -> Option<FairKomi> {
    let n = margins.len();
    if n == 0 {
        return None;
    }
    let mut x = margins.to_vec();
    x.sort_unstable();
    let komi = if n % 2 == 1 {
        x[n / 2] as f64
    } else {
        (x[n / 2 - 1] + x[n / 2]) as f64 / 2.0
    };
    let (l, coverage) = order_statistic_rank(n as u64, 0.95);
    let (lo, hi) = match l {
        Some(l) => (x[l as usize - 1] as f64, x[n - l as usize] as f64),
        None => (x[0] as f64, x[n - 1] as f64),
    };
    Some(FairKomi {
        komi,
        lo,
        hi,
        coverage,
        score_below: white_score_at(margins, komi - 0.5),
        score_at: white_score_at(margins, komi),
        score_above: white_score_at(margins, komi + 0.5),
    })
}

/// The 1-based rank `l` such that `[x₍ₗ₎, x₍ₙ₊₁₋ₗ₎]` is the narrowest
/// order-statistic interval for the median with coverage at least `level`,
/// and that coverage; `None` (and the coverage of the full range) when even
/// `l = 1` falls short.
pub fn order_statistic_rank(n: u64, level: f64) -> (Option<u64>, f64) {
    if n == 0 {
        return (None, 0.0);
    }
    // coverage(l) = 1 − 2·P(B ≤ l − 1), which falls as l grows; the CDF is
    // accumulated term by term, so the search is one pass.
    let mut pmf = HalfBinomialPmf::new(n);
    let mut cdf = pmf.next_term(); // P(B ≤ 0)
    if 1.0 - 2.0 * cdf < level {
        return (None, 1.0 - 2.0 * cdf);
    }
    let mut l = 1;
    while l < n.div_ceil(2) {
        let next = cdf + pmf.next_term(); // P(B ≤ l)
        if 1.0 - 2.0 * next < level {
            break;
        }
        cdf = next;
        l += 1;
    }
    (Some(l), 1.0 - 2.0 * cdf)
}

/// The probabilities `P(B = 0), P(B = 1), ...` of `B ~ Bin(n, ½)`, in
/// order. Each term `C(n, k) / 2ⁿ` is kept as its logarithm, so that a
/// large `n` neither overflows the coefficient nor underflows `2⁻ⁿ`.
struct HalfBinomialPmf {
    n: u64,
    k: u64,
    ln_term: f64,
}

impl HalfBinomialPmf {
    fn new(n: u64) -> HalfBinomialPmf {
        HalfBinomialPmf {
            n,
            k: 0,
            ln_term: -(n as f64) * std::f64::consts::LN_2,
        }
    }

    /// `P(B = k)` for the next `k` (0 past `n`).
    fn next_term(&mut self) -> f64 {
        if self.k > self.n {
            return 0.0;
        }
        let p = self.ln_term.exp();
        // C(n, k + 1) = C(n, k) · (n − k) / (k + 1).
        self.ln_term += ((self.n - self.k) as f64).ln() - ((self.k + 1) as f64).ln();
        self.k += 1;
        p
    }
}

/// `P(B ≤ k)` for `B ~ Bin(n, ½)`: the sign test's tail, which the
/// order-statistic interval is built from.
pub fn half_binomial_cdf(n: u64, k: u64) -> f64 {
    let mut pmf = HalfBinomialPmf::new(n);
    let sum: f64 = (0..=k.min(n)).map(|_| pmf.next_term()).sum();
    sum.min(1.0)
}

/// White's expected score `S(k)` under komi `k` in the observed games:
/// the share of margins above `k` plus half the share equal to it.
pub fn white_score_at(margins: &[i64], komi: f64) -> f64 {
    if margins.is_empty() {
        return 0.5;
    }
    let s: f64 = margins
        .iter()
        .map(|&m| {
            let m = m as f64;
            if m > komi {
                1.0
            } else if m == komi {
                0.5
            } else {
                0.0
            }
        })
        .sum();
    s / margins.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_match_tables() {
        // Conover's table for the median: n = 6 -> l = 1 (coverage
        // 1 − 2/64 = 0.96875); n = 20 -> l = 6 (0.9586); n = 100 -> l = 40
        // (0.9648).
        let (l, c) = order_statistic_rank(6, 0.95);
        assert_eq!(l, Some(1));
        assert!((c - 0.968_75).abs() < 1e-12);
        assert_eq!(order_statistic_rank(5, 0.95).0, None);
        let (l, c) = order_statistic_rank(20, 0.95);
        assert_eq!(l, Some(6));
        assert!((c - 0.958_610_5).abs() < 1e-6, "{c}");
        let (l, c) = order_statistic_rank(100, 0.95);
        assert_eq!(l, Some(40));
        assert!((c - 0.964_799_799_782_295_1).abs() < 1e-9, "{c}");
        let (l, c) = order_statistic_rank(1000, 0.95);
        assert_eq!(l, Some(469));
        assert!((c - 0.953_708_802_639_501_9).abs() < 1e-9, "{c}");
    }

    #[test]
    fn binomial_cdf_matches_exact_values() {
        // Exact fractions: P(B ≤ k) = Σ C(n, i) / 2ⁿ.
        assert_eq!(half_binomial_cdf(1, 0), 0.5);
        assert!((half_binomial_cdf(6, 0) - 1.0 / 64.0).abs() < 1e-15);
        assert!((half_binomial_cdf(10, 3) - 176.0 / 1024.0).abs() < 1e-14);
        assert!((half_binomial_cdf(20, 5) - 21_700.0 / 1_048_576.0).abs() < 1e-13);
        assert!((half_binomial_cdf(20, 9) - 0.411_901_473_999_023_4).abs() < 1e-12);
        assert_eq!(half_binomial_cdf(7, 7), 1.0);
        assert_eq!(half_binomial_cdf(7, 100), 1.0);
        // Symmetry: P(B ≤ k) + P(B ≤ n − k − 1) = 1.
        for (n, k) in [(31, 10), (100, 39), (1001, 480)] {
            let s = half_binomial_cdf(n, k) + half_binomial_cdf(n, n - k - 1);
            assert!((s - 1.0).abs() < 1e-10, "n={n} k={k}: {s}");
        }
        // 2⁻ⁿ alone underflows here; the exact sum is 0.0232927638524...
        let c = half_binomial_cdf(10_000, 4_900);
        assert!((c - 0.023_292_763_852_473_693).abs() < 1e-9, "{c}");
    }

    #[test]
    fn median_and_interval() {
        let m: Vec<i64> = (1..=20).collect();
        let f = fair_komi(&m).expect("games");
        assert_eq!(f.komi, 10.5);
        assert_eq!((f.lo, f.hi), (6.0, 15.0));
        assert!((white_score_at(&m, f.komi) - 0.5).abs() < 1e-12);
        let f = fair_komi(&[3, -1, 7]).expect("games");
        assert_eq!((f.komi, f.lo, f.hi), (3.0, -1.0, 7.0));
        assert!(fair_komi(&[]).is_none());
        // Ties: S jumps across ½ at the median.
        let t = [0, 0, 0, 5];
        assert_eq!(fair_komi(&t).map(|f| f.komi), Some(0.0));
        assert!(white_score_at(&t, -0.5) > 0.5 && white_score_at(&t, 0.5) < 0.5);
        let f = fair_komi(&t).expect("games");
        assert_eq!(
            (f.score_below, f.score_at, f.score_above),
            (1.0, 0.625, 0.25)
        );
    }
}
