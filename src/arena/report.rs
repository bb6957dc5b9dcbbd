//! The summary tables of a tournament, computed from its game records:
//! `summary.csv`, `ratings.csv`, `first_player.csv`, `pairs.csv`, and the
//! crosstable and ratings printed at the end.

use std::fmt::Write as _;

use super::games_csv::GameRecord;
use super::schedule::Schedule;
use crate::game::player::Player;
use crate::stats::rating::{PairwiseResults, Ratings, Z95, bradley_terry, mean_sd, wilson};

/// `k / 2` as text for `k` in `0..=4`.
const HALVES: [&str; 5] = ["0", "0.5", "1", "1.5", "2"];

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

/// Both games of one layout for one pairing.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct PairResult {
    /// Layout index.
    pub layout: u64,
    /// Number of holes.
    pub holes: u32,
    /// The pairing's first-listed bot.
    pub bot: usize,
    /// The other bot.
    pub opponent: usize,
    /// `bot`'s points when it moved first (game `2 * layout`).
    pub points_first: f64,
    /// `bot`'s points when it moved second (game `2 * layout + 1`).
    pub points_second: f64,
    /// `bot`'s line scores summed over both games.
    pub bot_score: u32,
    /// The opponent's line scores summed over both games.
    pub opp_score: u32,
}

impl PairResult {
    /// The pentanomial outcome: `bot`'s points over the pair doubled,
    /// 0 (two losses) to 4 (two wins).
    pub fn pentanomial(&self) -> usize {
        ((self.points_first + self.points_second) * 2.0).round() as usize
    }
}

/// Pairs both games of each layout (records in any order; a layout with a
/// game missing is left out), in layout order.
pub fn pair_results(records: &[GameRecord]) -> Vec<PairResult> {
    let mut sorted: Vec<&GameRecord> = records.iter().collect();
    if !sorted.is_sorted_by_key(|r| r.game) {
        sorted.sort_by_key(|r| r.game);
    }
    let mut out = Vec::new();
    for w in sorted.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a.game % 2 != 0 || b.game != a.game + 1 || a.layout != b.layout {
            continue;
        }
        let (bot, opp) = (a.first, a.second);
        let score = |r: &GameRecord, who: usize| r.colour_of(who).map_or(0, |c| r.scores[c]);
        out.push(PairResult {
            layout: a.layout,
            holes: a.holes.count(),
            bot,
            opponent: opp,
            points_first: a.points_of(bot),
            points_second: b.points_of(bot),
            bot_score: score(a, bot) + score(b, bot),
            opp_score: score(a, opp) + score(b, opp),
        });
    }
    out
}

/// Pentanomial counts `[LL, LD, DD or WL, WD, WW]` of `pairs`, for the
/// first-listed bot: what a pentanomial SPRT or Elo estimate consumes.
pub fn pentanomial_counts(pairs: &[PairResult]) -> [u64; 5] {
    let mut c = [0; 5];
    for p in pairs {
        c[p.pentanomial().min(4)] += 1;
    }
    c
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
        let mut s = String::from(
            "bot,opponent,games,wins,draws,losses,score_rate,win_rate,win_rate_lo,win_rate_hi,mean_score,sd_score,mean_opp_score\n",
        );
        for (a, row) in self.tally.iter().enumerate() {
            for (b, t) in row.iter().enumerate() {
                if t.games == 0 {
                    continue;
                }
                let n = t.games as f64;
                let (lo, hi) = wilson(t.wins as f64, n, Z95);
                let (mean, sd) = mean_sd(n, t.score, t.score_sq);
                let _ = writeln!(
                    s,
                    "{},{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.4},{:.4},{:.4}",
                    self.labels[a],
                    self.labels[b],
                    t.games,
                    t.wins,
                    t.draws,
                    t.losses,
                    t.score_rate(),
                    t.wins as f64 / n,
                    lo,
                    hi,
                    mean,
                    sd,
                    t.opp_score / n
                );
            }
        }
        s
    }

    /// `ratings.csv`, best first (ties in bot order).
    pub fn ratings_csv(&self) -> String {
        let mut s = String::from("bot,elo,elo_lo,elo_hi,games\n");
        for i in self.rating_order() {
            let (lo, hi) = self.ratings.interval(i);
            let _ = writeln!(
                s,
                "{},{:.2},{:.2},{:.2},{}",
                self.labels[i],
                self.ratings.elo[i] + 0.0,
                lo + 0.0,
                hi + 0.0,
                self.games[i]
            );
        }
        s
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
        let mut s = String::from(
            "scope,bot,opponent,hole_count,games,white_wins,draws,white_losses,white_win_rate,white_win_rate_lo,white_win_rate_hi,white_score_rate,white_score_rate_lo,white_score_rate_hi,mean_white_score,mean_black_score,mean_margin,mean_margin_lo,mean_margin_hi\n",
        );
        for (scope, a, b, holes, t) in &self.first_player {
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
            let _ = writeln!(
                s,
                "{scope},{a},{b},{holes},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.6},{:.4},{:.4},{:.4},{:.4},{:.4}",
                t.games,
                t.wins,
                t.draws,
                t.losses,
                if n > 0.0 { t.wins as f64 / n } else { 0.0 },
                wlo,
                whi,
                t.score_rate(),
                slo,
                shi,
                mw,
                mb,
                margin,
                margin - half,
                margin + half,
            );
        }
        s
    }

    /// `pairs.csv`: both games of each layout pair and the pentanomial
    /// outcome for the pairing's first-listed bot.
    pub fn pairs_csv(&self) -> String {
        let mut s = String::from(
            "layout,hole_count,bot,opponent,game_first,game_second,points_first,points_second,points,pentanomial,bot_score,opp_score\n",
        );
        // Points are multiples of one half: written from a table, because
        // float formatting dominates this loop on long runs.
        let half = |x: f64| HALVES[((x * 2.0).round() as usize).min(4)];
        for p in &self.pairs {
            let _ = writeln!(
                s,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
                p.layout,
                p.holes,
                self.labels[p.bot],
                self.labels[p.opponent],
                2 * p.layout,
                2 * p.layout + 1,
                half(p.points_first),
                half(p.points_second),
                half(p.points_first + p.points_second),
                p.pentanomial(),
                p.bot_score,
                p.opp_score
            );
        }
        s
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
