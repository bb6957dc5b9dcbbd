//! Stacked bars of shares per category.

use plotters::prelude::*;

use super::{FONT, PALETTE, PlotError, StackedBars, err, render};

/// Draws [`StackedBars`]: segments labelled with their percentages,
/// interval bars on the first segment's top and the last segment's bottom.
///
/// # Errors
/// A drawing failure.
pub fn stacked_bars(s: &StackedBars) -> Result<String, PlotError> {
    render(|root| {
        let n = s.bars.len().max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&s.title, (FONT, 19))
            .margin(16)
            .x_label_area_size(64)
            .y_label_area_size(70)
            // An empty column on the right holds the legend; the band below
            // 0 holds the category labels.
            .build_cartesian_2d(0.0..n as f64 + 1.6, -7.0..100.0)
            .map_err(err)?;
        let fy = |v: &f64| {
            if *v < 0.0 {
                String::new()
            } else {
                format!("{v:.0}")
            }
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_desc(&s.x_label)
            .y_desc(&s.y_label)
            .axis_desc_style((FONT, 16))
            .y_label_formatter(&fy)
            .draw()
            .map_err(err)?;
        let centre = TextStyle::from((FONT, 13)).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Center,
            plotters::style::text_anchor::VPos::Center,
        ));
        chart
            .draw_series(
                s.bars.iter().enumerate().map(|(i, b)| {
                    Text::new(b.label.clone(), (i as f64 + 0.5, -3.5), centre.clone())
                }),
            )
            .map_err(err)?;
        // Legend entries first, one per segment, plus the reference style.
        for (k, name) in s.segments.iter().enumerate() {
            let c = PALETTE[k % PALETTE.len()];
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                .map_err(err)?
                .label(name)
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], c.filled()));
        }
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
            .map_err(err)?
            .label("I: 95 % interval of the bottom / top share")
            .legend(|(x, y)| {
                PathElement::new(vec![(x + 7, y - 7), (x + 7, y + 7)], BLACK.stroke_width(2))
            });
        if s.bars.iter().any(|b| b.reference) {
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                .map_err(err)?
                .label("pale: published reference, not measured")
                .legend(|(x, y)| {
                    Rectangle::new([(x, y - 6), (x + 14, y + 6)], PALETTE[6].mix(0.35).filled())
                });
        }
        for (i, bar) in s.bars.iter().enumerate() {
            let (x0, x1) = (i as f64 + 0.18, i as f64 + 0.82);
            let mut base = 0.0;
            for (k, &(share, _, _)) in bar.parts.iter().enumerate() {
                let c = PALETTE[k % PALETTE.len()];
                let fill = if bar.reference {
                    c.mix(0.35).filled()
                } else {
                    c.filled()
                };
                let top = base + 100.0 * share;
                chart
                    .draw_series([Rectangle::new([(x0, base), (x1, top)], fill)])
                    .map_err(err)?;
                if share >= 0.04 {
                    chart
                        .draw_series([Text::new(
                            format!("{:.1}%", 100.0 * share),
                            (i as f64 + 0.5, (base + top) / 2.0),
                            centre.clone(),
                        )])
                        .map_err(err)?;
                }
                base = top;
            }
            let ebar = ShapeStyle::from(&BLACK).stroke_width(2);
            if let Some(&(p, lo, hi)) = bar.parts.first() {
                let (m, l, h) = (100.0 * p, 100.0 * lo, 100.0 * hi);
                chart
                    .draw_series([ErrorBar::new_vertical(i as f64 + 0.35, l, m, h, ebar, 10)])
                    .map_err(err)?;
            }
            // The top segment's interval, drawn where it meets the rest.
            if let (true, Some(&(p, lo, hi))) = (bar.parts.len() > 1, bar.parts.last()) {
                let (m, l, h) = (100.0 * (1.0 - p), 100.0 * (1.0 - hi), 100.0 * (1.0 - lo));
                chart
                    .draw_series([ErrorBar::new_vertical(i as f64 + 0.65, l, m, h, ebar, 10)])
                    .map_err(err)?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 14))
            .draw()
            .map_err(err)
    })
}
