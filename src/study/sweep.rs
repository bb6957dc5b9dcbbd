//! Parameter sweeps: every combination of a grid plays a colour-paired
//! match against one reference bot.
//!
//! A sweep *is* a gauntlet tournament: bot 0 is the reference and each
//! combination is one more bot, so the arena's schedule, parallel play,
//! `games.csv`, resume and summary files all apply unchanged (and `run.json`
//! records the equivalent `pahtum tournament` command). This module builds
//! that tournament and turns its report into `sweep.csv` and `sweep.svg`.

use super::grid::{Axis, Combo, GridError, expand};
use crate::plot::{Estimate, HeatMap, LinePlot, PlotError, Series, heat_map, line_plot};
use serde::{Deserialize, Serialize};

use crate::arena::games_csv::GameRecord;
use crate::arena::report::Report;
use crate::arena::schedule::{Format, Shard};
use crate::arena::tournament::TournamentConfig;
use crate::bot::{BotSpec, Catalog};
use crate::csv_rows::{self, fixed};
use crate::game::rules::Rules;
use crate::stats::gsprt::{Pentanomial, pentanomial_elo_interval};
use crate::stats::rating::{Z95, wilson};

/// A sweep: the grid, its combinations and the reference.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The bot whose keys are swept, as given.
    pub base: BotSpec,
    /// The swept keys and their values.
    pub axes: Vec<Axis>,
    /// Every combination, first axis varying slowest.
    pub combos: Vec<Combo>,
    /// The bot every combination plays.
    pub reference: BotSpec,
}

impl Sweep {
    /// The sweep of `base` over `axes` against `reference`.
    ///
    /// # Errors
    /// As [`expand`].
    pub fn new(
        base: &BotSpec,
        axes: Vec<Axis>,
        reference: BotSpec,
        catalog: &Catalog,
    ) -> Result<Sweep, GridError> {
        let combos = expand(base, &axes, catalog)?;
        Ok(Sweep {
            base: base.clone(),
            axes,
            combos,
            reference,
        })
    }

    /// The gauntlet tournament that plays the sweep: the reference first,
    /// then the combinations; `games` per combination.
    pub fn tournament(
        &self,
        games: u64,
        rules: Vec<Rules>,
        seed: u64,
        threads: usize,
    ) -> TournamentConfig {
        let mut bots = vec![self.reference.clone()];
        bots.extend(self.combos.iter().map(|c| c.spec.clone()));
        TournamentConfig {
            bots,
            games_per_pairing: games,
            rules,
            format: Format::Gauntlet,
            seed,
            threads,
            shard: Shard::ALL,
            openings: None,
        }
    }

    /// One row per combination from the tournament's report and its
    /// records (for the timing column).
    pub fn rows(&self, report: &Report, records: &[GameRecord]) -> Vec<SweepRow> {
        self.combos
            .iter()
            .enumerate()
            .map(|(i, combo)| {
                let bot = i + 1;
                let t = report.tally[bot][0];
                let mut pent = Pentanomial::default();
                for p in report.pairs.iter().filter(|p| p.opponent == bot) {
                    // Pairs are listed for the reference (bot 0); mirror.
                    pent.add((4 - p.pentanomial().min(4)) as u8);
                }
                let n = t.games as f64;
                let (wlo, whi) = wilson(t.wins as f64, n, Z95);
                let elo = pentanomial_elo_interval(&pent, t.points(), n);
                SweepRow {
                    values: combo.values.clone(),
                    games: t.games,
                    wins: t.wins,
                    draws: t.draws,
                    losses: t.losses,
                    win_rate: if n > 0.0 { t.wins as f64 / n } else { 0.0 },
                    win_rate_lo: wlo,
                    win_rate_hi: whi,
                    score_rate: t.score_rate(),
                    elo: elo.elo,
                    elo_lo: elo.lo,
                    elo_hi: elo.hi,
                    mean_margin: if n > 0.0 {
                        (t.score - t.opp_score) / n
                    } else {
                        0.0
                    },
                    pentanomial: pent,
                    move_ms: mean_move_ms(records, bot),
                }
            })
            .collect()
    }
}

