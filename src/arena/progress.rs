//! Showing a tournament's progress: an indicatif bar on a terminal, a plain
//! line every few seconds otherwise (logs of batch jobs), or nothing.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::record::GameRecord;
use super::tournament::{Observer, TournamentError};
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

/// An [`Observer`] that shows progress and the current leader (the bot
/// with the best score rate so far).
#[derive(Debug)]
pub struct Progress {
    mode: ProgressMode,
    labels: Vec<String>,
    points: Vec<f64>,
    games: Vec<u64>,
    done: u64,
    resumed: u64,
    total: u64,
    start: Instant,
    last: Instant,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Progress for a tournament of bots named `labels`.
    pub fn new(labels: Vec<String>, mode: ProgressMode) -> Progress {
        let n = labels.len();
        Progress {
            mode,
            labels,
            points: vec![0.0; n],
            games: vec![0; n],
            done: 0,
            resumed: 0,
            total: 0,
            start: Instant::now(),
            last: Instant::now(),
            bar: None,
        }
    }

    fn leader(&self) -> String {
        let best = (0..self.labels.len())
            .filter(|&i| self.games[i] > 0)
            .max_by(|&a, &b| {
                let ra = self.points[a] / self.games[a] as f64;
                let rb = self.points[b] / self.games[b] as f64;
                ra.total_cmp(&rb).then(b.cmp(&a))
            });
        match best {
            Some(i) => format!(
                "leader: {} {:.1}% of {} games",
                self.labels[i],
                100.0 * self.points[i] / self.games[i] as f64,
                self.games[i]
            ),
            None => "leader: none yet".into(),
        }
    }

    fn count(&mut self, r: &GameRecord) {
        for c in Player::ALL {
            let b = r.bot(c);
            self.games[b] += 1;
            self.points[b] += r.outcome.points_for(c);
        }
    }

    fn line(&self) -> String {
        let secs = self.start.elapsed().as_secs_f64();
        let new = (self.done - self.resumed) as f64;
        let rate = if secs > 0.0 { new / secs } else { 0.0 };
        let left = self.total.saturating_sub(self.done) as f64;
        let eta = if rate > 0.0 {
            format!("{:.0}s", left / rate)
        } else {
            "?".into()
        };
        format!(
            "[{secs:.0}s] {}/{} games ({:.1}%), {rate:.1} games/s, ETA {eta}; {}",
            self.done,
            self.total,
            100.0 * self.done as f64 / self.total.max(1) as f64,
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
            let style = ProgressStyle::with_template(
                "[{elapsed_precise}] {wide_bar} {pos}/{len} games, {rate} games/s, ETA {eta}\n{msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", s.per_sec());
            });
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                .with_style(style)
                .with_position(self.done);
            bar.set_message(self.leader());
            self.bar = Some(bar);
        }
    }

    fn on_game(&mut self, r: &GameRecord, _: &str) -> Result<ControlFlow<()>, TournamentError> {
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
