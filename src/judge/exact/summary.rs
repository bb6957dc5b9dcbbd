//! `exact_summary.csv`: the solved layouts of each (size, hole count)
//! summed up, every share weighted by the layouts' weights.

use serde::{Deserialize, Serialize};

use super::ExactRow;
use crate::csv_rows::{self, fixed};
use crate::game::outcome::Outcome;

/// One row of `exact_summary.csv`: a (size, hole count) over its layouts,
/// every share weighted by the layouts' weights.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactSummary {
    /// Board side.
    pub size: u8,
    /// Hole count.
    pub holes: u32,
    /// Layouts solved.
    pub layouts: u64,
    /// Their total weight.
    pub weight: u64,
    /// Weighted shares of White wins, draws and Black wins.
    pub white: f64,
    /// See `white`.
    pub draw: f64,
    /// See `white`.
    pub black: f64,
    /// Weighted mean margin (White minus Black, komi included), points.
    pub margin_mean: f64,
    /// Weighted quartiles of the margin, points: the smallest margin with
    /// at least a quarter, a half, three quarters of the weight at or below.
    pub margin_quartiles: [f64; 3],
    /// The komi (points added to Black, on top of the run's komi) that
    /// makes the most weight a draw: a layout of margin `m` is a draw with
    /// `m` more points for Black, as komi shifts every final margin alike.
    /// Ties go to the smaller komi in size, then the smaller.
    pub fair_komi: f64,
    /// With the pie rule: the weighted share of layouts that have a fair
    /// first move.
    pub pie_fair: Option<f64>,
}

/// One line of `exact_summary.csv`; `pie_fair_share` only in a run with
/// `--pie`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ExactSummaryCsvRow {
    /// Board side.
    pub size: u8,
    /// Hole count.
    pub holes: u32,
    /// Layouts solved.
    pub layouts: u64,
    /// Their total weight.
    pub weight: u64,
    /// Weighted share of White wins.
    #[serde(serialize_with = "fixed::d4")]
    pub white_share: f64,
    /// Of draws.
    #[serde(serialize_with = "fixed::d4")]
    pub draw_share: f64,
    /// Of Black wins.
    #[serde(serialize_with = "fixed::d4")]
    pub black_share: f64,
    /// Weighted mean margin, points.
    #[serde(serialize_with = "fixed::d3")]
    pub margin_mean: f64,
    /// Its lower quartile.
    #[serde(serialize_with = "fixed::plain")]
    pub margin_q1: f64,
    /// Its median.
    #[serde(serialize_with = "fixed::plain")]
    pub margin_median: f64,
    /// Its upper quartile.
    #[serde(serialize_with = "fixed::plain")]
    pub margin_q3: f64,
    /// The komi that makes the most weight a draw.
    #[serde(serialize_with = "fixed::plain")]
    pub fair_komi: f64,
    /// With the pie rule: the weighted share of layouts with a fair first
    /// move.
    #[serde(
        serialize_with = "fixed::opt_d4",
        skip_serializing_if = "Option::is_none"
    )]
    pub pie_fair_share: Option<f64>,
}

/// The header of `exact_summary.csv`.
pub fn summary_header(pie: bool) -> String {
    csv_rows::header_of(&ExactSummaryCsvRow {
        pie_fair_share: pie.then_some(0.0),
        ..ExactSummaryCsvRow::default()
    })
}

