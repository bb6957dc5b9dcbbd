//! SPSA (simultaneous perturbation stochastic approximation) with
//! fishtest's gain schedule, free of games: the optimiser `tune` drives.
//!
//! Every iteration `k` (0-based) perturbs all parameters at once by
//! `±c_k` (one fair sign per parameter), the two perturbed points play,
//! and θ moves along the signs by `a_k / c_k · result`, where `result` is
//! the first point's wins minus losses (fishtest's `R_k · c_k · result`
//! with `R_k = a_k / c_k²`). The gains are fishtest's:
//!
//! - `c_k = c / (k + 1)^γ`, `a_k = a / (A + k + 1)^α`, `A` = 10 % of the
//!   iterations `N`;
//! - `c = c_end · N^γ` and `a = r_end · c_end² · (A + N)^α`, so that the
//!   last iteration perturbs by `c_end` and learns at rate `r_end`.
//!
//! `c_end` is given as a share of the parameter's range and turned into
//! its units here, so one default suits keys of any scale.
//!
//! fishtest's gains assume a start near the optimum: their steps move θ
//! about `r_end · c_end` of its range per unit of result, so a key that
//! starts far away only gets part of the way in a short run
//! (`experiments/tuning/coarse-start/`). With `coarse` > 0 the first
//! share of the iterations is a coarse phase: the same schedule over
//! its own iterations, with twice the perturbation, and steps sized from
//! the budget and each key's range (at a mean result of
//! [`COARSE_MEAN_RESULT`] a pair, the phase's last steps alone would
//! cross the whole range). The rest is fishtest's schedule, run afresh
//! over the remaining iterations from where the coarse phase ended. Values stay
//! inside the range; integer keys are rounded stochastically (up with the
//! probability of the fractional part), so that their expected value is
//! the unrounded one and small steps still count on average.

use crate::game::rng::{FastRng, derive_seed};

/// Tag of the random streams of the perturbations, apart from every other
/// stream derived from the run's seed.
const PROBE_TAG: u64 = 0x7370_7361;

/// The mean result per pair at which the coarse phase's last step,
/// repeated for all of the phase's iterations, moves a key across its
/// whole range. A pair's result is −2 to 2; half a point a pair is a
/// clear but not lopsided edge, which a start far from the optimum gives
/// the better probe (`experiments/tuning/coarse-start/` shows the phase
/// reaching the optimum from such starts).
pub const COARSE_MEAN_RESULT: f64 = 0.5;

/// How much larger the coarse phase's perturbation is than `c_end`: it
/// sees across the plateaus a poor start often sits on.
pub const COARSE_C_FACTOR: f64 = 2.0;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// The bot key.
    pub key: String,
    /// Lowest value.
    pub lo: f64,
    /// Highest value (above `lo`).
    pub hi: f64,
    /// Whether the key takes integers only.
    pub integer: bool,
    /// The starting value.
    pub start: f64,
    /// The last iteration's perturbation, as a share of `hi - lo`.
    pub c_end: f64,
    /// The last iteration's learning rate `a_end / c_end²`.
    pub r_end: f64,
}

/// Settings shared by every parameter.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SpsaSettings {
    /// Iterations of the whole run (`N`).
    pub iterations: u64,
    /// Decay exponent of the learning rate.
    pub alpha: f64,
    /// Decay exponent of the perturbation.
    pub gamma: f64,
    /// Share of the iterations run first as a coarse phase (0: none).
    pub coarse: f64,
}

/// One phase's schedule: its length and where iteration `k` is in it.
#[derive(Copy, Clone, Debug, PartialEq)]
struct Phase {
    /// Iterations of the phase.
    n: f64,
    /// 0-based iteration within the phase.
    k: f64,
    /// Whether it is the coarse phase.
    coarse: bool,
}

impl SpsaSettings {
    /// Iterations of the coarse phase (none when `coarse` is 0; always
    /// fewer than the run's, so that a fine phase follows).
    pub fn coarse_iterations(&self) -> u64 {
        let n = self.iterations;
        ((self.coarse * n as f64).round() as u64).min(n.saturating_sub(1))
    }

    fn phase(&self, k: u64) -> Phase {
        let nc = self.coarse_iterations();
        if k < nc {
            Phase {
                n: nc as f64,
                k: k as f64,
                coarse: true,
            }
        } else {
            Phase {
                n: self.iterations.saturating_sub(nc).max(1) as f64,
                k: k.saturating_sub(nc) as f64,
                coarse: false,
            }
        }
    }
}

/// The two points one iteration plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// The sign of each parameter's perturbation (+1 or -1).
    pub delta: Vec<i8>,
    /// θ + c_k·Δ, clamped (and rounded for integer keys).
    pub plus: Vec<f64>,
    /// θ − c_k·Δ, clamped (and rounded for integer keys).
    pub minus: Vec<f64>,
}

