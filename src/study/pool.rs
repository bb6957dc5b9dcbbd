//! Ratings pooled over several runs: every game of several run
//! directories' `games.csv` in one maximum-likelihood Bradley-Terry fit,
//! so that results from different days stand on one scale (what BayesElo
//! and Ordo do for engine testers).
//!
//! A bot is the exact label text of the `white` and `black` columns: the
//! same label in several runs is one player. Each run keeps its own mean 0,
//! so two runs' ratings cannot be compared; one fit over the games of both
//! can, and an anchor (`ordo -a`) pins one bot's rating so that lists
//! made on different days share a zero. Self-play games (the same label on
//! both sides, or any game of an `fpa` run, whose second seat is the same
//! bot under another label) say nothing about strength and are left out.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::arena::games_csv::{GameRow, games_text};
use crate::arena::runinfo::{command_in, write_atomic};
use crate::arena::tournament::ArenaError;
use crate::csv_rows::{self, fixed};
use crate::game::player::Player;
use crate::plot::{PlotError, RatedBot, elo_plot};
use crate::stats::rating::{PairwiseResults, Ratings, Z95, bradley_terry, elo_covariance};

/// The games of one run directory, as its `games.csv` holds them.
#[derive(Clone, Debug)]
pub struct RunGames {
    /// The directory, as given.
    pub dir: PathBuf,
    /// Its complete rows with their line numbers, in file order.
    pub rows: Vec<(usize, GameRow)>,
    /// Whether every game is self-play: an `fpa` run, whose two seats are
    /// one bot under two labels (as its `run.json` says; a `games.csv`
    /// without one is taken as a run of games between different bots).
    pub self_play: bool,
}

/// Reads `dir/games.csv`. A torn last line (a run killed while writing)
/// is left out, as the arena leaves it out when it resumes; every other
/// line must be a row.
///
/// # Errors
/// [`ArenaError::Config`] naming the file (and line) for a directory
/// without `games.csv` or a file that is not one.
pub fn read_run(dir: &Path) -> Result<RunGames, ArenaError> {
    let path = dir.join("games.csv");
    let named =
        |line: usize, m: String| ArenaError::Config(format!("{} line {line}: {m}", path.display()));
    if !path.is_file() {
        return Err(ArenaError::Config(format!(
            "{}: no games.csv (not a run directory?)",
            dir.display()
        )));
    }
    let bytes = std::fs::read(&path).map_err(|e| ArenaError::io(&path, e))?;
    let text = games_text(bytes).map_err(|(line, m)| named(line, m))?;
    let rows = csv_rows::parse::<GameRow>(csv_rows::complete(&text))
        .map_err(|(line, m)| named(line, m))?;
    let self_play = command_in(dir).as_deref() == Some("fpa");
    Ok(RunGames {
        dir: dir.to_path_buf(),
        rows,
        self_play,
    })
}

/// `--anchor BOT=ELO`: the bot whose rating is pinned, and its rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    /// The bot's label.
    pub bot: String,
    /// The rating it is given.
    pub elo: f64,
}

impl FromStr for Anchor {
    type Err = String;

    /// `BOT=ELO`, split at the last `=`, since bot specs hold `=` too
    /// (`mcts:iters=2000=0`).
    fn from_str(s: &str) -> Result<Anchor, String> {
        let (bot, elo) = s
            .rsplit_once('=')
            .ok_or_else(|| format!("'{s}' is not BOT=ELO"))?;
        let elo: f64 = elo
            .trim()
            .parse()
            .ok()
            .filter(|e: &f64| e.is_finite())
            .ok_or_else(|| format!("'{elo}' is not a finite number"))?;
        if bot.is_empty() {
            return Err(format!("'{s}' names no bot"));
        }
        Ok(Anchor {
            bot: bot.to_string(),
            elo,
        })
    }
}

