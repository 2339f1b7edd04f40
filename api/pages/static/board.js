/* heronlog pages: the board, drawn as SVG the way the printed board is laid out, and itself the input.
 *
 * draw(host, model, options) draws the main board (the Passage of Time along the top; the Training Yards, the
 * castle with the Daimyo on top, its diplomat and steward rooms and the Gate, Outside the Walls and the Well;
 * the three bridges with their dice and the gardens under them; Matcha's green bridge, Tea Room, Himeji and Tea
 * Garden when in play) and one Personal Domain board per player (the solo rival's sheet in its place). model is
 * {state, players, words, waitingSeat}: the board JSON, the seats, and the game's words as the API serves them
 * with the catalog (words.parts names every part, words.cards and words.icons say what cards and icons do).
 *
 * Every part is a <g data-part="ID"> with the id the API gives a move's target (bridge:coral:left,
 * room:steward_2, room:steward_2:top, yard:yard_1, track:11, domain:0:row:courtiers...). options.targets maps the
 * ids the pending prompt's moves act on to their words: those parts become buttons (role, tabindex, accessible
 * name, Enter and Space), lit, and the rest of the board dims; options.onTarget(id) is called when one is
 * chosen. The JavaScript knows no rule: where a move goes is the API's target, what it does is the API's words.
 *
 * On a narrow screen the board is laid out in one column and shows the region the prompt is about (the castle
 * while a die is placed there), at a readable size, its tap targets 44 px at least; the region bar above it shows
 * any other, or the whole board. The domain of the player to play comes first. bringIntoView(host) brings the
 * prompt's lit parts into view in a board that scrolls in its own box (the recording screen's).
 */

import { h, s, replace } from "./dom.js";
import { byId } from "./cards.js";
import { DIE_FILL, costRow, die, frame, iconRow, text, use } from "./draw.js";

const SEAT_FILL = {
  purple: "#7a4ea3",
  green: "#2a7f40",
  blue: "#2f62b3",
  red: "#c43b3b",
  white: "#f4f4f4",
  black: "#262626",
  yellow: "#e2b52a",
  orange: "#e47d22",
};
const MEMBER_OF_ROW = { courtiers: "courtier", gardeners: "gardener", warriors: "warrior", geishas: "geisha" };
const NARROW = 700; // px: below it, one column and one region at a time

const REGIONS = [
  ["castle", "Castle"],
  ["bridges", "Bridges"],
  ["yards", "Yards"],
  ["well", "Well"],
  ["track", "Time track"],
  ["matcha", "Matcha"],
  ["offer", "Starting pairs"],
  ["all", "Whole board"],
];

// --- small drawing helpers ---------------------------------------------------------------------------

function seatFill(players, seat) {
  return SEAT_FILL[players[seat] && players[seat].colour] || "#6e6e6e";
}

function diceStack(dice, x, y, size, players) {
  const nodes = [];
  (dice || []).forEach((item, i) => {
    const under = i < dice.length - 1;
    const dx = x + i * (size * 0.45);
    const dy = y - (dice.length - 1 - i) * 0;
    nodes.push(die(dx, dy, size, item.colour, item.value, item.seat !== undefined && item.seat !== null ? seatFill(players, item.seat) : null));
    if (under) nodes.push(text(dx + 2, dy - 10, String(item.value), "t t-s"));
  });
  return nodes;
}

function member(kind, x, y, size, players, seat) {
  return use(kind, x, y, size, { color: seatFill(players, seat), class: "member" });
}

/** A part of the board: the id the API's targets use, and its name (a tooltip; the accessible name when it
 * becomes a target). */
function part(ctx, id, extra, ...children) {
  const name = ctx.words.parts[id] || "";
  const tip = [name, extra].filter(Boolean).join(": ");
  return s("g", { class: "part", "data-part": id }, tip ? s("title", {}, tip) : null, ...children);
}

function cardTip(ctx, id) {
  return id ? ctx.words.cards[id] || id : "";
}

// --- sections: each returns {node, width, height}, drawn at 0,0 ----------------------------------------

function section(region, width, height, ...children) {
  return { node: s("g", { "data-region": region }, ...children), width, height, region };
}

function heading(x, y, words) {
  return text(x, y, words, "t t-h");
}

function track(ctx, width) {
  const pot = ctx.state.catalog.passage_of_time || { last_space: 20, milestones: {}, points: [] };
  const last = pot.last_space || 20;
  const perRow = width >= 1000 ? last + 1 : Math.ceil((last + 1) / 2);
  const cell = (width - 20) / perRow;
  const rows = Math.ceil((last + 1) / perRow);
  const nodes = [frame(2, 2, width - 4, 44 + rows * 96, "area track")];
  const st = ctx.state;
  nodes.push(heading(14, 30, `Passage of Time · round ${st.round} of ${(st.rules && st.rules.rounds) || 3}`));
  const stacks = {};
  st.players.forEach((player, seat) => (stacks[player.pot] = stacks[player.pot] || []).push(seat));
  for (let i = 0; i <= last; i += 1) {
    const x = 10 + (i % perRow) * cell;
    const y = 44 + Math.floor(i / perRow) * 96;
    const seals = pot.milestones && pot.milestones[String(i)];
    const points = (pot.points || [])[i];
    const children = [frame(x + 2, y, cell - 4, 88, seals ? "space pot milestone" : "space pot", 6), text(x + cell / 2, y + 22, i, "t t-b", { "text-anchor": "middle" })];
    if (seals) children.push(use("seal", x + cell / 2 - 20, y + 28, 20), text(x + cell / 2 + 3, y + 44, `${seals}`, "t t-b"));
    if (points && (seals || i === last || points !== (pot.points || [])[i - 1])) children.push(text(x + cell / 2, y + 80, `${points}`, "t t-s cp", { "text-anchor": "middle" }));
    (stacks[i] || [])
      .sort((a, b) => st.players[a].pot_stamp - st.players[b].pot_stamp)
      .forEach((seat, k) => children.push(use("influence", x + cell / 2 - 13 + k * 4, y + 50 - k * 9, 26, { color: seatFill(ctx.players, seat), class: "member" })));
    nodes.push(part(ctx, `track:${i}`, stacks[i] ? (stacks[i] || []).map((seat) => ctx.players[seat] && ctx.players[seat].name).join(", ") : "", ...children));
  }
  return section("track", width, 50 + rows * 96, part(ctx, "passage_of_time:", "", ...nodes));
}

