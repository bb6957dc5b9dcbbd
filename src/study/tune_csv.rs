//! `tune.csv`: one row per SPSA iteration, and the check `--resume`
//! makes of the rows it keeps.
//!
//! Columns: `iter`, then for each tuned key `KEY` (θ before the step),
//! `KEY_delta` (the sign of its perturbation), `KEY_plus` and `KEY_minus`
//! (the values θ+ and θ− played), then `plus_points`, `minus_points` (each
//! side's points in its pair), `result` (their difference, the SPSA
//! result) and the timing columns `plus_ms`, `minus_ms`.

use std::fmt::Write as _;

use super::plot::{PlotError, TunePlot, tune_plot};
use super::spsa::{SpsaParam, value_text};
use super::tune::{IterResult, Row, Tuner};
use crate::stats::rating::elo_of_points;

/// The header line (with its newline).
pub fn header(params: &[SpsaParam]) -> String {
    let mut s = String::from("iter");
    for p in params {
        let k = &p.key;
        let _ = write!(s, ",{k},{k}_delta,{k}_plus,{k}_minus");
    }
    s.push_str(",plus_points,minus_points,result,plus_ms,minus_ms\n");
    s
}

/// One row's line (with its newline).
pub fn row_text(params: &[SpsaParam], row: &Row) -> String {
    let mut s = row.k.to_string();
    for (i, p) in params.iter().enumerate() {
        let _ = write!(
            s,
            ",{},{},{},{}",
            value_text(row.theta[i], false),
            row.probe.delta[i],
            value_text(row.probe.plus[i], p.integer),
            value_text(row.probe.minus[i], p.integer)
        );
    }
    let r = &row.result;
    let _ = writeln!(
        s,
        ",{},{},{},{},{}",
        value_text(r.plus_points, false),
        value_text(r.minus_points, false),
        value_text(r.result(), false),
        r.plus_ms,
        r.minus_ms
    );
    s
}

/// The games' part of a row: points and timings, read back.
fn parse_result(fields: &[&str], params: usize) -> Option<IterResult> {
    let at = 1 + 4 * params;
    let points = |t: &str| {
        t.parse::<f64>()
            .ok()
            .filter(|v| (0.0..=2.0).contains(v) && (v * 2.0).fract() == 0.0)
    };
    Some(IterResult {
        plus_points: points(fields.get(at)?)?,
        minus_points: points(fields.get(at + 1)?)?,
        plus_ms: fields.get(at + 3)?.parse().ok()?,
        minus_ms: fields.get(at + 4)?.parse().ok()?,
    })
}

/// Replays the complete rows of a `tune.csv` through `tuner` (at its
/// start): each must be the row this run would write for its games'
/// result, θ, perturbation and points played included. A torn last line
/// (no newline) is dropped. Returns the rows kept.
///
/// # Errors
/// `LINE: message` for a wrong header, a malformed row or one that does
/// not follow from the run's arguments.
pub fn replay(text: &str, tuner: &mut Tuner) -> Result<Vec<Row>, String> {
    let params = tuner.spsa.params.clone();
    let mut lines = text.split_inclusive('\n');
    let want = header(&params);
    match lines.next() {
        None => return Ok(Vec::new()),
        Some(h) if !h.ends_with('\n') => return Ok(Vec::new()),
        Some(h) if h == want => {}
        Some(h) => {
            return Err(format!(
                "line 1: header '{}' is not this run's '{}'",
                h.trim_end(),
                want.trim_end()
            ));
        }
    }
    let mut rows = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        if !line.ends_with('\n') {
            break;
        }
        if tuner.next >= tuner.spsa.settings.iterations {
            return Err(format!("line {n}: more rows than the run's iterations"));
        }
        let fields: Vec<&str> = line.trim_end().split(',').collect();
        let result = parse_result(&fields, params.len())
            .ok_or_else(|| format!("line {n}: not a row of this run's columns"))?;
        let row = tuner.record(result);
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
pub fn tune_svg(params: &[SpsaParam], rows: &[Row], bot: &str) -> Result<String, PlotError> {
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