/// One line of a pooled `ratings.csv`: the tournament's columns, then the
/// number of runs the bot's games came from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PooledRatingRow {
    /// The bot.
    pub bot: String,
    /// Its Elo on the pooled scale.
    #[serde(serialize_with = "fixed::d2")]
    pub elo: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d2")]
    pub elo_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d2")]
    pub elo_hi: f64,
    /// Games against other bots that the rating rests on.
    pub games: u64,
    /// Run directories those games came from.
    pub runs: u64,
}

/// One fit over the games of several runs.
#[derive(Clone, Debug)]
pub struct PooledRatings {
    /// Every bot, in order of first appearance (run, then row).
    pub labels: Vec<String>,
    /// The fit, on the mean-0 scale of a tournament's ratings.
    pub ratings: Ratings,
    /// The fit's covariance in Elo² (see [`elo_covariance`]), for
    /// intervals relative to the anchor.
    pub covariance: Option<Vec<Vec<f64>>>,
    /// Added to every rating: 0, or what `--anchor` asks.
    pub shift: f64,
    /// The anchor and its bot's index, when one was set.
    pub anchor: Option<(Anchor, usize)>,
    /// Rated games of each bot.
    pub games: Vec<u64>,
    /// Runs each bot's rated games came from.
    pub runs: Vec<u64>,
    /// Rated games in all.
    pub total: u64,
    /// Self-play games left out.
    pub self_play: u64,
    /// The run directories.
    pub dirs: Vec<PathBuf>,
}

/// The index of `label` in `labels`, added when new.
fn index_of(labels: &mut Vec<String>, label: &str) -> usize {
    labels.iter().position(|l| l == label).unwrap_or_else(|| {
        labels.push(label.to_string());
        labels.len() - 1
    })
}

/// One rated game: White's and Black's bot and White's points.
type Rated = (usize, usize, f64);

/// Every bot's label, each run's rated games, and the self-play games
/// left out.
type RatedRuns = (Vec<String>, Vec<Vec<Rated>>, u64);

/// The rated games of `runs` with the labels they index, and the
/// self-play games left out.
///
/// # Errors
/// A row whose columns do not make a game, naming its file and line.
fn rated_games(runs: &[RunGames]) -> Result<RatedRuns, ArenaError> {
    let mut labels = Vec::new();
    for run in runs.iter().filter(|r| !r.self_play) {
        for (_, row) in &run.rows {
            index_of(&mut labels, &row.white);
            index_of(&mut labels, &row.black);
        }
    }
    let mut self_play = 0;
    let mut per_run = Vec::new();
    for run in runs {
        let mut games = Vec::new();
        for (line, row) in &run.rows {
            let named = |m: String| {
                let path = run.dir.join("games.csv");
                ArenaError::Config(format!("{} line {line}: {m}", path.display()))
            };
            if run.self_play {
                // Checked as a game, its labels rated nowhere.
                row.record(&[row.white.clone(), row.black.clone()])
                    .map_err(named)?;
                self_play += 1;
                continue;
            }
            let rec = row.record(&labels).map_err(named)?;
            let (w, b) = (rec.bot(Player::White), rec.bot(Player::Black));
            if w == b {
                self_play += 1;
            } else {
                games.push((w, b, rec.outcome.points_for(Player::White)));
            }
        }
        per_run.push(games);
    }
    Ok((labels, per_run, self_play))
}

/// A bot with no path of games to bot 0, if any: ratings of bots that
/// never meet, directly or through others, share no scale.
fn unlinked(results: &PairwiseResults) -> Option<usize> {
    let k = results.players();
    let mut seen = vec![false; k];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(a) = stack.pop() {
        for (b, s) in seen.iter_mut().enumerate() {
            if !*s && results.games(a, b) > 0.0 {
                *s = true;
                stack.push(b);
            }
        }
    }
    seen.iter().position(|s| !s)
}