function yards(ctx, width) {
  const list = ctx.state.board.yards || [];
  const specs = Object.fromEntries((ctx.state.catalog.yards || []).map((y) => [y.id, y]));
  const cards = ctx.cards;
  const across = width >= 500;
  const w = across ? (width - 8) / list.length - 8 : width - 16;
  const hgt = 200;
  const nodes = [heading(12, 26, "Training Yards")];
  list.forEach((yard, i) => {
    const x = across ? 8 + i * (w + 8) : 8;
    const y = across ? 38 : 38 + i * (hgt + 8);
    const spec = specs[yard.id] || {};
    const children = [frame(x, y, w, hgt, "area yard"), text(x + 10, y + 26, `Yard ${i + 1}`, "t t-b")];
    children.push(use("iron", x + w - 80, y + 6, 26), text(x + w - 50, y + 26, `${spec.iron}`, "t t-b"), text(x + w - 30, y + 26, `×${spec.value}`, "t t-s"));
    let ty = y + 40;
    for (const face of ["blue", "yellow"]) {
      const tileId = yard[face];
      if (!tileId) continue;
      const tile = cards[tileId];
      const [icons] = iconRow(tile ? tile[face] : [], x + 16, ty + 6, 26);
      children.push(s("g", {}, s("title", {}, `${face} side: ${cardTip(ctx, tileId)}`), frame(x + 8, ty, w - 16, 38, `yard-tile ${face}`, 5), ...icons));
      ty += 44;
    }
    (yard.warriors || []).forEach((seat, m) => children.push(member("warrior", x + 10 + (m % 6) * 28, y + hgt - 40 - Math.floor(m / 6) * 28, 28, ctx.players, seat)));
    nodes.push(part(ctx, `yard:${yard.id}`, "", ...children));
  });
  const height = across ? 38 + hgt + 8 : 38 + list.length * (hgt + 8);
  return section("yards", width, height, ...nodes);
}

/** A room's die tiles (drawn within the room's part) and its card's blocks (parts of their own); returns
 * {tiles, blocks}. */
function blockRows(ctx, room, card, x, y, width, rowH) {
  const nodes = [];
  const tiles = [];
  const blocks = card && card.blocks ? card.blocks : [];
  // the die tiles sit beside the rows: one per row, top first (a diplomat room has 2 rows)
  room.tiles.forEach((tile, i) => {
    const ty = y + i * rowH + (rowH - 26) / 2;
    tiles.push(tile ? s("g", {}, s("title", {}, `${tile} die tile`), use("tile", x, ty, 26, { color: DIE_FILL[tile] })) : frame(x, ty, 26, 26, "empty-slot", 4));
  });
  blocks.forEach((block, i) => {
    // block i beside die tile i, as the card is printed (a diplomat card's second block spans two rows)
    const by = y + i * rowH;
    const id = `room:${room.id}:${block.rows.join("+")}`;
    const [costNodes, costW] = costRow(block.cost, x + 40, by + (rowH - 24) / 2, 24);
    const [icons] = iconRow(block.effects, x + 40 + costW, by + (rowH - 28) / 2, 28);
    const node = part(ctx, id, `${block.background} background, ${block.rows.join(" and ")}`, frame(x + 32, by + 2, width - 32, rowH - 4, `block ${block.background}`, 5), ...costNodes, ...icons);
    if (block.background === "dark") node.classList.add("on-dark");
    nodes.push(node);
  });
  return { tiles, blocks: nodes };
}

function room(ctx, data, x, y, width, height) {
  const spec = (ctx.state.catalog.castle && ctx.state.catalog.castle.rooms || []).find((r) => r.id === data.id) || {};
  const card = data.card ? ctx.cards[data.card] : null;
  const frameNodes = [
    frame(x, y, width, height, "area room"),
    text(x + 10, y + 24, `${short(data.id.split("_")[0])} ${data.id.split("_")[1] || ""}`, "t t-b"),
    die(x + width - 34, y + 6, 26, "white", spec.value || 1),
  ];
  const base = y + height - 44;
  frameNodes.push(...diceStack(data.dice, x + 10, base, 34, ctx.players));
  (data.courtiers || []).forEach((seat, i) => frameNodes.push(member("courtier", x + width - 34 - i * 26, base + 4, 30, ctx.players, seat)));
  const rows = Math.max(data.tiles.length, 1);
  const rowH = Math.min(ctx.narrow ? 76 : 44, (height - 90) / rows);
  const drawn = blockRows(ctx, data, card, x + 8, y + 34, width - 16, rowH);
  return [part(ctx, `room:${data.id}`, cardTip(ctx, data.card), ...frameNodes, ...drawn.tiles), ...drawn.blocks];
}