/// The result of one combination against the reference.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// The value of each axis.
    pub values: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Wins of the combination.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// `wins / games`.
    pub win_rate: f64,
    /// Wilson 95 % lower end of the win rate.
    pub win_rate_lo: f64,
    /// Wilson 95 % upper end of the win rate.
    pub win_rate_hi: f64,
    /// `(wins + draws/2) / games`.
    pub score_rate: f64,
    /// Elo against the reference, from the score rate (a clean sweep
    /// counted with one virtual draw, see [`pentanomial_elo_interval`]).
    pub elo: f64,
    /// 95 % lower end, by [`pentanomial_elo_interval`].
    pub elo_lo: f64,
    /// 95 % upper end.
    pub elo_hi: f64,
    /// Mean of (own line score − reference's line score) per game.
    pub mean_margin: f64,
    /// Pair results, seen from the combination.
    pub pentanomial: Pentanomial,
    /// Mean milliseconds per move of the combination (a timing column:
    /// it varies from run to run and with the machine's load).
    pub move_ms: f64,
}

/// Mean thinking time per move of `bot` over `records` (each side makes
/// half the plies of a game).
pub fn mean_move_ms(records: &[GameRecord], bot: usize) -> f64 {
    let (mut ms, mut moves) = (0u64, 0u64);
    for r in records {
        if let Some(c) = r.colour_of(bot) {
            ms += r.ms[c];
            moves += u64::from(r.plies) / 2;
        }
    }
    if moves == 0 {
        0.0
    } else {
        ms as f64 / moves as f64
    }
}

/// Formats an Elo value; `inf`/`-inf` for the open ends of a combination
/// with no games (with a game played, every end is finite).
fn elo_text(e: f64) -> String {
    // -0.0 (a score of exactly ½) prints as 0.0.
    let e = if e == 0.0 { 0.0 } else { e };
    if e.is_infinite() {
        if e > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        format!("{e:.1}")
    }
}

/// An Elo value in `sweep.csv`, as [`elo_text`] writes it.
fn elo<S: serde::Serializer>(e: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&elo_text(*e))
}

/// One line of `sweep.csv` after its parameter columns (one per axis key,
/// so not part of the struct): the combination's results.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct SweepCsvRow {
    /// Games played.
    pub games: u64,
    /// The bot's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The bot's losses.
    pub losses: u64,
    /// Wins per game.
    #[serde(serialize_with = "fixed::d4")]
    pub win_rate: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "fixed::d4")]
    pub win_rate_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "fixed::d4")]
    pub win_rate_hi: f64,
    /// Points per game.
    #[serde(serialize_with = "fixed::d4")]
    pub score_rate: f64,
    /// Elo against the reference.
    #[serde(serialize_with = "elo")]
    pub elo: f64,
    /// Lower end of its 95% interval.
    #[serde(serialize_with = "elo")]
    pub elo_lo: f64,
    /// Upper end.
    #[serde(serialize_with = "elo")]
    pub elo_hi: f64,
    /// Mean of the bot's minus the reference's score.
    #[serde(serialize_with = "fixed::d2")]
    pub mean_margin: f64,
    /// The bot's mean thinking time per move.
    #[serde(serialize_with = "fixed::d3")]
    pub move_ms: f64,
}

/// `sweep.csv`: a header of the axis keys and the statistics, one row per
/// combination.
pub fn sweep_csv(axes: &[Axis], rows: &[SweepRow]) -> String {
    let mut s = String::new();
    let columns = csv_rows::columns::<SweepCsvRow>();
    csv_rows::push_fields(
        &mut s,
        axes.iter()
            .map(|a| a.key.as_str())
            .chain(columns.iter().map(String::as_str)),
    );
    for r in rows {
        let row = SweepCsvRow {
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            win_rate: r.win_rate,
            win_rate_lo: r.win_rate_lo,
            win_rate_hi: r.win_rate_hi,
            score_rate: r.score_rate,
            elo: r.elo,
            elo_lo: r.elo_lo,
            elo_hi: r.elo_hi,
            mean_margin: r.mean_margin,
            move_ms: r.move_ms,
        };
        csv_rows::push_after(&mut s, &r.values, &row);
    }
    s
}