/// Rates every bot of `runs` in one fit, draws as half points, on the
/// mean-0 scale (with the fit's one virtual draw per pairing when a bot
/// won or lost every game, so every rating and bound is finite).
///
/// # Errors
/// [`ArenaError::Config`]: a bad row, the same directory twice, fewer
/// than two bots that met, or bots that no chain of games links.
pub fn pool(runs: &[RunGames]) -> Result<PooledRatings, ArenaError> {
    let key = |d: &Path| std::fs::canonicalize(d).unwrap_or_else(|_| d.to_path_buf());
    for (i, run) in runs.iter().enumerate() {
        if runs[..i].iter().any(|r| key(&r.dir) == key(&run.dir)) {
            return Err(ArenaError::Config(format!(
                "{}: given twice (its games would count twice)",
                run.dir.display()
            )));
        }
    }
    let (labels, per_run, self_play) = rated_games(runs)?;
    let k = labels.len();
    let mut results = PairwiseResults::new(k);
    let (mut games, mut in_runs) = (vec![0u64; k], vec![0u64; k]);
    for run in &per_run {
        let mut seen = vec![false; k];
        for &(w, b, points) in run {
            results.add_game(w, b, points);
            for p in [w, b] {
                games[p] += 1;
                seen[p] = true;
            }
        }
        for (n, s) in in_runs.iter_mut().zip(seen) {
            *n += u64::from(s);
        }
    }
    let total: u64 = per_run.iter().map(|r| r.len() as u64).sum();
    if k < 2 || total == 0 {
        return Err(ArenaError::Config(
            "no games between two different bots in these runs: nothing to rate".into(),
        ));
    }
    if let Some(b) = unlinked(&results) {
        return Err(ArenaError::Config(format!(
            "no chain of games links '{}' with '{}': their ratings share no scale",
            labels[b], labels[0]
        )));
    }
    let ratings = bradley_terry(&results);
    Ok(PooledRatings {
        covariance: elo_covariance(&results, &ratings),
        ratings,
        labels,
        shift: 0.0,
        anchor: None,
        games,
        runs: in_runs,
        total,
        self_play,
        dirs: runs.iter().map(|r| r.dir.clone()).collect(),
    })
}

impl PooledRatings {
    /// Shifts the scale so that `anchor`'s bot rates `anchor.elo`, and
    /// makes every interval one of the difference from that bot (as
    /// `ordo -a` does): the anchor's own is its rating alone, the others
    /// carry its uncertainty too.
    ///
    /// # Errors
    /// A message listing the bots when the anchor's is not one of them.
    pub fn anchor(&mut self, anchor: Anchor) -> Result<(), String> {
        let i = self
            .labels
            .iter()
            .position(|l| *l == anchor.bot)
            .ok_or_else(|| {
                format!(
                    "'{}' is not a bot of these runs (bots: {})",
                    anchor.bot,
                    self.labels.join(", ")
                )
            })?;
        self.shift = anchor.elo - self.ratings.elo[i];
        self.anchor = Some((anchor, i));
        Ok(())
    }

    /// The rows of `ratings.csv`, best first (ties in order of
    /// appearance).
    pub fn rows(&self) -> Vec<PooledRatingRow> {
        let mut order: Vec<usize> = (0..self.labels.len()).collect();
        order.sort_by(|&a, &b| self.ratings.elo[b].total_cmp(&self.ratings.elo[a]));
        order
            .into_iter()
            .map(|i| {
                let (lo, hi) = self.interval(i);
                PooledRatingRow {
                    bot: self.labels[i].clone(),
                    elo: self.ratings.elo[i] + self.shift + 0.0,
                    elo_lo: lo + self.shift + 0.0,
                    elo_hi: hi + self.shift + 0.0,
                    games: self.games[i],
                    runs: self.runs[i],
                }
            })
            .collect()
    }

