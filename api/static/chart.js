/* heronlog pages: the score timeline, a small SVG line chart (no charting library).
 *
 * lineChart(players, points, current) draws each player's total after every turn: `points` is a list of
 * {label, round, values: [total per seat]}; `current` marks the replay's position. A table of the same numbers
 * sits beside it for screen readers.
 */

import { h, s } from "./dom.js";

const LINE = {
  purple: "#7a4ea3",
  green: "#2f8a46",
  blue: "#2f62b3",
  red: "#c43b3b",
  white: "#9a9a9a",
  black: "#262626",
  yellow: "#c9990f",
  orange: "#e47d22",
};
const DASH = ["", "6 3", "2 3", "8 3 2 3"];

export function lineChart(players, points, current = null) {
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
  const x = (i) => left + (points.length > 1 ? (i * plotW) / (points.length - 1) : plotW / 2);
  const y = (value) => top + plotH - (value / niceMax) * plotH;
  const nodes = [];
  for (let v = 0; v <= niceMax; v += niceMax / 5) {
    nodes.push(s("line", { x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid" }));
    nodes.push(s("text", { x: left - 6, y: y(v) + 4, class: "t small", "text-anchor": "end" }, String(Math.round(v))));
  }
  let lastRound = null;
  points.forEach((point, i) => {
    if (point.round !== lastRound) {
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
        { d: path, fill: "none", stroke: LINE[player.colour] || "#555", "stroke-width": 2.5, "stroke-dasharray": DASH[seat % DASH.length], class: `series series-${seat}` },
        s("title", {}, `${player.name}: ${points.length ? points[points.length - 1].values[seat] : 0} points`),
      ),
    );
  });
  nodes.push(s("text", { x: left, y: height - 4, class: "t small" }, "after each turn →"));
  const final = points.length ? points[points.length - 1].values : [];
  const summary = `Score timeline: ${players.map((p, i) => `${p.name} ${final[i] || 0}`).join(", ")} after ${points.length} turns`;
  const legend = h(
    "ul",
    { class: "legend" },
    players.map((player, seat) =>
      h("li", {}, h("span", { class: `legend-line colour-${player.colour} dash-${seat % DASH.length}`, "aria-hidden": "true" }), `${player.name}: ${final[seat] || 0}`),
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
