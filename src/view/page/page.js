// pahtum report: sortable tables, paged tables drawn from embedded JSON,
// and the game viewer. Everything is inline so the page needs no network.
"use strict";
(function () {
  const errors = document.getElementById("errors");
  // Recorded into the page so a headless browser's DOM dump shows them.
  window.onerror = function (msg, src, line, col) {
    errors.textContent += "error: " + msg + " (line " + line + ":" + col + ")\n";
  };
  const runs = [];
  for (let i = 0; document.getElementById("data-" + i); i++) {
    runs.push(JSON.parse(document.getElementById("data-" + i).textContent));
  }
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  };
  // The SVG namespace, spelt so that the page holds no URL text at all
  // (the report promises no http(s) resource, and checks find none).
  const SVG_NS = ["http:", "", "www.w3.org", "2000", "svg"].join("/");
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS(SVG_NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  };
  // Numbers sort as numbers, anything else as text.
  const compare = (a, b) => {
    const x = parseFloat(a), y = parseFloat(b);
    if (!isNaN(x) && !isNaN(y) && String(x) !== "NaN") return x - y || (a < b ? -1 : a > b ? 1 : 0);
    return a < b ? -1 : a > b ? 1 : 0;
  };

  // Step 1: the tables written as HTML sort by a click on a header.
  for (const table of document.querySelectorAll("table.sortable")) {
    const ths = table.querySelectorAll("thead th");
    ths.forEach((th, c) => th.addEventListener("click", () => {
      const desc = th.classList.contains("asc");
      ths.forEach((h) => h.classList.remove("asc", "desc"));
      th.classList.add(desc ? "desc" : "asc");
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      rows.sort((r, s) => compare(r.cells[c].textContent, s.cells[c].textContent) * (desc ? -1 : 1));
      rows.forEach((r) => body.appendChild(r));
    }));
  }

  // Step 2: a paged table over rows kept in memory; only one page is in
  // the DOM at a time, so many thousand rows stay responsive.
  function pager(host, header, rows, opts) {
    const pageSize = 50;
    let shown = rows, page = 0, sortCol = -1, desc = false;
    const bar = el("div", { class: "pager" });
    const prev = el("button", {}, "<"), next = el("button", {}, ">"), info = el("small");
    bar.append(prev, " ", info, " ", next);
    const table = el("table");
    const head = el("tr");
    const visible = opts.columns || header.map((_, i) => i);
    visible.forEach((c) => {
      const th = el("th", {}, header[c]);
      th.addEventListener("click", () => {
        desc = sortCol === c ? !desc : false;
        sortCol = c;
        head.querySelectorAll("th").forEach((h) => h.classList.remove("asc", "desc"));
        th.classList.add(desc ? "desc" : "asc");
        shown = shown.slice().sort((r, s) => compare(r[c], s[c]) * (desc ? -1 : 1));
        page = 0;
        draw();
      });
      head.appendChild(th);
    });
    const thead = el("thead"); thead.appendChild(head);
    const tbody = el("tbody");
    table.append(thead, tbody);
    host.append(bar, table);
    function draw() {
      const pages = Math.max(1, Math.ceil(shown.length / pageSize));
      page = Math.min(page, pages - 1);
      info.textContent = "page " + (page + 1) + " of " + pages + " (" + shown.length + " of " + rows.length + " rows)";
      tbody.replaceChildren();
      for (const row of shown.slice(page * pageSize, (page + 1) * pageSize)) {
        const tr = el("tr");
        visible.forEach((c) => tr.appendChild(el("td", opts.classes && opts.classes[c] ? { class: opts.classes[c] } : {}, row[c])));
        if (opts.onRow) tr.addEventListener("click", () => opts.onRow(row));
        tbody.appendChild(tr);
      }
    }
    prev.addEventListener("click", () => { if (page > 0) { page--; draw(); } });
    next.addEventListener("click", () => { page++; draw(); });
    draw();
    return { filter(keep) { shown = rows.filter(keep); if (sortCol >= 0) shown.sort((r, s) => compare(r[sortCol], s[sortCol]) * (desc ? -1 : 1)); page = 0; draw(); } };
  }

  for (const host of document.querySelectorAll("div.paged")) {
    const t = runs[+host.dataset.run].tables[+host.dataset.table];
    const p = pager(host, t.header, t.rows, {});
    const box = el("input", { placeholder: "filter rows", type: "search" });
    host.prepend(box);
    box.addEventListener("input", () => { const q = box.value.toLowerCase(); p.filter((r) => r.join(",").toLowerCase().includes(q)); });
  }

  // Step 3: the games table, filtered by bot, colour, layout and result.
  for (const host of document.querySelectorAll("div.games")) {
    const run = +host.dataset.run;
    const g = runs[run].games;
    const col = (n) => g.header.indexOf(n);
    const [cW, cB, cL, cWin] = ["white", "black", "layout", "winner"].map(col);
    const bots = Array.from(new Set(g.rows.flatMap((r) => [r[cW], r[cB]]))).sort();
    const filters = el("div", { class: "filters" });
    const select = (name, values) => {
      const s = el("select", { name: name });
      s.appendChild(el("option", { value: "" }, "any"));
      values.forEach((v) => s.appendChild(el("option", { value: v }, v)));
      const label = el("label", {}, name + " ");
      label.appendChild(s);
      filters.appendChild(label);
      return s;
    };
    const fBot = select("bot", bots);
    const fColour = select("as", ["white", "black"]);
    const fResult = select("result", ["white", "black", "draw", "bot won", "bot lost"]);
    const fLayout = el("input", { type: "search", placeholder: "layout index", size: 8 });
    const ll = el("label", {}, "layout "); ll.appendChild(fLayout); filters.appendChild(ll);
    host.appendChild(filters);
    const visible = ["game", "layout", "holes", "white", "black", "white_score", "black_score", "winner", "termination", "plies", "moves"].map(col).filter((c) => c >= 0);
    const classes = {}; classes[col("moves")] = "moves";
    const p = pager(host, g.header, g.rows, { columns: visible, classes: classes, onRow: (row) => openGame(run, row, "end") });
    const apply = () => {
      const bot = fBot.value, as = fColour.value, res = fResult.value, lay = fLayout.value.trim();
      p.filter((r) => {
        const side = r[cW] === bot ? "white" : r[cB] === bot ? "black" : "";
        if (bot && !side) return false;
        if (as && (bot ? side !== as : false)) return false;
        if (lay && r[cL] !== lay) return false;
        if (res === "white" || res === "black" || res === "draw") return r[cWin] === res;
        if (res === "bot won") return bot !== "" && r[cWin] === side;
        if (res === "bot lost") return bot !== "" && r[cWin] !== side && r[cWin] !== "draw";
        return true;
      });
    };
    [fBot, fColour, fResult].forEach((s) => s.addEventListener("change", apply));
    fLayout.addEventListener("input", apply);
  }

  // Step 4: the viewer. Scoring as docs/RULES.md: each maximal row or
  // column run of one colour, length L >= 3, scores s(L) = L + 2 s(L-1).
  const points = [0, 0, 0];
  for (let l = 3; l <= 8; l++) points.push(l + 2 * points[l - 1]);
  const { square, position, runsOf } = PahTumBoard;
  const viewer = document.getElementById("viewer");
  const board = document.getElementById("viewer-board");
  let cur = null;

  function draw() {
    const { run, row, ply } = cur;
    const g = runs[run].games, n = runs[run].size;
    const col = (k) => row[g.header.indexOf(k)];
    const moves = col("moves").split(" ").filter((m) => m);
    const holes = col("holes").split(" ").filter((m) => m);
    const cells = position(n, holes, moves, ply);
    const lines = runsOf(cells, n);
    const score = [0, 0];
    lines.forEach(([c, , , len]) => { score[c - 2] += points[len]; });
    const cell = 100 / n;
    const x = (f) => (f + 0.5) * cell, y = (r) => (n - r - 0.5) * cell;
    PahTumBoard.grid(board, n, svgEl);
    PahTumBoard.labels(board, n, svgEl);
    const last = ply > 0 && moves[ply - 1] !== "swap" ? square(moves[ply - 1]) : null;
    for (let r = 0; r < n; r++) for (let f = 0; f < n; f++) {
      const c = cells[r][f];
      if (c === 1) {
        // Grey and crossed, so a hole never reads as a black stone.
        const x0 = f * cell + 1, y0 = (n - 1 - r) * cell + 1, s = cell - 2;
        board.appendChild(svgEl("rect", { x: x0, y: y0, width: s, height: s, fill: "#6b6b6b", class: "hole" }));
        board.appendChild(svgEl("path", { d: "M" + x0 + " " + y0 + "l" + s + " " + s + "m0 " + -s + "l" + -s + " " + s, stroke: "#4a4a4a", "stroke-width": 0.6 }));
      }
      if (c >= 2) board.appendChild(svgEl("circle", { cx: x(f), cy: y(r), r: cell * 0.38, fill: c === 2 ? "#fafafa" : "#1b1b1b", stroke: last && last[0] === f && last[1] === r ? "#e53935" : "#555", "stroke-width": last && last[0] === f && last[1] === r ? 1.2 : 0.4, class: c === 2 ? "white" : "black" }));
    }
    for (const [c, p0, p1] of lines) {
      board.appendChild(svgEl("line", { x1: x(p0[0]), y1: y(p0[1]), x2: x(p1[0]), y2: y(p1[1]), stroke: c === 2 ? "#1e88e5" : "#e53935", "stroke-width": 1.6, "stroke-linecap": "round", opacity: 0.85, class: "scoring" }));
    }
    document.getElementById("viewer-title").textContent = "game " + col("game") + ": " + col("white") + " (white) v " + col("black") + " (black), layout " + col("layout") + ", " + col("winner") + " " + (col("winner") === "draw" ? "" : "won");
    document.getElementById("viewer-ply").textContent = "ply " + ply + " / " + moves.length;
    document.getElementById("viewer-white-score").textContent = score[0];
    document.getElementById("viewer-black-score").textContent = score[1];
    const check = document.getElementById("viewer-check");
    if (ply === moves.length) {
      const ok = String(score[0]) === col("white_score") && String(score[1]) === col("black_score");
      check.textContent = ok ? "final scores match games.csv" : "games.csv says " + col("white_score") + " " + col("black_score");
      check.className = ok ? "ok" : "bad";
    } else {
      check.textContent = ""; check.className = "";
    }
    document.querySelectorAll("#viewer-moves li").forEach((li, k) => li.classList.toggle("cur", k === ply - 1));
    drawEval(run, col("game"), ply);
  }
  // Each bot's own evaluation as moves.csv records it: White's expected
  // score after each ply, one line for the bot that ends as White and one
  // for the bot that ends as Black, at the plies each chose.
  function botEvalGraph(run, row, ply) {
    const text = runs[run].evals && runs[run].evals[row[runs[run].games.header.indexOf("game")]];
    if (!text) return null;
    const g = runs[run].games;
    const moves = row[g.header.indexOf("moves")].split(" ").filter((m) => m);
    const ex = text.split(" ").map((e) => (e === "-" ? NaN : parseFloat(e)));
    const swapAt = moves.indexOf("swap");
    // Whose move ply k + 1 was: the side to move alternates, but a swap
    // keeps it; the swapper ends as White, and before the swap White's
    // stones were the other bot's.
    let side = 0;
    const owner = moves.map((m, k) => {
      const white = side === 0;
      if (m !== "swap") side = 1 - side;
      if (k === swapAt) return "white";
      if (swapAt >= 0 && k < swapAt) return white ? "black" : "white";
      return white ? "white" : "black";
    });
    const w = 320, h = 140;
    const px = (k) => 4 + (k * (w - 8)) / Math.max(1, moves.length);
    const py = (e) => h - 6 - e * (h - 12);
    const svg = svgEl("svg", { width: w, height: h, viewBox: "0 0 " + w + " " + h, class: "eval-graph", id: "viewer-bot-eval-graph" });
    svg.appendChild(svgEl("rect", { x: 0, y: 0, width: w, height: h, fill: "#fafafa", stroke: "#ccc" }));
    svg.appendChild(svgEl("line", { x1: 0, y1: py(0.5), x2: w, y2: py(0.5), stroke: "#aaa" }));
    const label = (x, y, text, fill) => { const t = svgEl("text", { x: x, y: y, "font-size": 10, fill: fill || "#777" }); t.textContent = text; svg.appendChild(t); };
    label(4, 12, "White 1");
    label(4, h - 4, "White 0");
    const who = { white: row[g.header.indexOf("white")], black: row[g.header.indexOf("black")] };
    const colour = { white: "#1e88e5", black: "#e53935" };
    ["white", "black"].forEach((o, j) => {
      const pts = [];
      ex.forEach((e, k) => { if (!isNaN(e) && owner[k] === o) pts.push(px(k + 1) + "," + py(e)); });
      if (pts.length) svg.appendChild(svgEl("polyline", { points: pts.join(" "), fill: "none", stroke: colour[o], "stroke-width": 1.5, class: "bot-" + o }));
      label(w - 150, 12 + 11 * j, "\u2014 " + who[o] + " (" + o + ")", colour[o]);
    });
    if (ply > 0) svg.appendChild(svgEl("line", { x1: px(ply), y1: 0, x2: px(ply), y2: h, stroke: "#333", "stroke-dasharray": "2,2" }));
    return svg;
  }
  // The review's evaluation after each ply, blunders marked; a click on
  // a mark goes to that ply; and the bots' own beside it.
  function drawEval(run, game, ply) {
    const host = document.getElementById("viewer-eval");
    host.replaceChildren();
    const own = botEvalGraph(run, cur.row, ply);
    if (own) host.append(el("div", { id: "viewer-bot-eval-title" }, "the bots' own evaluation: White's expected score after each ply, as each bot saw it"), own);
    const rev = runs[run].reviews[game];
    if (!rev) return;
    const svg = PahTumBoard.evalGraph(svgEl, rev.header, rev.rows, { ply: ply, pick: (k) => { cur.ply = k; draw(); } });
    svg.id = "viewer-eval-graph";
    const count = (v) => rev.rows.filter((r) => r[rev.header.indexOf("verdict")] === v).length;
    host.append(el("div", { id: "viewer-eval-title" }, "review by " + rev.reviewer + ": evaluation after each ply; " + count("blunder") + " blunders (red), " + count("inaccuracy") + " inaccuracies (orange)"), svg);
    const v = rev.header.indexOf("verdict");
    document.querySelectorAll("#viewer-moves li").forEach((li, k) => { const r = rev.rows[k]; if (r && r[v]) li.classList.add(r[v]); });
  }
  function openGame(run, row, ply) {
    const g = runs[run].games;
    const moves = row[g.header.indexOf("moves")].split(" ").filter((m) => m);
    const list = document.getElementById("viewer-moves");
    list.replaceChildren();
    moves.forEach((m, k) => {
      const li = el("li", {}, m);
      li.addEventListener("click", () => { cur.ply = k + 1; draw(); });
      list.appendChild(li);
    });
    const p = ply === "end" ? moves.length : Math.max(0, Math.min(moves.length, parseInt(ply, 10) || 0));
    cur = { run: run, row: row, ply: p, plies: moves.length };
    viewer.hidden = false;
    draw();
  }
  const step = (to) => { if (cur) { cur.ply = Math.max(0, Math.min(cur.plies, to(cur.ply))); draw(); } };
  document.getElementById("v-first").addEventListener("click", () => step(() => 0));
  document.getElementById("v-prev").addEventListener("click", () => step((p) => p - 1));
  document.getElementById("v-next").addEventListener("click", () => step((p) => p + 1));
  document.getElementById("v-last").addEventListener("click", () => step(() => Infinity));
  document.getElementById("viewer-close").addEventListener("click", () => { viewer.hidden = true; cur = null; });
  document.addEventListener("keydown", (e) => {
    if (!cur || viewer.hidden) return;
    const keys = { ArrowLeft: (p) => p - 1, ArrowRight: (p) => p + 1, Home: () => 0, End: () => Infinity };
    if (keys[e.key]) { step(keys[e.key]); e.preventDefault(); }
    if (e.key === "Escape") { viewer.hidden = true; cur = null; }
  });

  // Step 5: `#game=N&ply=end|K[&run=R]` opens game N of run R (the first
  // run with games when absent), so a link or a headless browser can.
  function fromHash() {
    const q = new URLSearchParams(location.hash.slice(1));
    if (!q.has("game")) return;
    const r = q.has("run") ? +q.get("run") : runs.findIndex((d) => d.games);
    const d = runs[r];
    if (!d || !d.games) { errors.textContent += "no games in run " + r + "\n"; return; }
    const row = d.games.rows.find((x) => x[d.games.header.indexOf("game")] === q.get("game"));
    if (!row) { errors.textContent += "no game " + q.get("game") + " in run " + r + "\n"; return; }
    openGame(r, row, q.get("ply") || "0");
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
