//! SVG plots of study results (plotters), each readable without its CSV:
//! a title, axis labels with units, a legend, and every estimate drawn
//! with its interval.
//!
//! Each function renders to a `String`; [`write_svg`] puts it on disk
//! through a temporary file and a rename, so a plot is either complete or
//! absent.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("plot: {0}")]
pub struct PlotError(pub String);

fn err<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Okabe–Ito colours: distinguishable with every common colour-vision
/// deficiency.
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
];

const SIZE: (u32, u32) = (900, 560);
const FONT: &str = "sans-serif";

/// An estimate with its interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Position on the x axis.
    pub x: f64,
    /// The estimate.
    pub y: f64,
    /// Lower end of its interval.
    pub lo: f64,
    /// Upper end of its interval.
    pub hi: f64,
}

/// One line of a [`LinePlot`].
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend entry.
    pub label: String,
    /// Points in x order.
    pub points: Vec<Estimate>,
}

/// Estimates against one parameter, one line per series, with interval bars.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinePlot {
    /// Title above the plot.
    pub title: String,
    /// X axis label, with its unit.
    pub x_label: String,
    /// Y axis label, with its unit.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// Tick labels for x = 0, 1, 2... when the parameter is categorical.
    pub x_ticks: Option<Vec<String>>,
    /// A dashed horizontal reference line and its legend entry.
    pub reference: Option<(f64, String)>,
}

/// Values over a grid of two parameters, a cell per combination.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeatMap {
    /// Title above the plot.
    pub title: String,
    /// X axis label (first parameter).
    pub x_label: String,
    /// Y axis label (second parameter).
    pub y_label: String,
    /// What the colour means, with its unit (the colour bar's label).
    pub value_label: String,
    /// Column labels.
    pub x_ticks: Vec<String>,
    /// Row labels, bottom row first.
    pub y_ticks: Vec<String>,
    /// `cells[row][col]`: the value and its interval, or nothing.
    pub cells: Vec<Vec<Option<(f64, f64, f64)>>>,
    /// The value drawn white (e.g. 0 Elo: equal to the reference); the
    /// scale is symmetric around it. `None`: the middle of the range.
    pub center: Option<f64>,
}

/// One stacked bar: shares (summing to 1) with their intervals.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Category label under the bar.
    pub label: String,
    /// `(share, lo, hi)` per segment, bottom first.
    pub parts: Vec<(f64, f64, f64)>,
    /// Drawn hatched-light: a published reference, not a measurement.
    pub reference: bool,
}

/// Stacked bars per category with intervals on the outer segments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StackedBars {
    /// Title above the plot.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label, with its unit.
    pub y_label: String,
    /// Segment names, bottom first (the legend).
    pub segments: Vec<String>,
    /// The bars, left to right.
    pub bars: Vec<Bar>,
}

/// An SPRT's LLR after each pair against its two stopping bounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LlrPlot {
    /// Title above the plot.
    pub title: String,
    /// `(games, llr)` after each pair.
    pub points: Vec<(f64, f64)>,
    /// Lower bound (H0 accepted at or below).
    pub lower: f64,
    /// Upper bound (H1 accepted at or above).
    pub upper: f64,
}

/// Writes `svg` to `path` via a temporary file and a rename.
///
/// # Errors
/// I/O failures.
pub fn write_svg(path: &Path, svg: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("svg.tmp");
    std::fs::write(&tmp, svg)?;
    std::fs::rename(&tmp, path)
}

/// `(lo, hi)` of `values` widened by 8 %, never empty.
fn padded(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        return (lo - 1.0, hi + 1.0);
    }
    let pad = 0.08 * (hi - lo);
    (lo - pad, hi + pad)
}

