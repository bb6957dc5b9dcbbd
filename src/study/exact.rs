//! Small boards solved from the start (`pahtum exact`): every hole layout,
//! one per class of the square's symmetries, or seeded random layouts,
//! each solved exactly from the empty board with and without the pie rule.
//!
//! The answers need no engine to be trusted: the first-player advantage
//! under perfect play, the fair komi, and whether the pie rule leaves the
//! first player a fair first stone.
//!
//! Under the pie rule the second player may swap after the first stone, so
//! it takes whichever side of the board the stone left worse for the first
//! player: the first player's value is `max over s of -|m(s)|`, where
//! `m(s)` is White's exact margin after the first stone `s` (komi goes to
//! whoever holds Black, before and after a swap). So the first player can
//! at best draw, and draws exactly when some first stone leaves margin 0: a
//! *fair* first move. (On a board with one free square the first stone
//! ends the game and nobody can swap.) The solver computes this itself (a
//! swap is one of the second player's moves), and the tests check it
//! against that formula.

mod plot;

use std::fmt::Write as _;

use crate::bot::solver::{SolveError, SolveLimits, Solver, format_halves};
use crate::game::bitboard::Bitboard;
use crate::game::outcome::{Komi, Move, Outcome};
use crate::game::position::Position;
use crate::game::rng::derive_seed;
use crate::game::rules::{HoleSetup, Rules, layout_rng};
use crate::game::square::Square;

pub use self::plot::summary_plot;

/// `--layouts all` enumerates the layouts of a hole count only up to this
/// many (before grouping by symmetry): beyond it, listing them alone takes
/// minutes and solving them all takes years, so random layouts are the
/// answer.
pub const MAX_ENUMERATED: u64 = 20_000_000;

/// One layout to solve and how many layouts of the board it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The hole squares.
    pub holes: Bitboard,
    /// The size of its symmetry class (`--layouts all`), else 1.
    pub weight: u64,
}

/// The number of ways to choose `k` of `n` things, saturating at
/// `u64::MAX`.
pub fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * u128::from(n - i) / u128::from(i + 1);
        if c > u128::from(u64::MAX) {
            return u64::MAX;
        }
    }
    c as u64
}

/// The squares of the board of side `size`, in index order.
fn board_squares(size: u8) -> Vec<Square> {
    Bitboard::full(size).into_iter().collect()
}

/// The smallest image of `holes` under the 8 symmetries (compared as bit
/// sets), and how many distinct images there are.
fn canonical(holes: Bitboard, size: u8) -> (Bitboard, u64) {
    let mut images = [0u64; 8];
    for (sym, img) in images.iter_mut().enumerate() {
        *img = holes.transform(sym as u8, size).0;
    }
    let min = images.iter().copied().min().unwrap_or(holes.0);
    images.sort_unstable();
    let mut distinct = 1;
    for w in images.windows(2) {
        if w[0] != w[1] {
            distinct += 1;
        }
    }
    (Bitboard(min), distinct)
}

/// Every layout of `holes` holes on the board of side `size`, one per class
/// of the square's 8 symmetries (the class's smallest member as a bit set),
/// weighted by the class size, in increasing order of the bit set. The
/// weights add up to `choose(size², holes)`.
///
/// # Errors
/// More than [`MAX_ENUMERATED`] layouts to list (the message names the count).
pub fn symmetry_classes(size: u8, holes: u32) -> Result<Vec<Layout>, String> {
    let squares = board_squares(size);
    let n = squares.len() as u32;
    if holes > n {
        return Err(format!("{holes} holes do not fit on a {size}x{size} board"));
    }
    let total = choose(n, holes);
    if total > MAX_ENUMERATED {
        return Err(format!(
            "a {size}x{size} board has {total} layouts with {holes} holes, more than {MAX_ENUMERATED} to list"
        ));
    }
    let mut out = Vec::new();
    // Gosper's hack walks the `holes`-subsets of the board's squares as
    // bit patterns over their indices in `squares`.
    let mut pattern: u128 = (1u128 << holes) - 1;
    let limit: u128 = 1u128 << n;
    loop {
        let mut set = Bitboard::EMPTY;
        let mut bits = pattern;
        while bits != 0 {
            set.insert(squares[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        let (min, weight) = canonical(set, size);
        if min == set {
            out.push(Layout { holes: set, weight });
        }
        if holes == 0 {
            break;
        }
        let low = pattern & pattern.wrapping_neg();
        let ripple = pattern + low;
        if ripple >= limit {
            break;
        }
        pattern = (((ripple ^ pattern) >> 2) / low) | ripple;
    }
    out.sort_by_key(|l| l.holes.0);
    Ok(out)
}

/// `count` layouts of `holes` holes drawn at random, each of weight 1; the
/// `i`-th is a function of (`seed`, `holes`, `i`) alone, so a longer run
/// starts with a shorter one's layouts.
///
/// # Errors
/// More holes than the board holds.
pub fn random_layouts(size: u8, holes: u32, count: u64, seed: u64) -> Result<Vec<Layout>, String> {
    let rules = Rules {
        size,
        holes: HoleSetup::Random(holes),
        pie: false,
        komi: Komi::ZERO,
    };
    rules.validate().map_err(|e| e.to_string())?;
    Ok((0..count)
        .map(|i| {
            let mut rng = layout_rng(derive_seed(seed, &[u64::from(holes), i]));
            Layout {
                holes: rules.draw_holes(&mut rng),
                weight: 1,
            }
        })
        .collect())
}

/// The pie-rule value of a layout for the first player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieValue {
    /// The first player's exact margin (own total minus the other's, komi
    /// included), in half points; never positive unless the first stone
    /// fills the board.
    pub margin_halves: i32,
    /// The first stones that attain it, sorted by name.
    pub fair_first_moves: Vec<Move>,
}

impl PieValue {
    /// `win`, `draw` or `loss` for the first player.
    pub fn result(&self) -> &'static str {
        match self.margin_halves.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        }
    }
}