function short(name) {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function castle(ctx) {
  const width = 600;
  const board = ctx.state.board;
  // on a narrow screen the rooms are taller, their blocks (each a tap target) 44 px high at the phone's scale
  const [diplomatH, stewardH] = ctx.narrow ? [290, 370] : [214, 258];
  const stewardY = 146 + diplomatH + 8;
  const gateY = stewardY + stewardH + 8;
  const height = gateY + 86;
  const nodes = [frame(2, 2, width - 4, height - 4, "area castle-walls", 12)];
  const daimyo = board.daimyo || { card: null, spots: [], extra: [] };
  const card = daimyo.card ? ctx.cards[daimyo.card] : null;
  const dChildren = [frame(110, 12, 380, 124, "area daimyo", 10), use("daimyo", 122, 18, 28), text(156, 38, "The Daimyo", "t t-b")];
  (daimyo.extra || []).forEach((seat, i) => dChildren.push(member("courtier", 440 - i * 22, 16, 28, ctx.players, seat)));
  nodes.push(part(ctx, "daimyo:", cardTip(ctx, daimyo.card), ...dChildren));
  const spots = card && card.spots ? card.spots : (daimyo.spots || []).map(() => []);
  spots.forEach((spot, i) => {
    const x = 122 + i * 120;
    const [icons] = iconRow(spot, x + 10, 56, 28);
    const children = [frame(x, 48, 112, 80, "spot", 8), ...icons];
    const seat = (daimyo.spots || [])[i];
    if (seat !== null && seat !== undefined) children.push(member("courtier", x + 40, 90, 32, ctx.players, seat));
    nodes.push(part(ctx, `daimyo:spot:${i}`, "", ...children));
  });
  const diplomats = board.rooms.filter((r) => r.id.startsWith("diplomat"));
  const stewards = board.rooms.filter((r) => r.id.startsWith("steward"));
  const floor = (list, y, height) => {
    const w = (width - 24 - (list.length - 1) * 8) / Math.max(list.length, 1);
    list.forEach((data, i) => nodes.push(...room(ctx, data, 12 + i * (w + 8), y, w, height)));
  };
  floor(diplomats, 146, diplomatH);
  floor(stewards, stewardY, stewardH);
  const gate = [frame(12, gateY, width - 24, 76, "area gate", 8), use("gate", 24, gateY + 12, 40), text(74, gateY + 40, "Gate", "t t-b")];
  let gx = 140;
  (board.gate || []).forEach((count, seat) => {
    for (let i = 0; i < count; i += 1) {
      gate.push(member("courtier", gx, gateY + 16, 34, ctx.players, seat));
      gx += 30;
    }
  });
  nodes.push(part(ctx, "gate:", "", ...gate));
  return section("castle", width, height, ...nodes);
}

function wellAndOutside(ctx, width) {
  const nodes = [];
  const specs = Object.fromEntries((ctx.state.catalog.outside_the_walls || []).map((o) => [o.id, o]));
  const outside = ctx.state.board.outside || [];
  const across = width >= 500;
  const colW = across ? (width - 24) / 2 : width - 16;
  nodes.push(heading(12, 26, "Outside the Walls"));
  outside.forEach((entry, i) => {
    const spec = specs[entry.id] || {};
    const x = 8 + i * ((width - 16) / outside.length);
    const w = (width - 16) / outside.length - 8;
    const y = 38;
    const children = [frame(x, y, w, 216, "area outside"), text(x + 10, y + 26, `${i + 1}`, "t t-b"), die(x + w - 34, y + 6, 26, "white", spec.value || 5)];
    children.push(...diceStack(entry.dice, x + 10, y + 168, 36, ctx.players));
    nodes.push(part(ctx, `outside:${entry.id}`, "", ...children));
    (spec.actions || []).forEach((action, k) => {
      const ay = y + 46 + k * 54;
      nodes.push(part(ctx, `outside:${entry.id}:${action}`, action, frame(x + 8, ay, w - 16, 46, "block light", 5), use(action, x + 16, ay + 6, 34, { color: "#efe6d2" })));
    });
  });
  const wellSpec = ctx.state.catalog.well || { value: 1, effects: ["seal:1"] };
  const well = ctx.state.board.well || { dice: [], tiles: [] };
  const wy = 270;
  const wx = 8;
  const ww = across ? colW * 2 + 8 : width - 16;
  const children = [heading(wx + 4, wy + 18, "The Well"), frame(wx, wy + 28, ww, 214, "area well", 10), use("well", wx + 10, wy + 38, 44), die(wx + ww - 36, wy + 36, 26, "white", wellSpec.value || 1)];
  const [gain] = iconRow(wellSpec.effects, wx + 62, wy + 48, 28);
  children.push(...gain);
  (well.tiles || []).forEach((tileId, i) => {
    const tile = ctx.cards[tileId];
    const tx = wx + 10 + i * ((ww - 20) / 2);
    const [icons] = iconRow(tile ? tile.reward : [], tx + 10, wy + 98, 28);
    children.push(s("g", {}, s("title", {}, `die tile ${cardTip(ctx, tileId)}`), frame(tx, wy + 90, (ww - 20) / 2 - 6, 44, "block well-tile", 6), ...icons));
  });
  children.push(...diceStack(well.dice, wx + 12, wy + 172, 36, ctx.players));
  nodes.push(part(ctx, "well:", "", ...children));
  return section("well", width, wy + 250, ...nodes);
}

function bridgeUnit(ctx, bridge, width, withGardens) {
  const c = bridge.colour;
  const nodes = [];
  const deck = [
    s("path", { d: `M8 96 Q ${width / 2} 40 ${width - 8} 96 L ${width - 8} 124 Q ${width / 2} 70 8 124 Z`, class: `bridge-deck bridge-${c}` }),
    text(14, 30, `${short(c)} bridge`, "t t-b"),
  ];
  nodes.push(part(ctx, `bridge:${c}`, "", ...deck));
  // a die at an end is a tap target: on a narrow screen (the board drawn a little over half size) it is drawn
  // larger, so that its slot is 44 px at least
  const size = ctx.narrow ? 64 : 44;
  const top = ctx.narrow ? 38 : 48;
  const middle = bridge.middle || [];
  const slotsW = width - 40;
  const ends = [
    ["left", bridge.left, 20],
    ["right", bridge.right, width - 20 - size],
  ];
  // the middle dice, in order, between the ends (waiting to slide to an end)
  middle.forEach((value, i) => {
    const span = slotsW - 2 * size - 20;
    const x = 20 + size + 10 + (span / (middle.length + 1)) * (i + 1) - 44 * 0.35;
    nodes.push(s("g", { class: "middle-die" }, s("title", {}, `${c} ${value}, in the middle`), die(x, 62, 44 * 0.7, c, value)));
  });
  for (const [end, value, x] of ends) {
    const children = [frame(x - 6, top, size + 12, size + 12, "end-slot", 8)];
    // the lantern end is marked beside its slot, above the deck (the deck rises from the ends)
    if (end === "left") children.push(use("lantern", x + size + 8, 46, 24));
    if (value !== null && value !== undefined) children.push(die(x, top + 6, size, c, value));
    nodes.push(part(ctx, `bridge:${c}:${end}`, value !== null && value !== undefined ? `${c} ${value}` : "empty", ...children));
  }
  let height = 136;
  if (withGardens) {
    const gardens = ctx.state.board.gardens.filter((g) => g.bridge === c);
    const gw = (width - 24) / Math.max(gardens.length, 1);
    gardens.forEach((slot, i) => {
      const x = 8 + i * (gw + 8);
      const card = slot.card ? ctx.cards[slot.card] : null;
      const children = [frame(x, 140, gw, 190, `area garden garden-${slot.type}`, 8), use(slot.type === "plant" ? "plant" : "stone", x + 8, 148, 28), text(x + 40, 168, slot.card || "—", "t t-b")];
      if (card) {
        children.push(use("food", x + 8, 184, 26), text(x + 36, 204, `${card.food}`, "t t-b"), use("cp", x + gw - 70, 184, 26), text(x + gw - 40, 204, `${card.cp}`, "t t-b"));
        const [costNodes, costW] = costRow(card.cost, x + 8, 224, 24);
        const [icons] = iconRow(card.effects, x + 8 + costW, 222, 28);
        children.push(...costNodes, ...icons);
      }
      (slot.gardeners || []).forEach((seat, m) => children.push(member("gardener", x + 8 + m * 28, 288, 30, ctx.players, seat)));
      nodes.push(part(ctx, `garden:${slot.id}`, cardTip(ctx, slot.card), ...children));
    });
    height = 336;
  }
  return { nodes, height };
}

function bridges(ctx, width) {
  const list = ctx.state.board.bridges.filter((b) => b.colour !== "green");
  const across = width >= 1000;
  const w = across ? width / list.length : width;
  const nodes = [s("rect", { x: 0, y: 0, width, height: across ? 346 : 346 * list.length, class: "moat" })];
  let height = 0;
  list.forEach((bridge, i) => {
    const unit = bridgeUnit(ctx, bridge, w, true);
    nodes.push(s("g", { transform: `translate(${across ? i * w : 0} ${across ? 4 : 4 + i * 346})` }, ...unit.nodes));
    height = across ? unit.height + 10 : 346 * list.length;
  });
  return section("bridges", width, height, ...nodes);
}

function offer(ctx, width) {
  const pairs = ctx.state.board.offer || [];
  // At a table the pairs are dealt one card at a time: draw the panel once a card is on it, and a card not
  // dealt yet as such (never as "null").
  if (!pairs.some((pair) => pair.resource || pair.action)) return null;
  const nodes = [heading(12, 26, "Starting pairs")];
  const w = Math.min(290, (width - 16) / pairs.length - 8);
  const across = w >= 200;
  pairs.forEach((pair, i) => {
    const x = across ? 8 + i * (w + 8) : 8;
    const cw = across ? w : width - 16;
    const y = across ? 38 : 38 + i * 150;
    const resource = ctx.cards[pair.resource];
    const action = ctx.cards[pair.action];
    const [gain] = iconRow(resource ? resource.gain : [], x + 10, y + 40, 24);
    const [does] = iconRow(action && action.blocks ? action.blocks[0].effects : [], x + 10, y + 100, 30);
    nodes.push(
      part(ctx, `offer:${i}`, `${cardTip(ctx, pair.resource)} | ${cardTip(ctx, pair.action)}`,
        frame(x, y, cw, 142, "area offer"), text(x + 10, y + 26, `${pair.resource || "to be dealt"} + ${pair.action || "to be dealt"}`, "t t-b"), ...gain, frame(x + 6, y + 94, cw - 12, 42, "block light", 5), ...does),
    );
  });
  return section("offer", width, across ? 190 : 46 + pairs.length * 150, ...nodes);
}

// --- Matcha ------------------------------------------------------------------------------------------

function matchaSpaces(ctx, width) {
  const m = ctx.state.board.matcha;
  const spec = ctx.state.catalog.matcha || {};
  const specOf = (list, id) => ((list && list.spaces) || []).find((item) => item.id === id) || {};
  const green = ctx.state.board.bridges.find((b) => b.colour === "green");
  const nodes = [];
  let y = 0;
  if (green) {
    const unit = bridgeUnit(ctx, green, Math.min(width, 600), false);
    nodes.push(s("rect", { x: 0, y: 0, width, height: 140, class: "moat" }), ...unit.nodes);
    y = 146;
  }
  const across = width >= 1000;
  const half = across ? width / 2 - 8 : width - 16;
  const spaceBox = (kind, data, x, yy, w, label) => {
    const own = kind === "tea_room" ? specOf(spec.tea_room, data.id) : specOf(spec.himeji, data.id);
    return part(ctx, `${kind}:${data.id}`, "", frame(x, yy, w, 150, `area ${kind}`), text(x + 10, yy + 26, label, "t t-b"), die(x + w - 34, yy + 6, 26, "white", own.value || 1), ...diceStack(data.dice, x + 12, yy + 98, 36, ctx.players));
  };
  nodes.push(heading(12, y + 26, "Tea Room → Geisha action"));
  m.tea_room.forEach((data, i) => nodes.push(spaceBox("tea_room", data, 8 + i * (half / 2), y + 38, half / 2 - 8, i === 0 ? "Left" : "Right")));
  const hx = across ? width / 2 + 4 : 0;
  const hy = across ? y : y + 196;
  nodes.push(heading(hx + 12, hy + 26, "Himeji Principality"));
  m.himeji.forEach((data, i) => nodes.push(spaceBox("himeji", data, hx + 8 + i * (half / 2), hy + 38, half / 2 - 8, i === 0 ? "Upper" : "Lower")));
  const dy = hy + 196;
  m.decks.forEach((deckData, i) => {
    const x = hx + 8 + i * (half / 2);
    const w = half / 2 - 8;
    const card = deckData.top ? ctx.cards[deckData.top] : null;
    const count = (deckData.rest || []).length + (deckData.top ? 1 : 0);
    const children = [frame(x, dy, w, 170, "area deck"), text(x + 10, dy + 24, `${short(deckData.id)} · ${count}`, "t t-b")];
    if (card) {
      const [yellow] = iconRow(card.yellow, x + 44, dy + 40, 28);
      const [costNodes, costW] = costRow(card.blue_cost, x + 44, dy + 96, 24);
      const [blue] = iconRow(card.blue, x + 44 + costW, dy + 94, 28);
      children.push(frame(x + 6, dy + 34, w - 12, 48, "curtain yellow", 5), use("curtain", x + 10, dy + 44, 28, { color: "#f0cf4a" }), ...yellow);
      children.push(frame(x + 6, dy + 88, w - 12, 48, "curtain blue", 5), use("curtain", x + 10, dy + 98, 28, { color: "#6b9be0" }), ...costNodes, ...blue);
    }
    nodes.push(part(ctx, `himeji:deck:${deckData.id}`, cardTip(ctx, deckData.top), ...children));
  });
  return section("matcha", width, dy + 180, ...nodes);
}

function teaGarden(ctx, width) {
  const m = ctx.state.board.matcha;
  const garden = (ctx.state.catalog.matcha && ctx.state.catalog.matcha.tea_garden) || {};
  const nodes = [heading(12, 26, "Tea Garden and Tea House")];
  const across = width >= 1000;
  const geishas = (seats, x, y) => (seats || []).map((seat, i) => member("geisha", x + (i % 6) * 26, y - Math.floor(i / 6) * 26, 28, ctx.players, seat));
  const place = (id, label, x, y, w, hgt, seats, extra = []) =>
    part(ctx, `tea_garden:${id}`, "", frame(x, y, w, hgt, "area tea-place"), text(x + 10, y + 24, label, "t t-b"), ...extra, ...geishas(seats, x + 10, y + hgt - 36));
  const token = m.platform_token;
  const face = token ? ctx.cards[token] : null;
  const [tokenIcons] = iconRow(face ? face.effects : [], 60, 82, 26);
  const pads = (m.pond || []).flatMap((pad, i) => {
    const entry = pad ? ctx.cards[pad] : null;
    const [icons] = iconRow(entry ? entry.effects : [], 28 + i * 90, 142, 24);
    return [s("g", {}, s("title", {}, cardTip(ctx, pad)), s("ellipse", { cx: 50 + i * 90, cy: 154, rx: 42, ry: 22, class: "lily-pad" }), ...icons)];
  });
  nodes.push(place("viewing_platform", "Viewing Platform", 8, 38, 290, 236, m.platform, [s("g", {}, s("title", {}, `ceremony token: ${cardTip(ctx, token)}`), frame(16, 72, 274, 44, "block token", 6), use("token", 22, 80, 28), ...tokenIcons), ...pads]));
  const px = 306;
  nodes.push(place("entrance", "Entrance", px, 38, width - px - 8, 110, m.entrance));
  const paths = m.path || [];
  const pw = (width - px - 8) / Math.max(paths.length, 1) - 4;
  paths.forEach((seats, i) => nodes.push(place(`path_${i + 1}`, `Path ${i + 1}`, px + i * (pw + 8), 156, pw, 118, seats)));
  const rooms = m.tea_house || [];
  const ty = 286;
  const scores = {};
  for (const r of (garden.tea_house && garden.tea_house.rooms) || []) scores[r.id] = r.scores;
  const rw = (width - 16) / Math.max(rooms.length, 1) - 8;
  rooms.forEach((r, i) => {
    const x = 8 + i * (rw + 8);
    const entry = r.token ? ctx.cards[r.token] : null;
    const [icons] = iconRow(entry ? entry.effects : [], x + 44, ty + 44, 26);
    nodes.push(
      part(ctx, `tea_house:${r.id}`, `ceremony token: ${cardTip(ctx, r.token)}`,
        frame(x, ty, rw, 170, "area tea-house"), text(x + 10, ty + 24, ["Upper", "Middle", "Lower"][i] || r.id, "t t-b"),
        scores[r.id] ? use(scores[r.id], x + rw - 36, ty + 4, 28, { color: "#efe6d2" }) : null,
        frame(x + 6, ty + 36, rw - 12, 42, "block token", 6), use("token", x + 12, ty + 43, 26), ...icons, ...geishas(r.geishas, x + 10, ty + 130)),
    );
  });
  return section("matcha", width, ty + 178 + (across ? 0 : 0), ...nodes);
}

// --- the players' boards ---------------------------------------------------------------------------------

function domainBoard(ctx, seat) {
  const player = ctx.state.players[seat];
  const width = 600;
  const rows = (ctx.state.catalog.domain && ctx.state.catalog.domain.rows) || [];
  const matcha = ctx.state.board.matcha && ctx.state.catalog.matcha ? ctx.state.catalog.matcha.green_row : null;
  const allRows = matcha ? [...rows, { ...matcha, id: matcha.id || "geishas", colour: "green", member: "geisha", position: "green" }] : rows;
  const name = (ctx.players[seat] && ctx.players[seat].name) || player.name;
  const waiting = ctx.waitingSeat === seat;
  const nodes = [frame(2, 2, width - 4, 0, waiting ? "area domain waiting" : "area domain", 12)];
  nodes.push(use("courtier", 12, 10, 30, { color: seatFill(ctx.players, seat), class: "member" }), text(48, 34, `${name}${waiting ? " — to play" : ""}`, "t t-h"));
  nodes.push(use("cp", width - 200, 12, 26), text(width - 170, 32, `${player.cp}`, "t t-b"), use("pot", width - 110, 12, 26), text(width - 80, 32, `${player.pot}`, "t t-b"));
  const counters = [["coin", player.coins], ["seal", player.seals], ["food", player.food], ["iron", player.iron], ["pearl", player.pearl]];
  if (ctx.state.board.matcha) counters.push(["whisk", player.whisks || 0]);
  counters.forEach(([what, value], i) => {
    const x = 12 + i * ((width - 24) / counters.length);
    nodes.push(s("g", {}, s("title", {}, `${value} ${what}`), use(what, x, 48, 30), text(x + 36, 72, `${value}`, "t t-b")));
  });
  const action = player.action_card ? ctx.cards[player.action_card] : null;
  // a row and the die column are tap targets: on a narrow screen (the domain drawn at about 0.6) they are drawn
  // taller and wider, so that each is 44 px at least
  const rowH = ctx.narrow ? 78 : 60;
  const step = rowH + 6;
  const column = ctx.narrow ? { x: 42, w: 80 } : { x: 48, w: 44 };
  const pitch = ctx.narrow ? 52 : 56;
  const first = column.x + column.w + 4;
  let y = 92;
  allRows.forEach((row, r) => {
    const memberKind = row.member || MEMBER_OF_ROW[row.id] || "courtier";
    const left = memberKind === "geisha" ? player.geishas || 0 : player[`${memberKind}s`] || 0;
    const rewards = row.rewards || [];
    const spaces = rewards.length || 5;
    const mid = y + rowH / 2;
    const children = [frame(8, y, width - 16, rowH, `domain-row row-${row.colour}`, 6), use("tile", 12, mid - 14, 28, { color: DIE_FILL[row.colour] || "#ccc" })];
    for (let k = 0; k < spaces; k += 1) {
      const x = first + k * pitch;
      const occupied = k >= spaces - left;
      children.push(frame(x, mid - 24, pitch - 6, 48, "reward", 5));
      if (occupied) children.push(member(memberKind, x + (pitch - 40) / 2, mid - 20, 34, ctx.players, seat));
      else children.push(...iconRow(rewards[k] || [], x + 4, mid - 12, 24)[0]);
    }
    const block = action && action.blocks ? action.blocks.find((b) => b.rows.includes(row.position)) : null;
    if (block) {
      const [icons] = iconRow(block.effects, 400, mid - 14, 28);
      children.push(s("g", { class: block.background === "dark" ? "on-dark" : "" }, frame(392, mid - 24, width - 408, 48, `block ${block.background}`, 5), ...icons));
    } else if (row.position === "green") {
      const face = player.ceremony ? ctx.cards[player.ceremony] : null;
      const [icons] = iconRow(face ? face.effects : [], 432, mid - 14, 26);
      children.push(frame(392, mid - 24, width - 408, 48, "block token", 5), use("token", 398, mid - 16, 28), ...icons);
    }
    nodes.push(part(ctx, `domain:${seat}:row:${row.id}`, `${left} left${block ? `; action card ${player.action_card}` : ""}`, ...children));
    y += step;
  });
  // the domain's die spaces: the dice placed on the domain this round
  const slot = [];
  (player.domain || []).forEach((placed, r) => {
    if (placed) slot.push(die(column.x + (column.w - 34) / 2, 92 + r * step + (rowH - 34) / 2, 34, placed.colour, placed.value, seatFill(ctx.players, seat)));
  });
  nodes.push(part(ctx, `domain:${seat}`, "", frame(column.x, 92, column.w, allRows.length * step - 6, "die-column", 6), ...slot));
  const lantern = player.lantern || [];
  const lanternNodes = [frame(8, y + 4, width - 16, 84, "area lantern", 8), use("lantern", 14, y + 12, 30), text(50, y + 34, "Lantern Area", "t t-b")];
  let lx = 200;
  for (const id of lantern) {
    const entry = ctx.cards[id];
    const [icons, iw] = iconRow((entry && entry.lantern) || [], lx + 6, y + 46, 26);
    lanternNodes.push(s("g", {}, s("title", {}, cardTip(ctx, id)), frame(lx, y + 40, Math.max(iw + 12, 44), 40, "lantern-card", 5), ...icons));
    lx += Math.max(iw + 12, 44) + 6;
  }
  nodes.push(part(ctx, `lantern:${seat}`, lantern.map((id) => cardTip(ctx, id)).join(" | "), ...lanternNodes));
  const height = y + 96;
  nodes[0].setAttribute("height", height - 4);
  return boardSvg(`domain-${seat}`, width, height, `${name}'s Personal Domain`, nodes);
}

function rivalBoard(ctx, seat) {
  const player = ctx.state.players[seat];
  const solo = ctx.state.solo || { deck: [], line: [], notes: [], difficulty: "" };
  const width = 600;
  const name = (ctx.players[seat] && ctx.players[seat].name) || player.name;
  const line = solo.line || [];
  const nodes = [frame(2, 2, width - 4, 250, ctx.waitingSeat === seat ? "area domain rival waiting" : "area domain rival", 12)];
  const clan = ctx.state.board.matcha ? " · Tokugawa clan" : "";
  nodes.push(use("courtier", 12, 10, 30, { color: seatFill(ctx.players, seat), class: "member" }), text(48, 34, `${name} · automatic · ${solo.difficulty || ""}${clan}`, "t t-h"));
  const counters = [["coin", player.coins], ["cp", player.cp], ["pot", player.pot], ["courtier", player.courtiers], ["gardener", player.gardeners], ["warrior", player.warriors]];
  if (ctx.state.board.matcha) counters.push(["geisha", player.geishas || 0]);
  counters.forEach(([what, value], i) => {
    const x = 12 + i * ((width - 24) / counters.length);
    nodes.push(use(what, x, 50, 30, { color: seatFill(ctx.players, seat) }), text(x + 36, 74, `${value}`, "t t-b"));
  });
  nodes.push(frame(12, 96, 50, 70, "solo-deck", 5), text(37, 138, `${(solo.deck || []).length}`, "t t-b", { "text-anchor": "middle" }), text(72, 124, "solo deck", "t"));
  line.slice(-4).forEach((id, i) => {
    const card = ctx.cards[id];
    const x = 190 + i * 100;
    nodes.push(s("g", {}, s("title", {}, cardTip(ctx, id)), frame(x, 96, 92, 70, "solo-card", 5), text(x + 8, 120, id, "t t-b"), card ? die(x + 8, 128, 30, card.bridge, card.end === "left" ? 1 : 6) : null));
  });
  nodes[0].setAttribute("height", 176);
  const svg = boardSvg(`domain-${seat} rival-sheet`, width, 182, `${name}, played by the rules engine`, nodes);
  // what it did in its latest turn, in the API's words: a list under its sheet, read whole (not cut to fit)
  const notes = solo.notes || [];
  return h(
    "div",
    { class: "rival-box" },
    svg,
    h("h4", { class: "rival-notes-title" }, notes.length ? `${name}'s latest turn` : `${name} has not played yet`),
    notes.length ? h("ul", { class: "rival-notes" }, notes.map((note) => h("li", {}, note))) : null,
  );
}

function boardSvg(cls, width, height, label, nodes) {
  return s("svg", { viewBox: `0 0 ${width} ${height}`, class: `board-svg ${cls}`, role: "group", "aria-label": label, preserveAspectRatio: "xMidYMin meet" }, ...nodes);
}

// --- layout ------------------------------------------------------------------------------------------

/** The main board's sections placed: wide, as the printed board (yards | castle | well, the bridges under them);
 * narrow, one column. Returns {svg, regions: {name: [x, y, w, h]}}. */
function layOutBoard(ctx, narrow) {
  const W = narrow ? 600 : 1200;
  const placed = [];
  const regions = {};
  let y = 0;
  const put = (sec, x, at) => {
    if (!sec) return;
    placed.push(s("g", { transform: `translate(${x} ${at})` }, sec.node));
    const box = [x, at, sec.width, sec.height];
    const known = regions[sec.region];
    regions[sec.region] = known ? [Math.min(known[0], x), Math.min(known[1], at), Math.max(known[0] + known[2], x + sec.width) - Math.min(known[0], x), Math.max(known[1] + known[3], at + sec.height) - Math.min(known[1], at)] : box;
  };
  const first = offer(ctx, W);
  if (first) {
    put(first, 0, y);
    y += first.height + 10;
  }
  const t = track(ctx, W);
  put(t, 0, y);
  y += t.height + 10;
  if (narrow) {
    for (const sec of [castle(ctx), bridges(ctx, W), yards(ctx, W), wellAndOutside(ctx, W)]) {
      put(sec, 0, y);
      y += sec.height + 10;
    }
  } else {
    const yd = yards(ctx, 290);
    const c = castle(ctx);
    const w = wellAndOutside(ctx, 290);
    put(yd, 0, y);
    put(c, 300, y);
    put(w, 910, y);
    y += Math.max(yd.height, c.height, w.height) + 10;
    const b = bridges(ctx, W);
    put(b, 0, y);
    y += b.height + 10;
  }
  if (ctx.state.board.matcha) {
    const m = matchaSpaces(ctx, W);
    put(m, 0, y);
    y += m.height + 10;
    const g = teaGarden(ctx, W);
    put(g, 0, y);
    y += g.height + 10;
  }
  regions.all = [0, 0, W, y];
  const svg = s("svg", { viewBox: `0 0 ${W} ${y}`, class: "board-svg board-main", role: "group", "aria-label": "The board", preserveAspectRatio: "xMidYMin meet" }, ...placed);
  return { svg, regions };
}

const views = new WeakMap();

/**
 * Draw the board into `host`. model: {state, players, words, waitingSeat}; options: {targets: Map(id → words),
 * onTarget(id), region}.
 */
export function draw(host, model, options = {}) {
  const cards = byId(model.state.catalog);
  const narrow = host.clientWidth > 0 && host.clientWidth < NARROW;
  const ctx = { ...model, words: model.words || { parts: {}, cards: {}, icons: {} }, cards, narrow };
  const { svg, regions } = layOutBoard(ctx, narrow);
  const domains = model.state.players.map((player, seat) => (player.automatic ? rivalBoard(ctx, seat) : domainBoard(ctx, seat)));
  // the domain of the player to play comes first, nearest the main board: their turn's places are there too
  const waiting = Number.isInteger(model.waitingSeat) ? model.waitingSeat : null;
  if (waiting !== null && domains[waiting]) domains.unshift(...domains.splice(waiting, 1));
  const targets = options.targets || new Map();
  const view = views.get(host) || { chosen: null, lastKey: null };
  views.set(host, view);
  view.options = options;
  view.regions = regions;
  view.narrow = narrow;
  const bar = h("div", { class: "region-bar", role: "group", "aria-label": "Show a part of the board" });
  const main = h("div", { class: "board-main-box" }, svg);
  replace(host, bar, main, h("div", { class: "domains" }, ...domains));
  host.classList.toggle("has-targets", targets.size > 0);
  host.classList.toggle("narrow", narrow);
  for (const node of host.querySelectorAll("[data-part]")) {
    const id = node.getAttribute("data-part");
    if (!targets.has(id)) continue;
    node.classList.add("target");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", targets.get(id));
    for (let up = node.parentElement; up && up !== host; up = up.parentElement) if (up.hasAttribute && up.hasAttribute("data-part")) up.classList.add("holds-target");
    // the parts drawn within it (a room's blocks: room:steward_1:top) stay lit with it
    for (const inner of host.querySelectorAll(`[data-part^="${CSS.escape(`${id}:`)}"]`)) if (!targets.has(inner.getAttribute("data-part"))) inner.classList.add("in-target");
  }
  if (!view.wired) {
    view.wired = true;
    host.addEventListener("click", (event) => {
      const hit = event.target instanceof Element && event.target.closest("[data-part].target");
      if (hit && view.options.onTarget) view.options.onTarget(hit.getAttribute("data-part"));
    });
    host.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const hit = event.target instanceof Element && event.target.closest("[data-part].target");
      if (!hit) return;
      event.preventDefault();
      if (view.options.onTarget) view.options.onTarget(hit.getAttribute("data-part"));
    });
    host.addEventListener("focusin", (event) => {
      const hit = event.target instanceof Element && event.target.closest("[data-part]");
      if (hit && view.narrow) ensureVisible(host, hit);
    });
  }
  // the region: the one the prompt's targets are in (kept while the same prompt is asked), or the one chosen
  const wanted = regionOf(host, [...targets.keys()]) || (model.state.board.offer && model.state.board.offer.length ? "offer" : "castle");
  const key = `${options.promptKey || ""}`;
  if (view.lastKey !== key) view.chosen = null;
  view.lastKey = key;
  const available = REGIONS.filter(([name]) => regions[name]);
  replace(
    bar,
    available.map(([name, words]) =>
      h("button", { type: "button", class: "region", "data-region": name, "aria-pressed": "false", on: { click: () => { view.chosen = name; show(host, name); } } }, words),
    ),
  );
  show(host, view.chosen || (narrow ? wanted : "all"), !view.chosen);
}

