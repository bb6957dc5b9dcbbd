//! `train.svg`, the run's chart.

use super::{ANCHORS, GenRow};
use crate::plot::{Estimate, LinePlot, Series, line_plot};

/// Most points a series draws. A longer run is drawn as the means of
/// runs of consecutive generations: every point carries a marker (and the
/// Elo points an interval), and a chart of hundreds of generations drawn
/// point by point is megabytes of SVG that show no more than this.
const MAX_POINTS: usize = 200;

/// `train.svg`: the losses by generation and, when the run plays anchor
/// games, the Elo against the anchors below them. A run of more than
/// [`MAX_POINTS`] generations is drawn in means of consecutive ones.
pub fn plot(rows: &[GenRow], anchor_games: u32) -> String {
    let per = rows.len().div_ceil(MAX_POINTS).max(1);
    let groups: Vec<&[GenRow]> = rows.chunks(per).collect();
    let mean =
        |g: &[GenRow], f: &dyn Fn(&GenRow) -> f64| g.iter().map(f).sum::<f64>() / g.len() as f64;
    let x = |g: &[GenRow]| mean(g, &|r| f64::from(r.generation));
    let pt = |g: &[GenRow], f: &dyn Fn(&GenRow) -> f64| {
        let y = mean(g, f);
        Estimate {
            x: x(g),
            y,
            lo: y,
            hi: y,
        }
    };
    let means = if per > 1 {
        format!(", means of {per} generations")
    } else {
        String::new()
    };
    let losses = LinePlot {
        title: format!("Training loss by generation{means}"),
        x_label: "generation".into(),
        y_label: "mean loss over the generation's steps".into(),
        series: vec![
            Series {
                label: "policy (cross-entropy, nats)".into(),
                points: groups.iter().map(|g| pt(g, &|r| r.policy_loss)).collect(),
            },
            Series {
                label: "value (squared error)".into(),
                points: groups.iter().map(|g| pt(g, &|r| r.value_loss)).collect(),
            },
        ],
        connect: true,
        ..Default::default()
    };
    let strip = |s: &str| -> String {
        // Drop the XML declaration so that the two plots nest.
        s.trim_start_matches(|c| c != '<')
            .split_once("?>")
            .map_or(s.to_string(), |(_, rest)| rest.to_string())
    };
    let (w, h) = crate::plot::SIZE;
    let a = strip(&line_plot(&losses).unwrap_or_default());
    if anchor_games == 0 {
        // No anchor games: an Elo panel would be a flat line of nothing.
        return format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\">\n<g>{a}</g>\n</svg>\n"
        );
    }
    let elo = LinePlot {
        title: format!("Elo of the best network against fixed anchors{means}"),
        x_label: "generation".into(),
        y_label: "Elo difference (95% interval of the score)".into(),
        series: ANCHORS
            .iter()
            .enumerate()
            .map(|(k, a)| Series {
                // The spec up to its first key: the keys that pin the
                // anchor would crowd the legend.
                label: format!("against {}", a.split(',').next().unwrap_or(a)),
                points: groups
                    .iter()
                    .map(|g| {
                        // A group's games pooled: its mean score over
                        // all of them.
                        let s = mean(g, &|r| r.anchor_scores.get(k).copied().unwrap_or(0.5));
                        let n = f64::from(anchor_games) * g.len() as f64;
                        let e = crate::stats::rating::elo_interval(s.clamp(0.0, 1.0) * n, n);
                        Estimate {
                            x: x(g),
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
    let b = strip(&line_plot(&elo).unwrap_or_default());
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\">\n<g>{a}</g>\n<g transform=\"translate(0,{h})\">{b}</g>\n</svg>\n",
        2 * h
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(n: u32) -> Vec<GenRow> {
        (1..=n)
            .map(|g| GenRow {
                generation: g,
                policy_loss: 2.0 + f64::from(g % 7),
                value_loss: 0.5,
                anchor_scores: vec![0.25, 0.75],
                ..GenRow::default()
            })
            .collect()
    }

    /// A short run is drawn point by point with its Elo panel; without
    /// anchor games there is no Elo panel; a long run is drawn in means,
    /// at about the size of a run of `MAX_POINTS` generations.
    #[test]
    fn the_chart_has_an_elo_panel_only_with_anchors_and_stays_small() {
        let short = plot(&rows(3), 2);
        assert!(short.contains("Elo of the best network"), "{short}");
        assert!(!short.contains("means of"));
        let bare = plot(&rows(3), 0);
        assert!(!bare.contains("Elo of the best network"));
        assert!(bare.contains("Training loss by generation"));
        let long = plot(&rows(875), 2);
        assert!(long.contains("means of 5 generations"));
        let at_most = plot(&rows(MAX_POINTS as u32), 2);
        assert!(
            long.len() < at_most.len() * 11 / 10,
            "{} {}",
            long.len(),
            at_most.len()
        );
    }
}
