//! The plot of a tournament's ratings: every bot's maximum-likelihood Elo
//! with its 95 % interval, strongest first.

use super::{Estimate, LinePlot, PlotError, Series, line_plot};
use crate::arena::report::Report;

/// One bot's rating as drawn: its Elo and 95 % interval.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedBot {
    /// The bot's label.
    pub label: String,
    /// Its Elo.
    pub elo: f64,
    /// Lower end of its interval.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
}

/// `ratings.svg`: Elo per bot (best first) with interval bars; `title`
/// names the tournament.
///
/// # Errors
/// A drawing failure.
pub fn ratings_plot(report: &Report, title: &str) -> Result<String, PlotError> {
    let bots: Vec<RatedBot> = report
        .rating_order()
        .into_iter()
        .map(|i| {
            let (lo, hi) = report.ratings.interval(i);
            RatedBot {
                label: report.labels[i].clone(),
                elo: report.ratings.elo[i],
                lo,
                hi,
            }
        })
        .collect();
    elo_plot(
        &bots,
        title,
        "Elo (maximum likelihood, mean 0; draws as half points)",
    )
}

/// Elo per bot in the order given (strongest first) with interval bars;
/// `y_label` says what the scale's zero is. An interval that is not
/// finite is drawn as its point alone.
///
/// # Errors
/// A drawing failure.
pub fn elo_plot(bots: &[RatedBot], title: &str, y_label: &str) -> Result<String, PlotError> {
    let points = bots
        .iter()
        .enumerate()
        .map(|(x, b)| {
            let finite = b.lo.is_finite() && b.hi.is_finite();
            Estimate {
                x: x as f64,
                y: b.elo,
                lo: if finite { b.lo } else { b.elo },
                hi: if finite { b.hi } else { b.elo },
            }
        })
        .collect();
    line_plot(&LinePlot {
        title: title.to_string(),
        x_label: "bot (strongest first)".into(),
        y_label: y_label.into(),
        series: vec![Series {
            label: "Elo".into(),
            points,
        }],
        x_ticks: Some(bots.iter().map(|b| b.label.clone()).collect()),
        reference: None,
        connect: false,
    })
}
