/* heronlog pages: words for the game's data.
 *
 * Turns the catalog's icon notation ("coin:2", "tile:coral", "lantern"), spaces ("steward_2"), prompts and
 * legal moves into short readable labels. Everything is read from the state JSON (its catalog and board), so a
 * new card or area in the catalog needs no change here unless it brings a new kind of icon. The Matcha
 * expansion's symbols, places, prompts and moves have their words here too.
 */

const ACTIONS = {
  lantern: ["Lantern", "the Lantern Reward"],
  courtier: ["Courtier", "a Courtier action"],
  warrior: ["Warrior", "a Warrior action"],
  gardener: ["Gardener", "a Gardener action"],
  well: ["Well", "the Well action"],
  domain: ["Domain", "a Personal Domain action"],
  light: ["Light", "a light-background castle action"],
  geisha: ["Geisha", "the Geisha action"],
  lily: ["3 lily pads", "the rewards of the 3 lily pads"],
  pond: ["Pond", "the Pond action (3 lily pads, or 3 coins for the Viewing Platform's token)"],
  dark: ["Dark", "a dark-background castle action"],
  advance: ["Geisha step", "a geisha 1 step forward without whisks"],
  climb: ["Climb", "a courtier 1 floor up without pearl"],
  token: ["Token", "your own ceremony token"],
};

const VARIANTS = {
  "curtain:yellow": ["Yellow curtain", "the yellow curtain of a Himeji card"],
  "curtain:blue": ["Blue curtain", "the blue curtain of a Himeji card, without seals"],
  "curtain:both": ["Both curtains", "both curtains of one Himeji card"],
  "curtain:yellows": ["Both yellows", "both visible yellow curtains in Himeji"],
  "yard:blue": ["Blue yard tile", "the action of a blue yard tile"],
  "yard:yellow": ["Yellow yard tiles", "the rewards of both yellow yard tiles"],
};

const GAINS = {
  coin: ["coin", "coins"],
  seal: ["seal", "seals"],
  food: ["food", "food"],
  iron: ["iron", "iron"],
  pearl: ["pearl", "pearl"],
  cp: ["CP", "CP"],
  whisk: ["whisk", "whisks"],
};

/** An icon as a short label (for the board) and a long one (for titles and the text alternative). */
export function icon(text) {
  const [name, arg] = String(text).split(":");
  if (VARIANTS[text]) return { short: VARIANTS[text][0], long: VARIANTS[text][1] };
  if (name === "slash") {
    const shown = ACTIONS[arg] || [arg, arg];
    return { short: `${shown[0]}/Geisha`, long: `${shown[1]} or the Geisha action` };
  }
  if (name === "light" && arg) return { short: `Light ×${arg} cards`, long: `a light-background action on each of ${arg} different cards` };
  if (name === "stone") return { short: `${arg} stone gardens`, long: `the rewards of ${arg} different Stone Gardens` };
  if (ACTIONS[name]) return { short: ACTIONS[name][0], long: ACTIONS[name][1] };
  if (name === "tile") {
    const colour = arg === "any" ? "any" : arg;
    return { short: `${colour} tile`, long: `the action beside a ${colour === "any" ? "" : `${colour} `}die tile` };
  }
  const amount = Number(arg || 1);
  if (name === "pot") return { short: `PoT+${amount}`, long: `Passage of Time +${amount}` };
  if (name === "any") return { short: `+${amount} any`, long: `${amount} resource${amount > 1 ? "s" : ""} of your choice` };
  if (GAINS[name]) {
    const noun = amount === 1 ? GAINS[name][0] : GAINS[name][1];
    return { short: `+${amount} ${GAINS[name][0]}`, long: `${amount} ${noun}` };
  }
  return { short: String(text), long: String(text) };
}

