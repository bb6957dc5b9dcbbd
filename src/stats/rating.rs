//! The statistics of tournaments: Wilson intervals, Elo conversions and
//! maximum-likelihood Bradley-Terry ratings with confidence intervals.
//!
//! Everything here is plain arithmetic on counts, free of I/O, so sweeps and
//! sequential tests can reuse it.

/// The two-sided 95 % normal quantile, Φ⁻¹(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo points per unit of logistic log-odds: 400 / ln 10. Elo's scale puts
/// a 400-point difference at odds of 10 to 1.
pub const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;

/// The Wilson score interval for a proportion: `successes` out of `n`
/// trials, at normal quantile `z` (use [`Z95`] for 95 %). Unlike the Wald
/// interval it stays inside `[0, 1]` and is sensible at 0 and `n` successes
/// (Wilson 1927; Brown, Cai and DasGupta 2001). `n = 0` gives `(0, 1)`.
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The Elo difference at which the stronger side's expected score is `p`:
/// `-400 log10(1/p - 1)`. Infinite at 0 and 1.
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0, which prints
        // `0.0` rather than `-0.0` (sprt's status line).
        -400.0 * (1.0 / p - 1.0).log10() + 0.0
    }
}

/// An Elo difference with its 95 % interval, `lo <= elo <= hi`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloInterval {
    /// The point estimate.
    pub elo: f64,
    /// The lower end.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
}

/// The sample an Elo estimate is taken from: `points` of `games`, with one
/// virtual draw added (half a point, one game) when the sample is all wins
/// or all losses. Without it such a sample gives a score of 1 or 0, whose
/// Elo is infinite; with it the estimate is the one the tournaments'
/// Bradley-Terry ratings give a clean sweep between two bots (see
/// [`bradley_terry`]), and both ends of the interval stay finite. Any other
/// sample, and no games at all, are returned unchanged.
pub fn regularised(points: f64, games: f64) -> (f64, f64) {
    if games > 0.0 && (points <= 0.0 || points >= games) {
        (points.clamp(0.0, games) + 0.5, games + 1.0)
    } else {
        (points, games)
    }
}

/// The Elo of `points` out of `games` under the rule of [`regularised`];
/// 0 for no games.
pub fn elo_of_points(points: f64, games: f64) -> f64 {
    let (p, n) = regularised(points, games);
    if n <= 0.0 {
        return 0.0;
    }
    elo_from_score(p / n)
}

/// The Elo of `points` out of `games` with the 95 % Wilson interval of the
/// score, both from the sample of [`regularised`]: every end is finite once
/// a game has been played (no games give `0 [-inf, inf]`), and the interval
/// always holds the estimate.
pub fn elo_interval(points: f64, games: f64) -> EloInterval {
    let (p, n) = regularised(points, games);
    let (lo, hi) = wilson(p, n, Z95);
    EloInterval {
        elo: elo_of_points(points, games),
        lo: elo_from_score(lo),
        hi: elo_from_score(hi),
    }
}

/// The expected score of a side `elo` points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and sample standard deviation (divisor `n - 1`; 0 for fewer than
/// two values) from a count, a sum and a sum of squares.
pub fn mean_sd(n: f64, sum: f64, sum_sq: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let mean = sum / n;
    if n < 2.0 {
        return (mean, 0.0);
    }
    let var = ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
    (mean, var.sqrt())
}

/// Pairwise results among `k` players: games played and points scored
/// (wins plus half the draws) for every ordered pair.
#[derive(Clone, Debug, PartialEq)]
pub struct PairwiseResults {
    k: usize,
    games: Vec<f64>,
    points: Vec<f64>,
}

impl PairwiseResults {
    /// No games among `k` players.
    pub fn new(k: usize) -> PairwiseResults {
        PairwiseResults {
            k,
            games: vec![0.0; k * k],
            points: vec![0.0; k * k],
        }
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.k
    }

    /// Records one game of `a` against `b` in which `a` scored `points_a`
    /// (1, ½ or 0).
    ///
    /// # Panics
    /// If `a` or `b` is not below [`PairwiseResults::players`] or `a == b`.
    pub fn add_game(&mut self, a: usize, b: usize, points_a: f64) {
        assert!(a < self.k && b < self.k && a != b, "bad players {a}, {b}");
        self.games[a * self.k + b] += 1.0;
        self.games[b * self.k + a] += 1.0;
        self.points[a * self.k + b] += points_a;
        self.points[b * self.k + a] += 1.0 - points_a;
    }