function regionOf(host, ids) {
  for (const id of ids) {
    const node = host.querySelector(`[data-part="${CSS.escape(id)}"]`);
    const region = node && node.closest("[data-region]");
    if (region) return region.getAttribute("data-region");
  }
  return null;
}

/** Show one region of the main board (narrow screens; "all" shows the whole board). With `near`, on a narrow
 * screen, the region the prompt asks about is brought nearer when a part to tap would be drawn under TAP px: a
 * room's two action blocks, say, drawn a few millimetres tall at the castle's scale (a region chosen from the
 * bar is shown whole). */
function show(host, name, near = false) {
  const view = views.get(host);
  const svg = host.querySelector(".board-main");
  if (!view || !svg) return;
  const box = view.regions[name] || view.regions.all;
  const [x, y, w, hgt] = view.narrow || name !== "all" ? box : view.regions.all;
  svg.setAttribute("viewBox", `${x} ${y} ${w} ${hgt}`);
  if (near && view.narrow && name !== "all") {
    const near = nearer(svg, [x, y, w, hgt]);
    if (near) svg.setAttribute("viewBox", near.join(" "));
  }
  host.dataset.region = name;
  for (const button of host.querySelectorAll(".region-bar .region")) button.setAttribute("aria-pressed", String(button.dataset.region === name));
}

