//! Training of the line network of [`crate::net::lines`] by TD(0)
//! self-play (that module's "Training" section): the settings, the loop
//! and the normalised step. It needs no feature: `examples/train_lines`
//! runs it, and the built-in network is its output.

use crate::bot::learned::best_move;
use crate::game::outcome::Komi;
use crate::game::rng::FastRng;
use crate::game::rules::{HoleSetup, Rules};
use crate::net::lines::{LineNet, NetLines};

/// Settings of [`train`].
#[derive(Clone, Debug, PartialEq)]
pub struct LinesTrainConfig {
    /// Board side, 3 to 8.
    pub size: u8,
    /// Games of self-play.
    pub games: u64,
    /// Learning rate at the start: the fraction of the error by which one
    /// update moves a position's value.
    pub rate: f32,
    /// The learning rate at the end as a fraction of `rate`.
    pub final_rate: f32,
    /// Probability of a random move.
    pub explore: f64,
    /// Hole counts, drawn uniformly from this range for each game.
    pub holes: std::ops::RangeInclusive<u32>,
    /// Empty squares per table.
    pub width: u32,
}

impl Default for LinesTrainConfig {
    /// The built-in network's settings, chosen by one ply of each trained
    /// network against `heuristic`: a table per four empty squares (fewer
    /// tables learn faster from the same games) and a little exploration.
    /// The hand runs that chose them are in docs/learned-history.md; the
    /// built-in network's own figures are in `experiments/learned-lines/`.
    fn default() -> LinesTrainConfig {
        LinesTrainConfig {
            size: 7,
            games: 30_000_000,
            rate: 0.2,
            final_rate: 0.1,
            explore: 0.05,
            holes: 0..=10,
            width: 4,
        }
    }
}

/// Trains a network by self-play from `seed`; `progress` is told the
/// number of games played every 10,000 games.
pub fn train(cfg: &LinesTrainConfig, seed: u64, mut progress: impl FnMut(u64)) -> LineNet {
    let mut net = LineNet::untrained(cfg.size, cfg.width);
    let mirror = mirror_table(cfg.size);
    let mut rng = FastRng::new(seed);
    let max_holes = (cfg.size as u32).pow(2) - 1;
    let (lo, hi) = (
        (*cfg.holes.start()).min(max_holes),
        (*cfg.holes.end()).min(max_holes),
    );
    for g in 0..cfg.games {
        let done = g as f32 / cfg.games as f32;
        let rate = cfg.rate * (1.0 - done * (1.0 - cfg.final_rate));
        let holes = lo + rng.below(hi.saturating_sub(lo) + 1);
        let rules = Rules {
            size: cfg.size,
            holes: HoleSetup::Random(holes),
            pie: false,
            komi: Komi::ZERO,
        };
        let Ok(mut pos) = rules.new_game(&mut rng) else {
            continue;
        };
        let mut nl = NetLines::new(&net, &pos);
        while let (Some(best_sq), best) = best_move(&nl, &net, &pos, &mut rng) {
            let empties = pos.empty().count();
            let me = pos.turn();
            let lines_idx = nl.patterns_of(me);
            let step = rate * (best - nl.sum(&net, me, empties))
                / squared_gradient(lines_idx, &mirror) as f32;
            let table = net.table_mut(empties);
            for &idx in lines_idx {
                let i = idx as usize;
                table[i] += step;
                let m = mirror[i] as usize;
                if m != i {
                    table[m] += step;
                }
            }
            let sq = if rng.unit() < cfg.explore {
                pos.empty().nth(rng.below(empties)).unwrap_or(best_sq)
            } else {
                best_sq
            };
            pos.play_unchecked(sq);
            nl.played(&pos, sq);
        }
        if (g + 1) % 10_000 == 0 {
            progress(g + 1);
        }
    }
    net
}

/// The squared length of the value's gradient in the shared weights: the
/// sum over weights of the square of the number of lines that read it (a
/// pattern and its mirror image are one weight). A step of `rate * error`
/// divided by it moves the value by `rate * error` whatever the position
/// (normalised least mean squares). Dividing by the number of lines
/// instead, which it equals only when every line reads its own weight,
/// lets a weight that many empty lines share move the value by a multiple
/// of the error, and training diverges.
fn squared_gradient(idx: &[u32], mirror: &[u32]) -> u32 {
    // Each ordered pair of lines reading one weight adds one: the sum of
    // each count squared. All 16 x 16 comparisons, without a branch: they
    // vectorise, where a count with a branch per pair does not. Unused
    // slots hold values no pattern has (patterns are below 4^8), each its
    // own, and only the lines' own slots are counted.
    let mut w: [u32; 16] = std::array::from_fn(|j| u32::MAX - j as u32);
    for (slot, &i) in w.iter_mut().zip(idx) {
        *slot = i.min(mirror[i as usize]);
    }
    w[..idx.len()]
        .iter()
        .map(|&a| w.iter().map(|&b| (a == b) as u32).sum::<u32>())
        .sum()
}