    /// Games between `a` and `b`.
    pub fn games(&self, a: usize, b: usize) -> f64 {
        self.games[a * self.k + b]
    }

    /// Points `a` scored against `b`.
    pub fn points(&self, a: usize, b: usize) -> f64 {
        self.points[a * self.k + b]
    }

    /// Games `a` played in all.
    pub fn total_games(&self, a: usize) -> f64 {
        (0..self.k).map(|b| self.games(a, b)).sum()
    }

    /// Whether the maximum-likelihood ratings are finite: the directed
    /// graph "`a` scored something against `b`" is strongly connected
    /// (Zermelo 1929; Ford 1957). Otherwise some group of players won every
    /// game against the rest and its ratings run off to infinity.
    pub fn has_finite_mle(&self) -> bool {
        if self.k < 2 {
            return true;
        }
        let reach = |forward: bool| {
            let mut seen = vec![false; self.k];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(a) = stack.pop() {
                for (b, s) in seen.iter_mut().enumerate() {
                    let scored = if forward {
                        self.points(a, b)
                    } else {
                        self.points(b, a)
                    };
                    if !*s && scored > 0.0 {
                        *s = true;
                        stack.push(b);
                    }
                }
            }
            seen.iter().all(|&s| s)
        };
        reach(true) && reach(false)
    }
}

/// Bradley-Terry (logistic Elo) ratings with their uncertainty.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo of each player; the mean over players is 0 (the anchor).
    pub elo: Vec<f64>,
    /// Standard error of each Elo, from the observed Fisher information
    /// under the same mean-zero anchor.
    pub se: Vec<f64>,
    /// Whether one virtual draw per played pairing was added because the
    /// plain maximum-likelihood ratings are infinite (see
    /// [`bradley_terry`]).
    pub regularised: bool,
}

impl Ratings {
    /// The 95 % interval `elo ± 1.96 se` of player `i`.
    pub fn interval(&self, i: usize) -> (f64, f64) {
        (
            self.elo[i] - Z95 * self.se[i],
            self.elo[i] + Z95 * self.se[i],
        )
    }
}

/// Maximum-likelihood Bradley-Terry ratings: player `i` scores against `j`
/// with expectation `1 / (1 + exp(r_j - r_i))`, draws counting as half a
/// win and half a loss, so ratings are Elo up to the factor
/// [`ELO_PER_NAT`]. Ratings are anchored at mean 0.
///
/// The log-likelihood is concave, so Newton's method with step halving
/// finds the maximum. Standard errors come from the pseudo-inverse of the
/// observed information matrix `H` (a weighted graph Laplacian whose null
/// space is the constant vector): `pinv(H) = (H + J/k)^-1 - J/k`, the
/// covariance of the mean-zero estimates.
///
/// When the maximum is at infinity (a player or a group won or lost every
/// game against the others, see [`PairwiseResults::has_finite_mle`]), one
/// virtual draw is added to every pairing that was played, and
/// [`Ratings::regularised`] says so. Players who played nobody get 0 with
/// an infinite error.
pub fn bradley_terry(results: &PairwiseResults) -> Ratings {
    let k = results.k;
    let mut data = results.clone();
    let regularised = !results.has_finite_mle();
    if regularised {
        for a in 0..k {
            for b in a + 1..k {
                if results.games(a, b) > 0.0 {
                    data.add_game(a, b, 0.5);
                }
            }
        }
    }
    let mut r = vec![0.0; k];
    let mut ll = log_likelihood(&data, &r);
    for _ in 0..200 {
        let (grad, hess) = gradient_hessian(&data, &r);
        let Some(step) = solve(&anchored(&hess), &grad) else {
            break;
        };
        // Step halving keeps each iteration uphill.
        let mut t = 1.0;
        let mut improved = false;
        for _ in 0..40 {
            let trial: Vec<f64> = r.iter().zip(&step).map(|(x, d)| x + t * d).collect();
            let trial_ll = log_likelihood(&data, &trial);
            if trial_ll >= ll - 1e-12 {
                r = trial;
                ll = trial_ll;
                improved = true;
                break;
            }
            t *= 0.5;
        }
        let size = step.iter().fold(0.0f64, |m, d| m.max(d.abs())) * t;
        if !improved || size < 1e-12 {
            break;
        }
    }
    let mean = r.iter().sum::<f64>() / k.max(1) as f64;
    let (_, hess) = gradient_hessian(&data, &r);
    let cov = invert(&anchored(&hess));
    let se = (0..k)
        .map(|i| {
            if data.total_games(i) == 0.0 {
                return f64::INFINITY;
            }
            let v = cov
                .as_ref()
                .map_or(f64::INFINITY, |c| c[i][i] - 1.0 / k as f64);
            v.max(0.0).sqrt() * ELO_PER_NAT
        })
        .collect();
    Ratings {
        elo: r.iter().map(|x| (x - mean) * ELO_PER_NAT).collect(),
        se,
        regularised,
    }
}

