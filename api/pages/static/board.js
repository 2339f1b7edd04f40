/* heronlog pages: the board, drawn as SVG from the engine's state JSON (state_to_dict), with its text
 * alternative.
 *
 * draw(container, words, state, players) replaces the container's content with one panel per area of the
 * board (Passage of Time, castle, bridges and gardens, yards, Well and Outside the Walls) and one per player's
 * domain, and fills `words` (a node) with the same board in words for screen readers and anyone who prefers
 * text. Everything drawn comes from the state: its board, its players and its catalog (card contents), so a new
 * card needs no code and a new area is one more panel function in PANELS. The Matcha expansion's areas (the Tea
 * Room and the Himeji Principality with its curtains, the Tea Garden with the pond, its ceremony tokens and the
 * Tea House) are panels that draw nothing in a base game; the green bridge is one more bridge, and each clan
 * board shows its whisks, its geishas, the green row and its ceremony token.
 */

import { h, s, replace } from "./dom.js";
import { cardText, capitalise, icons, indexCatalog, rivalIcons, soloCardText, space, targetKey } from "./labels.js";

const W = 480;
const DIE_FILL = { coral: "#ec7a61", black: "#2a2a2a", white: "#f8f6f0", green: "#5a9a4b" };
// each die's value at a contrast of 4.5:1 at least with its face (WCAG 1.4.3: it is 13-pixel text)
const DIE_INK = { coral: "#161616", black: "#ffffff", white: "#161616", green: "#161616" };
const MEMBER_PLURAL = { courtier: "courtiers", gardener: "gardeners", warrior: "warriors", geisha: "geishas" };
// The seats' pieces; the letter on each (white, or near-black on the light ones) at 4.5:1 at least.
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

function seatFill(players, seat) {
  const colour = players[seat] && players[seat].colour;
  return SEAT_FILL[colour] || "#6e6e6e";
}

function seatInk(players, seat) {
  const colour = players[seat] && players[seat].colour;
  return ["white", "yellow", "orange"].includes(colour) ? "#111" : "#fff";
}

