//! The plot of a tournament's ratings: every bot's maximum-likelihood Elo
//! with its 95 % interval, strongest first.

use super::{Estimate, LinePlot, PlotError, Series, line_plot};
use crate::arena::report::Report;

/// `ratings.svg`: Elo per bot (best first) with interval bars; `title`
/// names the tournament.
///
/// # Errors
/// A drawing failure.
pub fn ratings_plot(report: &Report, title: &str) -> Result<String, PlotError> {
    let order = report.rating_order();
    let points = order
        .iter()
        .enumerate()
        .map(|(x, &i)| {
            let (lo, hi) = report.ratings.interval(i);
            Estimate {
                x: x as f64,
                y: report.ratings.elo[i],
                lo,
                hi,
            }
        })
        .collect();
    line_plot(&LinePlot {
        title: title.to_string(),
        x_label: "bot (strongest first)".into(),
        y_label: "Elo (maximum likelihood, mean 0; draws as half points)".into(),
        series: vec![Series {
            label: "Elo".into(),
            points,
        }],
        x_ticks: Some(order.iter().map(|&i| report.labels[i].clone()).collect()),
        reference: None,
        connect: false,
    })
}