/// One solved layout: a row of `exact.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExactRow {
    /// Board side.
    pub size: u8,
    /// The layout and its weight.
    pub layout: Layout,
    /// The outcome under perfect play without the pie rule.
    pub outcome: Outcome,
    /// White's total minus Black's (komi included) under perfect play, in
    /// half points.
    pub margin_halves: i32,
    /// The first moves that keep `outcome`, sorted by name.
    pub best_first_moves: Vec<Move>,
    /// The value under the pie rule, when it was asked for.
    pub pie: Option<PieValue>,
    /// Search nodes, both solves together.
    pub nodes: u64,
}

/// Solves `layout` from the empty board, White to move; with `pie` also
/// under the pie rule. `solver` keeps its table between calls (its keys
/// tell rules and layouts apart).
///
/// # Errors
/// A limit of `limits` was reached, or the layout leaves no square free.
pub fn solve_layout(
    solver: &mut Solver,
    size: u8,
    layout: Layout,
    komi: Komi,
    pie: bool,
    limits: &SolveLimits,
) -> Result<ExactRow, ExactError> {
    let start = Position::new(size, layout.holes, false, komi)
        .map_err(|e| ExactError::Layout(e.to_string()))?;
    let plain = solver.solve(&start, limits)?;
    let mut nodes = plain.nodes;
    let pie = if pie {
        let start = Position::new(size, layout.holes, true, komi)
            .map_err(|e| ExactError::Layout(e.to_string()))?;
        let s = solver.solve(&start, limits)?;
        nodes += s.nodes;
        Some(PieValue {
            margin_halves: s.margin_halves,
            fair_first_moves: s.best_margin,
        })
    } else {
        None
    };
    Ok(ExactRow {
        size,
        layout,
        outcome: plain.outcome,
        margin_halves: plain.margin_halves,
        best_first_moves: plain.best_result,
        pie,
        nodes,
    })
}

/// Why a layout was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    /// The solver stopped at a limit.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The layout is not a playable board.
    #[error("{0}")]
    Layout(String),
}

/// The header of `exact.csv` (docs/CONTRACT.md, `exact` outputs).
pub fn header(pie: bool) -> &'static str {
    if pie {
        "size,holes,layout,weight,result,margin,best_first_moves,pie_margin,pie_result,fair_first_moves"
    } else {
        "size,holes,layout,weight,result,margin,best_first_moves"
    }
}

fn push_squares(out: &mut String, squares: impl IntoIterator<Item = String>) {
    for (i, s) in squares.into_iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&s);
    }
}

/// Appends `row`'s line of `exact.csv`, newline included. Lists are squares
/// separated by single spaces: the layout in board order (as in
/// `games.csv`), the moves sorted by name.
pub fn push_row(out: &mut String, row: &ExactRow) {
    let _ = write!(out, "{},{},", row.size, row.layout.holes.count());
    push_squares(out, row.layout.holes.into_iter().map(|s| s.to_string()));
    let _ = write!(
        out,
        ",{},{},{},",
        row.layout.weight,
        row.outcome,
        format_halves(row.margin_halves)
    );
    push_squares(out, row.best_first_moves.iter().map(Move::to_string));
    if let Some(p) = &row.pie {
        let _ = write!(out, ",{},{},", format_halves(p.margin_halves), p.result());
        push_squares(out, p.fair_first_moves.iter().map(Move::to_string));
    }
    out.push('\n');
}

