// The board logic that the report's viewer and the serve page share:
// squares by name, the cells after some moves, and the runs that score
// (each maximal row or column run of one colour, 3 or more long, as
// docs/RULES.md scores it).
const PahTumBoard = (() => {
  const square = (s) => [s.charCodeAt(0) - 97, parseInt(s.slice(1), 10) - 1];
  // Cells: 0 empty, 1 hole, 2 white, 3 black; swap moves keep the colour order.
  function position(n, holes, moves, ply) {
    const cells = Array.from({ length: n }, () => new Array(n).fill(0));
    for (const h of holes) { const [f, r] = square(h); cells[r][f] = 1; }
    let colour = 2;
    for (const m of moves.slice(0, ply)) {
      if (m === "swap") continue;
      const [f, r] = square(m);
      cells[r][f] = colour;
      colour = 5 - colour;
    }
    return cells;
  }
  // The runs that score: [colour, [f0, r0], [f1, r1], length].
  function runsOf(cells, n) {
    const found = [];
    for (const dir of [[1, 0], [0, 1]]) {
      for (let a = 0; a < n; a++) {
        let start = 0;
        for (let b = 0; b <= n; b++) {
          const at = (k) => dir[0] ? cells[a][k] : cells[k][a];
          if (b === n || at(b) !== at(start)) {
            const len = b - start, c = at(start);
            if (len >= 3 && c >= 2) {
              const p0 = dir[0] ? [start, a] : [a, start], p1 = dir[0] ? [b - 1, a] : [a, b - 1];
              found.push([c, p0, p1, len]);
            }
            start = b;
          }
        }
      }
    }
    return found;
  }
  // Clears `board` (an SVG of 100 x 100 units) to an empty n x n grid;
  // `svgEl(tag, attrs)` makes an SVG element.
  function grid(board, n, svgEl) {
    const cell = 100 / n;
    board.replaceChildren();
    board.appendChild(svgEl("rect", { x: 0, y: 0, width: 100, height: 100, fill: "#e8c98e" }));
    for (let k = 0; k <= n; k++) {
      board.appendChild(svgEl("line", { x1: k * cell, y1: 0, x2: k * cell, y2: 100, stroke: "#8a6d3b", "stroke-width": 0.3 }));
      board.appendChild(svgEl("line", { x1: 0, y1: k * cell, x2: 100, y2: k * cell, stroke: "#8a6d3b", "stroke-width": 0.3 }));
    }
  }
  // The files' letters below the grid and the ranks' numbers left of it,
  // in the margin of a board whose viewBox is "-5 0 105 105", so that no
  // label lies on a stone or a hole.
  function labels(board, n, svgEl) {
    const cell = 100 / n;
    const lab = { "font-size": 3.2, fill: "#5a4520", "text-anchor": "middle", "pointer-events": "none", class: "label" };
    for (let k = 0; k < n; k++) {
      const a = svgEl("text", Object.assign({ x: (k + 0.5) * cell, y: 103.6 }, lab));
      a.textContent = "abcdefgh"[k];
      board.appendChild(a);
      const b = svgEl("text", Object.assign({ x: -2.5, y: (n - k - 0.5) * cell + 1.1 }, lab));
      b.textContent = k + 1;
      board.appendChild(b);
    }
  }
  // A review's evaluation graph (review.csv's `header` and `rows`), as
  // White sees it: above the middle line White is ahead. Each row's
  // `eval_after` is the mover's (the colour the mover holds after the
  // move, so a pie swap hands it over), on the bot's scale: a mean reward
  // in [0, 1] (mcts, flatmc) or points (the rest), told apart by whether
  // every value lies in [0, 1]. Blunders are red dots, inaccuracies orange
  // ones; `opts.ply` draws a marker at that ply, `opts.pick(ply)` is
  // called on a click on a dot.
  function evalGraph(svgEl, header, rows, opts) {
    opts = opts || {};
    const c = (k) => header.indexOf(k);
    const num = (r, k) => (c(k) >= 0 && r[c(k)] !== "" ? parseFloat(r[c(k)]) : NaN);
    const all = rows.flatMap((r) => [num(r, "eval_before"), num(r, "eval_after")]).filter((e) => !isNaN(e));
    const reward = all.every((e) => e >= 0 && e <= 1);
    const flip = (e) => (reward ? 1 - e : -e);
    const whites = [rows.length ? num(rows[0], "eval_before") : NaN];
    if (rows.length && rows[0][c("mover")] !== "white") whites[0] = flip(whites[0]);
    rows.forEach((r) => {
      const holdsWhite = (r[c("mover")] === "white") !== (r[c("move")] === "swap");
      const e = num(r, "eval_after");
      whites.push(isNaN(e) ? NaN : holdsWhite ? e : flip(e));
    });
    const mid = reward ? 0.5 : 0;
    const span = reward ? 0.5 : Math.max(1e-9, ...whites.filter((e) => !isNaN(e)).map((e) => Math.abs(e)));
    const w = opts.width || 320, h = opts.height || 140;
    const px = (k) => 4 + (k * (w - 8)) / Math.max(1, rows.length);
    const py = (e) => h / 2 - ((e - mid) / span) * (h / 2 - 6);
    const svg = svgEl("svg", { width: w, height: h, viewBox: "0 0 " + w + " " + h, class: "eval-graph" });
    svg.appendChild(svgEl("rect", { x: 0, y: 0, width: w, height: h, fill: "#fafafa", stroke: "#ccc" }));
    svg.appendChild(svgEl("line", { x1: 0, y1: h / 2, x2: w, y2: h / 2, stroke: "#aaa" }));
    const label = (y, text) => { const t = svgEl("text", { x: 4, y: y, "font-size": 10, fill: "#777" }); t.textContent = text; svg.appendChild(t); };
    label(12, "White ahead");
    label(h - 4, "Black ahead");
    const pts = whites.map((e, k) => (isNaN(e) ? null : px(k) + "," + py(e))).filter((p) => p);
    svg.appendChild(svgEl("polyline", { points: pts.join(" "), fill: "none", stroke: "#1e88e5", "stroke-width": 1.5 }));
    if (opts.ply !== undefined && opts.ply > 0) {
      svg.appendChild(svgEl("line", { x1: px(opts.ply), y1: 0, x2: px(opts.ply), y2: h, stroke: "#333", "stroke-dasharray": "2,2", class: "at-ply" }));
    }
    rows.forEach((r, k) => {
      const v = r[c("verdict")];
      if (v !== "blunder" && v !== "inaccuracy") return;
      const e = isNaN(whites[k + 1]) ? mid : whites[k + 1];
      const dot = svgEl("circle", { cx: px(k + 1), cy: py(e), r: v === "blunder" ? 4 : 3, fill: v === "blunder" ? "#e53935" : "#fb8c00", class: v, "data-ply": k + 1 });
      const lost = r[c("margin_lost")];
      const tip = svgEl("title", {});
      tip.textContent = "ply " + (k + 1) + " " + r[c("move")] + ": " + v + (lost ? ", " + lost + " points lost" : "");
      dot.appendChild(tip);
      if (opts.pick) { dot.style.cursor = "pointer"; dot.addEventListener("click", () => opts.pick(k + 1)); }
      svg.appendChild(dot);
    });
    return svg;
  }
  return { square, position, runsOf, grid, labels, evalGraph };
})();
