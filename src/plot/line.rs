//! Line plots: estimates against one parameter with their intervals.

use plotters::prelude::*;

use super::{
    Chart, Estimate, FONT, LinePlot, PALETTE, PlotError, Series, cartesian, err, legend, line_key,
    padded, render,
};

/// Draws a [`LinePlot`].
///
/// # Errors
/// A drawing failure.
pub fn line_plot(p: &LinePlot) -> Result<String, PlotError> {
    render(|root| {
        let pts = p.series.iter().flat_map(|s| s.points.iter());
        let (x0, x1) = match &p.x_ticks {
            // Categories sit at 0, 1, ...: half a slot of room either side.
            Some(t) => (-0.5, t.len().max(1) as f64 - 0.5),
            None => padded(pts.clone().map(|e| e.x)),
        };
        let ys = pts
            .flat_map(|e| [e.lo, e.hi, e.y])
            .chain(p.reference.iter().map(|r| r.0));
        let (y0, y1) = padded(ys);
        // Headroom for the legend in the upper left.
        let y1 = y1 + 0.25 * (y1 - y0);
        let mut chart = cartesian(root, Some(&p.title), 16, 48, x0..x1, y0..y1)?;
        let ticks = p.x_ticks.clone();
        let fmt_x = move |x: &f64| match &ticks {
            Some(t) if (x - x.round()).abs() < 1e-6 && *x >= 0.0 => {
                t.get(x.round() as usize).cloned().unwrap_or_default()
            }
            Some(_) => String::new(),
            None => format!("{}", (x * 1000.0).round() / 1000.0),
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(&p.x_label)
            .y_desc(&p.y_label)
            .axis_desc_style((FONT, 16))
            .x_label_formatter(&fmt_x);
        if let Some(t) = &p.x_ticks {
            mesh.x_labels(t.len() * 2 + 1);
        }
        mesh.draw().map_err(err)?;
        if let Some((y, label)) = &p.reference {
            let style = ShapeStyle::from(&BLACK.mix(0.6)).stroke_width(1);
            chart
                .draw_series(DashedLineSeries::new(vec![(x0, *y), (x1, *y)], 6, 4, style))
                .map_err(err)?
                .label(label)
                .legend(line_key(style));
        }
        // Shift the series apart so that their interval bars do not overlap.
        let k = p.series.len();
        let dodge = |i: usize| {
            let slot = i as f64 - (k.max(1) - 1) as f64 / 2.0;
            match (&p.x_ticks, k) {
                (_, 0 | 1) => 0.0,
                (Some(_), _) => slot * (0.3 / k as f64),
                // Numbers: a nudge of about 1 % of the axis per series.
                (None, _) => slot * 0.012 * (x1 - x0),
            }
        };
        for (i, s) in p.series.iter().enumerate() {
            let c = PALETTE[i % PALETTE.len()];
            let dx = dodge(i);
            let shifted: Vec<Estimate> = s
                .points
                .iter()
                .map(|e| Estimate { x: e.x + dx, ..*e })
                .collect();
            let s = Series {
                label: s.label.clone(),
                points: shifted,
            };
            let line = ShapeStyle::from(&c).stroke_width(2);
            let joined = s.points.iter().map(|e| (e.x, e.y));
            let pts: Vec<(f64, f64)> = if p.connect {
                joined.collect()
            } else {
                Vec::new()
            };
            chart
                .draw_series(LineSeries::new(pts, line))
                .map_err(err)?
                .label(format!("{} (bars: 95 % interval)", s.label))
                .legend(line_key(line));
            let finite = |e: &&Estimate| e.lo.is_finite() && e.hi.is_finite() && e.y.is_finite();
            chart
                .draw_series(
                    s.points
                        .iter()
                        .filter(finite)
                        .map(|e| ErrorBar::new_vertical(e.x, e.lo, e.y, e.hi, line, 10)),
                )
                .map_err(err)?;
            for e in s.points.iter().filter(|e| !finite(e)) {
                open_ended(&mut chart, e, (y0, y1), line)?;
            }
            chart
                .draw_series(
                    s.points
                        .iter()
                        .filter(|e| e.y.is_finite())
                        .map(|e| Circle::new((e.x, e.y), 4, c.filled())),
                )
                .map_err(err)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// Draws an estimate whose interval (or the estimate itself) is infinite,
/// as from a combination that won or lost every game: the bar runs to the
/// plot's edge and ends there in an arrowhead instead of a cap, so that it
/// does not read as a finite bound; an infinite estimate is the arrowhead.
fn open_ended(
    chart: &mut Chart<'_, '_>,
    e: &Estimate,
    (y0, y1): (f64, f64),
    line: ShapeStyle,
) -> Result<(), PlotError> {
    let at = |v: f64| v.clamp(y0, y1);
    chart
        .draw_series([PathElement::new(
            vec![(e.x, at(e.lo)), (e.x, at(e.hi))],
            line,
        )])
        .map_err(err)?;
    for v in [e.lo, e.hi] {
        let tip: Vec<(i32, i32)> = if v == f64::INFINITY {
            vec![(0, -2), (-6, 9), (6, 9)]
        } else if v == f64::NEG_INFINITY {
            vec![(0, 2), (-6, -9), (6, -9)]
        } else {
            // A finite end keeps its cap.
            chart
                .draw_series([
                    EmptyElement::at((e.x, v)) + PathElement::new(vec![(-5, 0), (5, 0)], line)
                ])
                .map_err(err)?;
            continue;
        };
        chart
            .draw_series([EmptyElement::at((e.x, at(v))) + Polygon::new(tip, line.filled())])
            .map_err(err)?;
    }
    Ok(())
}
