/* heronlog pages: a card or tile drawn as the board draws it, for the pickers (picker.js) of the table setup and
 * of a card revealed mid-game: a castle card's blocks (light or dark, what they cost and do), a Daimyo card's
 * three spots, a garden with its food, points and action, a yard tile's face, a die tile's reward and the colour
 * on its back, a starting pair's cards, Matcha's lily pads, Himeji cards and ceremony tokens, a solo card. The
 * same icons and frames as the board (draw.js), so that a player knows the printed card at a glance.
 *
 * byId(catalog) indexes the catalog's entries (as GET catalog and the layout form give them) by id;
 * picture(cards, pool, id) draws one (pool: the layout form's pool, or a reveal's: "steward", "yard_tiles.blue",
 * "ceremony.yellow"...), or null for an id the catalog has not. The words of each card are the API's.
 */

import { s } from "./dom.js";
import { DIE_FILL, costRow, die, frame, iconRow, text, use } from "./draw.js";

/** The catalog's entries by id, each with its family ("stewards", "gardens"...). */
export function byId(catalog) {
  const cards = {};
  for (const [family, list] of Object.entries(catalog || {})) {
    if (Array.isArray(list)) for (const entry of list) if (entry && entry.id) cards[entry.id] = { ...entry, family };
  }
  return cards;
}

function svg(width, height, nodes) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: "board-svg card-picture", "aria-hidden": "true", focusable: "false" }, ...nodes);
}

/** A row of icons after what they cost (if anything), in a frame of class `cls`. */
function effectRow(cost, effects, x, y, width, height, cls, size = 28) {
  const [costNodes, costW] = costRow(cost, x + 8, y + (height - 24) / 2, 24);
  const [icons] = iconRow(effects, x + 8 + costW, y + (height - size) / 2, size);
  const node = s("g", { class: cls.includes("dark") ? "on-dark" : "" }, frame(x, y, width, height, cls, 5), ...costNodes, ...icons);
  return node;
}

function castleCard(card) {
  const blocks = card.blocks || [];
  const width = 300;
  const nodes = [frame(1, 1, width - 2, 38 + blocks.length * 50, "area room"), text(10, 26, `${card.id}${card.diamond ? " ♦" : ""}`, "t t-b")];
  blocks.forEach((block, i) => nodes.push(effectRow(block.cost, block.effects, 8, 34 + i * 50, width - 16, 44, `block ${block.background}`)));
  return svg(width, 40 + blocks.length * 50, nodes);
}

function daimyoCard(card) {
  const spots = card.spots || [];
  const nodes = [frame(1, 1, 378, 128, "area daimyo", 10), use("daimyo", 10, 8, 26), text(42, 28, card.id, "t t-b")];
  spots.forEach((spot, i) => {
    const [icons] = iconRow(spot, 16 + i * 120, 58, 28);
    nodes.push(frame(8 + i * 122, 40, 116, 80, "spot", 8), ...icons);
  });
  return svg(380, 130, nodes);
}

function garden(card) {
  const nodes = [frame(1, 1, 258, 150, `area garden garden-${card.type}`, 8), use(card.type === "plant" ? "plant" : "stone", 8, 8, 28), text(44, 30, card.id, "t t-b")];
  nodes.push(use("food", 8, 46, 26), text(38, 66, `${card.food}`, "t t-b"), use("cp", 150, 46, 26), text(180, 66, `${card.cp}`, "t t-b"));
  const [costNodes, costW] = costRow(card.cost, 8, 100, 24);
  const [icons] = iconRow(card.effects, 8 + costW, 98, 28);
  nodes.push(...costNodes, ...icons);
  return svg(260, 152, nodes);
}

function yardTile(card, face) {
  if (!face) {
    // revealed before its face is known (a yard space's deal names it): both faces, blue above yellow
    return svg(260, 104, [text(8, 22, card.id, "t t-s"), effectRow(null, card.blue || [], 2, 28, 256, 34, "yard-tile blue", 26), effectRow(null, card.yellow || [], 2, 66, 256, 34, "yard-tile yellow", 26)]);
  }
  return svg(260, 64, [text(8, 22, `${card.id} · ${face} side`, "t t-s"), effectRow(null, card[face] || [], 2, 28, 256, 34, `yard-tile ${face}`, 26)]);
}

