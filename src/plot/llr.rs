//! The SPRT's log-likelihood ratio against its stopping bounds.

use plotters::prelude::*;

use super::{LlrPlot, PALETTE, PlotError, axes, cartesian, err, legend, line_key, padded, render};

/// Draws an [`LlrPlot`]: the trajectory and both bounds.
///
/// # Errors
/// A drawing failure.
pub fn llr_plot(p: &LlrPlot) -> Result<String, PlotError> {
    render(|root| {
        let (x0, x1) = padded(p.points.iter().map(|q| q.0).chain([0.0]));
        let (y0, y1) = padded(
            p.points
                .iter()
                .map(|q| q.1)
                .chain([p.lower * 1.1, p.upper * 1.1]),
        );
        // Headroom above the upper bound for the legend.
        let y1 = y1 + 0.45 * (y1 - y0);
        let mut chart = cartesian(root, Some(&p.title), 16, 48, x0.max(0.0)..x1, y0..y1)?;
        axes(&mut chart, "games played", "log-likelihood ratio (LLR)", 16)?;
        let bounds = [
            (
                p.upper,
                format!("H1 accepted at or above {:.3}", p.upper),
                PALETTE[2],
            ),
            (
                p.lower,
                format!("H0 accepted at or below {:.3}", p.lower),
                PALETTE[1],
            ),
        ];
        for (y, label, c) in bounds {
            let style = ShapeStyle::from(&c).stroke_width(2);
            chart
                .draw_series(DashedLineSeries::new(vec![(x0, y), (x1, y)], 8, 5, style))
                .map_err(err)?
                .label(label)
                .legend(line_key(style));
        }
        if !p.note.is_empty() {
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(err)?
                .label(&p.note)
                .legend(|(x, y)| Circle::new((x + 10, y), 0, WHITE));
        }
        let line = ShapeStyle::from(&PALETTE[0]).stroke_width(2);
        chart
            .draw_series(LineSeries::new(p.points.iter().copied(), line))
            .map_err(err)?
            .label("LLR after each colour-swapped pair")
            .legend(line_key(line));
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}
