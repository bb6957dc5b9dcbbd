//! Stacked bars of shares per category.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Area, FONT, PALETTE, PlotError, SIZE, StackedBars, cartesian, err, render};

/// Width of the legend panel on the right, in pixels.
const LEGEND_WIDTH: u32 = 250;

/// Draws [`StackedBars`]: segments labelled with their percentages,
/// interval bars on the first segment's top and the last segment's bottom,
/// and a legend panel beside the bars.
///
/// # Errors
/// A drawing failure.
pub fn stacked_bars(s: &StackedBars) -> Result<String, PlotError> {
    render(|root| {
        // The title spans the plot and the legend panel.
        let body = root.titled(&s.title, (FONT, 17)).map_err(err)?;
        let (left, right) = body.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let n = s.bars.len().max(1);
        // The band below 0 holds the category labels and their notes.
        let mut chart = cartesian(&left, None, 16, 40, 0.0..n as f64, -9.0..100.0)?;
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
        let centre =
            |size: u32| TextStyle::from((FONT, size)).pos(Pos::new(HPos::Center, VPos::Center));
        chart
            .draw_series(
                s.bars
                    .iter()
                    .enumerate()
                    .map(|(i, b)| Text::new(b.label.clone(), (i as f64 + 0.5, -2.5), centre(12))),
            )
            .map_err(err)?;
        chart
            .draw_series(s.bars.iter().enumerate().filter_map(|(i, b)| {
                let note = b.note.clone()?;
                Some(Text::new(note, (i as f64 + 0.5, -6.5), centre(11)))
            }))
            .map_err(err)?;
        let ebar = ShapeStyle::from(&BLACK).stroke_width(2);
        for (i, bar) in s.bars.iter().enumerate() {
            let (x0, x1) = (i as f64 + 0.12, i as f64 + 0.88);
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
                if share >= 0.05 {
                    chart
                        .draw_series([Text::new(
                            format!("{:.0}%", 100.0 * share),
                            (i as f64 + 0.5, (base + top) / 2.0),
                            centre(11),
                        )])
                        .map_err(err)?;
                }
                base = top;
            }
            // The bottom segment's interval, at its top edge (left side).
            if let Some(&(p, lo, hi)) = bar.parts.first() {
                let (m, l, h) = (100.0 * p, 100.0 * lo, 100.0 * hi);
                chart
                    .draw_series([ErrorBar::new_vertical(x0 + 0.1, l, m, h, ebar, 8)])
                    .map_err(err)?;
            }
            // The top segment's interval, where it meets the rest (right side).
            if let (true, Some(&(p, lo, hi))) = (bar.parts.len() > 1, bar.parts.last()) {
                let (m, l, h) = (100.0 * (1.0 - p), 100.0 * (1.0 - hi), 100.0 * (1.0 - lo));
                chart
                    .draw_series([ErrorBar::new_vertical(x1 - 0.1, l, m, h, ebar, 8)])
                    .map_err(err)?;
            }
        }
        legend(&right, s)
    })
}

/// The legend panel: a swatch per segment, the interval mark, and the
/// style of reference bars.
fn legend(area: &Area<'_>, s: &StackedBars) -> Result<(), PlotError> {
    let text = TextStyle::from((FONT, 14)).pos(Pos::new(HPos::Left, VPos::Center));
    let mut y = 80;
    let row = |y: i32, label: &str| Text::new(label.to_string(), (40, y), text.clone());
    for (k, name) in s.segments.iter().enumerate() {
        let c = PALETTE[k % PALETTE.len()];
        area.draw(&Rectangle::new([(10, y - 8), (28, y + 8)], c.filled()))
            .map_err(err)?;
        area.draw(&row(y, name)).map_err(err)?;
        y += 28;
    }
    area.draw(&PathElement::new(
        vec![(19, y - 9), (19, y + 9)],
        BLACK.stroke_width(2),
    ))
    .map_err(err)?;
    area.draw(&row(y - 7, "95 % interval (Wilson)"))
        .map_err(err)?;
    area.draw(&row(y + 9, "of the bottom / top share"))
        .map_err(err)?;
    y += 36;
    if s.bars.iter().any(|b| b.reference) {
        area.draw(&Rectangle::new(
            [(10, y - 8), (28, y + 8)],
            PALETTE[6].mix(0.35).filled(),
        ))
        .map_err(err)?;
        area.draw(&row(y - 7, "pale: published reference,"))
            .map_err(err)?;
        area.draw(&row(y + 9, "not measured here")).map_err(err)?;
    }
    Ok(())
}
