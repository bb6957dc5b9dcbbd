//! The page: sections per run, a comparison of the runs' bots, the lazy
//! games table and the game viewer (`page.js`, `page.css`, inlined).

use std::fmt::Write;

use serde_json::{Value, json};

use super::run::{Review, RunData, RunKind, Table};

/// The page's style sheet.
const CSS: &str = include_str!("page.css");
/// The page's script: sortable tables, the paged tables and the viewer.
const JS: &str = include_str!("page.js");

/// The board logic shared with `serve`'s page.
pub const BOARD_JS: &str = include_str!("../board.js");

/// Tables longer than this travel as JSON and are drawn a page at a time.
pub const STATIC_ROWS: usize = 300;

/// `text` escaped for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that can sit inside a `<script>` element: no `</` to close it.
pub fn script_json(v: &Value) -> String {
    v.to_string()
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--")
}

/// `table` as an HTML table whose headers sort it.
fn static_table(out: &mut String, id: &str, table: &Table) {
    let _ = write!(
        out,
        "<table class=\"sortable\" id=\"{}\"><thead><tr>",
        escape(id)
    );
    for h in &table.header {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &table.rows {
        out.push_str("<tr>");
        for f in row {
            let _ = write!(out, "<td>{}</td>", escape(f));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

/// The bots of a tournament in rating order (`ratings.csv`), else in
/// the order `summary.csv` first names them.
pub fn bots(run: &RunData) -> Vec<String> {
    let mut bots: Vec<String> = Vec::new();
    for name in ["ratings.csv", "summary.csv"] {
        let Some(t) = run.table(name) else { continue };
        let Some(c) = t.column("bot") else { continue };
        for row in &t.rows {
            if !bots.contains(&row[c]) {
                bots.push(row[c].clone());
            }
        }
    }
    bots
}

/// The crosstable: a row per bot, a column per opponent, each cell the
/// row bot's score rate from `summary.csv` in per cent, as the terminal
/// shows it, and its wins-draws-losses.
fn crosstable(out: &mut String, i: usize, run: &RunData) {
    let Some(t) = run.table("summary.csv") else {
        return;
    };
    let cols = ["bot", "opponent", "score_rate", "wins", "draws", "losses"].map(|c| t.column(c));
    let [Some(b), Some(o), Some(s), Some(w), Some(d), Some(l)] = cols else {
        return;
    };
    let bots = bots(run);
    let _ = write!(
        out,
        "<h3>Crosstable</h3><p>Score of the row's bot against the column's, in per cent; then wins-draws-losses.</p><table class=\"cross\" id=\"crosstable-{i}\"><thead><tr><th></th>"
    );
    for bot in &bots {
        let _ = write!(out, "<th>{}</th>", escape(bot));
    }
    out.push_str("</tr></thead><tbody>");
    for bot in &bots {
        let _ = write!(out, "<tr><th>{}</th>", escape(bot));
        for opp in &bots {
            match t.rows.iter().find(|r| &r[b] == bot && &r[o] == opp) {
                Some(r) => {
                    let _ = write!(
                        out,
                        "<td data-bot=\"{}\" data-opp=\"{}\">{} <small>{}-{}-{}</small></td>",
                        escape(bot),
                        escape(opp),
                        per_cent(&r[s]),
                        escape(&r[w]),
                        escape(&r[d]),
                        escape(&r[l])
                    );
                }
                None => out.push_str("<td class=\"none\">-</td>"),
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

/// A `summary.csv` score rate as the terminal's crosstable prints it,
/// `50.0%`; a field that is not a number is shown as it is.
fn per_cent(rate: &str) -> String {
    match rate.parse::<f64>() {
        Ok(r) if r.is_finite() => format!("{:.1}%", 100.0 * r),
        _ => escape(rate),
    }
}

/// The same bots across the tournaments given: each one's Elo and interval
/// per run, as each run's `ratings.csv` has it.
fn comparison(out: &mut String, runs: &[RunData]) {
    let rated: Vec<(usize, &Table)> = runs
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, r.table("ratings.csv")?)))
        .collect();
    let mut names: Vec<&str> = Vec::new();
    for (_, t) in &rated {
        if let Some(c) = t.column("bot") {
            for row in &t.rows {
                if !names.contains(&row[c].as_str()) {
                    names.push(&row[c]);
                }
            }
        }
    }
    out.push_str("<section id=\"compare\"><h2>Runs compared</h2><table class=\"sortable\" id=\"compare-runs\"><thead><tr><th>run</th><th>kind</th><th>directory</th><th>rows</th></tr></thead><tbody>");
    for (i, r) in runs.iter().enumerate() {
        let rows = r.table(r.kind.main_file()).map_or(0, |t| t.rows.len());
        let _ = write!(
            out,
            "<tr><td>{i}</td><td>{}</td><td>{}</td><td>{rows}</td></tr>",
            r.kind.name(),
            escape(&r.dir.display().to_string())
        );
    }
    out.push_str("</tbody></table>");
    if !names.is_empty() {
        out.push_str("<h3>Ratings by run</h3><table class=\"sortable\" id=\"compare-ratings\"><thead><tr><th>bot</th>");
        for (i, _) in &rated {
            let _ = write!(out, "<th>run {i} elo [lo, hi] (games)</th>");
        }
        out.push_str("</tr></thead><tbody>");
        for name in names {
            let _ = write!(out, "<tr><td>{}</td>", escape(name));
            for (_, t) in &rated {
                let cols = ["bot", "elo", "elo_lo", "elo_hi", "games"].map(|c| t.column(c));
                let cell = match cols {
                    [Some(b), Some(e), Some(lo), Some(hi), Some(g)] => t
                        .rows
                        .iter()
                        .find(|r| r[b] == name)
                        .map(|r| format!("{} [{}, {}] ({})", r[e], r[lo], r[hi], r[g])),
                    _ => None,
                };
                let _ = write!(
                    out,
                    "<td>{}</td>",
                    escape(&cell.unwrap_or_else(|| "-".into()))
                );
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("</section>");
}

fn table_json(t: &Table) -> Value {
    json!({"name": t.name, "header": t.header, "rows": t.rows})
}

/// Who made review `r`, in words: its bot, solve bound and seed, as its
/// `review.json` records them.
fn reviewer(r: &Review) -> String {
    r.record.as_ref().map_or_else(
        || "settings not recorded".to_string(),
        |rec| {
            format!(
                "{} (solved from {} free squares, seed {})",
                rec.bot, rec.exact, rec.seed
            )
        },
    )
}

/// The reviews of a run: which games, and how each was made.
fn reviews_table(out: &mut String, i: usize, run: &RunData) {
    if run.reviews.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<h3>Reviews <small>{} games</small></h3><table class=\"sortable\" id=\"reviews-{i}\"><thead><tr><th>game</th><th>bot</th><th>every key</th><th>exact</th><th>seed</th><th>pahtum</th></tr></thead><tbody>",
        run.reviews.len()
    );
    for r in &run.reviews {
        let cells: [String; 5] = match &r.record {
            Some(rec) => [
                rec.bot.clone(),
                rec.bot_full.clone(),
                rec.exact.to_string(),
                rec.seed.to_string(),
                rec.version.clone(),
            ],
            None => [
                "not recorded".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
            ],
        };
        let _ = write!(out, "<tr><td>{}</td>", r.game);
        for (k, c) in cells.iter().enumerate() {
            // Every key of a spec is one long word: it wraps in its cell
            // instead of widening the page.
            let class = if k == 1 { " class=\"spec\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", escape(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

/// Each bot's searches as `moves.csv` reports them: moves, the share with a
/// search report, mean nodes and depth, and nodes a second (the sum of
/// nodes over the sum of their moves' time).
fn search_table(out: &mut String, i: usize, run: &RunData) {
    if run.search.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<h3>Searches <small>from moves.csv</small></h3><table class=\"sortable\" id=\"search-{i}\"><thead><tr><th>bot</th><th>moves</th><th>searched</th><th>nodes a move</th><th>depth</th><th>nodes a second</th></tr></thead><tbody>"
    );
    for s in &run.search {
        let mean = |sum: u64| match s.searched {
            0 => "-".to_string(),
            n => format!("{:.1}", sum as f64 / n as f64),
        };
        let speed = s
            .nodes_per_second()
            .map_or_else(|| "-".to_string(), |v| format!("{v:.0}"));
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{speed}</td></tr>",
            escape(&s.bot),
            s.moves,
            s.searched,
            mean(s.nodes),
            mean(s.depth)
        );
    }
    out.push_str("</tbody></table>");
}

/// One run's section, and the JSON its script reads.
fn section(out: &mut String, i: usize, run: &RunData) {
    let _ = write!(
        out,
        "<section class=\"run\" id=\"run-{i}\"><h2>{} <span class=\"dir\">{}</span></h2>",
        run.kind.name(),
        escape(&run.dir.display().to_string())
    );
    if !run.rerun.is_empty() {
        let _ = write!(
            out,
            "<p class=\"rerun\"><code>{}</code></p>",
            escape(&run.rerun)
        );
    }
    if run.kind == RunKind::Tournament {
        crosstable(out, i, run);
    }
    search_table(out, i, run);
    let mut lazy = Vec::new();
    for t in &run.tables {
        let _ = write!(
            out,
            "<h3>{} <small>{} rows</small></h3>",
            escape(&t.name),
            t.rows.len()
        );
        let id = format!("table-{i}-{}", t.name.trim_end_matches(".csv"));
        if t.rows.len() <= STATIC_ROWS {
            static_table(out, &id, t);
        } else {
            let _ = write!(
                out,
                "<div class=\"paged\" id=\"{}\" data-run=\"{i}\" data-table=\"{}\"></div>",
                escape(&id),
                lazy.len()
            );
            lazy.push(table_json(t));
        }
    }
    for (name, svg) in &run.figures {
        let _ = write!(
            out,
            "<figure><figcaption>{}</figcaption>{svg}</figure>",
            escape(name)
        );
    }
    if let Some(g) = &run.games {
        let _ = write!(
            out,
            "<h3>games.csv <small>{} games</small></h3><div class=\"games\" id=\"games-{i}\" data-run=\"{i}\"></div>",
            g.rows.len()
        );
    }
    reviews_table(out, i, run);
    out.push_str("</section>");
    let reviews: serde_json::Map<String, Value> = run
        .reviews
        .iter()
        .map(|r| {
            let mut t = table_json(&r.table);
            t["reviewer"] = json!(reviewer(r));
            (r.game.to_string(), t)
        })
        .collect();
    let data = json!({
        "size": run.size,
        "games": run.games.as_ref().map(table_json),
        "tables": lazy,
        "reviews": reviews,
        "evals": run.evals.iter().map(|(g, e)| (g.to_string(), json!(e))).collect::<serde_json::Map<String, Value>>(),
    });
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"data-{i}\">{}</script>",
        script_json(&data)
    );
}

/// The game viewer, hidden until a game is opened.
const VIEWER: &str = r#"<div id="viewer" hidden><div class="vhead"><span id="viewer-title"></span><button id="viewer-close" title="close (Esc)">close</button></div>
<div class="vbody"><div><svg id="viewer-board" viewBox="-5 0 105 105" width="420" height="420"></svg>
<div class="controls"><button id="v-first">|&lt;</button><button id="v-prev">&lt;</button><span id="viewer-ply"></span><button id="v-next">&gt;</button><button id="v-last">&gt;|</button></div>
<p class="scores">White <b id="viewer-white-score"></b> &middot; Black <b id="viewer-black-score"></b></p>
<p id="viewer-check"></p></div>
<div class="side"><ol id="viewer-moves"></ol><div id="viewer-eval"></div></div></div></div>"#;

/// The whole page for `runs`, in the order given.
pub fn page(runs: &[RunData]) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pahtum report</title><style>");
    out.push_str(CSS);
    out.push_str("</style></head><body><h1>pahtum report</h1><div id=\"errors\"></div>");
    if runs.len() > 1 {
        comparison(&mut out, runs);
    }
    for (i, run) in runs.iter().enumerate() {
        section(&mut out, i, run);
    }
    out.push_str(VIEWER);
    out.push_str("<script>");
    out.push_str(BOARD_JS);
    out.push_str(JS);
    out.push_str("</script></body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::page::run::RunKind;

    fn tournament() -> RunData {
        let summary = Table::parse(
            "summary.csv",
            "bot,opponent,games,wins,draws,losses,score_rate\na,b<,2,1,0,1,0.5\nb<,a,2,1,0,1,0.5\n",
        );
        RunData {
            dir: "runs/x".into(),
            kind: RunKind::Tournament,
            rerun: "pahtum tournament".into(),
            size: 7,
            tables: vec![summary],
            evals: Vec::new(),
            search: Vec::new(),
            figures: Vec::new(),
            games: None,
            reviews: Vec::new(),
        }
    }

    #[test]
    fn crosstable_cells_carry_the_summary_row() {
        let p = page(&[tournament()]);
        assert!(
            p.contains("<td data-bot=\"a\" data-opp=\"b&lt;\">50.0% <small>1-0-1</small></td>"),
            "{p}"
        );
        assert!(!p.contains("b<,"));
    }

    #[test]
    fn json_cannot_close_its_script() {
        let s = script_json(&json!(["</script><!--"]));
        assert!(!s.contains("</") && !s.contains("<!--"), "{s}");
    }

    #[test]
    fn two_runs_are_compared() {
        let p = page(&[tournament(), tournament()]);
        assert!(p.contains("id=\"compare-runs\"") && p.contains("id=\"run-1\""));
    }
}