/// Summarises `rows` per (size, hole count), in the order the groups first
/// appear.
pub fn summarize(rows: &[ExactRow]) -> Vec<ExactSummary> {
    let mut keys: Vec<(u8, u32)> = Vec::new();
    for r in rows {
        let k = (r.size, r.layout.holes.count());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.into_iter()
        .map(|(size, holes)| {
            let group: Vec<&ExactRow> = rows
                .iter()
                .filter(|r| r.size == size && r.layout.holes.count() == holes)
                .collect();
            summarize_group(size, holes, &group)
        })
        .collect()
}

fn summarize_group(size: u8, holes: u32, rows: &[&ExactRow]) -> ExactSummary {
    let weight: u64 = rows.iter().map(|r| r.layout.weight).sum();
    let w = weight.max(1) as f64;
    let share = |o: Outcome| {
        rows.iter()
            .filter(|r| r.outcome == o)
            .map(|r| r.layout.weight)
            .sum::<u64>() as f64
            / w
    };
    let mut margins: Vec<(i32, u64)> = rows
        .iter()
        .map(|r| (r.margin_halves, r.layout.weight))
        .collect();
    margins.sort_unstable();
    let mean = margins
        .iter()
        .map(|&(m, k)| f64::from(m) * k as f64)
        .sum::<f64>()
        / w
        / 2.0;
    let quantile = |q: f64| {
        let mut acc = 0u64;
        for &(m, k) in &margins {
            acc += k;
            if acc as f64 >= q * weight as f64 {
                return f64::from(m) / 2.0;
            }
        }
        margins.last().map_or(0.0, |&(m, _)| f64::from(m) / 2.0)
    };
    // The weighted mode of the margin, ties to the komi smallest in size.
    let mut mode: Option<(u64, i32)> = None;
    let mut i = 0;
    while i < margins.len() {
        let m = margins[i].0;
        let mut k = 0;
        while i < margins.len() && margins[i].0 == m {
            k += margins[i].1;
            i += 1;
        }
        let better = match mode {
            None => true,
            Some((best_k, best_m)) => {
                k > best_k || (k == best_k && (m.abs(), m) < (best_m.abs(), best_m))
            }
        };
        if better {
            mode = Some((k, m));
        }
    }
    let pie_fair = if rows.iter().all(|r| r.pie.is_some()) && !rows.is_empty() {
        Some(
            rows.iter()
                .filter(|r| r.pie.as_ref().is_some_and(|p| p.margin_halves == 0))
                .map(|r| r.layout.weight)
                .sum::<u64>() as f64
                / w,
        )
    } else {
        None
    };
    ExactSummary {
        size,
        holes,
        layouts: rows.len() as u64,
        weight,
        white: share(Outcome::WhiteWins),
        draw: share(Outcome::Draw),
        black: share(Outcome::BlackWins),
        margin_mean: mean,
        margin_quartiles: [quantile(0.25), quantile(0.5), quantile(0.75)],
        fair_komi: mode.map_or(0.0, |(_, m)| f64::from(m) / 2.0),
        pie_fair,
    }
}

/// Appends `row`'s line of `exact_summary.csv`, newline included.
pub fn push_summary(out: &mut String, row: &ExactSummary) {
    let [q1, q2, q3] = row.margin_quartiles;
    csv_rows::push(
        out,
        &ExactSummaryCsvRow {
            size: row.size,
            holes: row.holes,
            layouts: row.layouts,
            weight: row.weight,
            white_share: row.white,
            draw_share: row.draw,
            black_share: row.black,
            margin_mean: row.margin_mean,
            margin_q1: q1,
            margin_median: q2,
            margin_q3: q3,
            fair_komi: row.fair_komi,
            pie_fair_share: row.pie_fair,
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::bitboard::Bitboard;
    use crate::judge::exact::{Layout, PieValue};

    #[test]
    fn summary_weights_and_fair_komi() {
        let row = |m: i32, w: u64| ExactRow {
            size: 3,
            layout: Layout {
                holes: Bitboard::EMPTY,
                weight: w,
            },
            outcome: Outcome::from_margin_halves(m),
            margin_halves: m,
            best_first_moves: Vec::new(),
            pie: Some(PieValue {
                margin_halves: if m == 6 { 0 } else { -2 },
                fair_first_moves: Vec::new(),
            }),
            nodes: 0,
            versus: Vec::new(),
        };
        let s = summarize(&[row(6, 4), row(-6, 4), row(0, 1), row(6, 1)]);
        assert_eq!(s.len(), 1);
        let s = &s[0];
        assert_eq!((s.layouts, s.weight), (4, 10));
        assert!((s.white - 0.5).abs() < 1e-12 && (s.draw - 0.1).abs() < 1e-12);
        assert_eq!(s.fair_komi, 3.0);
        assert_eq!(s.margin_quartiles, [-3.0, 0.0, 3.0]);
        assert!((s.pie_fair.unwrap_or(0.0) - 0.5).abs() < 1e-12);
    }
}