function seatName(state, players, seat) {
  return (players[seat] && players[seat].name) || (state.players[seat] && state.players[seat].name) || `Seat ${seat + 1}`;
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function label(x, y, text, attrs = {}) {
  return s("text", { x, y, class: "t", ...attrs }, text);
}

/** A die: its colour, value, and (when placed by someone) a ring of the owner's colour. */
function die(x, y, size, item, players, titleText) {
  const colour = item.colour;
  const group = s("g", { class: "die" });
  if (item.seat !== undefined && item.seat !== null) {
    group.append(s("rect", { x: x - 3, y: y - 3, width: size + 6, height: size + 6, rx: 5, fill: seatFill(players, item.seat), stroke: "#111", "stroke-width": 0.5 }));
  }
  group.append(
    s("rect", { x, y, width: size, height: size, rx: 3, fill: DIE_FILL[colour] || "#ccc", stroke: "#111", "stroke-width": 1 }),
    s("text", { x: x + size / 2, y: y + size / 2 + 4.5, class: "t die-value", "text-anchor": "middle", fill: DIE_INK[colour] || "#111" }, String(item.value)),
  );
  if (titleText) group.prepend(s("title", {}, titleText));
  return group;
}

/** A member of a player (courtier, warrior, gardener): a disc of the seat's colour with its initial. */
function pawn(x, y, seat, players, state, what) {
  const name = seatName(state, players, seat);
  return s(
    "g",
    { class: "pawn" },
    s("title", {}, `${name}'s ${what}`),
    s("circle", { cx: x, cy: y, r: 8, fill: seatFill(players, seat), stroke: "#111", "stroke-width": 1 }),
    s("text", { x, y: y + 3.5, class: "t pawn-letter", "text-anchor": "middle", fill: seatInk(players, seat) }, name.slice(0, 1)),
  );
}

/** A geisha (Matcha): a diamond of the seat's colour, so it never reads as another member. */
function geishaPawn(x, y, seat, players, state, where) {
  const name = seatName(state, players, seat);
  return s(
    "g",
    { class: "pawn geisha" },
    s("title", {}, `${name}'s geisha${where ? ` (${where})` : ""}`),
    s("polygon", { points: `${x},${y - 9} ${x + 9},${y} ${x},${y + 9} ${x - 9},${y}`, fill: seatFill(players, seat), stroke: "#111", "stroke-width": 1 }),
    s("text", { x, y: y + 3.5, class: "t pawn-letter", "text-anchor": "middle", fill: seatInk(players, seat) }, name.slice(0, 1)),
  );
}

/** A part's frame; `target` ({kind, id}) marks the part an annotation may point at (data-target="kind:id"). */
function box(x, y, width, height, cls, titleText, target = null) {
  const rect = s("rect", { x, y, width, height, rx: 6, class: cls });
  return titleText ? s("g", { "data-target": target && targetKey(target) }, s("title", {}, titleText), rect) : rect;
}

function svgPanel(id, heading, height, summary, ...children) {
  return h(
    "section",
    { class: `panel panel-${id}`, "aria-label": heading },
    h("h3", {}, heading),
    s("svg", { viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": summary, class: "board-svg", preserveAspectRatio: "xMidYMin meet" }, ...children),
  );
}

// --- panels ------------------------------------------------------------------------------------------

function passageOfTime(state, players) {
  const pot = state.catalog.passage_of_time || { last_space: 20, milestones: {}, points: [] };
  const last = pot.last_space || 20;
  const step = Math.min(22, (W - 20) / (last + 1));
  const nodes = [];
  const order = (state.turn_order || []).map((seat) => seatName(state, players, seat));
  nodes.push(box(4, 38, W - 8, 72, "pot-frame", "the Passage of Time", { kind: "passage_of_time" }));
  nodes.push(label(10, 16, `Round ${state.round} of ${(state.rules && state.rules.rounds) || 3} · turn order: ${order.join(", ")}`, { class: "t strong" }));
  for (let i = 0; i <= last; i += 1) {
    const x = 10 + i * step;
    const milestone = pot.milestones && pot.milestones[String(i)];
    nodes.push(box(x, 44, step - 2, 24, milestone ? "space milestone" : "space", milestone ? `space ${i}: pay ${milestone} seal${milestone > 1 ? "s" : ""} to enter` : `space ${i}`));
    nodes.push(label(x + (step - 2) / 2, 82, String(i), { "text-anchor": "middle", class: "t small" }));
    const points = (pot.points || [])[i];
    if (points && (milestone || i === last)) nodes.push(label(x + (step - 2) / 2, 94, `${points}cp`, { "text-anchor": "middle", class: "t tiny" }));
    if (milestone) nodes.push(label(x + (step - 2) / 2, 106, `${milestone}◆`, { "text-anchor": "middle", class: "t tiny seal" }));
  }
  // A stack: markers on the same space, the one that arrived last on top (R-PT03).
  const bySpace = {};
  state.players.forEach((player, seat) => {
    (bySpace[player.pot] = bySpace[player.pot] || []).push(seat);
  });
  const orderIndex = (seat) => (state.turn_order || []).indexOf(seat);
  for (const [where, seats] of Object.entries(bySpace)) {
    seats.sort((a, b) => state.players[a].pot_stamp - state.players[b].pot_stamp || orderIndex(b) - orderIndex(a));
    seats.forEach((seat, height) => {
      const x = 10 + Number(where) * step + (step - 2) / 2;
      nodes.push(pawn(x, 60 - height * 11, seat, players, state, `influence marker (space ${where})`));
    });
  }
  return svgPanel("pot", "Passage of Time", 112, "The Passage of Time track with each player's influence marker", ...nodes);
}

function cardBlocks(state, x, y, width, rowHeight, cardId, tiles) {
  const index = indexCatalog(state.catalog);
  const card = cardId ? index.cards[cardId] : null;
  const nodes = [];
  const blocks = card && card.blocks ? card.blocks : [];
  const count = Math.max(tiles.length, blocks.length);
  for (let i = 0; i < count; i += 1) {
    const top = y + i * rowHeight;
    const tile = tiles[i];
    if (i < tiles.length) {
      nodes.push(
        tile
          ? s("g", {}, s("title", {}, `${tile} die tile`), s("rect", { x, y: top + (rowHeight - 16) / 2, width: 16, height: 16, rx: 2, fill: DIE_FILL[tile] || "#ccc", stroke: "#111" }))
          : s("rect", { x, y: top + (rowHeight - 16) / 2, width: 16, height: 16, rx: 2, class: "empty-slot" }),
      );
    }
    const block = blocks[i];
    if (block) {
      const price = block.cost ? Object.entries(block.cost).map(([k, v]) => `${v} ${k}`).join(", ") + ": " : "";
      const text = price + icons(block.effects, "short");
      const long = `${block.background} block: ${price}${icons(block.effects)}`;
      nodes.push(
        s(
          "g",
          {},
          s("title", {}, long),
          s("rect", { x: x + 20, y: top + 1, width: width - 20, height: rowHeight - 2, rx: 3, class: block.background === "dark" ? "block dark" : "block light" }),
          label(x + 24, top + rowHeight / 2 + 3.5, clip(text, Math.floor((width - 26) / 5.6)), { class: block.background === "dark" ? "t small on-dark" : "t small" }),
        ),
      );
    }
  }
  return nodes;
}

/** About how wide one character is drawn (system-ui) in a bold label and in a small one: to fit text. */
const STRONG_CHAR = 6.6;
const SMALL_CHAR = 5.6;

function room(state, players, x, y, width, height, data) {
  const spec = indexCatalog(state.catalog).rooms[data.id] || {};
  const nodes = [box(x, y, width, height, "room", cardText(state.catalog, data.card), { kind: "room", id: data.id })];
  const card = data.card || "no card";
  // the room's name and its card's id share a line: in a narrow room (three to a floor) the name drops "room"
  // and is clipped if it still does not fit, so that the two never run into each other
  const name = capitalise(space(data.id));
  const nameWidth = width - 12 - 8 - card.length * SMALL_CHAR;
  const long = `${name} · ${spec.value || "?"}`;
  const title = long.length * STRONG_CHAR <= nameWidth ? long : `${name.replace(/ room\b/i, "")} · ${spec.value || "?"}`;
  nodes.push(label(x + 6, y + 14, clip(title, Math.floor(nameWidth / STRONG_CHAR)), { class: "t strong" }));
  nodes.push(label(x + width - 6, y + 14, card, { class: "t small", "text-anchor": "end" }));
  const rows = Math.max(data.tiles.length, 1);
  const rowHeight = Math.min(24, (height - 58) / rows);
  nodes.push(...cardBlocks(state, x + 6, y + 20, width - 12, rowHeight, data.card, data.tiles));
  const base = y + height - 28;
  (data.dice || []).forEach((item, i) => nodes.push(die(x + 8 + i * 14, base - i * 4, 20, item, players, `${item.colour} ${item.value}`)));
  (data.courtiers || []).forEach((seat, i) => nodes.push(pawn(x + width - 12 - i * 18, base + 12, seat, players, state, "courtier")));
  return nodes;
}

function castle(state, players) {
  const board = state.board;
  const index = indexCatalog(state.catalog);
  const nodes = [];
  const daimyo = board.daimyo || { card: null, spots: [], extra: [] };
  const card = daimyo.card ? index.cards[daimyo.card] : null;
  nodes.push(box(90, 6, 300, 92, "room daimyo", cardText(state.catalog, daimyo.card), { kind: "daimyo" }));
  nodes.push(label(98, 21, `The Daimyo · ${daimyo.card || "?"}`, { class: "t strong" }));
  const spots = card && card.spots ? card.spots : daimyo.spots.map(() => []);
  spots.forEach((spot, i) => {
    const x = 96 + i * 97;
    nodes.push(box(x, 28, 91, 64, "spot", `favour spot ${i + 1}: ${icons(spot)}`));
    nodes.push(label(x + 45, 46, clip(icons(spot, "short"), 17), { class: "t small", "text-anchor": "middle" }));
    const seat = daimyo.spots[i];
    if (seat !== null && seat !== undefined) nodes.push(pawn(x + 45, 74, seat, players, state, "courtier at the Daimyo"));
  });
  (daimyo.extra || []).forEach((seat, i) => nodes.push(pawn(402 + i * 18, 60, seat, players, state, "courtier at the Daimyo")));
  const diplomats = board.rooms.filter((r) => r.id.startsWith("diplomat"));
  const stewards = board.rooms.filter((r) => r.id.startsWith("steward"));
  const others = board.rooms.filter((r) => !r.id.startsWith("diplomat") && !r.id.startsWith("steward"));
  const floor = (list, y, height) => {
    const width = (W - 16 - (list.length - 1) * 6) / Math.max(list.length, 1);
    list.forEach((data, i) => nodes.push(...room(state, players, 8 + i * (width + 6), y, width, height, data)));
  };
  floor(diplomats, 106, 132);
  floor(stewards, 246, 152);
  let y = 406;
  if (others.length) {
    floor(others, y, 140);
    y += 148;
  }
  nodes.push(box(8, y, W - 16, 36, "gate", "the Gate of the castle"));
  nodes.push(label(16, y + 22, "Gate", { class: "t strong" }));
  let x = 70;
  (board.gate || []).forEach((count, seat) => {
    for (let i = 0; i < count; i += 1) {
      nodes.push(pawn(x, y + 18, seat, players, state, "courtier at the Gate"));
      x += 18;
    }
  });
  return svgPanel("castle", "The castle", y + 44, "The castle: the Daimyo, the diplomats' and stewards' rooms, and the Gate", ...nodes);
}

function bridges(state, players) {
  const index = indexCatalog(state.catalog);
  const nodes = [];
  const rowHeight = 86;
  state.board.bridges.forEach((bridge, i) => {
    const y = 6 + i * rowHeight;
    nodes.push(box(4, y, W - 8, rowHeight - 6, `bridge bridge-${bridge.colour}`, `${bridge.colour} bridge`, { kind: "bridge", id: bridge.colour }));
    nodes.push(label(12, y + 16, `${capitalise(bridge.colour)} bridge`, { class: "t strong" }));
    const slots = [
      { value: bridge.left, where: "left end (lantern)" },
      ...(bridge.middle || []).map((value) => ({ value, where: "middle" })),
      { value: bridge.right, where: "right end" },
    ];
    slots.forEach((slot, k) => {
      const x = 12 + k * 27;
      const end = k === 0 || k === slots.length - 1;
      if (end) nodes.push(s("rect", { x: x - 2, y: y + 26, width: 26, height: 26, rx: 4, class: "end-slot" }));
      if (slot.value !== null && slot.value !== undefined) {
        nodes.push(die(x, y + 28, 22, { colour: bridge.colour, value: slot.value }, players, `${bridge.colour} ${slot.value}, ${slot.where}`));
      }
    });
    nodes.push(label(12, y + 68, "↑ lantern end (left)", { class: "t tiny" }));
    const gardens = state.board.gardens.filter((g) => g.bridge === bridge.colour);
    if (bridge.colour === "green") {
      nodes.push(label(168, y + 26, "Its garden is the Viewing Platform (Tea Garden):", { class: "t small" }));
      nodes.push(label(168, y + 40, "the Pond action at the end of rounds 1-2 if a die is left.", { class: "t small" }));
    }
    gardens.forEach((garden, k) => {
      const x = 168 + k * 152;
      const card = garden.card ? index.cards[garden.card] : null;
      nodes.push(box(x, y + 4, 146, rowHeight - 14, `garden garden-${garden.type}`, cardText(state.catalog, garden.card), { kind: "garden", id: garden.id }));
      nodes.push(label(x + 6, y + 18, `${capitalise(garden.type)} · ${garden.card || "—"}`, { class: "t strong" }));
      if (card) {
        nodes.push(label(x + 6, y + 32, `${card.food} food → ${card.cp} CP`, { class: "t small" }));
        const price = card.cost && Object.keys(card.cost).length ? Object.entries(card.cost).map(([k2, v]) => `${v} ${k2}`).join(", ") + ": " : "";
        nodes.push(label(x + 6, y + 45, clip(price + icons(card.effects, "short"), 26), { class: "t small" }));
      }
      (garden.gardeners || []).forEach((seat, m) => nodes.push(pawn(x + 12 + m * 18, y + rowHeight - 22, seat, players, state, "gardener")));
    });
  });
  return svgPanel("bridges", "Bridges and gardens", state.board.bridges.length * rowHeight + 8, "The bridges with their dice, and the garden cards under each bridge", ...nodes);
}

function yards(state, players) {
  const index = indexCatalog(state.catalog);
  const nodes = [];
  const list = state.board.yards || [];
  const width = (W - 16 - (list.length - 1) * 6) / Math.max(list.length, 1);
  list.forEach((yard, i) => {
    const x = 8 + i * (width + 6);
    const spec = index.yards[yard.id] || {};
    nodes.push(box(x, 6, width, 128, "yard", `${space(yard.id)}: ${spec.iron} iron, worth ${spec.value}`, { kind: "yard", id: yard.id }));
    nodes.push(label(x + 6, 21, `${capitalise(space(yard.id))} · ${spec.iron} iron · ×${spec.value}`, { class: "t strong" }));
    let y = 28;
    for (const face of ["blue", "yellow"]) {
      const tileId = yard[face];
      if (!tileId) continue;
      const tile = index.cards[tileId];
      const effects = tile ? tile[face] : [];
      nodes.push(
        s(
          "g",
          {},
          s("title", {}, `${face} side of ${tileId}: ${icons(effects)}`),
          s("rect", { x: x + 6, y, width: width - 12, height: 26, rx: 4, class: `yard-tile ${face}` }),
          label(x + 11, y + 17, clip(`${tileId}: ${icons(effects, "short")}`, Math.floor((width - 20) / 5.6)), { class: "t small" }),
        ),
      );
      y += 30;
    }
    (yard.warriors || []).forEach((seat, m) => nodes.push(pawn(x + 14 + (m % 7) * 18, 104 + Math.floor(m / 7) * 18, seat, players, state, "warrior")));
  });
  return svgPanel("yards", "Training yards", 140, "The training yards with their tiles and warriors", ...nodes);
}

function wellAndOutside(state, players) {
  const index = indexCatalog(state.catalog);
  const nodes = [];
  const well = state.board.well || { dice: [], tiles: [] };
  nodes.push(box(8, 6, 190, 128, "well", "the Well", { kind: "well" }));
  nodes.push(label(16, 21, `The Well · ${(state.catalog.well && state.catalog.well.value) || 1}`, { class: "t strong" }));
  nodes.push(label(16, 36, `gain ${icons((state.catalog.well && state.catalog.well.effects) || ["seal:1"], "short")} and:`, { class: "t small" }));
  (well.tiles || []).forEach((tileId, i) => {
    const tile = index.cards[tileId];
    nodes.push(
      s(
        "g",
        {},
        s("title", {}, cardText(state.catalog, tileId)),
        s("rect", { x: 16, y: 42 + i * 24, width: 172, height: 20, rx: 3, class: "block light" }),
        label(22, 56 + i * 24, `${tileId}: ${tile ? icons(tile.reward, "short") : "?"}`, { class: "t small" }),
      ),
    );
  });
  (well.dice || []).forEach((item, i) => nodes.push(die(16 + (i % 7) * 25, 98 + Math.floor(i / 7) * 4, 20, item, players, `${item.colour} ${item.value}`)));
  const outside = state.board.outside || [];
  outside.forEach((entry, i) => {
    const spec = index.outside[entry.id] || {};
    const x = 206 + i * 136;
    nodes.push(box(x, 6, 130, 128, "outside", `${space(entry.id)}: ${(spec.actions || []).join(" or ")}`, { kind: "outside", id: entry.id }));
    nodes.push(label(x + 6, 21, `Outside ${i + 1} · ${spec.value || 5}`, { class: "t strong" }));
    nodes.push(label(x + 6, 36, (spec.actions || []).map(capitalise).join(" or "), { class: "t small" }));
    (entry.dice || []).forEach((item, k) => nodes.push(die(x + 10 + k * 14, 96 - k * 4, 22, item, players, `${item.colour} ${item.value}`)));
  });
  return svgPanel("well", "The Well and Outside the Walls", 140, "The Well with its tiles and dice, and the two spaces Outside the Walls", ...nodes);
}

function meter(x, y, width, value, max, cls) {
  const fraction = Math.max(0, Math.min(1, value / max));
  return s(
    "g",
    {},
    s("rect", { x, y, width, height: 6, rx: 3, class: "meter" }),
    s("rect", { x, y, width: Math.max(0.01, width * fraction), height: 6, rx: 3, class: `meter-fill ${cls}` }),
  );
}

function playerDomain(state, players, seat, waitingSeat) {
  const player = state.players[seat];
  const index = indexCatalog(state.catalog);
  const rows = (state.catalog.domain && state.catalog.domain.rows) || [];
  const nodes = [];
  const name = seatName(state, players, seat);
  const waiting = waitingSeat === seat;
  const green = state.board.matcha && state.catalog.matcha ? state.catalog.matcha.green_row : null;
  const extra = green ? 46 : 0;
  nodes.push(box(2, 2, W - 4, 252 + extra, waiting ? "domain waiting" : "domain", `${name}'s ${green ? "clan board" : "domain"}`, { kind: "domain", id: seat }));
  nodes.push(s("rect", { x: 10, y: 10, width: 14, height: 14, rx: 7, fill: seatFill(players, seat), stroke: "#111" }));
  nodes.push(label(30, 22, `${name}${waiting ? " — to play" : ""}`, { class: "t strong big" }));
  nodes.push(label(W - 10, 22, `${player.cp} CP · PoT ${player.pot}`, { class: "t strong", "text-anchor": "end" }));
  const counters = [
    ["coins", player.coins, null],
    ["seals", player.seals, 5],
    ["food", player.food, 7],
    ["iron", player.iron, 7],
    ["pearl", player.pearl, 7],
  ];
  const matcha = Boolean(state.board.matcha);
  // Expansion fields are left out of the state's JSON while at their default (0, none).
  if (matcha) counters.push(["whisks", player.whisks || 0, 7]);
  const slot = (W - 20) / counters.length;
  counters.forEach(([what, value, max], i) => {
    const x = 10 + i * slot;
    nodes.push(label(x, 42, `${what} ${value}${max ? `/${max}` : ""}`, { class: "t small" }));
    if (max) nodes.push(meter(x, 47, slot - 12, value, max, what));
  });
  const action = player.action_card ? index.cards[player.action_card] : null;
  const allRows = green ? [...rows, { ...green, position: "green" }] : rows;
  allRows.forEach((row, r) => {
    const y = 62 + r * 46;
    const left = player[MEMBER_PLURAL[row.member]] || 0;
    nodes.push(box(8, y, W - 16, 42, "domain-row", `${row.id} row: ${left} ${row.member}s left`));
    const placed = (player.domain || [])[r];
    nodes.push(s("rect", { x: 14, y: y + 9, width: 24, height: 24, rx: 4, class: "end-slot" }));
    if (placed) nodes.push(die(16, y + 11, 20, placed, players, `${placed.colour} ${placed.value} on the ${row.id} row`));
    else nodes.push(s("rect", { x: 19, y: y + 14, width: 14, height: 14, rx: 2, fill: DIE_FILL[row.colour] || "#ccc", opacity: 0.35 }));
    const rewards = row.rewards || [];
    const spaces = rewards.length || 5;
    for (let k = 0; k < spaces; k += 1) {
      const x = 46 + k * 46;
      const occupied = k >= spaces - left;
      if (occupied) {
        nodes.push(row.member === "geisha" ? geishaPawn(x + 20, y + 21, seat, players, state, "on the clan board") : pawn(x + 20, y + 21, seat, players, state, row.member));
      } else {
        nodes.push(
          s(
            "g",
            {},
            s("title", {}, `uncovered reward: ${icons(rewards[k] || [])}`),
            s("rect", { x, y: y + 8, width: 42, height: 26, rx: 3, class: "reward" }),
            label(x + 21, y + 25, clip(icons(rewards[k] || [], "short"), 8), { class: "t tiny", "text-anchor": "middle" }),
          ),
        );
      }
    }
    if (row.position === "green") {
      const face = player.ceremony ? cardText(state.catalog, player.ceremony) : "no ceremony token";
      nodes.push(
        s("g", {}, s("title", {}, `green row: pay 1 seal for your ceremony token, ${face}`),
          s("rect", { x: 280, y: y + 6, width: W - 296, height: 30, rx: 3, class: "block token" }),
          label(286, y + 25, clip(`1 seal: ${player.ceremony || "—"} ${player.ceremony ? icons(faceEffects(state, player.ceremony), "short") : ""}`, 30), { class: "t small" })),
      );
      return;
    }
    const block = action && action.blocks ? action.blocks.find((b) => b.rows.includes(row.position)) : null;
    if (block) {
      const price = block.cost ? Object.entries(block.cost).map(([k2, v]) => `${v} ${k2}`).join(", ") + ": " : "";
      nodes.push(
        s(
          "g",
          {},
          s("title", {}, `action card ${action.id}, ${row.position} block: ${price}${icons(block.effects)}`),
          s("rect", { x: 280, y: y + 6, width: W - 296, height: 30, rx: 3, class: block.background === "dark" ? "block dark" : "block light" }),
          label(286, y + 25, clip(price + icons(block.effects, "short"), 30), { class: block.background === "dark" ? "t small on-dark" : "t small" }),
        ),
      );
    }
  });
  nodes.push(label(10, 214 + extra, `Action card: ${player.action_card || "none"}`, { class: "t small strong" }));
  const lantern = (player.lantern || []).map((id) => `${id} ${icons((index.cards[id] && index.cards[id].lantern) || [], "short")}`);
  nodes.push(
    s("g", {}, s("title", {}, `Lantern area: ${(player.lantern || []).map((id) => cardText(state.catalog, id)).join(" | ") || "empty"}`),
      label(10, 232 + extra, clip(`Lantern: ${lantern.join(" · ") || "empty"}`, 84), { class: "t small" })),
  );
  const geishas = green ? `, ${player.geishas || 0} geishas` : "";
  nodes.push(label(10, 248 + extra, `Members left: ${player.courtiers} courtiers, ${player.gardeners} gardeners, ${player.warriors} warriors${geishas}`, { class: "t tiny" }));
  const what = green ? "clan board" : "domain";
  return svgPanel(`player panel-seat-${seat}`, `${name}'s ${what}`, 258 + extra, `${name}'s ${what}: resources, members, action card and lantern area`, ...nodes);
}

// --- the Matcha expansion --------------------------------------------------------------------------------

function faceEffects(state, face) {
  const entry = indexCatalog(state.catalog).cards[face];
  return (entry && entry.effects) || [];
}

function spaceWithDice(state, players, x, y, width, height, data, spec, heading, target) {
  const nodes = [box(x, y, width, height, "space matcha-space", `${heading}: value ${spec ? spec.value : "?"}`, target)];
  nodes.push(label(x + 6, y + 14, `${heading} · ${spec ? spec.value : "?"}`, { class: "t strong" }));
  (data.dice || []).forEach((item, i) => nodes.push(die(x + 10 + i * 14, y + height - 30 - i * 4, 22, item, players, `${item.colour} ${item.value}`)));
  return nodes;
}

/** The Tea Room (its 2 spaces, then the Geisha action) and the Himeji Principality (2 spaces, each facing 2
 * curtains of the Ikebana and Calligraphy cards lying face up). */
function teaRoomAndHimeji(state, players) {
  const matcha = state.board.matcha;
  const spec = state.catalog.matcha;
  if (!matcha || !spec) return null;
  const index = indexCatalog(state.catalog);
  const nodes = [];
  const specOf = (list, id) => ((list && list.spaces) || []).find((item) => item.id === id);
  nodes.push(box(4, 4, W - 8, 96, "matcha-area tea-room", "the Tea Room: then the Geisha action"));
  nodes.push(label(12, 20, "Tea Room → Geisha action", { class: "t strong" }));
  matcha.tea_room.forEach((data, i) => {
    nodes.push(...spaceWithDice(state, players, 12 + i * 232, 26, 222, 68, data, specOf(spec.tea_room, data.id), capitalise(space(data.id)), { kind: "tea_room", id: data.id }));
  });
  nodes.push(box(4, 106, W - 8, 246, "matcha-area himeji", "the Himeji Principality"));
  nodes.push(label(12, 122, "Himeji Principality: the curtains opposite the space", { class: "t strong" }));
  matcha.himeji.forEach((data, i) => {
    const x = 12 + i * 232;
    const own = specOf(spec.himeji, data.id) || {};
    nodes.push(...spaceWithDice(state, players, x, 128, 222, 68, data, own, capitalise(space(data.id)), { kind: "himeji", id: data.id }));
    // under the space, not in it: the dice placed there would cover it
    nodes.push(label(x + 6, 208, clip(`faces: ${(own.curtains || []).map(([deck, side]) => `${deck} ${side}`).join(", ")}`, 40), { class: "t tiny" }));
  });
  matcha.decks.forEach((deck, i) => {
    const x = 12 + i * 232;
    const y = 14; // below the faces lines
    const card = deck.top ? index.cards[deck.top] : null;
    const left = (deck.rest || []).length + (deck.top ? 1 : 0);
    nodes.push(label(x, 212 + y, `${capitalise(deck.id)} · ${deck.top || "—"} · ${left} card${left === 1 ? "" : "s"}`, { class: "t strong" }));
    if (card) {
      const price = card.blue_cost && Object.keys(card.blue_cost).length ? `${Object.entries(card.blue_cost).map(([k, v]) => `${v} ${k}`).join(", ")}: ` : "";
      nodes.push(
        s("g", {}, s("title", {}, `yellow curtain of ${card.id}: ${icons(card.yellow)}`),
          s("rect", { x, y: 218 + y, width: 222, height: 26, rx: 4, class: "curtain yellow" }),
          label(x + 6, 235 + y, clip(`yellow: ${icons(card.yellow, "short")}`, 38), { class: "t small" })),
        s("g", {}, s("title", {}, `blue curtain of ${card.id}: ${price}${icons(card.blue)}`),
          s("rect", { x, y: 248 + y, width: 222, height: 26, rx: 4, class: "curtain blue" }),
          label(x + 6, 265 + y, clip(`blue: ${price}${icons(card.blue, "short")}`, 38), { class: "t small" })),
        label(x, 290 + y, clip(`lantern side: ${icons(card.lantern || [], "short")}`, 40), { class: "t tiny" }),
      );
    }
  });
  return svgPanel("matcha", "Matcha: the Tea Room and Himeji", 358, "The Tea Room's and Himeji's spaces with their dice, and the Ikebana and Calligraphy cards face up", ...nodes);
}

/** The Tea Garden: the entrance, the Viewing Platform with its ceremony token and the pond's lily pads, the two
 * path spaces, and the Tea House's rooms with their tokens and the members each scores. */
function teaGarden(state, players) {
  const matcha = state.board.matcha;
  const spec = state.catalog.matcha;
  if (!matcha || !spec) return null;
  const index = indexCatalog(state.catalog);
  const garden = spec.tea_garden || {};
  const nodes = [];
  const place = (x, y, width, height, title, seats, where, points, id) => {
    nodes.push(box(x, y, width, height, "space tea-place", `${title}${points ? `: ${points}` : ""}`, { kind: "tea_garden", id }));
    nodes.push(label(x + 6, y + 14, title, { class: "t strong" }));
    if (points) nodes.push(label(x + width - 6, y + 14, points, { class: "t tiny", "text-anchor": "end" }));
    (seats || []).forEach((seat, i) => nodes.push(geishaPawn(x + 14 + (i % 9) * 20, y + height - 14 - Math.floor(i / 9) * 20, seat, players, state, where)));
  };
  const platform = garden.platform || {};
  place(8, 6, 228, 118, "Viewing Platform", matcha.platform, "on the Viewing Platform", `${platform.points || 2} CP, 1 per clan`, "viewing_platform");
  const token = matcha.platform_token;
  nodes.push(
    s("g", {}, s("title", {}, `ceremony token (blue side): ${token ? cardText(state.catalog, token) : "none"}`),
      s("rect", { x: 14, y: 26, width: 216, height: 20, rx: 3, class: "block token" }),
      label(20, 40, clip(`3 coins: ${token || "—"} ${token ? icons(faceEffects(state, token), "short") : ""}`, 38), { class: "t small" })),
  );
  (matcha.pond || []).forEach((pad, i) => {
    const entry = pad ? index.cards[pad] : null;
    nodes.push(
      s("g", {}, s("title", {}, `lily pad ${pad || "?"}: ${entry ? icons(entry.effects) : "?"}`),
        s("circle", { cx: 40 + i * 74, cy: 66, r: 16, class: "lily-pad" }),
        label(40 + i * 74, 70, clip(entry ? icons(entry.effects, "short") : "?", 9), { class: "t tiny", "text-anchor": "middle" })),
    );
  });
  place(244, 6, 228, 56, "Entrance", matcha.entrance, "at the entrance", `${garden.entrance_points || 1} CP`, "entrance");
  (garden.path || [{ id: "path_1" }, { id: "path_2" }]).forEach((step, i) => {
    place(244 + i * 116, 68, 112, 56, `Path ${i + 1}`, matcha.path[i], `on path space ${i + 1}`, `${step.points || ""} CP`, step.id);
  });
  nodes.push(label(12, 144, "Tea House: 2 geishas per clan per room; each scores 2 per member placed", { class: "t strong" }));
  const scores = {};
  for (const room of (garden.tea_house && garden.tea_house.rooms) || []) scores[room.id] = room.scores;
  matcha.tea_house.forEach((room, i) => {
    const x = 8 + i * 156;
    const member = scores[room.id] || "?";
    nodes.push(box(x, 150, 150, 112, "space tea-house", `${space(room.id)}: scores ${MEMBER_PLURAL[member] || member}`, { kind: "tea_house", id: room.id }));
    nodes.push(label(x + 6, 164, `${capitalise(space(room.id).replace("the ", ""))}`, { class: "t strong" }));
    nodes.push(label(x + 6, 178, `× ${MEMBER_PLURAL[member] || member}`, { class: "t small" }));
    nodes.push(
      s("g", {}, s("title", {}, `ceremony token (yellow side): ${room.token ? cardText(state.catalog, room.token) : "none"}`),
        s("rect", { x: x + 6, y: 184, width: 138, height: 20, rx: 3, class: "block token" }),
        label(x + 10, 198, clip(`${room.token || "—"} ${room.token ? icons(faceEffects(state, room.token), "short") : ""}`, 24), { class: "t small" })),
    );
    (room.geishas || []).forEach((seat, k) => nodes.push(geishaPawn(x + 16 + (k % 7) * 19, 240, seat, players, state, `in ${space(room.id)}`)));
  });
  return svgPanel("tea-garden", "Matcha: the Tea Garden", 268, "The Tea Garden: the entrance, the Viewing Platform and the pond, the path, and the Tea House, with each player's geishas", ...nodes);
}

/**
 * The solo rival (R-SO01..R-SO05; with Matcha the Tokugawa clan, R-TK01..R-TK07) in place of a domain: it has
 * no board, only coins, CP, influence and its members (and geishas); beside it the solo deck (bridge side up), the line of cards revealed this round (the last two are
 * the ones it resolved) and, in words, what it did in its latest turn.
 */
function rivalPanel(state, players, seat, waitingSeat) {
  const player = state.players[seat];
  const solo = state.solo || { deck: [], line: [], notes: [], difficulty: "" };
  const index = indexCatalog(state.catalog);
  const name = seatName(state, players, seat);
  const nodes = [];
  const line = solo.line || [];
  const height = 118 + (line.length ? 58 : 0);
  nodes.push(box(2, 2, W - 4, height - 6, waitingSeat === seat ? "domain rival waiting" : "domain rival", `${name}, played by the rules engine`));
  nodes.push(s("rect", { x: 10, y: 10, width: 14, height: 14, rx: 7, fill: seatFill(players, seat), stroke: "#111" }));
  const tokugawa = Boolean(state.board.matcha);
  nodes.push(label(30, 22, `${name} · automatic · ${solo.difficulty}${tokugawa ? " · Tokugawa clan" : ""}`, { class: "t strong big" }));
  nodes.push(label(W - 10, 22, `${player.cp} CP · PoT ${player.pot}`, { class: "t strong", "text-anchor": "end" }));
  nodes.push(label(10, 44, `coins ${player.coins} · no resources, no domain board (it never pays)`, { class: "t small" }));
  const geishas = tokugawa ? `, ${player.geishas || 0} geishas` : "";
  nodes.push(label(10, 62, `Members left: ${player.courtiers} courtiers, ${player.gardeners} gardeners, ${player.warriors} warriors${geishas}`, { class: "t small" }));
  const deck = solo.deck || [];
  nodes.push(s("g", {}, s("title", {}, `${deck.length} solo cards in the deck, bridge side up`),
    s("rect", { x: 10, y: 74, width: 30, height: 38, rx: 3, class: "solo-deck" }),
    label(25, 98, String(deck.length), { class: "t strong", "text-anchor": "middle" })));
  nodes.push(label(48, 90, `solo deck · ${line.length} revealed this round`, { class: "t small" }));
  nodes.push(label(48, 104, line.length ? "the last two (outlined) are the ones it resolved" : "reshuffled: nothing revealed yet", { class: "t tiny" }));
  const width = Math.min(92, (W - 20) / Math.max(line.length, 1) - 4);
  line.forEach((id, i) => {
    const card = index.cards[id];
    const x = 10 + i * (width + 4);
    const last = i >= line.length - 2;
    nodes.push(
      s(
        "g",
        { class: "solo-card" },
        s("title", {}, soloCardText(card) || id),
        s("rect", { x, y: 118, width, height: 48, rx: 4, class: last ? "solo-card resolved" : "solo-card" }),
        label(x + 4, 131, id, { class: "t small strong" }),
        card ? label(x + 4, 145, clip(`${card.bridge} ${card.end[0].toUpperCase()} → ${space(card.space)}`, Math.floor(width / 5)), { class: "t tiny" }) : null,
        card ? label(x + 4, 158, clip(rivalIcons(card.icons, "short"), Math.floor(width / 5)), { class: "t tiny" }) : null,
      ),
    );
  });
  const section = svgPanel(`player panel-rival panel-seat-${seat}`, `${name} (automatic)`, height, `${name}: coins, CP, members, the solo deck and the cards it revealed`, ...nodes);
  const notes = solo.notes || [];
  section.append(
    h("h4", { class: "rival-notes-title" }, notes.length ? `${name}'s latest turn` : `${name} has not played yet`),
    h("ul", { class: "rival-notes" }, notes.map((text) => h("li", {}, text))),
  );
  return section;
}

/** The board's areas, in drawing order; add one function here to draw a new area (one that returns null draws
 * nothing: the Matcha areas in a base game). */
export const PANELS = [passageOfTime, castle, bridges, yards, wellAndOutside, teaRoomAndHimeji, teaGarden];

// --- the text alternative --------------------------------------------------------------------------------

function diceWords(dice, state, players) {
  if (!dice || !dice.length) return "no die";
  return dice
    .map((d) => `${d.colour} ${d.value}${d.seat !== undefined && d.seat !== null ? ` (${seatName(state, players, d.seat)})` : ""}`)
    .join(", ");
}

function seatsWords(seats, state, players) {
  return seats && seats.length ? seats.map((seat) => seatName(state, players, seat)).join(", ") : "nobody";
}

function words(state, players) {
  const b = state.board;
  const items = [];
  const add = (heading, lines) => items.push(h("h4", {}, heading), h("ul", {}, lines.map((line) => h("li", {}, line))));
  add("Round and turn order", [
    `Round ${state.round}; turn order: ${(state.turn_order || []).map((seat) => seatName(state, players, seat)).join(", ")}`,
  ]);
  add(
    "Passage of Time",
    state.players.map((p, seat) => `${seatName(state, players, seat)}: space ${p.pot}`),
  );
  const daimyo = b.daimyo || { spots: [] };
  add("Castle", [
    `Daimyo ${cardText(state.catalog, daimyo.card)}; spots taken by: ${(daimyo.spots || []).map((seat) => (seat === null ? "free" : seatName(state, players, seat))).join(", ")}`,
    ...b.rooms.map(
      (r) =>
        `${capitalise(space(r.id))}: card ${cardText(state.catalog, r.card)}; die tiles ${r.tiles.map((t) => t || "none").join(", ")}; dice: ${diceWords(r.dice, state, players)}; courtiers: ${seatsWords(r.courtiers, state, players)}`,
    ),
    `Gate: ${(b.gate || []).map((count, seat) => `${seatName(state, players, seat)} ${count}`).join(", ")}`,
  ]);
  add(
    "Bridges and gardens",
    [
      ...b.bridges.map(
        (br) =>
          `${capitalise(br.colour)} bridge: left (lantern) end ${br.left ?? "empty"}, middle ${(br.middle || []).join(", ") || "none"}, right end ${br.right ?? "empty"}`,
      ),
      ...b.gardens.map((g) => `${capitalise(g.bridge)} ${g.type} garden ${cardText(state.catalog, g.card)}; gardeners: ${seatsWords(g.gardeners, state, players)}`),
    ],
  );
  add(
    "Training yards",
    (b.yards || []).map(
      (y) =>
        `${capitalise(space(y.id))}: ${[y.blue && `blue ${cardText(state.catalog, y.blue)}`, y.yellow && `yellow ${cardText(state.catalog, y.yellow)}`].filter(Boolean).join("; ")}; warriors: ${seatsWords(y.warriors, state, players)}`,
    ),
  );
  add("Well and Outside the Walls", [
    `The Well: tiles ${(b.well.tiles || []).map((t) => cardText(state.catalog, t)).join(" and ")}; dice: ${diceWords(b.well.dice, state, players)}`,
    ...(b.outside || []).map((o) => `${capitalise(space(o.id))}: dice: ${diceWords(o.dice, state, players)}`),
  ]);
  const m = b.matcha;
  if (m) {
    add("Matcha: the Tea Room and Himeji", [
      ...m.tea_room.map((sp) => `${capitalise(space(sp.id))}: dice: ${diceWords(sp.dice, state, players)}`),
      ...m.himeji.map((sp) => `${capitalise(space(sp.id))}: dice: ${diceWords(sp.dice, state, players)}`),
      ...m.decks.map((deck) => `${capitalise(deck.id)} deck: ${deck.top ? cardText(state.catalog, deck.top) : "empty"}; ${(deck.rest || []).length} more under it`),
    ]);
    add("Matcha: the Tea Garden", [
      `Entrance: ${seatsWords(m.entrance, state, players)}`,
      `Viewing Platform: ${seatsWords(m.platform, state, players)}; its ceremony token ${m.platform_token ? cardText(state.catalog, m.platform_token) : "none"}`,
      `Pond: ${(m.pond || []).map((pad) => cardText(state.catalog, pad)).join(", ")}`,
      ...m.path.map((seats, i) => `Path space ${i + 1}: ${seatsWords(seats, state, players)}`),
      ...m.tea_house.map((room) => `${capitalise(space(room.id))}: ${seatsWords(room.geishas, state, players)}; its ceremony token ${room.token ? cardText(state.catalog, room.token) : "none"}`),
    ]);
  }
  state.players.forEach((p, seat) => {
    if (p.automatic) {
      const solo = state.solo || { deck: [], line: [], notes: [] };
      add(`${seatName(state, players, seat)} (automatic)`, [
        `${p.cp} CP, ${p.coins} coins; Passage of Time ${p.pot}`,
        `Members left: ${p.courtiers} courtiers, ${p.gardeners} gardeners, ${p.warriors} warriors`,
        `Solo deck: ${(solo.deck || []).length} cards; revealed this round: ${(solo.line || []).map((id) => cardText(state.catalog, id)).join(" | ") || "none"}`,
        `Latest turn: ${(solo.notes || []).join("; ") || "none yet"}`,
      ]);
      return;
    }
    const clan = m
      ? [`Whisks ${p.whisks || 0}; geishas on the clan board ${p.geishas || 0}; ceremony token ${p.ceremony ? cardText(state.catalog, p.ceremony) : "none"}`]
      : [];
    add(`${seatName(state, players, seat)}'s ${m ? "clan board" : "domain"}`, [
      `${p.cp} CP, ${p.coins} coins, ${p.seals} seals, ${p.food} food, ${p.iron} iron, ${p.pearl} pearl; Passage of Time ${p.pot}`,
      ...clan,
      `Members left: ${p.courtiers} courtiers, ${p.gardeners} gardeners, ${p.warriors} warriors`,
      `Action card: ${p.action_card ? cardText(state.catalog, p.action_card) : "none"}`,
      `Lantern area: ${(p.lantern || []).map((id) => cardText(state.catalog, id)).join(" | ") || "empty"}`,
      `Dice on the domain: ${diceWords((p.domain || []).filter(Boolean), state, players)}`,
    ]);
  });
  return items;
}

/**
 * Draw the whole board. `players` are the seats as the API lists them ({name, colour}); `waitingSeat` marks
 * the player the game waits on.
 */
export function draw(container, wordsNode, state, players, waitingSeat = null) {
  const panels = PANELS.map((panel) => panel(state, players)).filter(Boolean);
  const domains = state.players.map((player, seat) =>
    player.automatic ? rivalPanel(state, players, seat, waitingSeat) : playerDomain(state, players, seat, waitingSeat),
  );
  replace(container, h("div", { class: "panels" }, ...panels), h("div", { class: "panels domains" }, ...domains));
  if (wordsNode) replace(wordsNode, ...words(state, players));
  if (!laidOut.has(container)) {
    laidOut.add(container);
    wireZoom(container);
    window.addEventListener("resize", () => layOut(container));
  }
  layOut(container);
}

const laidOut = new WeakSet();

// --- the zoom switch ------------------------------------------------------------------------------------
//
// Two sizes, chosen with the board's "Fit the board to the screen" button (aria-pressed) and kept in this
// browser: readable (the default: each panel at a scale whose smallest text is 10 px, scrolling sideways in its
// own box on a phone) and fit (the whole board in the screen at once, in as few columns as that takes,
// smaller: an overview map). Fitted, each panel is a button ("Show <its title> at reading size") laid over it:
// tapped, clicked or pressed (Enter, Space), it brings back the readable size, kept like the switch's, with that
// panel scrolled to the top of the screen and focused. A fitted panel is never drawn below FIT_FLOOR of its size:
// where the board cannot fit the screen at that scale (a narrow phone under the replay's step bar, a phone
// turned sideways), it takes the columns of that scale and the page scrolls down instead.

const ZOOM_KEY = "heronlog:board-zoom";
// The smallest scale of a fitted panel's drawing (0.3: 144 px wide, its smallest text 2.6 px, its dice 6 px): the
// two columns of a 360- to 390-pixel phone (0.31 to 0.34), where each title (12.8 px) takes two lines at most and
// the dice, members and cards still show as marks to find; three columns there (0.21) break the titles into
// three lines over a blur.
const FIT_FLOOR = 0.3;

function fitChosen() {
  try {
    return window.localStorage.getItem(ZOOM_KEY) === "fit";
  } catch (error) {
    return false; // storage refused (a private window's settings): the readable size
  }
}

function chooseFit(fit) {
  try {
    if (fit) window.localStorage.setItem(ZOOM_KEY, "fit");
    else window.localStorage.removeItem(ZOOM_KEY);
  } catch (error) {
    /* not kept: the choice holds for this page only */
  }
}

function wireZoom(container) {
  const area = container.closest(".board-area");
  const button = area && area.querySelector(".board-zoom");
  if (!button) return;
  button.addEventListener("click", () => {
    container.classList.toggle("fit");
    chooseFit(container.classList.contains("fit"));
    layOut(container);
    button.scrollIntoView({ block: "nearest" }); // the board changed size around it: keep the switch in view
  });
  container.addEventListener("click", (event) => {
    const show = event.target instanceof Element && event.target.closest(".panel-show");
    if (show && container.classList.contains("fit")) readPanel(container, show.closest(".panel"));
  });
  container.classList.toggle("fit", fitChosen());
}

/** A fitted panel chosen: the readable size again (kept), that panel at the top of the screen, focused. */
function readPanel(container, panel) {
  container.classList.remove("fit");
  chooseFit(false);
  layOut(container);
  // focused, so that the keyboard goes on from it (a panel that scrolls sideways is a tab stop already)
  if (!panel.hasAttribute("tabindex")) panel.setAttribute("tabindex", "-1");
  panel.focus({ preventScroll: true });
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const top = panel.getBoundingClientRect().top + window.scrollY - coveredTop() - 8;
  window.scrollTo({ top: Math.max(0, top), behavior: still ? "auto" : "smooth" });
}

/** Lay the board out for its size (the columns of a fitted board), then say which panels scroll. */
function layOut(container) {
  const area = container.closest(".board-area");
  const button = area && area.querySelector(".board-zoom");
  const fit = container.classList.contains("fit");
  if (button) button.setAttribute("aria-pressed", String(fit));
  showButtons(container, fit);
  if (fit) fitColumns(container);
  else container.style.removeProperty("--fit-columns");
  focusableWhereScrolled(container);
}

/** Over each fitted panel, the button that shows it at the readable size; none at the readable size. */
function showButtons(container, fit) {
  for (const panel of container.querySelectorAll(".panel")) {
    const show = panel.querySelector(":scope > .panel-show");
    if (fit && !show) {
      const title = panel.getAttribute("aria-label").replace(/^The /, "the "); // "Show the castle at reading size"
      panel.querySelector(":scope > h3").after(h("button", { type: "button", class: "panel-show", "aria-label": `Show ${title} at reading size` }));
    } else if (!fit && show) show.remove();
  }
}

/**
 * The fewest columns in which the whole board fits the height of the screen (less a sticky bar over it, the
 * replay's step bar on a phone): more columns make each panel narrower and so shorter, down to FIT_FLOOR; past
 * it, the most columns at that scale, and the page scrolls. Searched from the count used last, so that a redraw
 * at the same size measures once or twice.
 */
function fitColumns(container) {
  const room = window.innerHeight - coveredTop() - 8;
  const most = Math.max(1, Math.min(container.querySelectorAll(".panel").length, legibleColumns(container)));
  const fits = () => container.getBoundingClientRect().height <= room;
  const set = (columns) => container.style.setProperty("--fit-columns", String(columns));
  let columns = Math.min(most, Number(container.style.getPropertyValue("--fit-columns")) || 1);
  set(columns);
  if (fits()) {
    while (columns > 1) {
      set(columns - 1);
      if (!fits()) break;
      columns -= 1;
    }
    set(columns);
  } else {
    while (columns < most && !fits()) set((columns += 1));
  }
}

/** The most columns whose panels draw the board at FIT_FLOOR of its size at least (a panel's drawing is W wide). */
function legibleColumns(container) {
  const panel = container.querySelector(".panel");
  if (!panel) return 1;
  const px = (style, name) => parseFloat(style.getPropertyValue(name)) || 0;
  const board = getComputedStyle(container);
  const box = getComputedStyle(panel);
  const gap = px(board, "column-gap");
  const frame = ["padding-left", "padding-right", "border-left-width", "border-right-width"].reduce((sum, name) => sum + px(box, name), 0);
  const width = container.clientWidth - px(board, "padding-left") - px(board, "padding-right");
  // n columns of (width - (n - 1) gap) / n, each drawing W * FIT_FLOOR plus its panel's frame at least
  return Math.max(1, Math.floor((width + gap) / (W * FIT_FLOOR + frame + gap)));
}

/** The height of a bar stuck to the top of the screen (the replay's step bar on a phone), or 0. */
function coveredTop() {
  const bar = document.querySelector(".step-bar");
  if (!bar || getComputedStyle(bar).position !== "sticky") return 0;
  return bar.getBoundingClientRect().height;
}

/**
 * A panel that scrolls sideways (on a phone, at the readable size, each panel is drawn wider than the screen)
 * takes the keyboard focus, so that the arrow keys scroll it (WCAG 2.1.1: its SVG holds nothing focusable); a
 * panel that fits is no extra tab stop (one focused from the fitted board keeps tabindex -1, out of the tab
 * order). Measured again when the window is resized (a phone turned).
 */
function focusableWhereScrolled(container) {
  for (const panel of container.querySelectorAll(".panel")) {
    if (panel.scrollWidth > panel.clientWidth + 1) panel.setAttribute("tabindex", "0");
    else if (panel.getAttribute("tabindex") === "0") panel.removeAttribute("tabindex");
  }
}
