//! The summary tables of a tournament, computed from its game records:
//! `summary.csv`, `ratings.csv`, `first_player.csv`, `pairs.csv`, and the
//! crosstable and ratings printed at the end.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::games_csv::GameRecord;
use super::schedule::Schedule;
use crate::csv_rows::{self, fixed};
use crate::game::player::Player;
mod pairs;

pub use self::pairs::{PairResult, pair_results, pentanomial_counts};
use crate::stats::rating::{PairwiseResults, Ratings, Z95, bradley_terry, mean_sd, wilson};

/// `k / 2` as text for `k` in `0..=4`.
const HALVES: [&str; 5] = ["0", "0.5", "1", "1.5", "2"];

/// Points that are a multiple of one half, written from [`HALVES`]:
/// float formatting would dominate writing `pairs.csv` on long runs.
fn half<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(HALVES[((x * 2.0).round() as usize).min(4)])
}

/// One line of `summary.csv`: a bot against one opponent.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SummaryRow {
    /// The bot.
    pub bot: String,
    /// Its opponent.
    pub opponent: String,
    /// Games between them.
    pub games: u64,
    /// The bot's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The bot's losses.
    pub losses: u64,
    /// Points per game.
    #[serde(serialize_with = "fixed::d6")]
    pub score_rate: f64,
    /// Wins per game.
    #[serde(serialize_with = "fixed::d6")]
    pub win_rate: f64,
    /// Lower end of its 95% Wilson interval.
    #[serde(serialize_with = "fixed::d6")]
    pub win_rate_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d6")]
    pub win_rate_hi: f64,
    /// The bot's mean line score.
    #[serde(serialize_with = "fixed::d4")]
    pub mean_score: f64,
    /// Its standard deviation.
    #[serde(serialize_with = "fixed::d4")]
    pub sd_score: f64,
    /// The opponent's mean line score.
    #[serde(serialize_with = "fixed::d4")]
    pub mean_opp_score: f64,
}

/// One line of `ratings.csv`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RatingRow {
    /// The bot.
    pub bot: String,
    /// Its Elo.
    #[serde(serialize_with = "fixed::d2")]
    pub elo: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d2")]
    pub elo_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d2")]
    pub elo_hi: f64,
    /// Games it played.
    pub games: u64,
}

/// One line of `first_player.csv`: White's results in one scope.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FirstPlayerRow {
    /// `all`, `pairing` or `hole_count`.
    pub scope: String,
    /// The pairing's first bot, or `all`.
    pub bot: String,
    /// Its opponent, or `all`.
    pub opponent: String,
    /// The hole count, or `all`.
    pub hole_count: String,
    /// Games.
    pub games: u64,
    /// White's wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// White's losses.
    pub white_losses: u64,
    /// White's wins per game.
    #[serde(serialize_with = "fixed::d6")]
    pub white_win_rate: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d6")]
    pub white_win_rate_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d6")]
    pub white_win_rate_hi: f64,
    /// White's points per game.
    #[serde(serialize_with = "fixed::d6")]
    pub white_score_rate: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d6")]
    pub white_score_rate_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d6")]
    pub white_score_rate_hi: f64,
    /// White's mean line score.
    #[serde(serialize_with = "fixed::d4")]
    pub mean_white_score: f64,
    /// Black's mean line score.
    #[serde(serialize_with = "fixed::d4")]
    pub mean_black_score: f64,
    /// Mean of White's minus Black's score.
    #[serde(serialize_with = "fixed::d4")]
    pub mean_margin: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d4")]
    pub mean_margin_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d4")]
    pub mean_margin_hi: f64,
}

/// One line of `pairs.csv`: a layout's colour-swapped pair of games.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PairRow {
    /// Layout index.
    pub layout: u64,
    /// Number of holes.
    pub hole_count: u32,
    /// The pairing's first-listed bot.
    pub bot: String,
    /// Its opponent.
    pub opponent: String,
    /// The game in which `bot` moved first.
    pub game_first: u64,
    /// The other game.
    pub game_second: u64,
    /// `bot`'s points in the first game.
    #[serde(serialize_with = "half")]
    pub points_first: f64,
    /// Its points in the second.
    #[serde(serialize_with = "half")]
    pub points_second: f64,
    /// Their sum.
    #[serde(serialize_with = "half")]
    pub points: f64,
    /// The pair's outcome, 0 to 4 half points.
    pub pentanomial: usize,
    /// `bot`'s line scores summed.
    pub bot_score: u32,
    /// The opponent's.
    pub opp_score: u32,
}