/// Reads `exact.csv` (header and complete rows, in the order of `jobs`)
/// back into rows, for the summary of a resumed run.
///
/// # Errors
/// The line and what is wrong with it.
pub fn parse_rows(text: &str, jobs: &[Job], pie: bool) -> Result<Vec<ExactRow>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().skip(1).enumerate() {
        let bad = |m: &str| format!("line {}: {m}", i + 2);
        let job = jobs.get(i).ok_or_else(|| bad("more rows than layouts"))?;
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != if pie { 10 } else { 7 } {
            return Err(bad("wrong number of fields"));
        }
        let halves = |s: &str| {
            s.parse::<Komi>()
                .map(Komi::halves)
                .map_err(|_| bad("a margin is not a number"))
        };
        let moves = |s: &str| -> Result<Vec<Move>, String> {
            if s.is_empty() {
                return Ok(Vec::new());
            }
            s.split(' ')
                .map(|m| m.parse::<Move>().map_err(|_| bad("a move is not a square")))
                .collect()
        };
        let margin_halves = halves(f[5])?;
        out.push(ExactRow {
            size: job.size,
            layout: job.layout,
            outcome: Outcome::from_margin_halves(margin_halves),
            margin_halves,
            best_first_moves: moves(f[6])?,
            pie: if pie {
                Some(PieValue {
                    margin_halves: halves(f[7])?,
                    fair_first_moves: moves(f[9])?,
                })
            } else {
                None
            },
            nodes: 0,
        });
    }
    Ok(out)
}

/// One row of `exact_summary.csv`: a (size, hole count) over its layouts,
/// every share weighted by the layouts' weights.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryRow {
    /// Board side.
    pub size: u8,
    /// Hole count.
    pub holes: u32,
    /// Layouts solved.
    pub layouts: u64,
    /// Their total weight.
    pub weight: u64,
    /// Weighted shares of White wins, draws and Black wins.
    pub white: f64,
    /// See `white`.
    pub draw: f64,
    /// See `white`.
    pub black: f64,
    /// Weighted mean margin (White minus Black, komi included), points.
    pub margin_mean: f64,
    /// Weighted quartiles of the margin, points: the smallest margin with
    /// at least a quarter, a half, three quarters of the weight at or below.
    pub margin_quartiles: [f64; 3],
    /// The komi (points added to Black, on top of the run's komi) that
    /// makes the most weight a draw: a layout of margin `m` is a draw with
    /// `m` more points for Black, as komi shifts every final margin alike.
    /// Ties go to the smaller komi in size, then the smaller.
    pub fair_komi: f64,
    /// With the pie rule: the weighted share of layouts that have a fair
    /// first move.
    pub pie_fair: Option<f64>,
}

/// The header of `exact_summary.csv`.
pub fn summary_header(pie: bool) -> &'static str {
    if pie {
        "size,holes,layouts,weight,white_share,draw_share,black_share,margin_mean,margin_q1,margin_median,margin_q3,fair_komi,pie_fair_share"
    } else {
        "size,holes,layouts,weight,white_share,draw_share,black_share,margin_mean,margin_q1,margin_median,margin_q3,fair_komi"
    }
}

