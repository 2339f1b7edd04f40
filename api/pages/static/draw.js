/* heronlog pages: the drawing's small parts, shared by the board (board.js) and the card pictures (cards.js): a
 * text, an icon of the pages' one icon set (the sprite in base.html) with its count, a row of icons, a cost, a die
 * with its pips, a frame. All in SVG units; every function returns nodes built with s() (dom.js).
 */

import { s } from "./dom.js";

export const DIE_FILL = { coral: "#e8735a", black: "#2b2b2b", white: "#f7f5ef", green: "#5d9b4e" };
const PIP = { coral: "#1b1b1b", black: "#ffffff", white: "#1b1b1b", green: "#111111" };

export function text(x, y, content, cls = "t", attrs = {}) {
  return s("text", { x, y, class: cls, ...attrs }, String(content));
}

export function use(name, x, y, size, attrs = {}) {
  return s("use", { href: `#i-${name}`, x, y, width: size, height: size, ...attrs });
}

/** One icon of the catalog's notation ("coin:2", "tile:coral", "courtier"), drawn, with its count. Returns
 * [node, width]. */
export function icon(notation, x, y, size = 26) {
  const [name, arg] = String(notation).split(":");
  const g = s("g", { class: "icon" });
  let width = size;
  if (name === "tile" || name === "curtain" || name === "yard") {
    const colour = { coral: DIE_FILL.coral, black: DIE_FILL.black, white: DIE_FILL.white, any: "#d9c9a3", yellow: "#f0cf4a", blue: "#6b9be0", both: "#b9a4d6", yellows: "#f0cf4a" }[arg] || "#ccc";
    g.append(use(name, x, y, size, { color: colour }));
  } else if (name === "slash") {
    g.append(use(arg || "any", x, y, size), use("slash", x + size * 0.55, y, size * 0.7), use("geisha", x + size, y, size, { color: "#f3d9e4" }));
    width = size * 2;
  } else if (["courtier", "gardener", "warrior", "geisha"].includes(name)) {
    g.append(use(name, x, y, size, { color: "#efe6d2" }));
  } else {
    g.append(use(name, x, y, size));
    const amount = arg && /^\d+$/.test(arg) ? Number(arg) : null;
    if (amount !== null && (amount > 1 || ["coin", "seal", "food", "iron", "pearl", "cp", "whisk", "pot", "any"].includes(name))) {
      const label = name === "pot" ? `+${amount}` : String(amount);
      g.append(text(x + size + 2, y + size * 0.8, label, "t t-b"));
      width = size + 4 + label.length * 10;
    }
  }
  return [g, width];
}

/** A row of icons from x; returns [nodes, width]. */
export function iconRow(list, x, y, size = 26, gap = 4) {
  const nodes = [];
  let at = x;
  for (const item of list || []) {
    const [node, width] = icon(item, at, y, size);
    nodes.push(node);
    at += width + gap;
  }
  return [nodes, at - x];
}

/** A cost ({seal: 1}) as icons, then an arrow: what is paid for what follows. */
export function costRow(cost, x, y, size = 24) {
  const list = Object.entries(cost || {}).filter(([, n]) => n).map(([k, n]) => `${k}:${n}`);
  if (!list.length) return [[], 0];
  const [nodes, width] = iconRow(list, x, y, size, 2);
  nodes.push(text(x + width + 2, y + size * 0.8, "→", "t t-b"));
  return [nodes, width + 20];
}

const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

/** A die as a die: its colour, its pips; a ring of the clan's colour when a player placed it. */
export function die(x, y, size, colour, value, seatColour = null) {
  const g = s("g", { class: "die" });
  if (seatColour) g.append(s("rect", { x: x - 4, y: y - 4, width: size + 8, height: size + 8, rx: size * 0.25, fill: seatColour, stroke: "#111", "stroke-width": 1 }));
  g.append(s("rect", { x, y, width: size, height: size, rx: size * 0.18, fill: DIE_FILL[colour] || "#ccc", stroke: "#111", "stroke-width": 1.5 }));
  for (const [px, py] of PIPS[value] || []) g.append(s("circle", { cx: x + px * size, cy: y + py * size, r: size * 0.085, fill: PIP[colour] || "#111" }));
  return g;
}

/** Dice placed on a space, the last on top; each die under another peeks out above it, its value beside it. */
export function frame(x, y, width, height, cls, rx = 8) {
  return s("rect", { x, y, width, height, rx, class: cls });
}