const RIVAL_ICONS = {
  gate: () => ["Gate", "a courtier to the Gate"],
  ascent: (n) => [`Ascent ${n}`, `the lowest courtier climbs ${n} floor${n > 1 ? "s" : ""}`],
  warrior: (n) => [`Warrior ${n}`, `a warrior to the ${n}-iron yard`],
  gardener: (type) => [`${capitalise(type)} gardener`, `a gardener to the ${type} garden scoring least`],
  cp: (n) => [`+${n} CP`, `${n} CP`],
  pot: (n) => [`PoT+${n}`, `Passage of Time +${n}`],
  coin: (n) => [`+${n} coin`, `${n} coin${Number(n) > 1 ? "s" : ""}`],
  // the Tokugawa clan, the solo rival with Matcha (R-TK02..R-TK07)
  geisha: (place) => [
    `Geisha → ${{ entrance: "entrance", path_1: "path 1", path_2: "path 2" }[place] || place}`,
    `symbol ${{ entrance: 2, path_1: 3, path_2: 4 }[place] || "?"}: a geisha from its supply to ${space(place)}, then ${
      { entrance: "it loses 3 CP and you advance another of its geishas 1 step", path_1: "a Himeji card is discarded, it loses all its coins and you advance another of its geishas 1 step", path_2: "a Himeji card is discarded and its influence goes 2 spaces back" }[place] || "its steps"
    }`,
  ],
  lose_cp: (n) => [`−${n} CP`, `it loses ${n} CP (not below 0)`],
  lose_coin: (n) => (n === "all" ? ["−all coins", "it loses all its coins"] : [`−${n} coin`, `it loses ${n} coin${Number(n) > 1 ? "s" : ""} (not below 0)`]),
  lose_pot: (n) => [`PoT−${n}`, `its influence goes ${n} space${Number(n) > 1 ? "s" : ""} back`],
  discard: () => ["Discard", "the top card of an Ikebana or Calligraphy deck holding 2 cards is discarded"],
  advance: () => ["Advance", "you advance one of its geishas 1 step"],
};

/** An icon of a solo card (the rival's icons, R-SO05): short and long labels. */
export function rivalIcon(text) {
  const [name, arg] = String(text).split(":");
  const make = RIVAL_ICONS[name];
  if (!make) return { short: String(text), long: String(text) };
  const [short, long] = make(arg);
  return { short, long };
}

export function rivalIcons(list, form = "long") {
  if (!list || !list.length) return form === "long" ? "nothing" : "—";
  return list.map((item) => rivalIcon(item)[form]).join(form === "long" ? ", then " : ", ");
}

/** A solo card in words: the die it wants (bridge side) and what its revealed side does. */
export function soloCardText(card) {
  if (!card) return "";
  return `${card.id}: the ${card.bridge} die at the ${card.end} end → ${space(card.space)}; ${rivalIcons(card.icons)}`;
}

export function icons(list, form = "long") {
  if (!list || !list.length) return form === "long" ? "nothing" : "—";
  return list.map((item) => icon(item)[form]).join(form === "long" ? " + " : ", ");
}

/** A cost, as the catalog ({"seal": 1}) or a prompt ([["seal", 1]]) writes it. */
export function cost(value) {
  const pairs = Array.isArray(value) ? value : Object.entries(value || {});
  return pairs
    .filter(([, amount]) => amount)
    .map(([name, amount]) => icon(`${name}:${amount}`).long)
    .join(", ");
}

const SPACE_NAMES = {
  well: "the Well",
  tea_room: "the Tea Room (symbol 1: left space, else right, else the Well)",
  domain: "their Personal Domain",
  gate: "the Gate",
  daimyo: "the Daimyo",
  tea_room_left: "the left Tea Room space",
  tea_room_right: "the right Tea Room space",
  himeji_upper: "the upper Himeji space",
  himeji_lower: "the lower Himeji space",
  entrance: "the Tea Garden entrance",
  viewing_platform: "the Viewing Platform",
  path_1: "path space 1",
  path_2: "path space 2",
  tea_house_upper: "the upper Tea House room",
  tea_house_middle: "the middle Tea House room",
  tea_house_lower: "the lower Tea House room",
  "himeji:ikebana": "the Ikebana deck",
  "himeji:calligraphy": "the Calligraphy deck",
};

export function space(id) {
  if (SPACE_NAMES[id]) return SPACE_NAMES[id];
  const match = /^([a-z]+)_(\d+)$/.exec(String(id));
  if (!match) return String(id).replaceAll("_", " ");
  const kind = { steward: "steward room", diplomat: "diplomat room", outside: "Outside the Walls", yard: "yard" }[
    match[1]
  ];
  return `${kind || match[1]} ${match[2]}`;
}

