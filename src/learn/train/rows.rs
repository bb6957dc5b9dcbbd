//! `train.csv`: a generation's row, its columns, and reading the rows
//! back for a resume.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{TrainError, file_err, net_path, samples_path};
use crate::csv_rows::{self, fixed};

/// A generation's row of `train.csv`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenRow {
    /// Generation number, from 1.
    pub generation: u32,
    /// Self-play games played.
    pub games: u32,
    /// Positions they gave.
    pub positions: u64,
    /// Samples in the replay buffer.
    pub buffer: u64,
    /// Mean policy loss (cross-entropy, nats) over the steps.
    pub policy_loss: f64,
    /// Mean value loss (squared error) over the steps.
    pub value_loss: f64,
    /// The candidate's score against the best network.
    pub gate_score: f64,
    /// Whether the candidate became the best.
    pub kept: bool,
    /// The generation whose network is now the best.
    pub best: u32,
    /// The best network's score against each anchor.
    pub anchor_scores: Vec<f64>,
    /// Seconds the generation took (not reproducible).
    pub seconds: f64,
    /// CPU seconds the process spent on it, all threads (not
    /// reproducible; 0 where unknown): the cost a learning curve is
    /// drawn against, which other work on the machine inflates less
    /// than `seconds`.
    pub cpu_seconds: f64,
}

/// One line of `train.csv`: a [`GenRow`] with the anchors' Elo.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TrainCsvRow {
    /// Generation number, from 1.
    pub generation: u32,
    /// Self-play games played.
    pub games: u32,
    /// Positions they gave.
    pub positions: u64,
    /// Samples in the replay buffer.
    pub buffer: u64,
    /// Mean policy loss over the steps.
    #[serde(serialize_with = "fixed::d4")]
    pub policy_loss: f64,
    /// Mean value loss over the steps.
    #[serde(serialize_with = "fixed::d4")]
    pub value_loss: f64,
    /// The candidate's score against the best network.
    #[serde(serialize_with = "fixed::d4")]
    pub gate_score: f64,
    /// Whether the candidate became the best.
    pub kept: bool,
    /// The generation whose network is now the best.
    pub best: u32,
    /// The best network's score against `heuristic`.
    #[serde(serialize_with = "fixed::d4")]
    pub score_heuristic: f64,
    /// Against `mcts:iters=2000`.
    #[serde(serialize_with = "fixed::d4")]
    pub score_mcts2000: f64,
    /// The Elo that score means.
    #[serde(serialize_with = "fixed::d1")]
    pub elo_heuristic: f64,
    /// The Elo that score means.
    #[serde(serialize_with = "fixed::d1")]
    pub elo_mcts2000: f64,
    /// Seconds the generation took.
    #[serde(serialize_with = "fixed::d1")]
    pub seconds: f64,
    /// CPU seconds the process spent on it.
    #[serde(serialize_with = "fixed::d1")]
    pub cpu_seconds: f64,
}

/// The header of `train.csv`, without its newline.
pub fn header() -> String {
    csv_rows::header::<TrainCsvRow>()
}

/// The Elo difference a score rate over `games` games means, a clean
/// sweep counted with one virtual draw as everywhere else
/// ([`crate::stats::rating::regularised`]), so that it stays finite.
pub fn elo_of(score: f64, games: u32) -> f64 {
    let g = f64::from(games.max(1));
    crate::stats::rating::elo_of_points(score.clamp(0.0, 1.0) * g, g)
}

impl GenRow {
    /// The row of `train.csv`.
    pub fn csv_row(&self, anchor_games: u32) -> TrainCsvRow {
        let a = |i: usize| self.anchor_scores.get(i).copied().unwrap_or(0.0);
        TrainCsvRow {
            generation: self.generation,
            games: self.games,
            positions: self.positions,
            buffer: self.buffer,
            policy_loss: self.policy_loss,
            value_loss: self.value_loss,
            gate_score: self.gate_score,
            kept: self.kept,
            best: self.best,
            score_heuristic: a(0),
            score_mcts2000: a(1),
            elo_heuristic: elo_of(a(0), anchor_games),
            elo_mcts2000: elo_of(a(1), anchor_games),
            seconds: self.seconds,
            cpu_seconds: self.cpu_seconds,
        }
    }

    /// The row as CSV (no newline).
    pub fn csv(&self, anchor_games: u32) -> String {
        let mut s = String::new();
        csv_rows::push(&mut s, &self.csv_row(anchor_games));
        s.truncate(s.trim_end().len());
        s
    }

    /// The row a `train.csv` line holds (the Elo columns follow from
    /// the scores).
    pub fn from_csv(f: TrainCsvRow) -> GenRow {
        GenRow {
            generation: f.generation,
            games: f.games,
            positions: f.positions,
            buffer: f.buffer,
            policy_loss: f.policy_loss,
            value_loss: f.value_loss,
            gate_score: f.gate_score,
            kept: f.kept,
            best: f.best,
            anchor_scores: vec![f.score_heuristic, f.score_mcts2000],
            seconds: f.seconds,
            cpu_seconds: f.cpu_seconds,
        }
    }
}

/// Reads the rows of `train.csv` and checks their files, for a resume.
///
/// # Errors
/// A row that does not parse or a file that is missing.
pub fn read_rows(out: &Path) -> Result<Vec<GenRow>, TrainError> {
    let path = out.join("train.csv");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(file_err(&path)(e)),
    };
    // A kill in the middle of a write leaves a torn last line: it is
    // dropped, and that generation is played again.
    let whole = csv_rows::complete(&text);
    if whole.is_empty() {
        return Ok(Vec::new());
    }
    let bad = |n: usize, why: &str| TrainError::File {
        path: format!("{}:{n}", path.display()),
        why: why.to_string(),
    };
    let parsed = csv_rows::parse::<TrainCsvRow>(whole)
        .map_err(|(n, m)| bad(n, &format!("not a train.csv row: {m}")))?;
    let mut rows = Vec::new();
    for (n, f) in parsed {
        let bad = |why: &str| bad(n, why);
        let row = GenRow::from_csv(f);
        if row.generation as usize != rows.len() + 1 {
            return Err(bad("generations are not consecutive from 1"));
        }
        for p in [
            net_path(out, row.generation),
            samples_path(out, row.generation),
        ] {
            if !p.exists() {
                return Err(bad(&format!("its file {} is missing", p.display())));
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn train_csv_rows_keep_their_bytes_and_read_back() {
        let row = GenRow {
            generation: 3,
            games: 40,
            positions: 1234,
            buffer: 5678,
            policy_loss: 1.234_56,
            value_loss: 0.5,
            gate_score: 0.55,
            kept: true,
            best: 3,
            anchor_scores: vec![0.75, 0.125],
            seconds: 12.34,
            cpu_seconds: 20.5,
        };
        let line = row.csv(20);
        assert_eq!(
            line,
            "3,40,1234,5678,1.2346,0.5000,0.5500,true,3,0.7500,0.1250,190.8,-338.0,12.3,20.5"
        );
        let text = format!("{}\n{line}\n", header());
        let back = csv_rows::parse::<TrainCsvRow>(&text).expect("parse");
        let again = GenRow::from_csv(back[0].1.clone());
        assert_eq!(again.csv(20), line);
    }
}