/// A running optimisation: the parameters and the current θ.
#[derive(Clone, Debug)]
pub struct Spsa {
    /// The parameters, in the order given.
    pub params: Vec<SpsaParam>,
    /// Gains and iteration count.
    pub settings: SpsaSettings,
    theta: Vec<f64>,
}

/// Floating values are carried with six decimals, the precision the bot
/// specs are written with, so that a spec names exactly the point played.
pub fn quantise(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

impl Spsa {
    /// θ at the parameters' starting values (clamped to their ranges).
    pub fn new(params: Vec<SpsaParam>, settings: SpsaSettings) -> Spsa {
        let theta = params.iter().map(|p| p.start.clamp(p.lo, p.hi)).collect();
        Spsa {
            params,
            settings,
            theta,
        }
    }

    /// The current θ.
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// The phase's `c_end` of parameter `i` in its own units, and its
    /// `r_end`.
    fn ends(&self, i: usize, phase: Phase) -> (f64, f64) {
        let p = &self.params[i];
        let range = p.hi - p.lo;
        if phase.coarse {
            // The last step a_end / c_end = r_end · c_end is the range
            // over the phase's iterations at COARSE_MEAN_RESULT a pair.
            let c_end = COARSE_C_FACTOR * p.c_end * range;
            let step = range / (COARSE_MEAN_RESULT * phase.n);
            (c_end, step / c_end)
        } else {
            (p.c_end * range, p.r_end)
        }
    }

    /// The perturbation `c_k` of parameter `i` at iteration `k`, in its
    /// units.
    pub fn c_k(&self, i: usize, k: u64) -> f64 {
        let s = &self.settings;
        let phase = s.phase(k);
        let c = self.ends(i, phase).0 * phase.n.powf(s.gamma);
        c / (phase.k + 1.0).powf(s.gamma)
    }

    /// The gain `a_k` of parameter `i` at iteration `k`.
    pub fn a_k(&self, i: usize, k: u64) -> f64 {
        let s = &self.settings;
        let phase = s.phase(k);
        let big_a = 0.1 * phase.n;
        let (c_end, r_end) = self.ends(i, phase);
        let a = r_end * c_end.powi(2) * (big_a + phase.n).powf(s.alpha);
        a / (big_a + phase.k + 1.0).powf(s.alpha)
    }

    /// The points iteration `k` plays around `center` (θ when its batch
    /// began): signs and rounding drawn from (`seed`, `k`) alone.
    pub fn probe(&self, center: &[f64], k: u64, seed: u64) -> Probe {
        let mut rng = FastRng::new(derive_seed(seed, &[PROBE_TAG, k]));
        let delta: Vec<i8> = self
            .params
            .iter()
            .map(|_| if rng.next_word() >> 63 == 0 { 1 } else { -1 })
            .collect();
        let mut side = |sign: f64| -> Vec<f64> {
            self.params
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let v =
                        (center[i] + sign * f64::from(delta[i]) * self.c_k(i, k)).clamp(p.lo, p.hi);
                    if p.integer {
                        let f = v.floor();
                        let up = rng.unit() < v - f;
                        (f + if up { 1.0 } else { 0.0 }).clamp(p.lo, p.hi)
                    } else {
                        quantise(v).clamp(p.lo, p.hi)
                    }
                })
                .collect()
        };
        let plus = side(1.0);
        let minus = side(-1.0);
        Probe { delta, plus, minus }
    }

    /// Moves θ by iteration `k`'s result (the plus point's wins minus
    /// losses, −2 to 2 for a pair), clamped to the ranges.
    pub fn step(&mut self, k: u64, delta: &[i8], result: f64) {
        for (i, &d) in delta.iter().enumerate().take(self.params.len()) {
            let (lo, hi) = (self.params[i].lo, self.params[i].hi);
            let move_by = self.a_k(i, k) / self.c_k(i, k) * result * f64::from(d);
            self.theta[i] = (self.theta[i] + move_by).clamp(lo, hi);
        }
    }

    /// θ as the bot would be given it: integer keys rounded to the
    /// nearest, the others to six decimals.
    pub fn rounded(&self) -> Vec<f64> {
        self.params
            .iter()
            .zip(&self.theta)
            .map(|(p, &t)| if p.integer { t.round() } else { quantise(t) })
            .collect()
    }
}