const TAP = 44; // px: the least size of a tap target (WCAG 2.5.5), as every other control of the pages

/** A view of `box` (the board's units) near enough that the prompt's parts in it are TAP px tall and wide on
 * screen, keeping them all in view; null when they are large enough already, or none is in the region. */
function nearer(svg, box) {
  const ctm = svg.getScreenCTM();
  const width = svg.getBoundingClientRect().width;
  if (!ctm || !width) return null;
  const back = ctm.inverse();
  const [x, y, w, hgt] = box;
  const parts = [];
  for (const node of svg.querySelectorAll("[data-part].target")) {
    const r = node.getBoundingClientRect();
    const a = new DOMPoint(r.left, r.top).matrixTransform(back);
    const b = new DOMPoint(r.right, r.bottom).matrixTransform(back);
    if (a.x >= x - 1 && b.x <= x + w + 1 && a.y >= y - 1 && b.y <= y + hgt + 1) parts.push([a.x, a.y, b.x, b.y]);
  }
  if (!parts.length) return null;
  const perUnit = width / w; // px per unit of the board as the region is shown
  const least = Math.min(...parts.map(([x1, y1, x2, y2]) => Math.min(x2 - x1, y2 - y1)));
  if (least * perUnit >= TAP) return null;
  const [left, top] = [Math.min(...parts.map((p) => p[0])), Math.min(...parts.map((p) => p[1]))];
  const [right, bottom] = [Math.max(...parts.map((p) => p[2])), Math.max(...parts.map((p) => p[3]))];
  const margin = 48; // units: room for a card's name above its blocks
  const side = 12; // units: beside them, a little (a room's blocks span its width)
  // As near as TAP asks, but never so near that a part leaves the view; a view about as tall as it is wide
  // around them (not the region's height: that would leave them below the fold on a phone).
  const zoom = Math.min((TAP + 1) / (least * perUnit), w / (right - left + 2 * side)); // a pixel to spare: no 43.99
  if (zoom <= 1) return null;
  const nw = w / zoom;
  const nh = Math.min(hgt, Math.max(bottom - top + 2 * margin, nw * 0.75));
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
  const nx = clamp((left + right) / 2 - nw / 2, x, x + w - nw);
  const ny = clamp((top + bottom) / 2 - nh / 2, y, y + hgt - nh);
  return [nx, ny, nw, nh];
}