    /// The 95 % interval of bot `i` before the shift: the mean-0 fit's,
    /// or with an anchor that of the difference from the anchor's bot
    /// (infinite when the covariance is not known).
    fn interval(&self, i: usize) -> (f64, f64) {
        let Some((_, a)) = self.anchor else {
            return self.ratings.interval(i);
        };
        let var = self.covariance.as_ref().map_or(f64::INFINITY, |c| {
            (c[i][i] + c[a][a] - 2.0 * c[i][a]).max(0.0)
        });
        let elo = self.ratings.elo[i];
        let half = if i == a { 0.0 } else { Z95 * var.sqrt() };
        (elo - half, elo + half)
    }

    /// `ratings.svg`: the rows' Elo with their intervals, strongest first,
    /// the scale's zero named on its axis.
    ///
    /// # Errors
    /// A drawing failure.
    pub fn plot(&self) -> Result<String, PlotError> {
        let bots: Vec<RatedBot> = self
            .rows()
            .into_iter()
            .map(|r| RatedBot {
                label: r.bot,
                elo: r.elo,
                lo: r.elo_lo,
                hi: r.elo_hi,
            })
            .collect();
        let zero = match &self.anchor {
            Some((a, _)) => format!("{} at {}", a.bot, a.elo),
            None => "mean 0".to_string(),
        };
        let runs = self.dirs.len();
        elo_plot(
            &bots,
            &format!(
                "Pooled ratings: {} games of {runs} run{}",
                self.total,
                if runs == 1 { "" } else { "s" }
            ),
            &format!("Elo (one maximum-likelihood fit, {zero}; draws as half points)"),
        )
    }

    /// `ratings.csv`: the tournament's columns and `runs`.
    pub fn csv(&self) -> String {
        csv_rows::text(self.rows())
    }

    /// The table for the terminal, laid out as a tournament's, with the
    /// runs and what the scale is.
    pub fn text(&self) -> String {
        let rows = self.rows();
        let width = rows.iter().map(|r| r.bot.len()).max().unwrap_or(3).max(3);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:>3}  {:<width$} {:>8} {:>19} {:>6} {:>5}",
            "#", "bot", "elo", "95% interval", "games", "runs"
        );
        for (k, r) in rows.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:>3}  {:<width$} {:>8.1} {:>19} {:>6} {:>5}",
                k + 1,
                r.bot,
                r.elo,
                format!("[{:.1}, {:.1}]", r.elo_lo, r.elo_hi),
                r.games,
                r.runs
            );
        }
        let zero = match &self.anchor {
            Some((a, _)) => format!("{} at {} (intervals relative to it)", a.bot, a.elo),
            None => "mean 0".to_string(),
        };
        let plural =
            |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let _ = write!(
            s,
            "Elo: one maximum-likelihood Bradley-Terry fit over {} of {}, draws as half points, {zero}",
            plural(self.total, "game", "games"),
            plural(self.dirs.len() as u64, "run", "runs")
        );
        if self.ratings.regularised {
            let _ = write!(
                s,
                "; a bot won or lost every game, so one virtual draw per pairing was added"
            );
        }
        if self.self_play > 0 {
            let _ = write!(
                s,
                "; {} left out",
                plural(self.self_play, "self-play game", "self-play games")
            );
        }
        s.push('\n');
        s
    }
}

/// What a pooled directory's `run.json` records: enough for the report
/// page to know the directory and for a reader to redo the fit. Every
/// field of a run's `run.json` ([`RunFile`]) is there too, so that a
/// command given this directory reads it as the `rate` run it is (and
/// refuses it as such) rather than as a damaged file.
#[derive(Serialize)]
struct RateRunFile<'a> {
    program: &'static str,
    command: &'static str,
    command_line: &'a [String],
    version: &'static str,
    threads: usize,
    start_time: String,
    end_time: Option<String>,
    notes: Vec<String>,
    runs: Vec<String>,
    anchor: Option<String>,
}