/// A value as a spec and `tune.csv` write it: integers without a point,
/// others with at most six decimals and no trailing zeros.
pub fn value_text(v: f64, integer: bool) -> String {
    if integer {
        return format!("{}", v.round() as i64);
    }
    let s = format!("{:.6}", quantise(v));
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::rating::score_from_elo;

    fn param(key: &str, start: f64, integer: bool, r_end: f64) -> SpsaParam {
        SpsaParam {
            key: key.into(),
            lo: 0.0,
            hi: if integer { 20.0 } else { 1.0 },
            integer,
            start,
            c_end: 0.05,
            r_end,
        }
    }

    /// A game pair between two points of a noisy function whose strength
    /// peaks at x = 0.3, n = 12: each game is won by the plus point with
    /// the logistic probability of the Elo difference.
    fn pair(p: &[f64], m: &[f64], rng: &mut FastRng) -> f64 {
        let elo = |v: &[f64]| -2000.0 * (v[0] - 0.3).powi(2) - 8.0 * (v[1] - 12.0).powi(2);
        let s = score_from_elo(elo(p) - elo(m));
        (0..2)
            .map(|_| if rng.unit() < s { 1.0 } else { -1.0 })
            .sum()
    }

    #[test]
    fn finds_the_optimum_of_a_noisy_function_from_a_poor_start() {
        let settings = SpsaSettings {
            iterations: 4000,
            alpha: 0.602,
            gamma: 0.101,
            coarse: 0.0,
        };
        let mut spsa = Spsa::new(
            vec![param("x", 0.9, false, 0.02), param("n", 2.0, true, 0.02)],
            settings,
        );
        let mut rng = FastRng::new(9);
        for k in 0..settings.iterations {
            let center = spsa.theta().to_vec();
            let probe = spsa.probe(&center, k, 3);
            assert!(probe.plus[1].fract() == 0.0 && probe.minus[1].fract() == 0.0);
            let r = pair(&probe.plus, &probe.minus, &mut rng);
            spsa.step(k, &probe.delta, r);
        }
        let t = spsa.theta();
        assert!((t[0] - 0.3).abs() < 0.08, "{t:?}");
        assert!((t[1] - 12.0).abs() < 2.5, "{t:?}");
    }

    #[test]
    fn gains_match_fishtest_at_both_ends() {
        let settings = SpsaSettings {
            iterations: 1000,
            alpha: 0.602,
            gamma: 0.101,
            coarse: 0.0,
        };
        let spsa = Spsa::new(vec![param("x", 0.5, false, 0.002)], settings);
        // The last iteration perturbs by c_end and learns at r_end.
        let k = settings.iterations - 1;
        assert!((spsa.c_k(0, k) - 0.05).abs() < 1e-12);
        let r = spsa.a_k(0, k) / spsa.c_k(0, k).powi(2);
        assert!((r - 0.002).abs() < 1e-12);
        assert!(spsa.c_k(0, 0) > spsa.c_k(0, k) && spsa.a_k(0, 0) > spsa.a_k(0, k));
    }

    #[test]
    fn a_coarse_phase_crosses_the_range_then_hands_over_to_fishtest() {
        let settings = SpsaSettings {
            iterations: 1000,
            alpha: 0.602,
            gamma: 0.101,
            coarse: 0.25,
        };
        assert_eq!(settings.coarse_iterations(), 250);
        let spsa = Spsa::new(vec![param("x", 0.5, false, 0.002)], settings);
        // The coarse phase's last step, at the mean result, crosses the
        // range (1) in its 250 iterations; its perturbation is doubled.
        let step = spsa.a_k(0, 249) / spsa.c_k(0, 249);
        assert!((step * COARSE_MEAN_RESULT * 250.0 - 1.0).abs() < 1e-9);
        assert!((spsa.c_k(0, 249) - COARSE_C_FACTOR * 0.05).abs() < 1e-12);
        // The fine phase starts afresh and ends where fishtest ends.
        assert!(spsa.c_k(0, 250) > spsa.c_k(0, 999));
        assert!((spsa.c_k(0, 999) - 0.05).abs() < 1e-12);
        let r = spsa.a_k(0, 999) / spsa.c_k(0, 999).powi(2);
        assert!((r - 0.002).abs() < 1e-12);
        // With no coarse share, the schedule is fishtest's alone.
        let plain = SpsaSettings {
            coarse: 0.0,
            ..settings
        };
        assert_eq!(plain.coarse_iterations(), 0);
        let one = SpsaSettings {
            iterations: 1,
            coarse: 0.9,
            ..settings
        };
        assert_eq!(one.coarse_iterations(), 0, "a fine phase always follows");
    }

    #[test]
    fn probes_stay_in_range_and_are_a_function_of_seed_and_iteration() {
        let settings = SpsaSettings {
            iterations: 10,
            alpha: 0.602,
            gamma: 0.101,
            coarse: 0.0,
        };
        let spsa = Spsa::new(vec![param("x", 1.0, false, 0.002)], settings);
        let a = spsa.probe(&[1.0], 4, 7);
        assert_eq!(a, spsa.probe(&[1.0], 4, 7));
        assert!(a.plus[0] <= 1.0 && a.minus[0] <= 1.0 && a.plus[0] != a.minus[0]);
        assert_eq!(value_text(0.250000, false), "0.25");
        assert_eq!(value_text(3.0, true), "3");
        assert_eq!(value_text(1.0, false), "1");
    }
}
