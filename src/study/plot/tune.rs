//! `tune.svg`: each tuned key's trajectory, normalised to its range, over
//! the iterations, and below it the running Elo of θ+ against θ−.

use plotters::prelude::*;

use super::{FONT, PALETTE, PlotError, err, padded, render};

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
        let mut chart = ChartBuilder::on(&top)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..n, 0.0..1.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("iteration (colour-swapped pair)")
            .y_desc("θ, share of its range")
            .axis_desc_style((FONT, 15))
            .draw()
            .map_err(err)?;
        for (i, (label, ys)) in p.trajectories.iter().enumerate() {
            let style = ShapeStyle::from(&PALETTE[i % PALETTE.len()]).stroke_width(2);
            chart
                .draw_series(LineSeries::new(ys.iter().copied(), style))
                .map_err(err)?
                .label(label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 14))
            .draw()
            .map_err(err)?;
        let (y0, y1) = padded(p.elo.iter().map(|e| e.1).chain([0.0]));
        let mut chart = ChartBuilder::on(&bottom)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..n, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("iteration (colour-swapped pair)")
            .y_desc("Elo, θ+ vs θ−")
            .axis_desc_style((FONT, 15))
            .draw()
            .map_err(err)?;
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
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 14))
            .draw()
            .map_err(err)
    })
}