/// Index of each pattern's mirror image (the line read backwards).
fn mirror_table(size: u8) -> Vec<u32> {
    let n = size as u32;
    (0..4u32.pow(n))
        .map(|pat| {
            let (mut x, mut m) = (pat, 0);
            for _ in 0..n {
                m = m * 4 + x % 4;
                x /= 4;
            }
            m
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::choose::best_from_random_start;
    use crate::game::player::Player;
    use crate::net::lines::tests::random_position;

    fn small_net() -> LineNet {
        let cfg = LinesTrainConfig {
            games: 3000,
            ..LinesTrainConfig::default()
        };
        train(&cfg, 1, |_| {})
    }

    #[test]
    fn mirror_images_share_a_weight() {
        let net = small_net();
        let mirror = mirror_table(7);
        let start = LineNet::untrained(7, net.width());
        let changed = (0..net.weights().len())
            .filter(|&i| {
                let (t, p) = (i / net.patterns(), i % net.patterns());
                let m = t * net.patterns() + mirror[p] as usize;
                assert_eq!(net.weights()[i], net.weights()[m]);
                net.weights()[i] != start.weights()[i]
            })
            .count();
        assert!(changed > 1000, "training changes the weights");
    }

    #[test]
    fn training_is_a_function_of_its_seed_and_bytes_round_trip() {
        let a = small_net().to_bytes();
        assert_eq!(a, small_net().to_bytes());
        let cfg = LinesTrainConfig {
            games: 3000,
            ..LinesTrainConfig::default()
        };
        assert_ne!(a, train(&cfg, 2, |_| {}).to_bytes());
        let back = LineNet::from_bytes(&a).expect("reads");
        assert_eq!(back.to_bytes(), a);
        for bad in [&a[..7], &a[..a.len() - 1], b"PTLX\x01\x07\x04\x00"] {
            assert!(LineNet::from_bytes(bad).is_err());
        }
    }

    #[test]
    fn lines_sharing_a_weight_do_not_diverge() {
        // With no holes the first position's 14 lines are one empty
        // pattern: a step per line moved that weight 14 times, and before
        // the gradient's squared length divided it, it left every possible
        // score behind within a few hundred games.
        let cfg = LinesTrainConfig {
            games: 600,
            holes: 0..=0,
            ..LinesTrainConfig::default()
        };
        let net = train(&cfg, 9, |_| {});
        // No line of seven scores more than 119 points; a prediction may
        // pass that a little, not twice over.
        let worst = net.weights().iter().fold(0f32, |m, w| m.max(w.abs()));
        assert!(worst <= 2.0 * 119.0, "a weight reached {worst}");
        let mirror = mirror_table(7);
        assert_eq!(squared_gradient(&[0; 14], &mirror), 196);
        // A pattern and its mirror image are one weight.
        let (p, m) = (1u32, mirror[1]);
        assert_eq!(squared_gradient(&[p, m, 2], &mirror), 5);
    }

    #[test]
    fn every_size_trains_and_values() {
        for size in 3..=8u8 {
            let cfg = LinesTrainConfig {
                size,
                games: 20,
                holes: 0..=2,
                ..LinesTrainConfig::default()
            };
            let net = train(&cfg, 4, |_| {});
            let mut rng = FastRng::new(5);
            for _ in 0..20 {
                let pos = random_position(&mut rng, size);
                assert!(net.value(&pos).is_finite());
                // Training never moves the full board's table off the score.
                let full = pos.random_fill(&mut rng);
                let s = full.scores();
                let margin = s[full.turn()] as f32 - s[!full.turn()] as f32;
                assert_eq!(net.value(&full), margin, "{size}x{size}");
            }
        }
    }

    /// The playout scan and the move values, checked on a network the
    /// trainer made as well as on the built-in one.
    #[test]
    fn the_playout_scan_picks_the_square_of_the_plain_scan() {
        let net = LineNet::builtin(7).expect("built-in network");
        let small = small_net();
        let mut rng = FastRng::new(11);
        for i in 0..2000 {
            let net = if i % 2 == 0 { net } else { &small };
            let pos = random_position(&mut rng, 7);
            let lines = NetLines::new(net, &pos);
            let base = lines.after_base(net, &pos);
            let (mut a, mut b) = (rng.clone(), rng.clone());
            let fast = lines.best_in_hundredths(net, &pos, &mut a);
            let plain = best_from_random_start(pos.empty(), &mut b, |sq| {
                (lines.move_value(net, &pos, base, sq) * 100.0) as i32
            })
            .map(|(sq, _)| sq);
            assert_eq!(fast, plain);
            assert_eq!(a.next_word(), b.next_word(), "the same draws");
            rng.next_word();
        }
    }

    #[test]
    fn move_values_are_the_values_of_the_positions_after() {
        let net = small_net();
        let mut rng = FastRng::new(9);
        for _ in 0..300 {
            let pos = random_position(&mut rng, 7);
            let lines = NetLines::new(&net, &pos);
            let (best, v) = best_move(&lines, &net, &pos, &mut rng);
            if pos.is_game_over() {
                assert!(best.is_none());
                continue;
            }
            let base = lines.after_base(&net, &pos);
            for sq in pos.empty() {
                let mut after = pos;
                after.play_unchecked(sq);
                let direct = -net.value(&after);
                assert!((lines.move_value(&net, &pos, base, sq) - direct).abs() < 1e-3);
                assert!(direct <= v + 1e-3, "the best move is the best");
                // Kept up to date, the lines are those of the new position.
                let mut kept = lines.clone();
                kept.played(&after, sq);
                for who in [Player::Black, Player::White] {
                    assert_eq!(
                        kept.patterns_of(who),
                        NetLines::new(&net, &after).patterns_of(who)
                    );
                }
            }
        }
    }
}