fn render(draw: impl FnOnce(&Area<'_>) -> Result<(), PlotError>) -> Result<String, PlotError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// Draws a [`LinePlot`].
///
/// # Errors
/// A drawing failure.
pub fn line_plot(p: &LinePlot) -> Result<String, PlotError> {
    render(|root| {
        let pts = p.series.iter().flat_map(|s| s.points.iter());
        let (x0, x1) = padded(pts.clone().map(|e| e.x));
        let ys = pts
            .flat_map(|e| [e.lo, e.hi, e.y])
            .chain(p.reference.iter().map(|r| r.0));
        let (y0, y1) = padded(ys);
        let mut chart = ChartBuilder::on(root)
            .caption(&p.title, (FONT, 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
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
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
        for (i, s) in p.series.iter().enumerate() {
            let c = PALETTE[i % PALETTE.len()];
            let line = ShapeStyle::from(&c).stroke_width(2);
            chart
                .draw_series(LineSeries::new(s.points.iter().map(|e| (e.x, e.y)), line))
                .map_err(err)?
                .label(format!("{} (bars: 95 % interval)", s.label))
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], line));
            chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|e| ErrorBar::new_vertical(e.x, e.lo, e.y, e.hi, line, 10)),
                )
                .map_err(err)?;
            chart
                .draw_series(
                    s.points
                        .iter()
                        .map(|e| Circle::new((e.x, e.y), 4, c.filled())),
                )
                .map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 14))
            .draw()
            .map_err(err)
    })
}

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
        let mut chart = ChartBuilder::on(&main)
            .caption(&h.title, (FONT, 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)
            .map_err(err)?;
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

/// Draws [`StackedBars`]: segments labelled with their percentages,
/// interval bars on the first segment's top and the last segment's bottom.
///
/// # Errors
/// A drawing failure.
pub fn stacked_bars(s: &StackedBars) -> Result<String, PlotError> {
    render(|root| {
        let n = s.bars.len().max(1);
        let mut chart = ChartBuilder::on(root)
            .caption(&s.title, (FONT, 22))
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
        let mut chart = ChartBuilder::on(root)
            .caption(&p.title, (FONT, 22))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(70)
            .build_cartesian_2d(x0.max(0.0)..x1, y0..y1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("games played")
            .y_desc("log-likelihood ratio (LLR)")
            .axis_desc_style((FONT, 16))
            .draw()
            .map_err(err)?;
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
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
        }
        let line = ShapeStyle::from(&PALETTE[0]).stroke_width(2);
        chart
            .draw_series(LineSeries::new(p.points.iter().copied(), line))
            .map_err(err)?
            .label("LLR after each colour-swapped pair")
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], line));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 14))
            .draw()
            .map_err(err)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(x: f64, y: f64) -> Estimate {
        Estimate {
            x,
            y,
            lo: y - 5.0,
            hi: y + 5.0,
        }
    }

    #[test]
    fn every_plot_renders_with_its_texts() {
        let l = line_plot(&LinePlot {
            title: "Elo against c".into(),
            x_label: "c (exploration constant)".into(),
            y_label: "Elo vs reference".into(),
            series: vec![Series {
                label: "mcts".into(),
                points: vec![est(0.5, 10.0), est(1.0, 30.0)],
            }],
            x_ticks: None,
            reference: Some((0.0, "equal strength".into())),
        })
        .expect("line");
        for t in [
            "Elo against c",
            "c (exploration constant)",
            "equal strength",
            "<svg",
        ] {
            assert!(l.contains(t), "{t}");
        }
        let h = heat_map(&HeatMap {
            title: "grid".into(),
            x_label: "c".into(),
            y_label: "iters".into(),
            value_label: "Elo".into(),
            x_ticks: vec!["0.5".into(), "1".into()],
            y_ticks: vec!["100".into()],
            cells: vec![vec![Some((10.0, 0.0, 20.0)), None]],
            center: Some(0.0),
        })
        .expect("heat");
        assert!(h.contains("[0, 20]"));
        let s = stacked_bars(&StackedBars {
            title: "fpa".into(),
            x_label: "holes".into(),
            y_label: "games (%)".into(),
            segments: vec!["White wins".into(), "draws".into(), "Black wins".into()],
            bars: vec![Bar {
                label: "BrainKing".into(),
                parts: vec![
                    (0.5521, 0.548, 0.556),
                    (0.1531, 0.15, 0.156),
                    (0.2946, 0.29, 0.3),
                ],
                reference: true,
            }],
        })
        .expect("bars");
        assert!(s.contains("55.2%") && s.contains("White wins"));
        let p = llr_plot(&LlrPlot {
            title: "SPRT".into(),
            points: vec![(2.0, 0.1), (4.0, 0.5)],
            lower: -2.94,
            upper: 2.94,
        })
        .expect("llr");
        assert!(p.contains("H1 accepted"));
    }
}
#[cfg(test)]
mod dump {
    #[test]
    #[ignore]
    fn dump() {
        use super::*;
        let e = |x: f64, y: f64| Estimate {
            x,
            y,
            lo: y - 15.0,
            hi: y + 12.0,
        };
        let l = line_plot(&LinePlot {
            title: "mcts strength against c (200 games per point)".into(),
            x_label: "c (UCT exploration constant)".into(),
            y_label: "Elo vs greedy (logistic)".into(),
            series: vec![
                Series {
                    label: "iters=1000".into(),
                    points: vec![e(0.2, 10.0), e(0.6, 40.0), e(1.0, 30.0)],
                },
                Series {
                    label: "iters=4000".into(),
                    points: vec![e(0.2, 50.0), e(0.6, 80.0), e(1.0, 70.0)],
                },
            ],
            x_ticks: None,
            reference: Some((0.0, "equal to the reference".into())),
        })
        .unwrap();
        write_svg(Path::new("/tmp/l.svg"), &l).unwrap();
        let h = heat_map(&HeatMap {
            title: "grid".into(),
            x_label: "c".into(),
            y_label: "iters".into(),
            value_label: "Elo vs greedy".into(),
            x_ticks: vec!["0.5".into(), "1".into(), "2".into()],
            y_ticks: vec!["100".into(), "1000".into()],
            cells: vec![
                vec![Some((10.0, 0.0, 20.0)), None, Some((-40.0, -60.0, -20.0))],
                vec![
                    Some((100.0, 80.0, 120.0)),
                    Some((60.0, 40.0, 80.0)),
                    Some((0.0, -20.0, 20.0)),
                ],
            ],
            center: Some(0.0),
        })
        .unwrap();
        write_svg(Path::new("/tmp/h.svg"), &h).unwrap();
        let s = stacked_bars(&StackedBars {
            title: "first-player advantage".into(),
            x_label: "holes".into(),
            y_label: "share of games (%)".into(),
            segments: vec!["White wins".into(), "draws".into(), "Black wins".into()],
            bars: vec![
                Bar {
                    label: "3".into(),
                    parts: vec![(0.6, 0.55, 0.65), (0.1, 0.08, 0.12), (0.3, 0.25, 0.35)],
                    reference: false,
                },
                Bar {
                    label: "BrainKing humans".into(),
                    parts: vec![
                        (0.5521, 0.548, 0.556),
                        (0.1531, 0.15, 0.156),
                        (0.2946, 0.29, 0.3),
                    ],
                    reference: true,
                },
            ],
        })
        .unwrap();
        write_svg(Path::new("/tmp/s.svg"), &s).unwrap();
        let p = llr_plot(&LlrPlot {
            title: "SPRT".into(),
            points: (1..40).map(|i| (2.0 * i as f64, 0.08 * i as f64)).collect(),
            lower: -2.94,
            upper: 2.94,
        })
        .unwrap();
        write_svg(Path::new("/tmp/p.svg"), &p).unwrap();
    }
}
