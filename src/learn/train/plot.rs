//! `train.svg`, the run's chart.

use super::{ANCHORS, GenRow};

/// `train.svg`: the losses and the Elo against the anchors by generation,
/// one above the other.
pub fn plot(rows: &[GenRow], anchor_games: u32) -> String {
    use crate::plot::{Estimate, LinePlot, Series, line_plot};
    let pt = |x: u32, y: f64| Estimate {
        x: f64::from(x),
        y,
        lo: y,
        hi: y,
    };
    let losses = LinePlot {
        title: "Training loss by generation".into(),
        x_label: "generation".into(),
        y_label: "mean loss over the generation's steps".into(),
        series: vec![
            Series {
                label: "policy (cross-entropy, nats)".into(),
                points: rows
                    .iter()
                    .map(|r| pt(r.generation, r.policy_loss))
                    .collect(),
            },
            Series {
                label: "value (squared error)".into(),
                points: rows
                    .iter()
                    .map(|r| pt(r.generation, r.value_loss))
                    .collect(),
            },
        ],
        connect: true,
        ..Default::default()
    };
    let g = f64::from(anchor_games.max(1));
    let elo = LinePlot {
        title: "Elo of the best network against fixed anchors".into(),
        x_label: "generation".into(),
        y_label: "Elo difference (95% interval of the score)".into(),
        series: ANCHORS
            .iter()
            .enumerate()
            .map(|(k, a)| Series {
                // The spec up to its first key: the keys that pin the
                // anchor would crowd the legend.
                label: format!("against {}", a.split(',').next().unwrap_or(a)),
                points: rows
                    .iter()
                    .map(|r| {
                        let s = r.anchor_scores.get(k).copied().unwrap_or(0.5);
                        let e = crate::stats::rating::elo_interval(s.clamp(0.0, 1.0) * g, g);
                        Estimate {
                            x: f64::from(r.generation),
                            y: e.elo,
                            lo: e.lo,
                            hi: e.hi,
                        }
                    })
                    .collect(),
            })
            .collect(),
        reference: Some((0.0, "equal strength".into())),
        connect: true,
        ..Default::default()
    };
    let a = line_plot(&losses).unwrap_or_default();
    let b = line_plot(&elo).unwrap_or_default();
    let strip = |s: &str| -> String {
        // Drop the XML declaration so that the two plots nest.
        s.trim_start_matches(|c| c != '<')
            .split_once("?>")
            .map_or(s.to_string(), |(_, rest)| rest.to_string())
    };
    let (w, h) = crate::plot::SIZE;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\">\n<g>{}</g>\n<g transform=\"translate(0,{h})\">{}</g>\n</svg>\n",
        2 * h,
        strip(&a),
        strip(&b)
    )
}
