//! Playouts below the tree, the heuristic move value, and rewards.
//!
//! A playout returns the final stones of both colours: in a placement game
//! they are exactly the all-moves-as-first information (every square a
//! colour ends up owning is a move it played at some point), so RAVE needs
//! nothing else.

use super::config::{MctsConfig, Reward, Rollout};
use super::tree::REWARD_ONE;
use crate::bot::choose::{best_from_random_start, first_best};
use crate::eval;
use crate::game::bitboard::Bitboard;
use crate::game::player::{ByPlayer, Player};
use crate::game::position::Position;
use crate::game::rng::FastRng;
use crate::game::scoring::score;
use crate::game::square::Square;
use crate::net::lines::{LineNet, NetLines};

/// The end of a playout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Final stones of each colour.
    pub stones: ByPlayer<Bitboard>,
    /// White's final margin in half points, komi included.
    pub margin_halves: i32,
}

/// Immediate value of placing on `sq` for the side to move: its own line
/// gain plus the gain it takes away from the opponent (attack and block;
/// both are exact score changes, see `Position::gain`). A few nanoseconds;
/// the greedy playout policy.
#[inline]
pub fn quick_value(pos: &Position, sq: Square) -> i32 {
    pos.gain(sq) as i32 + pos.gain_for(!pos.turn(), sq) as i32
}

/// White's margin in half points, komi included, as the `eval` leaf sees
/// it: the line-potential evaluation plus `tempo` times the best move
/// value of the side to move (the mover claims the best window
/// next, which a static count of both sides' potential ignores).
/// `valuer` values moves by `cfg.weights`.
#[inline]
pub fn leaf_value(pos: &Position, cfg: &MctsConfig, valuer: &eval::MoveValuer) -> i32 {
    let p = *pos;
    let mut v = 2.0 * eval::evaluate(&p, &cfg.weights) as f64;
    if cfg.tempo > 0.0
        && let Some((_, best)) = first_best(&p, valuer)
    {
        let sign = if p.turn() == Player::White { 1.0 } else { -1.0 };
        v += sign * cfg.tempo * 2.0 * best.max(0) as f64 / eval::MOVE_VALUE_SCALE as f64;
    }
    v.round() as i32 - p.komi().halves()
}

/// The stones a playout that scores `pos` without playing it out
/// reports: the random fill only feeds AMAF, so without AMAF the leaf's
/// own stones stand in (nothing reads them) and no random numbers are
/// drawn.
#[inline]
fn leaf_stones(pos: &Position, cfg: &MctsConfig, rng: &mut FastRng) -> ByPlayer<Bitboard> {
    if cfg.uses_amaf() {
        pos.random_split(rng)
    } else {
        ByPlayer::new(pos.stones(Player::White), pos.stones(Player::Black))
    }
}

/// Plays `pos` to the end with `cfg.rollout` (`eval`: scores it by
/// [`leaf_value`]; `value`: by the network's predicted margin); `valuer`
/// values moves by `cfg.weights` (built once per search, with its line
/// tables); `net` is the learned network of `net` and `value` playouts,
/// `None` when it does not fit the board (heuristic playouts instead).
#[inline]
pub fn playout(
    pos: &Position,
    cfg: &MctsConfig,
    valuer: &eval::MoveValuer,
    net: Option<&LineNet>,
    rng: &mut FastRng,
) -> Playout {
    let eps = cfg.eps;
    let stones = match cfg.rollout {
        Rollout::Random => pos.random_split(rng),
        Rollout::Eval => {
            let v = leaf_value(pos, cfg, valuer);
            return Playout {
                stones: leaf_stones(pos, cfg, rng),
                margin_halves: v,
            };
        }
        Rollout::Value => match net {
            Some(net) => {
                let v = 2.0 * net.value(pos);
                let v = if pos.turn() == Player::White { v } else { -v };
                return Playout {
                    stones: leaf_stones(pos, cfg, rng),
                    margin_halves: v.round() as i32 - pos.komi().halves(),
                };
            }
            None => heuristic(pos, eps, valuer, rng),
        },
        Rollout::Net => match net {
            Some(net) => guided(pos, eps, rng, NetValues::new(net, pos)),
            None => heuristic(pos, eps, valuer, rng),
        },
        Rollout::Greedy => guided(pos, eps, rng, ByFn(quick_value)),
        Rollout::Heuristic => heuristic(pos, eps, valuer, rng),
    };
    Playout {
        stones,
        margin_halves: 2
            * (score(stones[Player::White]) as i32 - score(stones[Player::Black]) as i32)
            - pos.komi().halves(),
    }
}

