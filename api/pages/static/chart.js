/* heronlog pages: the score timeline, a small SVG line chart (no charting library).
 *
 * lineChart(players, points, current) draws each player's total after every turn: `points` is a list of
 * {label, round, values: [total per seat]}; `current` marks the replay's position. A table of the same numbers
 * sits beside it for screen readers. The player page draws a rating over games with it too (options), and its
 * score lines with barChart: a pair of bars per line (the player's mean and the club's).
 *
 * No line is told from another by its colour alone (WCAG 1.4.1): each seat's line has its own dash pattern and
 * its own point marker (circle, square, triangle, diamond), and the legend under the chart names each player
 * beside a sample of their line, drawn with the same stroke, dash and marker. Each colour stands out from the
 * chart's white at 3:1 at least (WCAG 1.4.11), so the light seats (white, yellow, orange) are drawn darker than
 * their pieces on the board.
 */

import { h, s } from "./dom.js";

// contrast with white: purple 6.1, green 4.3, blue 6.0, red 5.2, white 4.5, black 15.1, yellow 4.3, orange 4.3
const LINE = {
  purple: "#7a4ea3",
  green: "#2f8a46",
  blue: "#2f62b3",
  red: "#c43b3b",
  white: "#767676",
  black: "#262626",
  yellow: "#9a7400",
  orange: "#c05f00",
};
const OTHER = "#555555"; // a colour the list does not know (7.5:1)
const DASH = ["", "6 3", "2 3", "8 3 2 3"];
// Each marker drawn around (0, 0), about 7 units across, in the user space of the chart (not scaled by the
// line's width).
const MARKS = [
  (fill) => s("circle", { cx: 0, cy: 0, r: 3.4, fill }),
  (fill) => s("rect", { x: -3, y: -3, width: 6, height: 6, fill }),
  (fill) => s("path", { d: "M0 -4 L3.8 3 L-3.8 3 Z", fill }),
  (fill) => s("path", { d: "M0 -4.2 L4.2 0 L0 4.2 L-4.2 0 Z", fill }),
];

function lineColour(player) {
  return LINE[player.colour] || OTHER;
}

/** The seat's marker as an SVG <marker>, put on every point of its line (marker-start, -mid and -end). */
function markerDef(player, seat) {
  return s(
    "marker",
    { id: markerId(seat), viewBox: "-5 -5 10 10", markerWidth: 10, markerHeight: 10, markerUnits: "userSpaceOnUse", refX: 0, refY: 0, orient: "0" },
    MARKS[seat % MARKS.length](lineColour(player)),
  );
}

function markerId(seat) {
  return `chart-mark-${seat}`;
}

/** The stroke of a seat's line: its colour, its dash pattern and its marker on every point. */
function lineStyle(player, seat) {
  const marker = `url(#${markerId(seat)})`;
  return {
    fill: "none",
    stroke: lineColour(player),
    "stroke-width": 2.5,
    "stroke-dasharray": DASH[seat % DASH.length] || null,
    "marker-start": marker,
    "marker-mid": marker,
    "marker-end": marker,
    dataset: { mark: seat % MARKS.length },
  };
}

/**
 * options: `rounds` (false: the points are no turns of a game, and no round is marked), `xLabel` (the words under
 * the x axis), `what` (what the chart shows, for its summary) and `unit` (after each final value).
 */