/// Running totals of one bot against one opponent (or of White overall).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Sum of own line scores.
    pub score: f64,
    /// Sum of squared own line scores.
    pub score_sq: f64,
    /// Sum of the opponent's line scores.
    pub opp_score: f64,
    /// Sum of squared margins (own minus opponent's line score).
    pub margin_sq: f64,
}

impl Tally {
    /// Adds a game with `points` (1, ½, 0) and line scores `own`, `opp`.
    pub fn add(&mut self, points: f64, own: u32, opp: u32) {
        self.games += 1;
        if points == 1.0 {
            self.wins += 1;
        } else if points == 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        self.score += own as f64;
        self.score_sq += (own as f64).powi(2);
        self.opp_score += opp as f64;
        self.margin_sq += (own as f64 - opp as f64).powi(2);
    }

    /// Points: wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// `points / games` (0.5 before any game).
    pub fn score_rate(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            self.points() / self.games as f64
        }
    }

    /// 95 % normal interval of the score rate from the per-game variance of
    /// the points (so draws narrow it), clamped to `[0, 1]`.
    pub fn score_rate_interval(&self) -> (f64, f64) {
        let n = self.games as f64;
        let sum_sq = self.wins as f64 + self.draws as f64 / 4.0;
        let (m, sd) = mean_sd(n, self.points(), sum_sq);
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let half = Z95 * sd / n.sqrt();
        ((m - half).max(0.0), (m + half).min(1.0))
    }
}

/// All summary tables of one tournament.
#[derive(Clone, Debug)]
pub struct Report {
    /// Bot labels.
    pub labels: Vec<String>,
    /// `tally[a][b]`: bot `a` against bot `b`.
    pub tally: Vec<Vec<Tally>>,
    /// Maximum-likelihood ratings.
    pub ratings: Ratings,
    /// Games per bot.
    pub games: Vec<u64>,
    /// White's results: overall, then per pairing (schedule order), then
    /// per hole count, as `(scope, bot, opponent, hole_count, tally)`.
    pub first_player: Vec<(String, String, String, String, Tally)>,
    /// One line per complete layout pair (pairs.csv body).
    pub pairs: Vec<PairResult>,
}

impl Report {
    /// The tables of `records` (complete games of `schedule`).
    pub fn new(labels: &[String], schedule: &Schedule, records: &[GameRecord]) -> Report {
        let n = labels.len();
        let mut tally = vec![vec![Tally::default(); n]; n];
        let mut pw = PairwiseResults::new(n);
        let mut overall = Tally::default();
        let np = schedule.pairings().len();
        let mut per_pairing = vec![Tally::default(); np];
        let mut per_holes: std::collections::BTreeMap<u32, Tally> = Default::default();
        for r in records {
            let (w, b) = (r.bot(Player::White), r.bot(Player::Black));
            let (sw, sb) = (r.scores[Player::White], r.scores[Player::Black]);
            let pts_w = r.outcome.points_for(Player::White);
            tally[w][b].add(pts_w, sw, sb);
            tally[b][w].add(1.0 - pts_w, sb, sw);
            pw.add_game(w, b, pts_w);
            overall.add(pts_w, sw, sb);
            if (r.game / 2) < schedule.layouts() {
                per_pairing[schedule.game(r.game).pairing].add(pts_w, sw, sb);
            }
            per_holes
                .entry(r.holes.count())
                .or_default()
                .add(pts_w, sw, sb);
        }
        let all = || "all".to_string();
        let mut first_player = vec![("all".into(), all(), all(), all(), overall)];
        for (p, t) in schedule.pairings().iter().zip(&per_pairing) {
            first_player.push((
                "pairing".into(),
                labels[p.a].clone(),
                labels[p.b].clone(),
                all(),
                *t,
            ));
        }
        for (h, t) in &per_holes {
            first_player.push(("hole_count".into(), all(), all(), h.to_string(), *t));
        }
        let games = (0..n)
            .map(|i| tally[i].iter().map(|t| t.games).sum())
            .collect();
        Report {
            labels: labels.to_vec(),
            ratings: bradley_terry(&pw),
            tally,
            games,
            first_player,
            pairs: pair_results(records),
        }
    }