/// Summarises `rows` per (size, hole count), in the order the groups first
/// appear.
pub fn summarize(rows: &[ExactRow]) -> Vec<SummaryRow> {
    let mut keys: Vec<(u8, u32)> = Vec::new();
    for r in rows {
        let k = (r.size, r.layout.holes.count());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    keys.into_iter()
        .map(|(size, holes)| {
            let group: Vec<&ExactRow> = rows
                .iter()
                .filter(|r| r.size == size && r.layout.holes.count() == holes)
                .collect();
            summarize_group(size, holes, &group)
        })
        .collect()
}

fn summarize_group(size: u8, holes: u32, rows: &[&ExactRow]) -> SummaryRow {
    let weight: u64 = rows.iter().map(|r| r.layout.weight).sum();
    let w = weight.max(1) as f64;
    let share = |o: Outcome| {
        rows.iter()
            .filter(|r| r.outcome == o)
            .map(|r| r.layout.weight)
            .sum::<u64>() as f64
            / w
    };
    let mut margins: Vec<(i32, u64)> = rows
        .iter()
        .map(|r| (r.margin_halves, r.layout.weight))
        .collect();
    margins.sort_unstable();
    let mean = margins
        .iter()
        .map(|&(m, k)| f64::from(m) * k as f64)
        .sum::<f64>()
        / w
        / 2.0;
    let quantile = |q: f64| {
        let mut acc = 0u64;
        for &(m, k) in &margins {
            acc += k;
            if acc as f64 >= q * weight as f64 {
                return f64::from(m) / 2.0;
            }
        }
        margins.last().map_or(0.0, |&(m, _)| f64::from(m) / 2.0)
    };
    // The weighted mode of the margin, ties to the komi smallest in size.
    let mut mode: Option<(u64, i32)> = None;
    let mut i = 0;
    while i < margins.len() {
        let m = margins[i].0;
        let mut k = 0;
        while i < margins.len() && margins[i].0 == m {
            k += margins[i].1;
            i += 1;
        }
        let better = match mode {
            None => true,
            Some((best_k, best_m)) => {
                k > best_k || (k == best_k && (m.abs(), m) < (best_m.abs(), best_m))
            }
        };
        if better {
            mode = Some((k, m));
        }
    }
    let pie_fair = if rows.iter().all(|r| r.pie.is_some()) && !rows.is_empty() {
        Some(
            rows.iter()
                .filter(|r| r.pie.as_ref().is_some_and(|p| p.margin_halves == 0))
                .map(|r| r.layout.weight)
                .sum::<u64>() as f64
                / w,
        )
    } else {
        None
    };
    SummaryRow {
        size,
        holes,
        layouts: rows.len() as u64,
        weight,
        white: share(Outcome::WhiteWins),
        draw: share(Outcome::Draw),
        black: share(Outcome::BlackWins),
        margin_mean: mean,
        margin_quartiles: [quantile(0.25), quantile(0.5), quantile(0.75)],
        fair_komi: mode.map_or(0.0, |(_, m)| f64::from(m) / 2.0),
        pie_fair,
    }
}

/// Appends `row`'s line of `exact_summary.csv`, newline included.
pub fn push_summary(out: &mut String, row: &SummaryRow) {
    let [q1, q2, q3] = row.margin_quartiles;
    let _ = write!(
        out,
        "{},{},{},{},{:.4},{:.4},{:.4},{:.3},{q1},{q2},{q3},{}",
        row.size,
        row.holes,
        row.layouts,
        row.weight,
        row.white,
        row.draw,
        row.black,
        row.margin_mean,
        row.fair_komi
    );
    if let Some(p) = row.pie_fair {
        let _ = write!(out, ",{p:.4}");
    }
    out.push('\n');
}

/// One layout of a run: its board side and holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Board side.
    pub size: u8,
    /// The layout.
    pub layout: Layout,
}