export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Catalog look-ups by id, built once per catalog. */
export function indexCatalog(catalog) {
  if (catalog.__index) return catalog.__index;
  const cards = {};
  for (const key of [
    "stewards",
    "diplomats",
    "starting_actions",
    "starting_resources",
    "decrees",
    "gardens",
    "yard_tiles",
    "die_tiles",
    "daimyo",
    "ikebana",
    "calligraphy",
    "lily_pads",
    "ceremony_faces",
    "solo_cards",
  ]) {
    for (const entry of catalog[key] || []) cards[entry.id] = { ...entry, family: key };
  }
  const rooms = {};
  for (const room of (catalog.castle && catalog.castle.rooms) || []) rooms[room.id] = room;
  const yards = {};
  for (const yard of catalog.yards || []) yards[yard.id] = yard;
  const outside = {};
  for (const entry of catalog.outside_the_walls || []) outside[entry.id] = entry;
  const index = { cards, rooms, yards, outside };
  Object.defineProperty(catalog, "__index", { value: index, enumerable: false });
  return index;
}

/** What a card does, in words: its blocks, gains, lantern icons, costs and points. */
export function cardText(catalog, id) {
  if (!id) return "no card";
  const card = indexCatalog(catalog).cards[id];
  if (!card) return id;
  if (card.family === "solo_cards") return soloCardText(card);
  const parts = [];
  for (const block of card.blocks || []) {
    const price = block.cost ? `pay ${cost(block.cost)}: ` : "";
    parts.push(`${block.background} (${block.rows.join("/")}): ${price}${icons(block.effects)}`);
  }
  if (card.gain) parts.push(`gain ${icons(card.gain)}`);
  if (card.spots) parts.push(card.spots.map((spot, i) => `spot ${i + 1}: ${icons(spot)}`).join("; "));
  if (card.family === "gardens") {
    parts.push(`${card.food} food to enter, ${card.cp} CP at the end`);
    if (card.cost && Object.keys(card.cost).length) parts.push(`then pay ${cost(card.cost)}`);
    parts.push(`does ${icons(card.effects)}`);
  }
  if (card.family === "ikebana" || card.family === "calligraphy") {
    parts.push(`yellow curtain: ${icons(card.yellow)}`);
    const price = card.blue_cost && Object.keys(card.blue_cost).length ? `pay ${cost(card.blue_cost)}: ` : "";
    parts.push(`blue curtain: ${price}${icons(card.blue)}`);
  } else {
    if (card.blue) parts.push(`blue side: ${icons(card.blue)}`);
    if (card.yellow) parts.push(`yellow side: ${icons(card.yellow)}`);
  }
  if (card.family === "lily_pads") parts.push(`lily pad: ${icons(card.effects)}`);
  if (card.family === "ceremony_faces") parts.push(`ceremony token face: ${icons(card.effects)}`);
  if (card.reward) parts.push(`${card.colour} tile, reward ${icons(card.reward)}`);
  if (card.lantern && card.lantern.length) parts.push(`lantern: ${icons(card.lantern)}`);
  if (card.decree) parts.push(`with decree ${card.decree}`);
  return `${id}: ${parts.join("; ")}`;
}

function nameOf(state, seat) {
  if (seat === null || seat === undefined) return "Chance";
  const player = state.players[seat];
  return player ? player.name : `Seat ${seat + 1}`;
}

function placed(space, board) {
  if (space === "well") return [];
  const matcha = board.matcha ? [board.matcha.tea_room, board.matcha.himeji] : [];
  for (const list of [board.rooms, board.outside, ...matcha]) {
    const found = (list || []).find((item) => item.id === space);
    if (found) return found.dice || [];
  }
  return [];
}

/** The coins a die placed on a space gains (+) or costs (-): for the button, the engine checks the rest. */
function placeDelta(state, die, spaceId) {
  const index = indexCatalog(state.catalog);
  let reference = 0;
  if (spaceId === "well") reference = (state.catalog.well && state.catalog.well.value) || 1;
  else if (spaceId === "domain") reference = 6;
  else {
    const dice = placed(spaceId, state.board);
    if (dice.length) reference = dice[dice.length - 1].value;
    else if (index.rooms[spaceId]) reference = index.rooms[spaceId].value;
    else if (index.outside[spaceId]) reference = index.outside[spaceId].value;
    else if (matchaSpace(state.catalog, spaceId)) reference = matchaSpace(state.catalog, spaceId).value;
    else return null;
  }
  return die.value - reference;
}

function matchaSpace(catalog, id) {
  const matcha = catalog.matcha;
  if (!matcha) return null;
  for (const part of [matcha.tea_room, matcha.himeji]) {
    const found = ((part && part.spaces) || []).find((entry) => entry.id === id);
    if (found) return found;
  }
  return null;
}