/// `sweep.svg`: Elo against the reference with 95 % interval bars, against
/// the first parameter (one line per combination of the others), or a heat
/// map for exactly two parameters.
///
/// # Errors
/// A drawing failure.
pub fn sweep_plot(sweep: &Sweep, rows: &[SweepRow]) -> Result<String, PlotError> {
    let games = rows.first().map_or(0, |r| r.games);
    let reference = sweep.reference.label();
    let open = rows
        .iter()
        .any(|r| [r.elo, r.elo_lo, r.elo_hi].iter().any(|e| e.is_infinite()));
    let y_label = format!(
        "Elo vs {reference} (logistic){}",
        if open {
            ", arrow: no bound (no games played)"
        } else {
            ""
        }
    );
    let bot = sweep.base.label();
    if sweep.axes.len() == 2 {
        let (ax, ay) = (&sweep.axes[0], &sweep.axes[1]);
        let mut cells = vec![vec![None; ax.values.len()]; ay.values.len()];
        for (i, r) in rows.iter().enumerate() {
            let (cx, cy) = (i / ay.values.len(), i % ay.values.len());
            cells[cy][cx] = Some((r.elo, r.elo_lo, r.elo_hi));
        }
        return heat_map(&HeatMap {
            title: format!(
                "{bot}: Elo vs {reference} over {} and {} ({games} games per cell)",
                ax.key, ay.key
            ),
            x_label: ax.key.clone(),
            y_label: ay.key.clone(),
            value_label: y_label,
            x_ticks: ax.values.clone(),
            y_ticks: ay.values.clone(),
            cells,
            center: Some(0.0),
        });
    }
    let first = &sweep.axes[0];
    let numeric = first.is_numeric();
    let per_line: usize = sweep.axes[1..].iter().map(|a| a.values.len()).product();
    let mut series: Vec<Series> = (0..per_line)
        .map(|j| Series {
            label: if sweep.axes.len() == 1 {
                bot.clone()
            } else {
                let r = &rows[j];
                sweep.axes[1..]
                    .iter()
                    .zip(&r.values[1..])
                    .map(|(a, v)| format!("{}={v}", a.key))
                    .collect::<Vec<_>>()
                    .join(" ")
            },
            points: Vec::new(),
        })
        .collect();
    for (i, r) in rows.iter().enumerate() {
        let xi = i / per_line;
        let x = if numeric {
            r.values[0].parse::<f64>().unwrap_or(xi as f64)
        } else {
            xi as f64
        };
        series[i % per_line].points.push(Estimate {
            x,
            y: r.elo,
            lo: r.elo_lo,
            hi: r.elo_hi,
        });
    }
    line_plot(&LinePlot {
        title: format!(
            "{bot}: Elo vs {reference} against {} ({games} games per point)",
            first.key
        ),
        x_label: format!("{} (bot key)", first.key),
        y_label,
        series,
        x_ticks: (!numeric).then(|| first.values.clone()),
        reference: Some((0.0, format!("as strong as {reference}"))),
        connect: numeric,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::arena::parallel::run_tournament;
    use crate::arena::tournament::Collect;
    use crate::bot::builtin_catalog;
    use crate::study::grid::parse_axis;

    #[test]
    fn small_sweep_end_to_end() {
        let catalog = builtin_catalog();
        let base = catalog.parse("greedy").expect("spec");
        let reference = catalog.parse("random").expect("spec");
        let axes = vec![parse_axis("block=0.0,1.0").expect("axis")];
        let sweep = Sweep::new(&base, axes, reference, &catalog).expect("sweep");
        let config = sweep.tournament(6, vec![Rules::default()], 3, 2);
        let records = run_tournament(
            &config,
            &catalog,
            &AtomicBool::new(false),
            &mut Collect::default(),
        )
        .expect("run");
        let report = Report::new(&config.labels(), &config.schedule(), &records);
        let rows = sweep.rows(&report, &records);
        assert_eq!(rows.len(), 2);
        for r in &rows {
            assert_eq!(r.games, 6);
            assert_eq!(r.wins + r.draws + r.losses, 6);
            assert_eq!(r.pentanomial.pairs(), 3);
            assert!((r.pentanomial.score_rate() - r.score_rate).abs() < 1e-12);
            assert!(r.win_rate_lo <= r.win_rate && r.win_rate <= r.win_rate_hi);
        }
        let csv = sweep_csv(&sweep.axes, &rows);
        assert!(csv.starts_with("block,games,wins,draws,losses,win_rate,"));
        assert_eq!(csv.lines().count(), 3);
        let svg = sweep_plot(&sweep, &rows).expect("plot");
        assert!(svg.contains("Elo vs random"));
    }
}