/// A heuristic playout: `valuer`'s move values, through the line tables
/// kept move by move where it has them.
#[inline]
fn heuristic(
    pos: &Position,
    eps: f64,
    valuer: &eval::MoveValuer,
    rng: &mut FastRng,
) -> ByPlayer<Bitboard> {
    match eval::LineValues::new(valuer, pos) {
        Some(lines) => guided(pos, eps, rng, lines),
        None => guided(pos, eps, rng, ByFn(|p: &Position, sq| valuer.value(p, sq))),
    }
}

/// Move values for a guided playout, told of each move played.
trait PlayoutValues {
    /// The value of the free `sq` for the side to move in `pos`.
    fn value(&self, pos: &Position, sq: Square) -> i32;
    /// `pos` is the position after a stone on `sq`.
    fn played(&mut self, pos: &Position, sq: Square);

    /// The free square with the highest value, by a scan from a random
    /// start that keeps the first maximum; `None` on a full board.
    #[inline(always)]
    fn best(&self, pos: &Position, rng: &mut FastRng) -> Option<Square> {
        best_from_random_start(pos.empty(), rng, |sq| self.value(pos, sq)).map(|(sq, _)| sq)
    }
}

/// Values that a function works out from the position alone.
struct ByFn<F>(F);

impl<F: Fn(&Position, Square) -> i32> PlayoutValues for ByFn<F> {
    #[inline(always)]
    fn value(&self, pos: &Position, sq: Square) -> i32 {
        (self.0)(pos, sq)
    }

    #[inline(always)]
    fn played(&mut self, _: &Position, _: Square) {}
}

impl PlayoutValues for eval::LineValues<'_> {
    #[inline(always)]
    fn value(&self, pos: &Position, sq: Square) -> i32 {
        eval::LineValues::value(self, pos.turn(), sq)
    }

    #[inline(always)]
    fn played(&mut self, pos: &Position, sq: Square) {
        eval::LineValues::played(self, pos, sq);
    }
}

/// One-ply values of the learned network, in hundredths of a point
/// (as the heuristic's move values are).
struct NetValues<'n> {
    net: &'n LineNet,
    lines: NetLines,
}

impl<'n> NetValues<'n> {
    fn new(net: &'n LineNet, pos: &Position) -> NetValues<'n> {
        NetValues {
            net,
            lines: NetLines::new(net, pos),
        }
    }
}

impl PlayoutValues for NetValues<'_> {
    /// One square alone; the playout takes [`NetValues::best`], which
    /// shares the base and the line values among a ply's squares.
    #[inline]
    fn value(&self, pos: &Position, sq: Square) -> i32 {
        let base = self.lines.after_base(self.net, pos);
        (self.lines.move_value(self.net, pos, base, sq) * 100.0) as i32
    }

    #[inline(always)]
    fn played(&mut self, pos: &Position, sq: Square) {
        self.lines.played(pos, sq);
    }

    #[inline(always)]
    fn best(&self, pos: &Position, rng: &mut FastRng) -> Option<Square> {
        self.lines.best_in_hundredths(self.net, pos, rng)
    }
}

/// A playout that takes the best square by `values` (random among equals:
/// the scan starts at a random bit and keeps the first maximum), or with
/// probability `eps` a uniformly random square.
#[inline]
fn guided(
    pos: &Position,
    eps: f64,
    rng: &mut FastRng,
    mut values: impl PlayoutValues,
) -> ByPlayer<Bitboard> {
    let mut p = *pos;
    loop {
        let e = p.empty();
        let n = e.count();
        if n == 0 {
            break;
        }
        let sq = if n == 1 || (eps > 0.0 && rng.unit() < eps) {
            e.nth(rng.below(n))
        } else {
            values.best(&p, rng)
        };
        match sq {
            Some(sq) => {
                p.play_unchecked(sq);
                values.played(&p, sq);
            }
            None => break,
        }
    }
    ByPlayer::new(p.stones(Player::White), p.stones(Player::Black))
}