/** Whisks a geisha's advance costs: 1 step 2, 2 steps 5 (the catalog's numbers), none for a free step. */
function advanceWhisks(state, prompt, move) {
  const c = (prompt && prompt.context) || {};
  if (c.free_step) return 0;
  const rooms = ["tea_house_upper", "tea_house_middle", "tea_house_lower"];
  const line = ["entrance", "path_1", "path_2", "tea_house"];
  const to = rooms.includes(move.to) ? "tea_house" : move.to;
  const steps = to === "viewing_platform" ? 1 : line.indexOf(to) - line.indexOf(move.from);
  const table = (state.catalog.matcha && state.catalog.matcha.geisha_action && state.catalog.matcha.geisha_action.whisks_per_steps) || { 1: 2, 2: 5 };
  return table[String(steps)];
}

function coins(delta) {
  if (delta === null || delta === 0) return "";
  const n = Math.abs(delta);
  return delta > 0 ? ` (gain ${n} coin${n > 1 ? "s" : ""})` : ` (pay ${n} coin${n > 1 ? "s" : ""})`;
}

/** The heading for the pending prompt: the server's words for it (domain.describe.prompt_text), so that the
 * page, the API and the engine's errors ask the same question. */
export function promptTitle(state, prompt) {
  if (!prompt) return "";
  return prompt.text || `${nameOf(state, prompt.seat)}: ${String(prompt.kind).replaceAll("_", " ")}`;
}

/** Help under the prompt's heading: the server's words first (domain.describe.prompt_help: what the question
 * alone does not say, such as a castle dealt again under R-S03), then the page's own hint for that kind. */
export function promptHelp(state, prompt) {
  return [prompt && prompt.help, kindHelp(prompt)].filter(Boolean).join(" ");
}

function kindHelp(prompt) {
  const c = (prompt && prompt.context) || {};
  switch (prompt && prompt.kind) {
    case "take_die":
      return "A die from the left (lantern) end also gives the Lantern Reward.";
    case "actions":
      return c.mandatory
        ? "Take each of them; the order is yours."
        : `Any of them, in any order${c.picks ? ` (${c.picks} left)` : ""}; Done ends them.`;
    case "courtier":
      return "Audience (2 coins) and Ascent (2 pearl per floor, 5 for two), each once, in any order.";
    case "geisha":
      return c.free_step
        ? "One of your geishas at the entrance or on the path moves 1 step; nothing to pay."
        : "Part A: your leftmost geisha to the entrance (2 coins). Part B: one geisha 1 step (2 whisks) or 2 steps (5 whisks). Each once, in any order.";
    case "himeji_card":
      return c.purpose === "path"
        ? "Its yellow curtain now, then the card goes to your Lantern Area (a deck's last card stays)."
        : "Then its yellow and blue curtains, in any order.";
    case "roll":
      return `Enter the ${c.dice || ""} values shown, in any order.`;
    case "solo_card":
      return "Reveal the top card of the solo deck and enter it: the rival plays the rest of its turn by itself.";
    case "rival_garden":
      return "The gardens tie as the cheapest for the rival: the rules let you choose (R-SO05).";
    case "rival_room":
      return "That room's card is discarded and replaced; the rules let you choose the room (R-SO05).";
    case "choose_start_cards":
      return "Tokugawa: 2 of each were dealt; take 1 of each, in any combination (R-TK01).";
    case "rival_geisha":
      return "Not the geisha its symbol has just sent; the Viewing Platform only if it has none there; into the Tea House only the room scoring it the most (R-TK03, R-TK05).";
    case "rival_discard":
      return "A rival geisha stopped on a path space: the top card of a deck holding 2 cards or more leaves the game (R-TK03).";
    default:
      return c.automatic ? "The rival's turn: the engine plays it." : "";
  }
}