export function lineChart(players, points, current = null, options = {}) {
  const { rounds = true, xLabel = "after each turn →", what = "Score timeline", unit = "points" } = options;
  const width = 640;
  const height = 260;
  const left = 40;
  const right = 12;
  const top = 14;
  const bottom = 34;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const max = Math.max(10, ...points.flatMap((p) => p.values));
  const niceMax = Math.ceil(max / 10) * 10;
  const niceMin = Math.min(0, Math.floor(Math.min(0, ...points.flatMap((p) => p.values)) / 10) * 10);
  const span = niceMax - niceMin;
  const x = (i) => left + (points.length > 1 ? (i * plotW) / (points.length - 1) : plotW / 2);
  const y = (value) => top + plotH - ((value - niceMin) / span) * plotH;
  const nodes = [s("defs", {}, players.map(markerDef))];
  const step = niceMin === 0 ? niceMax / 5 : Math.ceil(span / 50) * 10; // below zero: a line every 10 or more
  for (let v = niceMin; v <= niceMax; v += step) {
    nodes.push(s("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }));
    nodes.push(s("text", { x: left - 6, y: y(v) + 4, class: "t small", "text-anchor": "end" }, String(Math.round(v))));
  }
  let lastRound = null;
  points.forEach((point, i) => {
    if (rounds && point.round !== lastRound) {
      nodes.push(s("line", { x1: x(i), x2: x(i), y1: top, y2: top + plotH, class: "round-line" }));
      nodes.push(s("text", { x: x(i) + 3, y: height - 18, class: "t small" }, point.round ? `Round ${point.round}` : "Setup"));
      lastRound = point.round;
    }
  });
  if (current !== null && current >= 0 && current < points.length) {
    nodes.push(s("line", { x1: x(current), x2: x(current), y1: top, y2: top + plotH, class: "now-line" }));
  }
  players.forEach((player, seat) => {
    const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(p.values[seat] || 0).toFixed(1)}`).join(" ");
    nodes.push(
      s(
        "path",
        { d: path, ...lineStyle(player, seat), class: `series series-${seat}` },
        s("title", {}, `${player.name}: ${points.length ? points[points.length - 1].values[seat] : 0} ${unit}`),
      ),
    );
  });
  nodes.push(s("text", { x: left, y: height - 4, class: "t small" }, xLabel));
  const final = points.length ? points[points.length - 1].values : [];
  const summary = `${what}: ${players.map((p, i) => `${p.name} ${final[i] || 0}`).join(", ")} after ${points.length} ${rounds ? "turns" : "games"}`;
  const legend = h(
    "ul",
    { class: "legend" },
    players.map((player, seat) =>
      h(
        "li",
        {},
        // a sample of the player's line: the same stroke, dash and marker as in the chart
        s("svg", { class: "legend-sample", viewBox: "0 0 44 12", width: 44, height: 12, "aria-hidden": "true" }, s("path", { d: "M2 6 L22 6 L42 6", ...lineStyle(player, seat), "marker-start": null, "marker-end": null })),
        `${player.name}: ${final[seat] || 0}`,
      ),
    ),
  );
  const table = h(
    "details",
    { class: "chart-table" },
    h("summary", {}, "The numbers"),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "After"), players.map((p) => h("th", { scope: "col" }, p.name)))),
        h("tbody", {}, points.map((p) => h("tr", {}, h("th", { scope: "row" }, p.label), p.values.map((v) => h("td", {}, String(v)))))),
      ),
    ),
  );
  return h(
    "figure",
    { class: "line-chart" },
    s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, class: "chart-svg" }, ...nodes),
    h("figcaption", {}, legend),
    table,
  );
}

/**
 * barChart(rows, series): for each row {label, values: [one per series]}, a bar per series side by side
 * (horizontal, so long labels fit a phone); `series` is [{name, colour}]. Each series has its own fill pattern
 * as well as its colour (the second is hatched), and the numbers follow every bar and fill a table for screen
 * readers.
 */
export function barChart(rows, series, what = "Score lines") {
  const width = 360;
  const left = 118;
  const right = 34;
  const barH = 14;
  const gap = 10;
  const rowH = series.length * barH + gap;
  const height = 10 + rows.length * rowH;
  const max = Math.max(1, ...rows.flatMap((row) => row.values.map((v) => v || 0)));
  const w = (value) => ((value || 0) / max) * (width - left - right);
  const nodes = [
    s(
      "defs",
      {},
      s("pattern", { id: "bar-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 6, height: 6, fill: "#ffffff" }),
        s("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: OTHER, "stroke-width": 3 })),
    ),
  ];
  rows.forEach((row, r) => {
    const top = 5 + r * rowH;
    nodes.push(s("text", { x: left - 8, y: top + (series.length * barH) / 2 + 4, class: "t", "text-anchor": "end" }, row.label));
    series.forEach((one, k) => {
      const value = row.values[k];
      const fill = k === 1 ? "url(#bar-hatch)" : LINE[one.colour] || OTHER;
      nodes.push(
        s("rect", { x: left, y: top + k * barH, width: Math.max(0.5, w(value)), height: barH - 2, fill, stroke: LINE[one.colour] || OTHER, class: `bar bar-${k}` },
          s("title", {}, `${row.label}, ${one.name}: ${value === null || value === undefined ? "none" : value}`)),
      );
      nodes.push(s("text", { x: left + w(value) + 4, y: top + k * barH + barH - 3, class: "t small" }, value === null || value === undefined ? "—" : String(value)));
    });
  });
  const legend = h(
    "ul",
    { class: "legend" },
    series.map((one, k) =>
      h(
        "li",
        {},
        s("svg", { class: "legend-sample", viewBox: "0 0 20 12", width: 20, height: 12, "aria-hidden": "true" },
          s("rect", { x: 1, y: 1, width: 18, height: 10, fill: k === 1 ? "url(#bar-hatch)" : LINE[one.colour] || OTHER, stroke: LINE[one.colour] || OTHER })),
        one.name,
      ),
    ),
  );
  const table = h(
    "details",
    { class: "chart-table" },
    h("summary", {}, "The numbers"),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Line"), series.map((one) => h("th", { scope: "col" }, one.name)))),
        h("tbody", {}, rows.map((row) => h("tr", {}, h("th", { scope: "row" }, row.label), row.values.map((v) => h("td", {}, v === null || v === undefined ? "—" : String(v)))))),
      ),
    ),
  );
  const summary = `${what}: ${rows.map((row) => `${row.label} ${row.values.map((v) => (v === null || v === undefined ? "none" : v)).join(" and ")}`).join("; ")}`;
  return h(
    "figure",
    { class: "bar-chart" },
    s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, class: "chart-svg bars" }, ...nodes),
    h("figcaption", {}, legend),
    table,
  );
}

/**
 * The computer analysis's chart: each player's expected final margin (their total less the best other total,
 * CP) after every decision analysed. `points` is a list of {label, version, seat, values: [margin per seat], mark};
 * a move marked ?!, ? or ?? carries its glyph over the mover's point; `current` is the version shown, and
 * clicking a point (with a mouse) calls onPick(version). The zero line is the tie; above it a player is ahead.
 */
export function marginChart(players, points, current, onPick) {
  const width = 640;
  const height = 240;
  const left = 40;
  const right = 12;
  const top = 16;
  const bottom = 26;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const extent = Math.max(5, ...points.flatMap((p) => p.values.map((v) => Math.abs(v))));
  const span = Math.ceil(extent / 5) * 5;
  const x = (i) => left + (points.length > 1 ? (i * plotW) / (points.length - 1) : plotW / 2);
  const y = (value) => top + plotH / 2 - (value / span) * (plotH / 2);
  const nodes = [s("defs", {}, players.map(markerDef))];
  for (const v of [-span, -span / 2, 0, span / 2, span]) {
    nodes.push(s("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: v === 0 ? "zero-line" : "grid" }));
    nodes.push(s("text", { x: left - 6, y: y(v) + 4, class: "t small", "text-anchor": "end" }, `${v > 0 ? "+" : ""}${Math.round(v)}`));
  }
  const at = points.findIndex((p) => p.version === current);
  if (at >= 0) nodes.push(s("line", { x1: x(at), x2: x(at), y1: top, y2: top + plotH, class: "now-line" }));
  players.forEach((player, seat) => {
    const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)} ${y(p.values[seat] || 0).toFixed(1)}`).join(" ");
    nodes.push(s("path", { d: path, ...lineStyle(player, seat), "marker-mid": null, class: `series series-${seat}` }, s("title", {}, `${player.name}: expected final margin`)));
  });
  points.forEach((point, i) => {
    const px = x(i);
    const py = y(point.values[point.seat] || 0);
    const label = `${point.label}: ${players[point.seat] ? players[point.seat].name : ""} ${point.values[point.seat] >= 0 ? "+" : ""}${(point.values[point.seat] || 0).toFixed(1)}${point.mark ? ` ${point.mark}` : ""}`;
    // a shortcut for the mouse (the step bar and the list of moves reach every move, by keyboard and on a phone):
    // no control of its own, so the chart stays one image for a screen reader
    const hit = s("circle", { cx: px, cy: py, r: point.mark ? 5 : 3, class: `pick${point.mark ? " marked" : ""}` }, s("title", {}, label));
    hit.addEventListener("click", () => onPick(point.version));
    nodes.push(hit);
    if (point.mark) nodes.push(s("text", { x: px, y: py - 8, class: `t small glyph-mark mark-${point.mark === "??" ? "blunder" : point.mark === "?" ? "mistake" : "dubious"}`, "text-anchor": "middle" }, point.mark));
  });
  nodes.push(s("text", { x: left, y: height - 6, class: "t small" }, "after each decision →"));
  const summary = `Expected final margins after each of ${points.length} decisions analysed; ${points.filter((p) => p.mark).length} moves marked`;
  const legend = h(
    "ul",
    { class: "legend" },
    players.map((player, seat) =>
      h(
        "li",
        {},
        s("svg", { class: "legend-sample", viewBox: "0 0 44 12", width: 44, height: 12, "aria-hidden": "true" }, s("path", { d: "M2 6 L22 6 L42 6", ...lineStyle(player, seat), "marker-start": null, "marker-end": null })),
        player.name,
      ),
    ),
  );
  return h("figure", { class: "line-chart margin-chart" }, s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary, class: "chart-svg" }, ...nodes), h("figcaption", {}, legend));
}
