//! SVG plots of study results (plotters), each readable without its CSV:
//! a title, axis labels with units, a legend, and every estimate drawn
//! with its interval.
//!
//! Each function renders to a `String`, which callers write through
//! `arena::runinfo::write_atomic`, so a plot is either complete or absent.

use plotters::coord::Shift;
use plotters::prelude::*;

mod bars;
mod heat;
mod tune;

pub use bars::stacked_bars;
pub use heat::heat_map;
pub use tune::{TunePlot, tune_plot};

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("plot: {0}")]
pub struct PlotError(pub String);

pub(crate) fn err<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError(format!("{e:?}"))
}

pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

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

pub(crate) const SIZE: (u32, u32) = (900, 560);
pub(crate) const FONT: &str = "sans-serif";

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
    /// Join each series' points with a line (off for unordered categories).
    pub connect: bool,
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
    /// A second line under the label (e.g. the fair komi), if any.
    pub note: Option<String>,
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
    /// One more legend line: the hypotheses and error rates.
    pub note: String,
}

/// `(lo, hi)` of `values` widened by 8 %, never empty.
pub(crate) fn padded(values: impl Iterator<Item = f64>) -> (f64, f64) {
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

pub(crate) fn render(
    draw: impl FnOnce(&Area<'_>) -> Result<(), PlotError>,
) -> Result<String, PlotError> {
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
        let mut chart = ChartBuilder::on(root)
            .caption(&p.title, (FONT, 19))
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
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], line));
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

type LineChart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Draws an estimate whose interval (or the estimate itself) is infinite,
/// as from a combination that won or lost every game: the bar runs to the
/// plot's edge and ends there in an arrowhead instead of a cap, so that it
/// does not read as a finite bound; an infinite estimate is the arrowhead.
fn open_ended(
    chart: &mut LineChart<'_, '_>,
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
        let mut chart = ChartBuilder::on(root)
            .caption(&p.title, (FONT, 19))
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
    fn infinite_bounds_are_open_ended() {
        let plot = |hi: f64| {
            line_plot(&LinePlot {
                title: "t".into(),
                series: vec![Series {
                    label: "s".into(),
                    points: vec![
                        est(0.0, 10.0),
                        Estimate {
                            x: 1.0,
                            y: hi,
                            lo: 300.0,
                            hi,
                        },
                    ],
                }],
                ..LinePlot::default()
            })
            .expect("line")
        };
        // An infinite bound is an arrowhead at the edge, not a capped bar
        // at some finite value; a finite one draws none.
        assert!(plot(f64::INFINITY).contains("<polygon"));
        assert!(!plot(400.0).contains("<polygon"));
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
            connect: true,
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
                note: Some("komi 3".into()),
            }],
        })
        .expect("bars");
        assert!(s.contains("55%") && s.contains("White wins") && s.contains("BrainKing"));
        assert!(s.contains("komi 3"));
        let p = llr_plot(&LlrPlot {
            title: "SPRT".into(),
            points: vec![(2.0, 0.1), (4.0, 0.5)],
            lower: -2.94,
            upper: 2.94,
            note: String::new(),
        })
        .expect("llr");
        assert!(p.contains("H1 accepted"));
    }
}
