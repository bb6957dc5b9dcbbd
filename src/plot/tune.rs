//! `tune.svg`: each tuned key's trajectory, normalised to its range, over
//! the iterations, and below it the running Elo of θ+ against θ−.

use plotters::prelude::*;

use super::{FONT, PALETTE, PlotError, axes, cartesian, err, legend, line_key, padded, render};

/// The x axis of both panels.
const ITERATION: &str = "iteration (colour-swapped pair)";

/// What [`tune_plot`] draws.
#[derive(Clone, Debug, PartialEq)]
pub struct TunePlot {
    /// Title above the plot.
    pub title: String,
    /// `(key with its range, (iteration, θ as a share of the range))`.
    pub trajectories: Vec<(String, Vec<(f64, f64)>)>,
    /// Iterations in all (the x axis).
    pub iterations: f64,
    /// `(iteration, Elo)` of the running estimate.
    pub elo: Vec<(f64, f64)>,
    /// What the running estimate covers (its window).
    pub elo_label: String,
}

/// Draws a [`TunePlot`].
///
/// # Errors
/// A drawing failure.
pub fn tune_plot(p: &TunePlot) -> Result<String, PlotError> {
    render(|root| {
        let root = root.titled(&p.title, (FONT, 19)).map_err(err)?;
        let (top, bottom) = root.split_vertically((62).percent());
        let n = p.iterations.max(1.0);
        let mut chart = cartesian(&top, None, 12, 36, 0.0..n, 0.0..1.0)?;
        axes(&mut chart, ITERATION, "θ, share of its range", 15)?;
        for (i, (label, ys)) in p.trajectories.iter().enumerate() {
            let style = ShapeStyle::from(&PALETTE[i % PALETTE.len()]).stroke_width(2);
            chart
                .draw_series(LineSeries::new(ys.iter().copied(), style))
                .map_err(err)?
                .label(label)
                .legend(line_key(style));
        }
        legend(&mut chart, SeriesLabelPosition::UpperRight)?;
        let (y0, y1) = padded(p.elo.iter().map(|e| e.1).chain([0.0]));
        let mut chart = cartesian(&bottom, None, 12, 40, 0.0..n, y0..y1)?;
        axes(&mut chart, ITERATION, "Elo, θ+ vs θ−", 15)?;
        let zero = ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1);
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, 0.0), (n, 0.0)],
                6,
                4,
                zero,
            ))
            .map_err(err)?;
        let style = ShapeStyle::from(&PALETTE[6]).stroke_width(2);
        chart
            .draw_series(LineSeries::new(p.elo.iter().copied(), style))
            .map_err(err)?
            .label(&p.elo_label)
            .legend(line_key(style));
        legend(&mut chart, SeriesLabelPosition::UpperRight)
    })
}