/// Solves `jobs` on `threads` threads and hands each row to `on_row` in
/// job order, whatever the thread count.
///
/// Concurrency contract, as for the arena's games: plain scoped threads
/// take job indices from one atomic counter, each with its own [`Solver`]
/// (a table of `tt_mb` MiB kept from layout to layout), and send rows down
/// a channel; the calling thread keeps a reorder buffer and owns
/// `on_row`. `stop` (checked between layouts, and inside each solve by the
/// solver's own limits) or an error from `on_row` stops the dispatch; rows
/// after a gap are dropped, never handed on out of order. Returns how many
/// rows were handed on.
///
/// # Errors
/// The first error of a solve or of `on_row`.
#[allow(clippy::too_many_arguments)]
pub fn solve_in_order<E: From<ExactError>>(
    jobs: &[Job],
    komi: Komi,
    pie: bool,
    threads: usize,
    tt_mb: usize,
    limits: &SolveLimits,
    stop: &std::sync::atomic::AtomicBool,
    mut on_row: impl FnMut(usize, ExactRow) -> Result<(), E>,
) -> Result<usize, E> {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<ExactRow, ExactError>)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            let tx = tx.clone();
            let (next, halt) = (&next, &halt);
            scope.spawn(move || {
                let mut solver = Solver::new(tt_mb);
                loop {
                    if halt.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let row = solve_layout(&mut solver, job.size, job.layout, komi, pie, limits);
                    if tx.send((i, row)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Result<ExactRow, ExactError>> = BTreeMap::new();
        let mut done = 0;
        let mut result = Ok(());
        for (i, row) in rx {
            pending.insert(i, row);
            while let Some(row) = pending.remove(&done) {
                let handed = row.map_err(E::from).and_then(|r| on_row(done, r));
                if let Err(e) = handed {
                    halt.store(true, Ordering::Relaxed);
                    result = Err(e);
                    break;
                }
                done += 1;
            }
            if result.is_err() {
                break;
            }
        }
        halt.store(true, Ordering::Relaxed);
        result.map(|()| done)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(choose(9, 0), 1);
        assert_eq!(choose(9, 4), 126);
        assert_eq!(choose(49, 5), 1_906_884);
        assert_eq!(choose(3, 4), 0);
        assert_eq!(choose(200, 100), u64::MAX);
    }

    #[test]
    fn classes_weigh_as_many_layouts_as_there_are() {
        for size in 3..=5u8 {
            let n = u32::from(size) * u32::from(size);
            for holes in 0..=n.min(6) {
                let classes = symmetry_classes(size, holes).expect("small");
                let total: u64 = classes.iter().map(|c| c.weight).sum();
                assert_eq!(total, choose(n, holes), "{size}x{size}, {holes} holes");
                assert!(classes.iter().all(|c| [1, 2, 4, 8].contains(&c.weight)));
                assert!(classes.windows(2).all(|w| w[0].holes.0 < w[1].holes.0));
            }
        }
        // 3x3 with one hole: a corner, an edge, the centre.
        let one = symmetry_classes(3, 1).expect("small");
        let weights: Vec<u64> = one.iter().map(|c| c.weight).collect();
        assert_eq!(weights, vec![4, 4, 1]);
    }

    #[test]
    fn too_many_layouts_are_refused() {
        assert!(symmetry_classes(7, 10).is_err());
        assert!(symmetry_classes(3, 10).is_err());
    }

    #[test]
    fn random_layouts_are_a_function_of_seed_holes_and_index() {
        let a = random_layouts(7, 21, 5, 9).expect("valid");
        let b = random_layouts(7, 21, 3, 9).expect("valid");
        assert_eq!(a[..3], b[..]);
        assert!(a.iter().all(|l| l.holes.count() == 21 && l.weight == 1));
        assert_ne!(a, random_layouts(7, 21, 5, 10).expect("valid"));
    }

    #[test]
    fn summary_weights_and_fair_komi() {
        let row = |m: i32, w: u64| ExactRow {
            size: 3,
            layout: Layout {
                holes: Bitboard::EMPTY,
                weight: w,
            },
            outcome: Outcome::from_margin_halves(m),
            margin_halves: m,
            best_first_moves: Vec::new(),
            pie: Some(PieValue {
                margin_halves: if m == 6 { 0 } else { -2 },
                fair_first_moves: Vec::new(),
            }),
            nodes: 0,
        };
        let s = summarize(&[row(6, 4), row(-6, 4), row(0, 1), row(6, 1)]);
        assert_eq!(s.len(), 1);
        let s = &s[0];
        assert_eq!((s.layouts, s.weight), (4, 10));
        assert!((s.white - 0.5).abs() < 1e-12 && (s.draw - 0.1).abs() < 1e-12);
        assert_eq!(s.fair_komi, 3.0);
        assert_eq!(s.margin_quartiles, [-3.0, 0.0, 3.0]);
        assert!((s.pie_fair.unwrap_or(0.0) - 0.5).abs() < 1e-12);
    }

    #[test]
    fn rows_come_in_job_order_for_any_thread_count() {
        let jobs: Vec<Job> = symmetry_classes(4, 6)
            .expect("small")
            .into_iter()
            .take(40)
            .map(|layout| Job { size: 4, layout })
            .collect();
        let run = |threads| {
            let mut rows = Vec::new();
            let stop = std::sync::atomic::AtomicBool::new(false);
            let n = solve_in_order::<ExactError>(
                &jobs,
                Komi::ZERO,
                true,
                threads,
                1,
                &SolveLimits::default(),
                &stop,
                |i, r| {
                    assert_eq!(i, rows.len());
                    let mut line = String::new();
                    push_row(&mut line, &r);
                    rows.push(line);
                    Ok(())
                },
            )
            .expect("solved");
            assert_eq!(n, jobs.len());
            rows
        };
        // Node counts depend on what each thread's table holds; the rows
        // do not.
        let one = run(1);
        assert_eq!(one, run(3));
        for r in &one {
            let pie_result = r.split(',').nth(8).unwrap_or_default();
            assert!(["draw", "loss"].contains(&pie_result), "{r}");
        }
    }
}
