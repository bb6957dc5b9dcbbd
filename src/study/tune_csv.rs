//! `tune.csv`: one row per SPSA iteration, and the check `--resume`
//! makes of the rows it keeps.
//!
//! Columns: `iter`, then for each tuned key `KEY` (θ before the step),
//! `KEY_delta` (the sign of its perturbation), `KEY_plus` and `KEY_minus`
//! (the values θ+ and θ− played), then `plus_points`, `minus_points` (each
//! side's points in its pair), `result` (their difference, the SPSA
//! result) and the timing columns `plus_ms`, `minus_ms`.

use serde::{Deserialize, Serialize};

use super::spsa::{SpsaParam, value_text};
use super::tune::{IterResult, TuneRow, Tuner};
use crate::csv_rows;
use crate::plot::{PlotError, TunePlot, tune_plot};
use crate::stats::rating::elo_of_points;

/// A float as [`value_text`] writes it (at most six decimals, no
/// trailing zeros).
fn value<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&value_text(*v, false))
}

/// The games' columns of a `tune.csv` line, after `iter` and the four
/// columns of each tuned key (named by the keys, so not part of the
/// struct).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct TuneCsvRow {
    /// θ+'s points in its pair.
    #[serde(serialize_with = "value")]
    pub plus_points: f64,
    /// θ−'s points in its pair.
    #[serde(serialize_with = "value")]
    pub minus_points: f64,
    /// Their difference, the SPSA result.
    #[serde(serialize_with = "value")]
    pub result: f64,
    /// Milliseconds θ+ spent choosing moves.
    pub plus_ms: u64,
    /// Milliseconds θ− spent choosing moves.
    pub minus_ms: u64,
}

/// The leading columns: `iter`, then each key's four.
fn lead_columns(params: &[SpsaParam]) -> Vec<String> {
    let mut v = vec!["iter".to_string()];
    for p in params {
        let k = &p.key;
        v.extend([
            k.clone(),
            format!("{k}_delta"),
            format!("{k}_plus"),
            format!("{k}_minus"),
        ]);
    }
    v
}

/// The header line (with its newline).
pub fn header(params: &[SpsaParam]) -> String {
    let mut s = String::new();
    let tail = csv_rows::columns::<TuneCsvRow>();
    csv_rows::push_fields(
        &mut s,
        lead_columns(params).iter().chain(&tail).map(String::as_str),
    );
    s
}

/// The leading fields of `row`'s line: `iter` and each key's values.
fn lead_fields(params: &[SpsaParam], row: &TuneRow) -> Vec<String> {
    let mut v = vec![row.k.to_string()];
    for (i, p) in params.iter().enumerate() {
        v.extend([
            value_text(row.theta[i], false),
            row.probe.delta[i].to_string(),
            value_text(row.probe.plus[i], p.integer),
            value_text(row.probe.minus[i], p.integer),
        ]);
    }
    v
}

/// The games' part of `row`'s line.
fn tail(row: &TuneRow) -> TuneCsvRow {
    let r = &row.result;
    TuneCsvRow {
        plus_points: r.plus_points,
        minus_points: r.minus_points,
        result: r.result(),
        plus_ms: r.plus_ms,
        minus_ms: r.minus_ms,
    }
}

/// One row's line (with its newline).
pub fn row_text(params: &[SpsaParam], row: &TuneRow) -> String {
    let mut s = String::new();
    csv_rows::push_after(&mut s, &lead_fields(params, row), &tail(row));
    s
}

/// Points of one side in a pair: 0 to 2 in half points.
fn points(v: f64) -> Option<f64> {
    Some(v).filter(|v| (0.0..=2.0).contains(v) && (v * 2.0).fract() == 0.0)
}

