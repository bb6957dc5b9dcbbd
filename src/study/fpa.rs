//! The first-player-advantage study: self-play over random layouts per
//! hole count (and, with the pie rule, the same again under it).
//!
//! Each game has its own layout (the even games of a two-bot schedule,
//! played by [`super::listrun`]), so games are independent and the plain
//! Wilson and order-statistic intervals hold. Both seats are the same bot
//! spec; their random streams differ.

use crate::plot::{Bar, PlotError, StackedBars, stacked_bars};
use serde::{Deserialize, Serialize};

use crate::arena::games_csv::GameRecord;
use crate::arena::schedule::{Format, Shard};
use crate::arena::tournament::TournamentConfig;
use crate::bot::BotSpec;
use crate::csv_rows::{self, fixed};
use crate::game::outcome::Outcome;
use crate::game::player::Player;
use crate::game::rules::{HoleSetup, Rules};
use crate::stats::komi::{FairKomi, fair_komi};
use crate::stats::rating::{Z95, mean_sd, wilson};

/// BrainKing's published PahTum statistics (docs/RULES.md): White, Black, draws
/// of 74,731 finished human games with random odd hole counts.
pub const BRAINKING: (u64, u64, u64) = (41_265, 22_022, 11_444);

/// A self-play study: the conditions (rules) and games per condition.
#[derive(Clone, Debug)]
pub struct Fpa {
    /// The bot in both seats (the first seat's spec).
    pub bot: BotSpec,
    /// The same spec under another label, for the second seat.
    pub twin: BotSpec,
    /// The conditions, in the order games cycle through them.
    pub conditions: Vec<Rules>,
    /// Games per condition.
    pub games: u64,
}

impl Fpa {
    /// Conditions from `rules` (one per hole count): each as given without
    /// the pie rule, followed, if `pie`, by the same under the pie rule.
    pub fn conditions(rules: &[Rules], pie: bool) -> Vec<Rules> {
        let mut out = Vec::new();
        for r in rules {
            out.push(Rules {
                pie: false,
                ..r.clone()
            });
            if pie {
                out.push(Rules {
                    pie: true,
                    ..r.clone()
                });
            }
        }
        out
    }

    /// The two-bot schedule whose even games are the study's games:
    /// layout `l` is game `2l` and uses condition `l mod conditions`.
    pub fn tournament(&self, seed: u64, threads: usize) -> TournamentConfig {
        TournamentConfig {
            bots: vec![self.bot.clone(), self.twin.clone()],
            games_per_pairing: 2 * self.games * self.conditions.len() as u64,
            rules: self.conditions.clone(),
            format: Format::Gauntlet,
            seed,
            threads,
            shard: Shard::ALL,
            openings: None,
        }
    }

    /// The games to play, in order: one per layout.
    pub fn game_list(&self) -> Vec<u64> {
        (0..self.games * self.conditions.len() as u64)
            .map(|l| 2 * l)
            .collect()
    }

    /// One row per condition, then (for several hole counts) one per pie
    /// setting over all hole counts.
    pub fn rows(&self, records: &[GameRecord]) -> Vec<FpaRow> {
        let n = self.conditions.len() as u64;
        let mut rows: Vec<FpaRow> = self
            .conditions
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let recs: Vec<&GameRecord> = records
                    .iter()
                    .filter(|g| g.layout % n == i as u64)
                    .collect();
                FpaRow::new(holes_text(r), r.pie, &recs)
            })
            .collect();
        let hole_counts = self.conditions.iter().filter(|r| !r.pie).count();
        if hole_counts > 1 {
            for pie in [false, true] {
                if !self.conditions.iter().any(|r| r.pie == pie) {
                    continue;
                }
                let recs: Vec<&GameRecord> = records
                    .iter()
                    .filter(|g| self.conditions[(g.layout % n) as usize].pie == pie)
                    .collect();
                rows.push(FpaRow::new("all".into(), pie, &recs));
            }
        }
        rows
    }
}

fn holes_text(r: &Rules) -> String {
    match r.holes {
        HoleSetup::Random(h) => h.to_string(),
        HoleSetup::Fixed(ref b) => format!("fixed:{}", b.count()),
    }
}

/// A count with its share and Wilson 95 % interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Share {
    /// How many.
    pub count: u64,
    /// `count / games`.
    pub rate: f64,
    /// Wilson lower end.
    pub lo: f64,
    /// Wilson upper end.
    pub hi: f64,
}

impl Share {
    /// `count` of `n`.
    pub fn new(count: u64, n: u64) -> Share {
        let (lo, hi) = wilson(count as f64, n as f64, Z95);
        Share {
            count,
            rate: if n == 0 { 0.0 } else { count as f64 / n as f64 },
            lo,
            hi,
        }
    }
}