const MIN_ZOOM = 0.55; // the smallest a wide board is drawn to show a prompt's parts together (about 7 px text)
const MARGIN = 12; // px left around the lit parts

/** The lit parts on the screen's drawing (not those of a region the narrow board does not show), as rectangles. */
function litRects(host) {
  const rects = [];
  for (const node of host.querySelectorAll("[data-part].target")) {
    const r = node.getBoundingClientRect();
    const svg = node.ownerSVGElement && node.ownerSVGElement.getBoundingClientRect();
    if (!r.width || !r.height || !svg) continue;
    if (r.right <= svg.left || r.left >= svg.right || r.bottom <= svg.top || r.top >= svg.bottom) continue;
    rects.push(r);
  }
  return rects;
}

/**
 * Bring the prompt's lit parts into the part of `host` (a box that scrolls: the recording screen's board) that is
 * on the screen, by scrolling the box, never the page: the board stays where the table looks. `bottom` is the
 * lowest pixel the box may use (above a bar fixed to the screen's bottom). On a wide screen, where the parts
 * cannot all be seen at once (a die placed: the castle and the player's domain), the board is drawn smaller until
 * they can (to MIN_ZOOM at most); on a narrow screen show() chose the region already, at a size to tap.
 */
export function bringIntoView(host, bottom = window.innerHeight) {
  const view = views.get(host);
  if (!view) return;
  const bar = host.querySelector(".region-bar");
  const barBox = bar && bar.offsetParent ? bar.getBoundingClientRect() : null;
  const box = host.getBoundingClientRect();
  const top = Math.max(box.top, 0, barBox ? barBox.bottom : 0) + 2;
  const limit = Math.min(box.bottom, bottom) - 2;
  const room = limit - top;
  if (room <= 0) return;
  const span = () => {
    const rects = litRects(host);
    if (!rects.length) return null;
    return { top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)) };
  };
  host.style.setProperty("--board-zoom", "1");
  let lit = span();
  if (!lit) return;
  if (!view.narrow && lit.bottom - lit.top + 2 * MARGIN > room) {
    const zoom = Math.max(MIN_ZOOM, (room - 2 * MARGIN) / (lit.bottom - lit.top));
    host.style.setProperty("--board-zoom", zoom.toFixed(3));
    lit = span();
  }
  let delta = 0;
  if (lit.bottom - lit.top + 2 * MARGIN > room || lit.top < top) delta = lit.top - top - MARGIN;
  else if (lit.bottom > limit) delta = lit.bottom - limit + MARGIN;
  if (delta) host.scrollTop += delta;
}