/// Replays the complete rows of a `tune.csv` through `tuner` (at its
/// start): each must be the row this run would write for its games'
/// result, θ, perturbation and points played included. A torn last line
/// (no newline) is dropped. Returns the rows kept.
///
/// # Errors
/// `LINE: message` for a wrong header, a malformed row or one that does
/// not follow from the run's arguments.
pub fn replay(text: &str, tuner: &mut Tuner) -> Result<Vec<TuneRow>, String> {
    let params = tuner.spsa.params.clone();
    let complete = csv_rows::complete(text);
    if complete.is_empty() {
        return Ok(Vec::new());
    }
    let want = header(&params);
    let parsed = csv_rows::parse_after::<TuneCsvRow>(
        complete,
        &lead_columns(&params),
        &csv_rows::columns::<TuneCsvRow>(),
    )
    .map_err(|(n, m)| match n {
        1 => format!(
            "line 1: header '{}' is not this run's '{}'",
            complete.lines().next().unwrap_or(""),
            want.trim_end()
        ),
        _ => format!("line {n}: not a row of this run's columns ({m})"),
    })?;
    let mut rows = Vec::new();
    for (n, lead, f) in parsed {
        if tuner.next >= tuner.spsa.settings.iterations {
            return Err(format!("line {n}: more rows than the run's iterations"));
        }
        let result = match (points(f.plus_points), points(f.minus_points)) {
            (Some(plus_points), Some(minus_points)) => IterResult {
                plus_points,
                minus_points,
                plus_ms: f.plus_ms,
                minus_ms: f.minus_ms,
            },
            _ => return Err(format!("line {n}: points are not 0 to 2 in halves")),
        };
        let row = tuner.record(result);
        let mut line = String::new();
        csv_rows::push_after(&mut line, &lead, &f);
        if row_text(&params, &row) != line {
            return Err(format!(
                "line {n}: iteration {} does not follow from this run's arguments and earlier rows",
                row.k
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

/// `tune.svg` of `rows`: every key's θ as a share of its range, and the
/// Elo of θ+ against θ− over a trailing window of iterations (a window of
/// all wins or all losses counted with one virtual draw, as everywhere
/// else, so that it stays finite).
///
/// # Errors
/// A drawing failure.
pub fn tune_svg(params: &[SpsaParam], rows: &[TuneRow], bot: &str) -> Result<String, PlotError> {
    // About 2000 points a line: a long tune's plot stays small.
    let stride = rows.len().div_ceil(2000).max(1);
    let trajectories = params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                format!("{} ({}..{})", p.key, p.lo, p.hi),
                rows.iter()
                    .enumerate()
                    .filter(|(k, _)| k % stride == 0)
                    .map(|(k, r)| (k as f64, (r.theta[i] - p.lo) / (p.hi - p.lo)))
                    .collect(),
            )
        })
        .collect();
    let window = (rows.len() / 20).max(20);
    let mut elo = Vec::new();
    let (mut plus, mut minus) = (0.0, 0.0);
    for (i, r) in rows.iter().enumerate() {
        plus += r.result.plus_points;
        minus += r.result.minus_points;
        if i >= window {
            plus -= rows[i - window].result.plus_points;
            minus -= rows[i - window].result.minus_points;
        }
        if i + 1 >= window.min(rows.len()) && i % stride == 0 && plus + minus > 0.0 {
            let e = elo_of_points(plus, plus + minus);
            elo.push((i as f64, e));
        }
    }
    tune_plot(&TunePlot {
        title: format!("tune {bot}: {} iterations", rows.len()),
        iterations: rows.len() as f64,
        trajectories,
        elo,
        elo_label: format!("θ+ vs θ−, last {window} iterations"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::spsa::{Spsa, SpsaSettings};

    fn tuner() -> Tuner {
        let p = SpsaParam {
            key: "decay".into(),
            lo: 0.0,
            hi: 1.0,
            integer: false,
            start: 0.8,
            c_end: 0.05,
            r_end: 0.002,
        };
        let s = SpsaSettings {
            iterations: 20,
            alpha: 0.602,
            gamma: 0.101,
            coarse: 0.0,
        };
        Tuner::new(Spsa::new(vec![p], s), 4)
    }

    #[test]
    fn rows_replay_and_a_torn_line_is_dropped() {
        let mut t = tuner();
        let params = t.spsa.params.clone();
        let mut text = header(&params);
        for k in 0..12 {
            let r = IterResult {
                plus_points: (k % 3) as f64 * 0.5 + 0.5,
                minus_points: 1.5 - (k % 3) as f64 * 0.5,
                plus_ms: 3,
                minus_ms: 4,
            };
            text.push_str(&row_text(&params, &t.record(r)));
        }
        let torn = format!("{text}12,0.7");
        let mut again = tuner();
        assert_eq!(replay(&torn, &mut again).expect("replay").len(), 12);
        assert_eq!(again.spsa.theta(), t.spsa.theta());
        let rows = replay(&text, &mut tuner()).expect("rows");
        assert!(
            tune_svg(&params, &rows, "heuristic")
                .expect("svg")
                .contains("decay")
        );
        let forged = text.replacen("\n3,", "\n3,0.9", 1);
        let e = replay(&forged, &mut tuner()).unwrap_err();
        assert!(e.starts_with("line 5:"), "{e}");
    }
}