/// Turns White's margin into White's reward (Black's is `REWARD_ONE`
/// minus it: both rewards are symmetric).
#[derive(Copy, Clone, Debug)]
pub struct Rewarder {
    kind: Reward,
    /// 1 / (2 * scale): margins arrive in half points.
    inv_scale: f64,
    /// Weight of the win step in the margin reward.
    win_share: f64,
}

impl Rewarder {
    /// A rewarder of `kind`, margins in points divided by `scale`, with
    /// `win_share` of the win step blended into the margin reward.
    pub fn new(kind: Reward, scale: f64, win_share: f64) -> Rewarder {
        Rewarder {
            kind,
            inv_scale: 1.0 / (2.0 * scale),
            win_share,
        }
    }

    /// White's reward, fixed point.
    #[inline]
    pub fn white(&self, margin_halves: i32) -> u64 {
        match self.kind {
            Reward::Win => match margin_halves.signum() {
                1 => REWARD_ONE,
                0 => REWARD_ONE / 2,
                _ => 0,
            },
            Reward::Margin => {
                let t = (margin_halves as f64 * self.inv_scale).tanh();
                let step = margin_halves.signum() as f64;
                let r = (1.0 + t + self.win_share * (step - t)) * 0.5;
                (r * REWARD_ONE as f64).round() as u64
            }
        }
    }

    /// Reward of each colour.
    #[inline]
    pub fn both(&self, margin_halves: i32) -> ByPlayer<u64> {
        let w = self.white(margin_halves);
        ByPlayer::new(w, REWARD_ONE - w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Komi;
    use crate::game::rules::Rules;

    #[test]
    fn playouts_fill_the_board_and_score_it() {
        let pos = Rules::default()
            .new_game(&mut FastRng::new(3))
            .expect("game");
        let mut rng = FastRng::new(4);
        for rollout in [Rollout::Random, Rollout::Greedy, Rollout::Heuristic] {
            let cfg = MctsConfig {
                rollout,
                ..MctsConfig::default()
            };
            let valuer = eval::MoveValuer::with_table(&cfg.weights, pos.size());
            let p = playout(&pos, &cfg, &valuer, None, &mut rng);
            let (w, b) = (p.stones[Player::White], p.stones[Player::Black]);
            assert_eq!(w & b, Bitboard::EMPTY);
            assert_eq!(w | b | pos.holes(), Bitboard::FULL);
            assert_eq!(w.count(), b.count());
            let m = 2 * (score(w) as i32 - score(b) as i32);
            assert_eq!(p.margin_halves, m);
        }
    }

    #[test]
    fn value_leaves_are_white_margins_with_komi() {
        let net = crate::net::lines::LineNet::builtin(7).expect("built-in network");
        let cfg = MctsConfig {
            rollout: Rollout::Value,
            ..MctsConfig::default()
        };
        let valuer = eval::MoveValuer::with_table(&cfg.weights, 7);
        let mut rng = FastRng::new(8);
        let start = Rules::default().new_game(&mut rng).expect("game");
        let komi = Komi::from_halves(5);
        let mut checked = [0; 2];
        for plies in 0..12u32 {
            let mut pos = start;
            for _ in 0..plies {
                let sq = pos.empty().nth(rng.below(pos.empty().count()));
                pos.play_unchecked(sq.expect("free"));
            }
            let pos = Position::with_stones(
                7,
                pos.holes(),
                pos.stones(Player::White),
                pos.stones(Player::Black),
                false,
                komi,
            )
            .expect("position");
            // The network values the side to move; the leaf is White's
            // margin, komi (points given to Black) taken off.
            let mover = (2.0 * net.value(&pos)).round() as i32;
            let white = if pos.turn() == Player::White {
                mover
            } else {
                -mover
            };
            let p = playout(&pos, &cfg, &valuer, Some(net), &mut rng);
            assert_eq!(p.margin_halves, white - 5, "{plies} plies");
            checked[pos.turn() as usize] += 1;
        }
        assert!(checked[0] > 0 && checked[1] > 0);
    }

    #[test]
    fn rewards_are_symmetric() {
        for kind in [Reward::Win, Reward::Margin] {
            let r = Rewarder::new(kind, 10.0, 0.0);
            assert_eq!(r.white(0), REWARD_ONE / 2);
            assert_eq!(r.white(40), REWARD_ONE - r.white(-40));
            assert!(r.white(40) > r.white(-2));
        }
        let m = Rewarder::new(Reward::Margin, 10.0, 0.0);
        assert!(m.white(40) > m.white(2));
    }
}