function ensureVisible(host, node) {
  const region = node.closest("[data-region]");
  if (region && host.dataset.region !== "all" && host.dataset.region !== region.getAttribute("data-region")) show(host, region.getAttribute("data-region"));
}

/** Light the part a move acts on (a move of the list hovered or focused), or none. */
export function highlight(host, id) {
  for (const node of host.querySelectorAll(".lit")) node.classList.remove("lit");
  if (!id) return;
  const node = host.querySelector(`[data-part="${CSS.escape(id)}"]`);
  if (!node) return;
  node.classList.add("lit");
  ensureVisible(host, node);
}

/** The board in words, for screen readers and anyone who prefers text: every part's name, and what lies there. */
export function words(node, model) {
  const { state, players } = model;
  const parts = (model.words && model.words.parts) || {};
  const cards = (model.words && model.words.cards) || {};
  const seat = (n) => (players[n] && players[n].name) || `Seat ${n + 1}`;
  const dice = (list) => (list && list.length ? list.map((d) => `${d.colour} ${d.value}${d.seat !== undefined && d.seat !== null ? ` (${seat(d.seat)})` : ""}`).join(", ") : "no die");
  const b = state.board;
  const items = [];
  const add = (title, lines) => items.push(h("h4", {}, title), h("ul", {}, lines.map((line) => h("li", {}, line))));
  add("Passage of Time", state.players.map((p, n) => `${seat(n)}: space ${p.pot}`));
  add("Castle", [
    `${short(parts["daimyo:"] || "the Daimyo")}: ${cards[(b.daimyo || {}).card] || "no card"}`,
    ...b.rooms.map((r) => `${short(parts[`room:${r.id}`] || r.id)}: ${cards[r.card] || "no card"}; dice: ${dice(r.dice)}; courtiers: ${(r.courtiers || []).map(seat).join(", ") || "none"}`),
    `Gate: ${(b.gate || []).map((count, n) => `${seat(n)} ${count}`).join(", ")}`,
  ]);
  add("Bridges and gardens", [
    ...b.bridges.map((br) => `${short(parts[`bridge:${br.colour}`] || br.colour)}: left (lantern) end ${br.left ?? "empty"}, middle ${(br.middle || []).join(", ") || "none"}, right end ${br.right ?? "empty"}`),
    ...b.gardens.map((g) => `${short(parts[`garden:${g.id}`] || g.id)}: ${cards[g.card] || "no card"}; gardeners: ${(g.gardeners || []).map(seat).join(", ") || "none"}`),
  ]);
  add("Training Yards", (b.yards || []).map((y) => `${short(parts[`yard:${y.id}`] || y.id)}: ${[y.blue, y.yellow].filter(Boolean).map((t) => cards[t] || t).join("; ")}; warriors: ${(y.warriors || []).map(seat).join(", ") || "none"}`));
  add("Well and Outside the Walls", [
    `The Well: ${(b.well.tiles || []).map((t) => cards[t] || t).join(" and ")}; dice: ${dice(b.well.dice)}`,
    ...(b.outside || []).map((o) => `${short(parts[`outside:${o.id}`] || o.id)}: dice: ${dice(o.dice)}`),
  ]);
  const m = b.matcha;
  if (m) {
    const seats = (list) => (list && list.length ? list.map(seat).join(", ") : "none");
    const green = b.bridges.find((br) => br.colour === "green");
    add("Matcha: the green bridge, the Tea Room and Himeji", [
      ...(green ? [`${short(parts["bridge:green"] || "green bridge")}: left (lantern) end ${green.left ?? "empty"}, middle ${(green.middle || []).join(", ") || "none"}, right end ${green.right ?? "empty"}`] : []),
      ...(m.tea_room || []).map((space) => `${short(parts[`tea_room:${space.id}`] || space.id)}: dice: ${dice(space.dice)}`),
      ...(m.himeji || []).map((space) => `${short(parts[`himeji:${space.id}`] || space.id)}: dice: ${dice(space.dice)}`),
      ...(m.decks || []).map((deck) => `${short(parts[`himeji:deck:${deck.id}`] || deck.id)}: ${deck.top ? cards[deck.top] || deck.top : "empty"}; ${(deck.rest || []).length + (deck.top ? 1 : 0)} cards`),
    ]);
    add("Matcha: the Tea Garden", [
      `${short(parts["tea_garden:viewing_platform"] || "Viewing Platform")}: ceremony token ${m.platform_token ? cards[m.platform_token] || m.platform_token : "none"}; geishas: ${seats(m.platform)}`,
      `${short(parts["pond:"] || "the Pond")}: ${(m.pond || []).map((pad) => (pad ? cards[pad] || pad : "empty")).join(" | ") || "empty"}`,
      `${short(parts["tea_garden:entrance"] || "entrance")}: geishas: ${seats(m.entrance)}`,
      ...(m.path || []).map((list, i) => `${short(parts[`tea_garden:path_${i + 1}`] || `path ${i + 1}`)}: geishas: ${seats(list)}`),
      ...(m.tea_house || []).map((room) => `${short(parts[`tea_house:${room.id}`] || room.id)}: ceremony token ${room.token ? cards[room.token] || room.token : "none"}; geishas: ${seats(room.geishas)}`),
    ]);
  }
  state.players.forEach((p, n) => {
    add(`${seat(n)}${p.automatic ? " (automatic)" : "'s domain"}`, [
      `${p.cp} CP, ${p.coins} coins${p.automatic ? "" : `, ${p.seals} seals, ${p.food} food, ${p.iron} iron, ${p.pearl} pearl`}; Passage of Time ${p.pot}`,
      `Members left: ${p.courtiers} courtiers, ${p.gardeners} gardeners, ${p.warriors} warriors${b.matcha ? `, ${p.geishas || 0} geishas` : ""}`,
      ...(p.automatic ? [] : [`Lantern Area: ${(p.lantern || []).map((id) => cards[id] || id).join(" | ") || "empty"}`]),
    ]);
  });
  replace(node, ...items);
}
