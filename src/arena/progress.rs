//! Showing a tournament's progress: an indicatif bar on a terminal, a plain
//! line every few seconds otherwise (logs of batch jobs), or nothing.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::games_csv::GameRecord;
use super::tournament::{ArenaError, Observer};
use crate::game::player::Player;

/// How progress is shown.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar with rate, ETA and the leader, redrawn in place.
    Bar,
    /// A line on stderr every [`LINE_INTERVAL`].
    Lines,
    /// Nothing.
    Quiet,
}

impl ProgressMode {
    /// `Quiet` if asked, else a bar when stderr is a terminal, else lines.
    pub fn detect(quiet: bool) -> ProgressMode {
        use std::io::IsTerminal;
        if quiet {
            ProgressMode::Quiet
        } else if std::io::stderr().is_terminal() {
            ProgressMode::Bar
        } else {
            ProgressMode::Lines
        }
    }
}

/// Time between two plain progress lines.
pub const LINE_INTERVAL: Duration = Duration::from_secs(5);

/// Time between two updates of the bar's leader line.
const BAR_INTERVAL: Duration = Duration::from_millis(100);

/// Time between two redraws of the bar while no game ends, so that its
/// clock and spinner show the run is alive before the first game is done.
const TICK_INTERVAL: Duration = Duration::from_millis(200);

/// What the leader line of the display reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leader {
    /// The bot with the best score rate so far (a tournament).
    BestBot,
    /// The best bot other than the reference at this index, against it (a
    /// sweep: the best combination so far).
    BestAgainst(usize),
    /// The running shares of White wins, draws and Black wins (self-play,
    /// where a best bot means nothing).
    ColourSplit,
}

/// The pace of this session: games resumed from disk count as done but
/// not as played now, so that they do not inflate the rate and shrink the
/// time left. Returns games a second and the time left, `None` until a game
/// of this session has ended.
pub fn pace(done: u64, resumed: u64, total: u64, elapsed: Duration) -> (f64, Option<Duration>) {
    let played = done.saturating_sub(resumed);
    let secs = elapsed.as_secs_f64();
    if played == 0 || secs <= 0.0 {
        return (0.0, None);
    }
    let rate = played as f64 / secs;
    let left = total.saturating_sub(done) as f64 / rate;
    (rate, Some(Duration::from_secs_f64(left.min(1e9))))
}