/// The covariance, in Elo², of the ratings that [`bradley_terry`] gave
/// for `results`, under its mean-zero anchor and from the same observed
/// information (virtual draws included when it added them). The variance
/// of a difference `elo[i] - elo[j]` is `c[i][i] + c[j][j] - 2 c[i][j]`:
/// what an interval relative to one pinned player needs (`ordo -a`).
/// `None` when the information matrix is singular (players that no games
/// link).
pub fn elo_covariance(results: &PairwiseResults, ratings: &Ratings) -> Option<Vec<Vec<f64>>> {
    let k = results.k;
    let mut data = results.clone();
    if ratings.regularised {
        for a in 0..k {
            for b in a + 1..k {
                if results.games(a, b) > 0.0 {
                    data.add_game(a, b, 0.5);
                }
            }
        }
    }
    let r: Vec<f64> = ratings.elo.iter().map(|e| e / ELO_PER_NAT).collect();
    let (_, hess) = gradient_hessian(&data, &r);
    let inv = invert(&anchored(&hess))?;
    let scale = ELO_PER_NAT * ELO_PER_NAT;
    Some(
        inv.iter()
            .map(|row| row.iter().map(|x| (x - 1.0 / k as f64) * scale).collect())
            .collect(),
    )
}

fn expected(ri: f64, rj: f64) -> f64 {
    1.0 / (1.0 + (rj - ri).exp())
}

fn log_likelihood(d: &PairwiseResults, r: &[f64]) -> f64 {
    let mut ll = 0.0;
    for i in 0..d.k {
        for j in 0..d.k {
            let s = d.points(i, j);
            if i != j && s > 0.0 {
                ll += s * expected(r[i], r[j]).ln();
            }
        }
    }
    ll
}

/// The gradient of the log-likelihood and the observed information
/// (minus its Hessian).
fn gradient_hessian(d: &PairwiseResults, r: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let k = d.k;
    let mut g = vec![0.0; k];
    let mut h = vec![vec![0.0; k]; k];
    for i in 0..k {
        for j in 0..k {
            let n = d.games(i, j);
            if i == j || n == 0.0 {
                continue;
            }
            let p = expected(r[i], r[j]);
            g[i] += d.points(i, j) - n * p;
            let w = n * p * (1.0 - p);
            h[i][i] += w;
            h[i][j] -= w;
        }
    }
    (g, h)
}

