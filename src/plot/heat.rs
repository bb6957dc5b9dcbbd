//! Heat maps of a value over two swept parameters.

use plotters::prelude::*;

use super::{Area, FONT, HeatMap, PlotError, SIZE, cartesian, err, padded, render};

/// A blue (low) – white (middle) – red (high) scale.
fn diverging(t: f64) -> RGBColor {
    let t = t.clamp(0.0, 1.0);
    let (a, b, u) = if t < 0.5 {
        ((33.0, 102.0, 172.0), (247.0, 247.0, 247.0), t * 2.0)
    } else {
        ((247.0, 247.0, 247.0), (178.0, 24.0, 43.0), (t - 0.5) * 2.0)
    };
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Draws a [`HeatMap`]: each cell coloured by its value and labelled with
/// the value and its interval; a colour bar on the right.
///
/// # Errors
/// A drawing failure.
pub fn heat_map(h: &HeatMap) -> Result<String, PlotError> {
    render(|root| {
        let (main, bar) = root.split_horizontally(SIZE.0 - 130);
        let vals = h.cells.iter().flatten().flatten().map(|c| c.0);
        let (mut v0, mut v1) = padded(vals);
        if let Some(c) = h.center {
            let r = (v1 - c).abs().max((c - v0).abs());
            (v0, v1) = (c - r, c + r);
        }
        let (nx, ny) = (h.x_ticks.len().max(1), h.y_ticks.len().max(1));
        let mut chart = cartesian(
            &main,
            Some(&h.title),
            16,
            48,
            0.0..nx as f64,
            0.0..ny as f64,
        )?;
        let (xt, yt) = (h.x_ticks.clone(), h.y_ticks.clone());
        let tick = |t: &[String], v: f64| {
            let i = v - 0.5;
            if (i - i.round()).abs() < 1e-6 && i >= 0.0 {
                t.get(i.round() as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        let fx = |v: &f64| tick(&xt, *v);
        let fy = |v: &f64| tick(&yt, *v);
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc(&h.x_label)
            .y_desc(&h.y_label)
            .axis_desc_style((FONT, 16))
            .x_labels(nx * 2 + 1)
            .y_labels(ny * 2 + 1)
            .x_label_formatter(&fx)
            .y_label_formatter(&fy)
            .draw()
            .map_err(err)?;
        for (r, row) in h.cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let Some((v, lo, hi)) = cell else { continue };
                // -0.0 (exactly even) is drawn as 0.
                let (v, lo, hi) = (v + 0.0, lo + 0.0, hi + 0.0);
                let (x, y) = (c as f64, r as f64);
                let color = diverging((v - v0) / (v1 - v0));
                chart
                    .draw_series([Rectangle::new([(x, y), (x + 1.0, y + 1.0)], color.filled())])
                    .map_err(err)?;
                let style =
                    TextStyle::from((FONT, 14)).pos(plotters::style::text_anchor::Pos::new(
                        plotters::style::text_anchor::HPos::Center,
                        plotters::style::text_anchor::VPos::Center,
                    ));
                chart
                    .draw_series([
                        Text::new(format!("{v:.0}"), (x + 0.5, y + 0.6), style.clone()),
                        Text::new(format!("[{lo:.0}, {hi:.0}]"), (x + 0.5, y + 0.35), style),
                    ])
                    .map_err(err)?;
            }
        }
        colour_bar(&bar, &h.value_label, v0, v1)
    })
}

fn colour_bar(area: &Area<'_>, label: &str, v0: f64, v1: f64) -> Result<(), PlotError> {
    let mut chart = ChartBuilder::on(area)
        .margin_top(60)
        .margin_bottom(64)
        .margin_right(10)
        .y_label_area_size(70)
        .build_cartesian_2d(0.0..1.0, v0..v1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .y_desc(label)
        .axis_desc_style((FONT, 14))
        .label_style((FONT, 12))
        .draw()
        .map_err(err)?;
    let steps = 60;
    chart
        .draw_series((0..steps).map(|i| {
            let a = v0 + (v1 - v0) * i as f64 / steps as f64;
            let b = v0 + (v1 - v0) * (i + 1) as f64 / steps as f64;
            let t = (i as f64 + 0.5) / steps as f64;
            Rectangle::new([(0.0, a), (1.0, b)], diverging(t).filled())
        }))
        .map_err(err)?;
    Ok(())
}