/// A duration as the display writes it: `42s`, `3m05s`, `2h03m`.
pub fn short_duration(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// The rate and ETA text of the display.
fn pace_text(done: u64, resumed: u64, total: u64, elapsed: Duration) -> String {
    match pace(done, resumed, total, elapsed) {
        (rate, Some(eta)) => format!("{rate:.1} games/s, ETA {}", short_duration(eta)),
        _ => "ETA ?".into(),
    }
}

/// Percent of `n` in `of`, 0 for none.
fn pct(n: f64, of: u64) -> f64 {
    if of == 0 { 0.0 } else { 100.0 * n / of as f64 }
}

/// An [`Observer`] that shows progress and a leader line ([`Leader`]).
#[derive(Debug)]
pub struct Progress {
    mode: ProgressMode,
    leader: Leader,
    labels: Vec<String>,
    points: Vec<f64>,
    games: Vec<u64>,
    /// White wins, draws, Black wins.
    split: [u64; 3],
    done: u64,
    resumed: u64,
    total: u64,
    start: Instant,
    last: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Progress for a tournament of bots named `labels`; the leader line
    /// names the best bot.
    pub fn new(labels: Vec<String>, mode: ProgressMode) -> Progress {
        let n = labels.len();
        Progress {
            mode,
            leader: Leader::BestBot,
            labels,
            points: vec![0.0; n],
            games: vec![0; n],
            split: [0; 3],
            done: 0,
            resumed: 0,
            total: 0,
            start: Instant::now(),
            last: Instant::now(),
            bar: None,
        }
    }

    /// The same, with another leader line.
    pub fn with_leader(mut self, leader: Leader) -> Progress {
        self.leader = leader;
        self
    }

    /// The leader line.
    pub fn leader(&self) -> String {
        let rate = |i: usize| self.points[i] / self.games[i] as f64;
        let best = |skip: Option<usize>| {
            (0..self.labels.len())
                .filter(|&i| self.games[i] > 0 && Some(i) != skip)
                .max_by(|&a, &b| rate(a).total_cmp(&rate(b)).then(b.cmp(&a)))
        };
        match self.leader {
            Leader::BestBot => match best(None) {
                Some(i) => format!(
                    "leader: {} {:.1}% of {} games",
                    self.labels[i],
                    100.0 * rate(i),
                    self.games[i]
                ),
                None => "leader: none yet".into(),
            },
            Leader::BestAgainst(r) => match best(Some(r)) {
                Some(i) => format!(
                    "best so far: {} {:.1}% of {} games against {}",
                    self.labels[i],
                    100.0 * rate(i),
                    self.games[i],
                    self.labels.get(r).map_or("the reference", String::as_str)
                ),
                None => "best so far: none yet".into(),
            },
            Leader::ColourSplit => {
                let [w, d, b] = self.split;
                let n = w + d + b;
                format!(
                    "white {:.1}%, draw {:.1}%, black {:.1}% of {n} games",
                    pct(w as f64, n),
                    pct(d as f64, n),
                    pct(b as f64, n)
                )
            }
        }
    }

    fn count(&mut self, r: &GameRecord) {
        for c in Player::ALL {
            let b = r.bot(c);
            self.games[b] += 1;
            self.points[b] += r.outcome.points_for(c);
        }
        let k = match r.outcome.winner() {
            Some(Player::White) => 0,
            None => 1,
            Some(Player::Black) => 2,
        };
        self.split[k] += 1;
    }

    fn line(&self) -> String {
        let elapsed = self.start.elapsed();
        format!(
            "[{}] {}/{} games ({:.1}%), {}; {}",
            short_duration(elapsed),
            self.done,
            self.total,
            pct(self.done as f64, self.total.max(1)),
            pace_text(self.done, self.resumed, self.total, elapsed),
            self.leader()
        )
    }

    /// Ends the display: the bar is completed, lines mode prints a last line.
    pub fn finish(&mut self) {
        if self.total == 0 {
            return; // never started
        }
        match self.mode {
            ProgressMode::Bar => {
                if let Some(bar) = self.bar.take() {
                    bar.set_message(self.leader());
                    close_bar(&bar, self.done, self.total);
                }
            }
            ProgressMode::Lines => {
                let mut e = std::io::stderr().lock();
                let _ = writeln!(e, "{}", self.line());
            }
            ProgressMode::Quiet => {}
        }
    }
}

/// Stops `bar` at `done` of `total` games: completed when all were
/// played, abandoned where it stands otherwise (an interrupted run), since
/// indicatif's `finish` moves the bar to its length and would show games
/// that were never played.
fn close_bar(bar: &ProgressBar, done: u64, total: u64) {
    bar.set_position(done);
    if done >= total {
        bar.finish();
    } else {
        bar.abandon();
    }
}

impl Observer for Progress {
    fn on_start(&mut self, done: &[GameRecord], total: u64) {
        for r in done {
            self.count(r);
        }
        self.done = done.len() as u64;
        self.resumed = self.done;
        self.total = total;
        self.start = Instant::now();
        self.last = self.start;
        if self.mode == ProgressMode::Bar {
            // indicatif's own rate and ETA would count the resumed games
            // as played in no time; this session's pace is computed here,
            // at every redraw, from the bar's clock (started now).
            let resumed = self.resumed;
            let style = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} games, {pace}\n{msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key(
                "pace",
                move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let total = s.len().unwrap_or(0);
                    let _ = write!(w, "{}", pace_text(s.pos(), resumed, total, s.elapsed()));
                },
            );
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(style)
                .with_position(self.done);
            bar.set_message(self.leader());
            bar.enable_steady_tick(TICK_INTERVAL);
            self.bar = Some(bar);
        }
    }

    fn on_game(&mut self, r: &GameRecord, _: &str) -> Result<ControlFlow<()>, ArenaError> {
        self.count(r);
        self.done += 1;
        match self.mode {
            ProgressMode::Quiet => {}
            ProgressMode::Bar => {
                let now = Instant::now();
                if now.duration_since(self.last) >= BAR_INTERVAL || self.done == self.total {
                    self.last = now;
                    if let Some(bar) = &self.bar {
                        bar.set_position(self.done);
                        bar.set_message(self.leader());
                    }
                }
            }
            ProgressMode::Lines => {
                let now = Instant::now();
                if now.duration_since(self.last) >= LINE_INTERVAL {
                    self.last = now;
                    let mut e = std::io::stderr().lock();
                    let _ = writeln!(e, "{}", self.line());
                }
            }
        }
        Ok(ControlFlow::Continue(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::outcome::Outcome;

    /// Game `game`: bot `first` (White) against `second`, ending in
    /// `outcome` (one point to nothing, or nothing each).
    fn record(game: u64, first: usize, second: usize, outcome: Outcome) -> GameRecord {
        let (w, b) = match outcome {
            Outcome::WhiteWins => (1, 0),
            Outcome::BlackWins => (0, 1),
            Outcome::Draw => (0, 0),
        };
        crate::arena::report::tests::rec(game, first, second, w, b)
    }

    #[test]
    fn pace_counts_only_this_sessions_games() {
        // 90 of 100 games resumed, 1 played in 6 s: 9 left at 1 game per
        // 6 s is 54 s, not the 0.6 s the 91 "done" games would suggest.
        let (rate, eta) = pace(91, 90, 100, Duration::from_secs(6));
        assert!((rate - 1.0 / 6.0).abs() < 1e-9, "{rate}");
        assert_eq!(eta.map(|d| d.as_secs()), Some(54));
        assert_eq!(
            pace_text(91, 90, 100, Duration::from_secs(6)),
            "0.2 games/s, ETA 54s"
        );
        // Before this session's first game there is no pace at all.
        assert_eq!(pace(90, 90, 100, Duration::from_secs(6)), (0.0, None));
        assert_eq!(pace_text(0, 0, 2, Duration::from_secs(3)), "ETA ?");
        // Without a resume the pace is the plain one.
        let (rate, eta) = pace(10, 0, 30, Duration::from_secs(5));
        assert_eq!((rate, eta.map(|d| d.as_secs())), (2.0, Some(10)));
    }

    #[test]
    fn durations_are_short() {
        assert_eq!(short_duration(Duration::from_millis(400)), "0s");
        assert_eq!(short_duration(Duration::from_secs(59)), "59s");
        assert_eq!(short_duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(short_duration(Duration::from_secs(7380)), "2h03m");
    }

    #[test]
    fn a_sweeps_leader_is_its_best_combination_not_the_reference() {
        let labels = vec!["ref".into(), "c=0.3".into(), "c=0.7".into()];
        let mut p = Progress::new(labels, ProgressMode::Quiet).with_leader(Leader::BestAgainst(0));
        p.on_start(&[], 8);
        assert_eq!(p.leader(), "best so far: none yet");
        // The reference wins most of its games, so it would lead a plain
        // ranking; c=0.7 is the combination doing best against it.
        for (g, (first, second, outcome)) in [
            (0, 1, Outcome::WhiteWins),
            (1, 0, Outcome::BlackWins),
            (0, 2, Outcome::WhiteWins),
            (2, 0, Outcome::WhiteWins),
        ]
        .into_iter()
        .enumerate()
        {
            let _ = p.on_game(&record(g as u64, first, second, outcome), "");
        }
        assert_eq!(
            p.leader(),
            "best so far: c=0.7 50.0% of 2 games against ref"
        );
        let mut plain = Progress::new(p.labels.clone(), ProgressMode::Quiet);
        plain.on_start(&[record(0, 0, 1, Outcome::WhiteWins)], 2);
        assert_eq!(plain.leader(), "leader: ref 100.0% of 1 games");
    }

    #[test]
    fn self_play_shows_the_colour_split() {
        let labels = vec!["mcts".into(), "mcts-2".into()];
        let mut p = Progress::new(labels, ProgressMode::Quiet).with_leader(Leader::ColourSplit);
        // Resumed games count in the split too: it describes the run.
        p.on_start(&[record(0, 0, 1, Outcome::WhiteWins)], 4);
        let _ = p.on_game(&record(2, 0, 1, Outcome::Draw), "");
        let _ = p.on_game(&record(4, 0, 1, Outcome::BlackWins), "");
        let _ = p.on_game(&record(6, 0, 1, Outcome::WhiteWins), "");
        assert_eq!(
            p.leader(),
            "white 50.0%, draw 25.0%, black 25.0% of 4 games"
        );
        assert!(!p.leader().contains("mcts-2"));
    }

    #[test]
    fn an_interrupted_bar_stays_at_the_games_played() {
        let bar = ProgressBar::hidden();
        bar.set_length(600);
        close_bar(&bar, 186, 600);
        assert_eq!(bar.position(), 186);
        assert!(bar.is_finished());
        let done = ProgressBar::hidden();
        done.set_length(4);
        close_bar(&done, 4, 4);
        assert_eq!(done.position(), 4);
    }
}