/** A legal move as a button label. */
export function moveLabel(state, prompt, move) {
  const c = (prompt && prompt.context) || {};
  const catalog = state.catalog;
  const index = indexCatalog(catalog);
  switch (move.kind) {
    case "take_die": {
      const bridge = state.board.bridges.find((b) => b.colour === move.bridge) || {};
      let value = move.end === "left" ? bridge.left : bridge.right;
      if (value === null || value === undefined) value = move.end === "left" ? bridge.right : bridge.left;
      return `${capitalise(move.bridge)} ${value}, ${move.end} end${move.end === "left" ? " (lantern)" : ""}`;
    }
    case "place_die": {
      const die = c.die || (state.held && state.held) || null;
      return capitalise(space(move.space)) + (die ? coins(placeDelta(state, die, move.space)) : "");
    }
    case "choose": {
      const option = (c.options || []).find((o) => o.id === move.option);
      if (!option) return capitalise(String(move.option).replaceAll("_", " "));
      if (option.text) return capitalise(option.text); // the engine's own words, where it gives them
      const price = option.cost && option.cost.length ? `Pay ${cost(option.cost)}: ` : "";
      const label = icons(option.icons);
      return price + (price ? label : capitalise(label));
    }
    case "rest":
      return "Take them all";
    case "done":
      return ["actions", "courtier", "geisha", "climb"].includes(prompt.kind) ? "Done" : "Skip";
    case "send_geisha":
      return "Part A: a geisha to the Tea Garden entrance (2 coins)";
    case "advance_geisha": {
      const whisks = advanceWhisks(state, prompt, move);
      return `Part B: ${space(move.from)} → ${space(move.to)}${whisks ? ` (${whisks} whisks)` : " (free)"}`;
    }
    case "himeji_card": {
      const deck = state.board.matcha && state.board.matcha.decks.find((d) => d.id === move.deck);
      const card = deck && deck.top ? index.cards[deck.top] : null;
      const shown = card ? (c.purpose === "path" ? `: ${icons(card.yellow)}` : `: ${icons(card.yellow)} / ${icons(card.blue)}`) : "";
      return `${capitalise(move.deck)}${deck && deck.top ? ` ${deck.top}` : ""}${shown}`;
    }
    case "audience":
      return "Audience: a courtier to the Gate (2 coins)";
    case "ascend":
      return `Ascent: ${space(move.from)} → ${space(move.to)}`;
    case "warrior": {
      const yard = index.yards[move.yard];
      return `${capitalise(space(move.yard))}${yard ? ` (${yard.iron} iron)` : ""}`;
    }
    case "gardener": {
      const slot = state.board.gardens.find((g) => g.id === move.garden);
      const card = slot && index.cards[slot.card];
      const where = move.garden.replace("_", " ") + " garden";
      return `${capitalise(where)}${card ? ` ${card.id} (${card.food} food)` : ""}`;
    }
    case "domain_row":
      return `The ${move.row} row`;
    case "resources": {
      const parts = ["food", "iron", "pearl"].filter((r) => move[r]).map((r) => `${move[r]} ${r}`);
      return parts.join(", ") || "nothing";
    }
    case "milestone":
      return move.pay ? "Pay and pass" : "Stop before it";
    case "daimyo_spot": {
      const card = state.board.daimyo && index.cards[state.board.daimyo.card];
      const spot = card && card.spots ? card.spots[move.spot] : null;
      return `Spot ${move.spot + 1}${spot ? `: ${icons(spot)}` : ""}`;
    }
    case "choose_start": {
      const pair = (state.board.offer || []).find((p) => p.resource === move.resource);
      const resource = index.cards[move.resource];
      const action = pair && index.cards[pair.action];
      const gains = resource && resource.gain ? icons(resource.gain) : move.resource;
      const does = action && action.blocks ? icons(action.blocks[0].effects) : "";
      return `${move.resource} + ${pair ? pair.action : "?"}: ${gains}${does ? `; action card: ${does}` : ""}`;
    }
    case "choose_start_cards": {
      const resource = index.cards[move.resource];
      const action = index.cards[move.action];
      const gains = resource && resource.gain ? icons(resource.gain) : move.resource;
      const does = action && action.blocks ? icons(action.blocks[0].effects) : move.action;
      return `${move.resource} (${gains}) + ${move.action} (${does}) + ${cardText(catalog, move.token)}`;
    }
    case "rival_geisha":
      return `${capitalise(space(move.from))} → ${space(move.to)}`;
    case "rival_discard": {
      const deck = state.board.matcha && state.board.matcha.decks.find((d) => d.id === move.deck);
      return `${capitalise(move.deck)}${deck && deck.top ? `: discard ${deck.top}` : ""}`;
    }
    case "convert":
      return move.to === "coin" ? "1 seal → 1 coin" : `2 seals → 1 ${move.to}`;
    case "reveal":
      return cardText(catalog, move.card);
    case "die_tile":
      return capitalise(move.colour);
    case "well_tile":
      return cardText(catalog, move.tile);
    case "roll":
      return move.dice.join(", ");
    case "stack_order":
      return move.order.map((seat) => nameOf(state, seat)).join(", then ");
    case "solo_card":
      return soloCardText(index.cards[move.card]) || move.card;
    case "rival_garden": {
      const slot = state.board.gardens.find((g) => g.id === move.garden);
      const card = slot && index.cards[slot.card];
      return `${capitalise(move.garden.replace("_", " "))} garden${card ? ` ${card.id} (${card.cp} CP)` : ""}`;
    }
    case "rival_room": {
      const room = state.board.rooms.find((r) => r.id === move.room);
      return `${capitalise(space(move.room))}${room && room.card ? ` (its card ${room.card} is discarded)` : ""}`;
    }
    default:
      return String(move.kind).replaceAll("_", " ");
  }
}