    /// `summary.csv`: one row per bot and opponent that met.
    pub fn summary_csv(&self) -> String {
        let mut rows = Vec::new();
        for (a, row) in self.tally.iter().enumerate() {
            for (b, t) in row.iter().enumerate() {
                if t.games == 0 {
                    continue;
                }
                let n = t.games as f64;
                let (lo, hi) = wilson(t.wins as f64, n, Z95);
                let (mean, sd) = mean_sd(n, t.score, t.score_sq);
                rows.push(SummaryRow {
                    bot: self.labels[a].clone(),
                    opponent: self.labels[b].clone(),
                    games: t.games,
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                    score_rate: t.score_rate(),
                    win_rate: t.wins as f64 / n,
                    win_rate_lo: lo,
                    win_rate_hi: hi,
                    mean_score: mean,
                    sd_score: sd,
                    mean_opp_score: t.opp_score / n,
                });
            }
        }
        csv_rows::text(rows)
    }

    /// `ratings.csv`, best first (ties in bot order).
    pub fn ratings_csv(&self) -> String {
        csv_rows::text(self.rating_order().into_iter().map(|i| {
            let (lo, hi) = self.ratings.interval(i);
            RatingRow {
                bot: self.labels[i].clone(),
                elo: self.ratings.elo[i] + 0.0,
                elo_lo: lo + 0.0,
                elo_hi: hi + 0.0,
                games: self.games[i],
            }
        }))
    }