/// The first player's results under one condition.
#[derive(Clone, Debug, PartialEq)]
pub struct FpaRow {
    /// Hole count (`all` for the pooled rows).
    pub holes: String,
    /// Whether the pie rule was on.
    pub pie: bool,
    /// Games.
    pub games: u64,
    /// Games won by the colour White (after any swap).
    pub white: Share,
    /// Draws.
    pub draws: Share,
    /// Games won by Black.
    pub black: Share,
    /// Mean of White's line score minus Black's (komi not included).
    pub mean_margin: f64,
    /// Its sample standard deviation.
    pub sd_margin: f64,
    /// The komi that would have made these games even, with its interval.
    pub fair_komi: Option<FairKomi>,
    /// Score rate of the player who placed the first stone (whatever
    /// colour it ended with), with a 95 % normal interval from the
    /// per-game variance; without the pie rule, White's score rate.
    pub first_score: (f64, f64, f64),
    /// Games in which the second player swapped (pie rule only).
    pub swaps: Option<Share>,
}

impl FpaRow {
    fn new(holes: String, pie: bool, recs: &[&GameRecord]) -> FpaRow {
        let n = recs.len() as u64;
        let count = |o: Outcome| recs.iter().filter(|r| r.outcome == o).count() as u64;
        let margins: Vec<i64> = recs
            .iter()
            .map(|r| i64::from(r.scores[Player::White]) - i64::from(r.scores[Player::Black]))
            .collect();
        let sum: f64 = margins.iter().map(|&m| m as f64).sum();
        let sum_sq: f64 = margins.iter().map(|&m| (m as f64).powi(2)).sum();
        let (mean_margin, sd_margin) = mean_sd(n as f64, sum, sum_sq);
        let swaps = recs.iter().filter(|r| r.swapped).count() as u64;
        let firsts: Vec<f64> = recs.iter().map(|r| r.points_of(r.first)).collect();
        let (fm, fsd) = mean_sd(
            n as f64,
            firsts.iter().sum(),
            firsts.iter().map(|x| x * x).sum(),
        );
        let half = if n > 0 {
            Z95 * fsd / (n as f64).sqrt()
        } else {
            0.5
        };
        FpaRow {
            holes,
            pie,
            games: n,
            white: Share::new(count(Outcome::WhiteWins), n),
            draws: Share::new(count(Outcome::Draw), n),
            black: Share::new(count(Outcome::BlackWins), n),
            mean_margin,
            sd_margin,
            fair_komi: fair_komi(&margins),
            first_score: (fm, (fm - half).max(0.0), (fm + half).min(1.0)),
            swaps: pie.then(|| Share::new(swaps, n)),
        }
    }
}

/// One line of `fpa.csv`: one condition (hole count, pie rule).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FpaCsvRow {
    /// The hole count.
    pub hole_count: String,
    /// Whether the pie rule was on.
    pub pie: bool,
    /// The komi the games were played with.
    pub komi: String,
    /// Games.
    pub games: u64,
    /// White's wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black's wins.
    pub black_wins: u64,
    /// White's wins per game.
    #[serde(serialize_with = "fixed::d4")]
    pub white_win_rate: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d4")]
    pub white_win_rate_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d4")]
    pub white_win_rate_hi: f64,
    /// Draws per game.
    #[serde(serialize_with = "fixed::d4")]
    pub draw_rate: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d4")]
    pub draw_rate_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d4")]
    pub draw_rate_hi: f64,
    /// Black's wins per game.
    #[serde(serialize_with = "fixed::d4")]
    pub black_win_rate: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d4")]
    pub black_win_rate_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d4")]
    pub black_win_rate_hi: f64,
    /// Mean of White's minus Black's score.
    #[serde(serialize_with = "fixed::d2")]
    pub mean_margin: f64,
    /// Its standard deviation.
    #[serde(serialize_with = "fixed::d2")]
    pub sd_margin: f64,
    /// The fair komi (the margins' median), when there are games.
    #[serde(serialize_with = "fixed::opt_plain")]
    pub fair_komi: Option<f64>,
    /// Lower end of its interval.
    #[serde(serialize_with = "fixed::opt_plain")]
    pub fair_komi_lo: Option<f64>,
    /// Upper end.
    #[serde(serialize_with = "fixed::opt_plain")]
    pub fair_komi_hi: Option<f64>,
    /// White's expected score at the fair komi less a half point.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub white_score_komi_minus_half: Option<f64>,
    /// At the fair komi.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub white_score_komi: Option<f64>,
    /// At the fair komi plus a half point.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub white_score_komi_plus_half: Option<f64>,
    /// The first mover's points per game.
    #[serde(serialize_with = "fixed::d4")]
    pub first_score: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d4")]
    pub first_score_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d4")]
    pub first_score_hi: f64,
    /// Swaps per game, under the pie rule.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub swap_rate: Option<f64>,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub swap_rate_lo: Option<f64>,
    /// Upper end.
    #[serde(serialize_with = "fixed::opt_d4")]
    pub swap_rate_hi: Option<f64>,
}