/** Which group a move's button goes in, and the group's heading, for the prompt panel. */
export function moveGroup(prompt, move) {
  if (move.kind === "convert") return "Seal conversions";
  if (move.kind === "done" || move.kind === "rest") return "Finish";
  if (move.kind === "take_die") return `${capitalise(move.bridge)} bridge`;
  if (move.kind === "place_die") {
    if (/^(steward|diplomat)_/.test(move.space)) return "Castle";
    if (/^outside_/.test(move.space)) return "Outside the Walls";
    if (/^(tea_room|himeji)_/.test(move.space)) return "Tea Room and Himeji";
    return "Well and Domain";
  }
  if (move.kind === "send_geisha") return "Part A";
  if (move.kind === "advance_geisha") return "Part B";
  if (move.kind === "audience") return "Audience";
  if (move.kind === "ascend") return "Ascent";
  return "Choices";
}

/** An annotation's target ({kind, id}, replay/annotations.py) as one string, "kind:id": the value of the replay
 * form's choice and the data-target of the part board.js draws. */
export function targetKey(target) {
  return target ? `${target.kind}:${target.id ?? ""}` : "";
}

export function parseTarget(key) {
  if (!key) return null;
  const at = key.indexOf(":");
  return { kind: key.slice(0, at), id: key.slice(at + 1) };
}

function boardPart(kind, id, words) {
  return { target: { kind, id: String(id) }, words };
}

/** Matcha's parts (none without the expansion): the Tea Room's and Himeji's spaces, the Tea Garden's places and
 * the Tea House's rooms, in the words of SPACE_NAMES ("the left Tea Room space", "the Viewing Platform"). */
function matchaParts(matcha) {
  if (!matcha) return [];
  // The state keeps the path's geishas by position; the engine and SPACE_NAMES call its spaces path_1, path_2.
  const garden = ["entrance", "viewing_platform", ...matcha.path.map((_, i) => `path_${i + 1}`)];
  return [
    ...matcha.tea_room.map((item) => boardPart("tea_room", item.id, space(item.id))),
    ...matcha.himeji.map((item) => boardPart("himeji", item.id, space(item.id))),
    ...garden.map((id) => boardPart("tea_garden", id, space(id))),
    ...matcha.tea_house.map((room) => boardPart("tea_house", room.id, space(room.id))),
  ];
}

/** The parts of the board an annotation may point at, each with its target and its words ("the coral bridge"). */
export function boardParts(state) {
  const b = state.board;
  return [
    boardPart("passage_of_time", "", "the Passage of Time"),
    boardPart("daimyo", "", "the Daimyo"),
    ...b.rooms.map((r) => boardPart("room", r.id, space(r.id))),
    ...b.bridges.map((br) => boardPart("bridge", br.colour, `the ${br.colour} bridge`)),
    ...b.gardens.map((g) => boardPart("garden", g.id, `the ${g.bridge} ${g.type} garden`)),
    ...(b.yards || []).map((y) => boardPart("yard", y.id, `training ${space(y.id)}`)),
    boardPart("well", "", "the Well"),
    ...(b.outside || []).map((o) => boardPart("outside", o.id, space(o.id))),
    ...state.players.flatMap((p, seat) => (p.automatic ? [] : [boardPart("domain", seat, `${nameOf(state, seat)}'s domain`)])),
    ...matchaParts(b.matcha),
  ];
}
