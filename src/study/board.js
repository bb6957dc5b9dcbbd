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
  return { square, position, runsOf, grid };
})();