function dieTile(card) {
  const nodes = [effectRow(null, card.reward || [], 2, 20, 196, 44, "block well-tile"), text(8, 16, card.id, "t t-s")];
  nodes.push(use("tile", 206, 24, 36, { color: DIE_FILL[card.colour] }));
  return svg(250, 66, nodes);
}

function startingResource(card, cards) {
  const [gain] = iconRow(card.gain || [], 10, 38, 26);
  const nodes = [frame(1, 1, 318, 128, "area offer"), text(10, 26, card.id, "t t-b"), ...gain];
  const decree = card.decree ? cards[card.decree] : null;
  const [lantern, lw] = iconRow(card.lantern || [], 46, 84, 24);
  nodes.push(frame(8, 76, 56 + lw, 40, "lantern-card", 5), use("lantern", 14, 82, 26), ...lantern);
  if (decree) {
    const [decreeIcons, dw] = iconRow(decree.lantern || [], 160 + 40, 84, 24);
    nodes.push(frame(160, 76, 50 + dw, 40, "lantern-card", 5), use("light", 166, 82, 26), ...decreeIcons);
  }
  return svg(320, 130, nodes);
}

function startingAction(card) {
  const block = (card.blocks || [])[0] || { effects: [], background: "light" };
  return svg(260, 74, [text(8, 20, card.id, "t t-s"), effectRow(block.cost, block.effects, 2, 26, 256, 46, `block ${block.background}`, 32)]);
}

function lilyPad(card) {
  const [icons] = iconRow(card.effects || [], 40, 36, 26);
  return svg(200, 80, [text(8, 18, card.id, "t t-s"), s("ellipse", { cx: 100, cy: 50, rx: 96, ry: 28, class: "lily-pad" }), ...icons]);
}

function himeji(card) {
  const [yellow] = iconRow(card.yellow || [], 44, 40, 28);
  const [costNodes, costW] = costRow(card.blue_cost, 44, 96, 24);
  const [blue] = iconRow(card.blue || [], 44 + costW, 94, 28);
  return svg(280, 144, [
    frame(1, 1, 278, 142, "area deck"),
    text(10, 24, `${card.id}${card.diamond ? " ♦" : ""}`, "t t-b"),
    frame(6, 32, 268, 48, "curtain yellow", 5),
    use("curtain", 10, 42, 28, { color: "#f0cf4a" }),
    ...yellow,
    frame(6, 88, 268, 48, "curtain blue", 5),
    use("curtain", 10, 98, 28, { color: "#6b9be0" }),
    ...costNodes,
    ...blue,
  ]);
}

function ceremonyFace(card, face) {
  const [icons] = iconRow(card.effects || [], 44, 32, 26);
  return svg(260, 72, [text(8, 18, face ? `${card.id} · ${face} side` : card.id, "t t-s"), frame(2, 24, 256, 44, "block token", 6), use("token", 8, 32, 28), ...icons]);
}

function soloCard(card) {
  const [icons] = iconRow(card.icons || [], 60, 62, 26);
  return svg(240, 104, [frame(1, 1, 238, 102, "solo-card", 6), text(10, 24, card.id, "t t-b"), die(10, 54, 40, card.bridge, card.end === "left" ? 1 : 6), use(card.end === "left" ? "lantern" : "advance", 180, 6, 24), ...icons]);
}

/** The picture of card `id` of `pool` (null when the catalog has no such card). */
export function picture(cards, pool, id) {
  const card = cards[id];
  if (!card) return null;
  const [kind, face] = String(pool).split(".");
  if (card.family === "stewards" || card.family === "diplomats") return castleCard(card);
  if (card.family === "daimyo") return daimyoCard(card);
  if (card.family === "gardens") return garden(card);
  if (card.family === "yard_tiles") return yardTile(card, face || null);
  if (card.family === "die_tiles") return dieTile(card);
  if (card.family === "starting_resources") return startingResource(card, cards);
  if (card.family === "starting_actions") return startingAction(card);
  if (card.family === "lily_pads") return lilyPad(card);
  if (card.family === "ikebana" || card.family === "calligraphy") return himeji(card);
  if (card.family === "ceremony_faces") return ceremonyFace(card, kind === "ceremony" && face ? face : null);
  if (card.family === "solo_cards") return soloCard(card);
  return null;
}
