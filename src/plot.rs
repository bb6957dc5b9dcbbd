//! SVG plots of results (plotters), each readable without its CSV: a
//! title, axis labels with units, a legend, and every estimate drawn with
//! its interval. The studies, the tournament and the trainer draw here.
//!
//! Each function renders to a `String`, which callers write through
//! `arena::runinfo::write_atomic`, so a plot is either complete or absent.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

mod bars;
mod heat;
mod line;
mod llr;
mod ratings;
mod tune;

pub use bars::stacked_bars;
pub use heat::heat_map;
pub use line::line_plot;
pub use llr::llr_plot;
pub use ratings::{RatedBot, elo_plot, ratings_plot};
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

/// A chart with two `f64` axes, as every plot here draws.
pub(crate) type Chart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The chart of `area` over `x` and `y`: `caption` above it (if any),
/// `margin` pixels around it, `x_label_area` pixels under it for the x
/// axis's labels and 70 beside it for the y axis's.
pub(crate) fn cartesian<'a, 'b>(
    area: &'a Area<'b>,
    caption: Option<&str>,
    margin: u32,
    x_label_area: u32,
    x: Range<f64>,
    y: Range<f64>,
) -> Result<Chart<'a, 'b>, PlotError> {
    let mut builder = ChartBuilder::on(area);
    if let Some(c) = caption {
        builder.caption(c, (FONT, 19));
    }
    builder
        .margin(margin)
        .x_label_area_size(x_label_area)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y)
        .map_err(err)
}

/// Draws `chart`'s axes and grid with the two axis descriptions in
/// `font_size` points.
pub(crate) fn axes(
    chart: &mut Chart<'_, '_>,
    x_desc: &str,
    y_desc: &str,
    font_size: u32,
) -> Result<(), PlotError> {
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style((FONT, font_size))
        .draw()
        .map_err(err)
}

/// The legend entry of a line series: a short stroke in its style.
pub(crate) fn line_key(style: ShapeStyle) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style)
}

/// Draws `chart`'s legend at `at`, on a light box, as every plot here
/// shows it.
pub(crate) fn legend<'a, 'b: 'a>(
    chart: &mut Chart<'a, 'b>,
    at: SeriesLabelPosition,
) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font((FONT, 14))
        .draw()
        .map_err(err)
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