    /// Bot indices by rating, best first.
    pub fn rating_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.labels.len()).collect();
        order.sort_by(|&a, &b| self.ratings.elo[b].total_cmp(&self.ratings.elo[a]));
        order
    }

    /// `first_player.csv`: White's results overall, per pairing and per
    /// hole count. White is the colour's final owner (after a pie swap,
    /// the swapper).
    pub fn first_player_csv(&self) -> String {
        csv_rows::text(self.first_player.iter().map(|(scope, a, b, holes, t)| {
            let n = t.games as f64;
            let (wlo, whi) = wilson(t.wins as f64, n, Z95);
            let (slo, shi) = t.score_rate_interval();
            let (mw, mb) = if n > 0.0 {
                (t.score / n, t.opp_score / n)
            } else {
                (0.0, 0.0)
            };
            let (margin, sd) = mean_sd(n, t.score - t.opp_score, t.margin_sq);
            let half = if n > 0.0 { Z95 * sd / n.sqrt() } else { 0.0 };
            FirstPlayerRow {
                scope: scope.clone(),
                bot: a.clone(),
                opponent: b.clone(),
                hole_count: holes.clone(),
                games: t.games,
                white_wins: t.wins,
                draws: t.draws,
                white_losses: t.losses,
                white_win_rate: if n > 0.0 { t.wins as f64 / n } else { 0.0 },
                white_win_rate_lo: wlo,
                white_win_rate_hi: whi,
                white_score_rate: t.score_rate(),
                white_score_rate_lo: slo,
                white_score_rate_hi: shi,
                mean_white_score: mw,
                mean_black_score: mb,
                mean_margin: margin,
                mean_margin_lo: margin - half,
                mean_margin_hi: margin + half,
            }
        }))
    }

    /// `pairs.csv`: both games of each layout pair and the pentanomial
    /// outcome for the pairing's first-listed bot.
    pub fn pairs_csv(&self) -> String {
        csv_rows::text(self.pairs.iter().map(|p| PairRow {
            layout: p.layout,
            hole_count: p.holes,
            bot: self.labels[p.bot].clone(),
            opponent: self.labels[p.opponent].clone(),
            game_first: 2 * p.layout,
            game_second: 2 * p.layout + 1,
            points_first: p.points_first,
            points_second: p.points_second,
            points: p.points_first + p.points_second,
            pentanomial: p.pentanomial(),
            bot_score: p.bot_score,
            opp_score: p.opp_score,
        }))
    }

    /// The crosstable (score rate of row against column, in per cent) and
    /// the ratings, as text for the terminal.
    pub fn text(&self) -> String {
        let order = self.rating_order();
        let width = self
            .labels
            .iter()
            .map(|l| l.len())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut s = String::new();
        let _ = write!(s, "{:>3}  {:<width$}", "", "");
        for (k, _) in order.iter().enumerate() {
            let _ = write!(s, " {:>6}", k + 1);
        }
        let _ = writeln!(s, " {:>7} {:>6}", "score", "games");
        for (k, &a) in order.iter().enumerate() {
            let _ = write!(s, "{:>3}  {:<width$}", k + 1, self.labels[a]);
            let mut total = Tally::default();
            for &b in &order {
                let t = self.tally[a][b];
                if a == b || t.games == 0 {
                    let _ = write!(s, " {:>6}", if a == b { "-" } else { "" });
                } else {
                    let _ = write!(s, " {:>6.1}", 100.0 * t.score_rate());
                    total.games += t.games;
                    total.wins += t.wins;
                    total.draws += t.draws;
                }
            }
            let _ = writeln!(
                s,
                " {:>6.1}% {:>6}",
                100.0 * total.score_rate(),
                total.games
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{:>3}  {:<width$} {:>8} {:>19} {:>6}",
            "#", "bot", "elo", "95% interval", "games"
        );
        for (k, &i) in order.iter().enumerate() {
            let (lo, hi) = self.ratings.interval(i);
            let _ = writeln!(
                s,
                "{:>3}  {:<width$} {:>8.1} {:>19} {:>6}",
                k + 1,
                self.labels[i],
                self.ratings.elo[i] + 0.0,
                format!("[{lo:.1}, {hi:.1}]"),
                self.games[i]
            );
        }
        let _ = write!(
            s,
            "Elo: maximum-likelihood Bradley-Terry, draws as half points, mean 0"
        );
        if self.ratings.regularised {
            let _ = write!(
                s,
                "; a bot won or lost every game, so one virtual draw per pairing was added"
            );
        }
        s.push('\n');
        s
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arena::game::Termination;
    use crate::arena::schedule::Format;
    use crate::game::bitboard::Bitboard;
    use crate::game::outcome::Outcome;
    use crate::game::player::ByPlayer;

    /// Game `game`: bot `first` (White) scoring `w` against `second`
    /// scoring `b`; for the tests of this module and of `progress`.
    pub(crate) fn rec(game: u64, first: usize, second: usize, w: u32, b: u32) -> GameRecord {
        GameRecord {
            game,
            layout: game / 2,
            holes: Bitboard::EMPTY,
            first,
            second,
            swapped: false,
            scores: ByPlayer::new(w, b),
            outcome: Outcome::from_margin_halves(2 * (w as i32 - b as i32)),
            termination: Termination::Normal,
            plies: 0,
            ms: ByPlayer::new(0, 0),
        }
    }

    #[test]
    fn hand_computed_tables() {
        // Two bots, two pairs: game 0 A(W) 10-3, game 1 B(W) 5-5 draw,
        // game 2 A(W) 2-7 loss, game 3 B(W) 9-4 B wins.
        let s = Schedule::new(2, Format::RoundRobin, 4, vec![], 1);
        let recs = [
            rec(0, 0, 1, 10, 3),
            rec(1, 1, 0, 5, 5),
            rec(2, 0, 1, 2, 7),
            rec(3, 1, 0, 9, 4),
        ];
        let labels = vec!["A".to_string(), "B".to_string()];
        let r = Report::new(&labels, &s, &recs);
        let a = r.tally[0][1];
        assert_eq!((a.games, a.wins, a.draws, a.losses), (4, 1, 1, 2));
        assert_eq!(a.score_rate(), 0.375);
        assert_eq!(a.score, 10.0 + 5.0 + 2.0 + 4.0);
        // White: W, D, L, W.
        let (_, _, _, _, w) = r.first_player[0];
        assert_eq!((w.games, w.wins, w.draws, w.losses), (4, 2, 1, 1));
        assert_eq!(w.score, 26.0);
        assert_eq!(w.opp_score, 19.0);
        // Pairs: layout 0 A gets 1 + 0.5, layout 1 A gets 0 + 0.
        let p: Vec<usize> = r.pairs.iter().map(|p| p.pentanomial()).collect();
        assert_eq!(p, vec![3, 0]);
        assert_eq!(pentanomial_counts(&r.pairs), [1, 0, 0, 1, 0]);
        let csv = r.summary_csv();
        assert!(
            csv.lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("A,B,4,1,1,2,0.375000,0.250000")),
            "{csv}"
        );
        assert_eq!(r.ratings_csv().lines().count(), 3);
        assert!(r.text().contains("37.5"));
    }
}