/// `H + J/k`: fixes the free constant shift of the ratings so the matrix
/// is invertible when the comparison graph is connected.
fn anchored(h: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let k = h.len() as f64;
    h.iter()
        .map(|row| row.iter().map(|x| x + 1.0 / k).collect())
        .collect()
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None`
/// for a singular matrix.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let inv = invert(a)?;
    Some(
        inv.iter()
            .map(|row| row.iter().zip(b).map(|(x, y)| x * y).sum())
            .collect(),
    )
}

/// Gauss-Jordan inverse with partial pivoting; `None` when singular.
fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        inv.swap(col, pivot);
        let p = m[col][col];
        for j in 0..n {
            m[col][j] /= p;
            inv[col][j] /= p;
        }
        for row in 0..n {
            if row != col {
                let f = m[row][col];
                if f != 0.0 {
                    for j in 0..n {
                        m[row][j] -= f * m[col][j];
                        inv[row][j] -= f * inv[col][j];
                    }
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_known_values() {
        // 8 of 10 at z = 1.96: the textbook (0.4902, 0.9433).
        let (lo, hi) = wilson(8.0, 10.0, Z95);
        assert!(
            close(lo, 0.490_16, 1e-4) && close(hi, 0.943_32, 1e-4),
            "{lo} {hi}"
        );
        // 0 of 10: lower bound 0, upper z²/(n+z²) = 0.2775.
        let (lo, hi) = wilson(0.0, 10.0, Z95);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.277_53, 1e-4), "{hi}");
        // Symmetry: k of n mirrors n-k of n.
        let (a, b) = wilson(3.0, 17.0, Z95);
        let (c, d) = wilson(14.0, 17.0, Z95);
        assert!(close(a, 1.0 - d, 1e-12) && close(b, 1.0 - c, 1e-12));
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
    }

    #[test]
    fn elo_round_trips() {
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(elo_from_score(0.5).is_sign_positive());
        assert_eq!(format!("{:.1}", elo_from_score(0.5)), "0.0");
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
        for p in [0.01, 0.3, 0.5, 0.77, 0.999] {
            assert!(close(score_from_elo(elo_from_score(p)), p, 1e-12));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    /// Every sample of 1 to 200 games, every number of wins and of draws:
    /// the estimate and both ends are finite and in order, and more points
    /// raise all three.
    #[test]
    fn elo_intervals_are_finite_and_ordered_at_every_count() {
        for n in 1..=200u32 {
            let g = f64::from(n);
            for wins in 0..=n {
                for draws in 0..=n - wins {
                    let points = f64::from(wins) + f64::from(draws) / 2.0;
                    let e = elo_interval(points, g);
                    let what = format!("{wins} wins {draws} draws of {n}: {e:?}");
                    assert!(
                        e.elo.is_finite() && e.lo.is_finite() && e.hi.is_finite(),
                        "{what}"
                    );
                    assert!(e.lo < e.elo && e.elo < e.hi, "{what}");
                    assert_eq!(e.elo, elo_of_points(points, g), "{what}");
                }
            }
            for half in 1..=2 * n {
                let (a, b) = (f64::from(half - 1) / 2.0, f64::from(half) / 2.0);
                let (before, e) = (elo_interval(a, g), elo_interval(b, g));
                assert!(
                    before.elo < e.elo && before.lo < e.lo && before.hi < e.hi,
                    "{b} of {n}: {e:?} after {before:?}"
                );
            }
        }
    }

    #[test]
    fn a_clean_sweep_counts_one_virtual_draw() {
        // 10 of 10 is read as 10.5 of 11: 400 log10 21, as bradley_terry
        // rates the same two bots (perfect_scores_are_regularised).
        let e = elo_interval(10.0, 10.0);
        assert!(close(e.elo, 400.0 * 21f64.log10(), 1e-9), "{e:?}");
        let (lo, hi) = wilson(10.5, 11.0, Z95);
        assert!(close(e.lo, elo_from_score(lo), 1e-9) && close(e.hi, elo_from_score(hi), 1e-9));
        let l = elo_interval(0.0, 10.0);
        assert!(close(l.elo, -e.elo, 1e-9) && close(l.lo, -e.hi, 1e-9) && close(l.hi, -e.lo, 1e-9));
        assert_eq!(regularised(3.0, 10.0), (3.0, 10.0));
        assert_eq!(regularised(10.0, 10.0), (10.5, 11.0));
        assert_eq!(regularised(0.0, 10.0), (0.5, 11.0));
        // No games: no information, and no virtual draw made up.
        let none = elo_interval(0.0, 0.0);
        assert_eq!(
            (none.elo, none.lo, none.hi),
            (0.0, f64::NEG_INFINITY, f64::INFINITY)
        );
    }

    #[test]
    fn mean_sd_known() {
        // 1, 2, 3, 4: mean 2.5, sample sd sqrt(5/3).
        let (m, s) = mean_sd(4.0, 10.0, 30.0);
        assert!(close(m, 2.5, 1e-12) && close(s, (5.0f64 / 3.0).sqrt(), 1e-12));
        assert_eq!(mean_sd(1.0, 3.0, 9.0), (3.0, 0.0));
    }

    #[test]
    fn two_players_match_closed_form() {
        // A scores 75 of 100 (60 wins, 30 draws, 10 losses) against B:
        // difference 400 log10 3 = 190.85, split ±95.42 around the mean 0.
        // Information n p (1-p) = 18.75 on the difference; each rating is
        // half the difference, so se = ELO_PER_NAT / sqrt(4 * 18.75).
        let mut d = PairwiseResults::new(2);
        for i in 0..100 {
            let p = if i < 60 {
                1.0
            } else if i < 90 {
                0.5
            } else {
                0.0
            };
            d.add_game(0, 1, p);
        }
        let r = bradley_terry(&d);
        assert!(!r.regularised);
        assert!(close(r.elo[0], 95.424_25, 1e-4), "{:?}", r.elo);
        assert!(close(r.elo[1], -95.424_25, 1e-4));
        let se = ELO_PER_NAT / (4.0f64 * 18.75).sqrt();
        assert!(
            close(r.se[0], se, 1e-6) && close(r.se[1], se, 1e-6),
            "{:?}",
            r.se
        );
        let (lo, hi) = r.interval(0);
        assert!(close(hi - lo, 2.0 * Z95 * se, 1e-9));
        // The covariance holds the same errors, and the difference's
        // variance is the inverse of its information.
        let c = elo_covariance(&d, &r).expect("covariance");
        assert!(close(c[0][0].sqrt(), se, 1e-6) && close(c[1][1].sqrt(), se, 1e-6));
        let diff = c[0][0] + c[1][1] - 2.0 * c[0][1];
        assert!(
            close(diff, ELO_PER_NAT * ELO_PER_NAT / 18.75, 1e-6),
            "{diff}"
        );
    }

    #[test]
    fn cycle_is_level() {
        // A beats B, B beats C, C beats A, each 2 of 3: all equal.
        let mut d = PairwiseResults::new(3);
        for (a, b) in [(0, 1), (1, 2), (2, 0)] {
            d.add_game(a, b, 1.0);
            d.add_game(a, b, 1.0);
            d.add_game(a, b, 0.0);
        }
        let r = bradley_terry(&d);
        for e in &r.elo {
            assert!(close(*e, 0.0, 1e-9), "{:?}", r.elo);
        }
    }

    #[test]
    fn three_players_known_table() {
        // A-B 6/10, B-C 7/10, A-C 8/10 (points of the first). Reference
        // ratings from an independent solver (Hunter's MM algorithm, in
        // Python): A 102.7485, B 25.9017, C -128.6502 (mean 0).
        let mut d = PairwiseResults::new(3);
        let mut add = |a, b, pts: usize| {
            for i in 0..10 {
                d.add_game(a, b, if i < pts { 1.0 } else { 0.0 });
            }
        };
        add(0, 1, 6);
        add(1, 2, 7);
        add(0, 2, 8);
        let r = bradley_terry(&d);
        // The gradient vanishes: each player's expected points equal its points.
        let nat: Vec<f64> = r.elo.iter().map(|e| e / ELO_PER_NAT).collect();
        for i in 0..3 {
            let exp: f64 = (0..3)
                .filter(|&j| j != i)
                .map(|j| d.games(i, j) * expected(nat[i], nat[j]))
                .sum();
            let got: f64 = (0..3).filter(|&j| j != i).map(|j| d.points(i, j)).sum();
            assert!(close(exp, got, 1e-9), "{i}: {exp} vs {got}");
        }
        assert!(close(r.elo[0], 102.7485, 1e-3), "{:?}", r.elo);
        assert!(close(r.elo[1], 25.9017, 1e-3), "{:?}", r.elo);
        assert!(close(r.elo[2], -128.6502, 1e-3), "{:?}", r.elo);
    }

    #[test]
    fn perfect_scores_are_regularised() {
        // A wins 10 of 10: infinite MLE, so one virtual draw is added:
        // 10.5 of 11, difference 400 log10 21.
        let mut d = PairwiseResults::new(2);
        for _ in 0..10 {
            d.add_game(0, 1, 1.0);
        }
        assert!(!d.has_finite_mle());
        let r = bradley_terry(&d);
        assert!(r.regularised);
        let diff = r.elo[0] - r.elo[1];
        assert!(close(diff, 400.0 * 21f64.log10(), 1e-6), "{diff}");
        assert!(r.se[0].is_finite());
    }
}