/// Writes `ratings.csv` and `run.json` of `pooled` into `out` (a
/// directory that exists), each through a temporary file and a rename, so
/// a kill leaves none half-written; `run.json` comes last, so a directory
/// with one has both.
///
/// # Errors
/// An I/O error naming the file.
pub fn write_dir(
    out: &Path,
    pooled: &PooledRatings,
    command_line: &[String],
) -> Result<(), ArenaError> {
    write_atomic(&out.join("ratings.csv"), pooled.csv().as_bytes())?;
    let now = crate::arena::runinfo::utc_now();
    let run = RateRunFile {
        program: "pahtum",
        command: "rate",
        command_line,
        version: env!("CARGO_PKG_VERSION"),
        threads: 1,
        start_time: now.clone(),
        end_time: Some(now),
        notes: Vec::new(),
        runs: pooled
            .dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect(),
        anchor: pooled
            .anchor
            .as_ref()
            .map(|(a, _)| format!("{}={}", a.bot, a.elo)),
    };
    let mut text = serde_json::to_string_pretty(&run).unwrap_or_default();
    text.push('\n');
    write_atomic(&out.join("run.json"), text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of `white` against `black` won by `winner`; only the columns
    /// the pool reads matter.
    fn row(white: &str, black: &str, winner: &str) -> (usize, GameRow) {
        (
            0,
            GameRow {
                white: white.into(),
                black: black.into(),
                winner: winner.into(),
                termination: "normal".into(),
                ..GameRow::default()
            },
        )
    }

    fn run(dir: &str, rows: Vec<(usize, GameRow)>) -> RunGames {
        RunGames {
            dir: PathBuf::from(dir),
            rows,
            self_play: false,
        }
    }

    fn day_one() -> Vec<(usize, GameRow)> {
        vec![
            row("a", "b", "white"),
            row("b", "a", "draw"),
            row("a", "c", "black"),
            row("c", "b", "white"),
        ]
    }

    fn day_two() -> Vec<(usize, GameRow)> {
        vec![
            row("b", "c", "black"),
            row("c", "a", "white"),
            row("a", "b", "white"),
        ]
    }

    #[test]
    fn two_runs_rate_as_one_run_of_all_their_games() {
        let apart = pool(&[run("one", day_one()), run("two", day_two())]).expect("pool");
        let together = pool(&[run("all", [day_one(), day_two()].concat())]).expect("pool");
        assert_eq!(apart.labels, together.labels);
        assert_eq!(apart.ratings, together.ratings);
        assert_eq!(apart.games, vec![5, 5, 4]);
        assert_eq!(apart.runs, vec![2, 2, 2]);
        assert_eq!(together.runs, vec![1, 1, 1]);
        // The fit is the library's on the pooled counts.
        let mut d = PairwiseResults::new(3);
        for (w, b, p) in [
            (0, 1, 1.0),
            (1, 0, 0.5),
            (0, 2, 0.0),
            (2, 1, 1.0),
            (1, 2, 0.0),
            (2, 0, 1.0),
            (0, 1, 1.0),
        ] {
            d.add_game(w, b, p);
        }
        assert_eq!(apart.ratings, bradley_terry(&d));
        assert_eq!(apart.total, 7);
    }

    #[test]
    fn the_anchor_pins_its_bot_and_keeps_the_differences() {
        let mut p = pool(&[run("one", day_one()), run("two", day_two())]).expect("pool");
        let plain = p.rows();
        p.anchor("b=0".parse().expect("anchor"))
            .expect("b is a bot");
        let rows = p.rows();
        let b = rows.iter().find(|r| r.bot == "b").expect("b");
        assert_eq!(fixed::text(b.elo, 2), "0.00");
        p.anchor("c=1500".parse().expect("anchor")).expect("c");
        let rows = p.rows();
        let c = rows.iter().find(|r| r.bot == "c").expect("c");
        assert!((c.elo - 1500.0).abs() < 1e-9, "{c:?}");
        assert_eq!((c.elo_lo, c.elo_hi), (c.elo, c.elo));
        // Every rating moves by the same amount; each interval is that of
        // the difference from c (index 2), so c's own has no width.
        let shift = rows[0].elo - plain[0].elo;
        let cov = p.covariance.clone().expect("covariance");
        for (x, y) in plain.iter().zip(&rows) {
            assert_eq!(x.bot, y.bot);
            assert!((y.elo - x.elo - shift).abs() < 1e-9, "{x:?} {y:?}");
            let i = p.labels.iter().position(|l| *l == y.bot).expect("bot");
            let var = cov[i][i] + cov[2][2] - 2.0 * cov[i][2];
            let half = Z95 * var.max(0.0).sqrt();
            assert!((y.elo_hi - y.elo - half).abs() < 1e-9, "{y:?}");
            assert!((y.elo - y.elo_lo - half).abs() < 1e-9, "{y:?}");
        }
        let e = p
            .anchor("zz=0".parse().expect("anchor"))
            .expect_err("unknown");
        assert_eq!(e, "'zz' is not a bot of these runs (bots: a, b, c)");
        assert!(p.text().contains("c at 1500"), "{}", p.text());
    }

    #[test]
    fn anchors_split_at_the_last_equals_sign() {
        let a: Anchor = "mcts:iters=2000=-12.5".parse().expect("anchor");
        assert_eq!((a.bot.as_str(), a.elo), ("mcts:iters=2000", -12.5));
        assert!("heuristic".parse::<Anchor>().is_err());
        assert!("=3".parse::<Anchor>().is_err());
        assert!("a=inf".parse::<Anchor>().is_err());
        assert!("a=x".parse::<Anchor>().is_err());
    }

    #[test]
    fn self_play_is_left_out_and_sweeps_stay_finite() {
        let mut rows = vec![row("a", "a", "white"), row("a", "b", "white")];
        rows.push(row("b", "a", "black"));
        let p = pool(&[run("one", rows)]).expect("pool");
        assert_eq!((p.self_play, p.total), (1, 2));
        assert_eq!(p.games, vec![2, 2]);
        assert!(p.ratings.regularised);
        for r in p.rows() {
            assert!(r.elo.is_finite() && r.elo_lo.is_finite() && r.elo_hi.is_finite());
        }
        assert!(
            p.text().contains("; 1 self-play game left out"),
            "{}",
            p.text()
        );
        // An fpa run's seats are one bot under two labels: all self-play.
        let fpa = RunGames {
            self_play: true,
            ..run(
                "fpa",
                vec![row("a", "a-2", "white"), row("a-2", "a", "white")],
            )
        };
        let p = pool(&[fpa, run("two", vec![row("a", "b", "white")])]).expect("pool");
        assert_eq!((p.self_play, p.total), (2, 1));
        assert!(!p.text().contains("a-2"), "{}", p.text());
    }

    #[test]
    fn unlinked_bots_duplicates_and_bad_rows_are_refused() {
        let msg = |r: Result<PooledRatings, ArenaError>| r.expect_err("refused").to_string();
        let split = [
            run("one", vec![row("a", "b", "white")]),
            run("two", vec![row("c", "d", "draw")]),
        ];
        assert_eq!(
            msg(pool(&split)),
            "no chain of games links 'c' with 'a': their ratings share no scale"
        );
        assert!(msg(pool(&[run("one", vec![row("a", "a", "draw")])])).contains("nothing to rate"));
        assert!(msg(pool(&[run("x", day_one()), run("x", day_two())])).contains("given twice"));
        let mut bad = day_one();
        bad[2].0 = 4;
        bad[2].1.winner = "nobody".into();
        assert_eq!(
            msg(pool(&[run("one", bad)])),
            "one/games.csv line 4: column winner: 'nobody'"
        );
    }
}