/// `fpa.csv`; `komi` is the komi the games were played with.
pub fn fpa_csv(rows: &[FpaRow], komi: &str) -> String {
    csv_rows::text(rows.iter().map(|r| {
        let k = r.fair_komi;
        let (f, flo, fhi) = r.first_score;
        FpaCsvRow {
            hole_count: r.holes.clone(),
            pie: r.pie,
            komi: komi.to_string(),
            games: r.games,
            white_wins: r.white.count,
            draws: r.draws.count,
            black_wins: r.black.count,
            white_win_rate: r.white.rate,
            white_win_rate_lo: r.white.lo,
            white_win_rate_hi: r.white.hi,
            draw_rate: r.draws.rate,
            draw_rate_lo: r.draws.lo,
            draw_rate_hi: r.draws.hi,
            black_win_rate: r.black.rate,
            black_win_rate_lo: r.black.lo,
            black_win_rate_hi: r.black.hi,
            mean_margin: r.mean_margin,
            sd_margin: r.sd_margin,
            fair_komi: k.map(|k| k.komi),
            fair_komi_lo: k.map(|k| k.lo),
            fair_komi_hi: k.map(|k| k.hi),
            white_score_komi_minus_half: k.map(|k| k.score_below),
            white_score_komi: k.map(|k| k.score_at),
            white_score_komi_plus_half: k.map(|k| k.score_above),
            first_score: f,
            first_score_lo: flo,
            first_score_hi: fhi,
            swap_rate: r.swaps.map(|s| s.rate),
            swap_rate_lo: r.swaps.map(|s| s.lo),
            swap_rate_hi: r.swaps.map(|s| s.hi),
        }
    }))
}

/// `fpa.svg`: White wins, draws and Black wins per condition as stacked
/// bars, each with its fair komi and interval under it, BrainKing's human
/// figures beside them.
///
/// # Errors
/// A drawing failure.
pub fn fpa_plot(bot: &str, rows: &[FpaRow], games: u64) -> Result<String, PlotError> {
    let part = |s: Share| (s.rate, s.lo, s.hi);
    let mut bars: Vec<Bar> = rows
        .iter()
        .filter(|r| r.holes != "all")
        .map(|r| Bar {
            label: format!("{}{}", r.holes, if r.pie { " pie" } else { "" }),
            parts: vec![part(r.white), part(r.draws), part(r.black)],
            reference: false,
            note: r
                .fair_komi
                .map(|k| format!("komi {} [{}, {}]", k.komi, k.lo, k.hi)),
        })
        .collect();
    let (w, b, d) = BRAINKING;
    let n = w + b + d;
    bars.push(Bar {
        label: "BrainKing".into(),
        parts: vec![
            part(Share::new(w, n)),
            part(Share::new(d, n)),
            part(Share::new(b, n)),
        ],
        reference: true,
        note: None,
    });
    stacked_bars(&StackedBars {
        title: format!(
            "First-player advantage, {bot} self-play ({games} games per bar) vs BrainKing humans (74,731 games)"
        ),
        x_label: "holes (\"pie\": pie rule on); under each bar: fair komi [95 % interval], points to Black".into(),
        y_label: "share of games (%)".into(),
        segments: vec!["White wins".into(), "draws".into(), "Black wins".into()],
        bars,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::arena::parallel::run_games;
    use crate::arena::tournament::Collect;
    use crate::bot::builtin_catalog;
    use crate::game::rules::Rules;

    #[test]
    fn self_play_rows() {
        let catalog = builtin_catalog();
        let rules: Vec<Rules> = [3, 5]
            .map(|h| Rules {
                holes: HoleSetup::Random(h),
                ..Rules::default()
            })
            .to_vec();
        let fpa = Fpa {
            bot: catalog.parse("greedy").expect("spec"),
            twin: catalog.parse("greedy:label=greedy-2").expect("spec"),
            conditions: Fpa::conditions(&rules, true),
            games: 8,
        };
        assert_eq!(fpa.conditions.len(), 4);
        let config = fpa.tournament(9, 2);
        let list = fpa.game_list();
        assert_eq!(list.len(), 32);
        let mut c = Collect::default();
        run_games(&config, &catalog, &list, &AtomicBool::new(false), &mut c).expect("run");
        let rows = fpa.rows(&c.records);
        assert_eq!(rows.len(), 6);
        for r in &rows[..4] {
            assert_eq!(r.games, 8);
            assert_eq!(r.white.count + r.draws.count + r.black.count, 8);
            assert_eq!(r.swaps.is_some(), r.pie);
        }
        assert_eq!(rows[4].games, 16);
        assert_eq!((rows[0].holes.as_str(), rows[1].pie), ("3", true));
        // Hole counts cycle per layout: condition i has (holes, pie) i.
        for g in &c.records {
            let cond = &fpa.conditions[(g.layout % 4) as usize];
            assert_eq!(HoleSetup::Random(g.holes.count()), cond.holes);
        }
        let csv = fpa_csv(&rows, "0");
        assert!(csv.starts_with(&csv_rows::header::<FpaCsvRow>()));
        assert_eq!(csv.lines().count(), 7);
        assert!(
            fpa_plot("greedy", &rows, 8)
                .expect("plot")
                .contains("BrainKing")
        );
        let komi = rows[0].fair_komi.expect("komi");
        let note = format!("komi {} [{}, {}]", komi.komi, komi.lo, komi.hi);
        assert!(fpa_plot("greedy", &rows, 8).expect("plot").contains(&note));
    }
}
