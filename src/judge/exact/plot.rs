//! `exact.svg`: the first-player advantage under perfect play, one stacked
//! bar per hole count, beside BrainKing's human figures.

use crate::plot::{Bar, PlotError, StackedBars, stacked_bars};
use crate::stats::rating::{Z95, wilson};
use crate::study::fpa::BRAINKING;

use crate::judge::exact::ExactSummary;

/// The plot of `summary` (one board size). `sampled`: the layouts were
/// drawn at random (each weight 1), so each share gets its Wilson 95 %
/// interval as an estimate of the share over all layouts; a full
/// enumeration is exact and gets none.
///
/// # Errors
/// A drawing failure.
pub fn summary_plot(summary: &[ExactSummary], sampled: bool) -> Result<String, PlotError> {
    let size = summary.first().map_or(7, |r| r.size);
    let part = |share: f64, n: u64| {
        if sampled {
            let (lo, hi) = wilson((share * n as f64).round(), n as f64, Z95);
            (share, lo, hi)
        } else {
            (share, share, share)
        }
    };
    let mut bars: Vec<Bar> = summary
        .iter()
        .map(|r| Bar {
            label: r.holes.to_string(),
            parts: vec![
                part(r.white, r.layouts),
                part(r.draw, r.layouts),
                part(r.black, r.layouts),
            ],
            reference: false,
            note: Some(match r.pie_fair {
                Some(f) => format!("komi {}, fair {:.0}%", r.fair_komi, 100.0 * f),
                None => format!("komi {}", r.fair_komi),
            }),
        })
        .collect();
    let (w, b, d) = BRAINKING;
    let n = w + b + d;
    let share = |c: u64| {
        let (lo, hi) = wilson(c as f64, n as f64, Z95);
        (c as f64 / n as f64, lo, hi)
    };
    bars.push(Bar {
        label: "BrainKing".into(),
        parts: vec![share(w), share(d), share(b)],
        reference: true,
        note: Some("7x7 humans".into()),
    });
    let how = if sampled {
        "random layouts, 95 % intervals"
    } else {
        "every layout, weighted by symmetry class"
    };
    stacked_bars(&StackedBars {
        title: format!("{size}x{size} under perfect play ({how}) vs BrainKing humans"),
        x_label: "holes; under each bar: fair komi (points to Black) and, with the pie rule, the share with a fair first stone".into(),
        y_label: "share of layouts (%)".into(),
        segments: vec!["White wins".into(), "draws".into(), "Black wins".into()],
        bars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plot_per_hole_count_and_the_reference() {
        let row = ExactSummary {
            size: 4,
            holes: 3,
            layouts: 77,
            weight: 560,
            white: 0.0571,
            draw: 0.9429,
            black: 0.0,
            margin_mean: 0.171,
            margin_quartiles: [0.0; 3],
            fair_komi: 0.0,
            pie_fair: Some(1.0),
        };
        let svg = summary_plot(&[row], false).expect("plot");
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        assert!(svg.contains("BrainKing"));
        assert!(svg.contains("fair 100%"));
    }
}
