/* heronlog pages: the table setup on one screen, on the new-game form.
 *
 * The server says which fields a game's setup has, in order, with their words, every card or tile a field may
 * take and the catalog's entries to draw them from (GET /api/games/layout-form); and, as the table is entered,
 * what each field may still take beside the others (GET /api/games/layout-choices). This module draws them:
 * each card field is a slot showing the card chosen as the board draws it; a tap opens the picker (picker.js)
 * with the cards the field may still take, one tap picks, and the picker walks on to the next empty card field
 * (a starting pair's cards one after the other), until the last or until closed. A room's die tiles are its
 * spaces, each offering only the colours still possible, the likeliest first: one tap a tile, none where the
 * rules leave one colour (it is filled, and said so). A bridge's dice are typed as digits ("2 3 4", or "234"),
 * the next bridge taking over when one is full; the turn order is the players tapped from the first (the last
 * one follows by itself). layout() gives what was entered as the layout POST /api/games takes; showErrors() puts
 * the server's problems (details.errors of a 422 invalid_layout) under their fields. It checks nothing the server
 * checks, and holds no rule: the choices are the server's.
 */

import { call } from "./api.js";
import { byId, picture } from "./cards.js";
import { h, replace } from "./dom.js";
import { pickerGrid } from "./picker.js";

function slug(field) {
  return `f-${field.replaceAll(".", "-")}`;
}

/** A card field: a slot that shows the card chosen (or asks for one) and opens the picker. */
function cardSlot(field, ctx) {
  const id = slug(field.field);
  const error = h("p", { id: `${id}-error`, class: "error field-error" });
  const shown = h("span", { class: "slot-card" });
  const button = h(
    "button",
    { type: "button", id, class: "slot", "aria-describedby": `${id}-error`, "aria-haspopup": "dialog", on: { click: () => ctx.walk(field.field) } },
    h("span", { class: "slot-label" }, field.label),
    shown,
  );
  const box = h("div", { class: "card-slot", dataset: { field: field.field } }, button, error);
  let value = null;
  let auto = false;
  function paint() {
    const entry = value ? ctx.entry(field.pool, value) : null;
    replace(shown, entry ? [picture(ctx.cards, field.pool, value), h("span", { class: "pick-id" }, value, auto ? " (the only one left)" : "")] : h("span", { class: "slot-empty" }, "Choose…"));
    button.setAttribute("aria-label", `${field.label}: ${entry ? entry.words : "not chosen"}${auto ? " (the only one left)" : ""}`);
    button.classList.toggle("filled", Boolean(value));
  }
  Object.defineProperty(box, "value", { get: () => value });
  box.set = (given, automatic = false) => {
    value = given || null;
    auto = automatic && Boolean(value);
    error.textContent = "";
    button.removeAttribute("aria-invalid");
    paint();
  };
  /** The server's choices for this field: the only one left is filled in; one no longer possible is said. */
  box.offer = (ids) => {
    if (auto && !(ids.length === 1 && ids[0] === value)) box.set(null);
    if (!value && ids.length === 1) box.set(ids[0], true);
    const wrong = value && !ids.includes(value);
    button.toggleAttribute("aria-invalid", Boolean(wrong));
    error.textContent = wrong ? `${value} cannot lie here beside what the other fields hold.` : "";
  };
  /** Within a group that names them (a starting pair), the slot's visible label without the group's name. */
  box.shorten = (prefix) => {
    const label = button.querySelector(".slot-label");
    if (field.label.startsWith(`${prefix}: `)) label.textContent = field.label.slice(prefix.length + 2);
  };
  box.field = field;
  box.focusable = button;
  box.error = error;
  paint();
  return box;
}

/** A room's die tiles drawn as its spaces, each offering the colours still possible (the likeliest first). */
function tilesField(field, ctx) {
  const id = slug(field.field);
  const values = Array(field.count).fill(null);
  const auto = Array(field.count).fill(false);
  const offered = Array.from({ length: field.count }, () => ctx.colours.map((c) => c.id));
  const error = h("p", { id: `${id}-error`, class: "error field-error" });
  const box = h("div", { class: "room-tiles", role: "group", "aria-labelledby": `${id}-label`, dataset: { field: field.field } });
  const spaces = [];
  const buttons = [];
  for (let i = 0; i < field.count; i += 1) {
    const diamond = field.diamond === i ? " (♦)" : "";
    const named = `${field.label}, tile ${i + 1}${diamond}`;
    buttons.push(
      ctx.colours.map((colour) =>
        h(
          "button",
          {
            type: "button",
            class: `tile tile-${colour.id}`,
            "aria-describedby": `${id}-error`,
            dataset: { colour: colour.id },
            on: {
              click: () => {
                values[i] = values[i] === colour.id ? null : colour.id;
                auto[i] = false;
                paint(i);
                error.textContent = "";
                ctx.changed(box);
              },
            },
          },
          colour.words,
        ),
      ),
    );
    const said = h("span", { class: "tile-said" });
    const choicesBox = h("span", { class: "space-colours" }, buttons[i]);
    spaces.push(h("span", { class: "space", role: "group", "aria-label": named, dataset: { space: String(i) } }, field.diamond === i ? h("span", { class: "diamond", "aria-hidden": "true" }, "♦") : null, choicesBox, said));
  }
  function paint(i) {
    const order = offered[i];
    const rank = (button) => (order.includes(button.dataset.colour) ? order.indexOf(button.dataset.colour) : order.length);
    const sorted = [...buttons[i]].sort((a, b) => rank(a) - rank(b));
    const holder = spaces[i].querySelector(".space-colours");
    // the likeliest first while the space waits for its colour; once it has one, its buttons stay where they are
    if (!values[i] && sorted.some((button, k) => holder.children[k] !== button)) holder.append(...sorted);
    buttons[i].forEach((button) => {
      const colour = button.dataset.colour;
      const at = order.indexOf(colour);
      const chosen = values[i] === colour;
      button.hidden = at < 0 && !chosen;
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
      button.toggleAttribute("aria-invalid", chosen && at < 0);
      const name = ctx.colours.find((c) => c.id === colour).words;
      button.setAttribute("aria-label", `${spaces[i].getAttribute("aria-label")}: ${name}${chosen && auto[i] ? " (the only colour left)" : ""}`);
    });
    spaces[i].classList.toggle("set", Boolean(values[i]));
    spaces[i].querySelector(".tile-said").textContent = values[i] && auto[i] ? "only one left" : "";
  }
  replace(box, h("span", { id: `${id}-label`, class: "room-name" }, field.label), h("span", { class: "tiles" }, spaces), error);
  Object.defineProperty(box, "value", { get: () => (values.some(Boolean) ? [...values] : null) });
  box.set = (given) => {
    for (let i = 0; i < field.count; i += 1) {
      values[i] = (given || [])[i] || null;
      auto[i] = false;
      paint(i);
    }
  };
  /** The server's colours for each space: the only one left is laid; a colour no longer possible is said. */
  box.offer = (colours) => {
    let wrong = false;
    (colours || []).forEach((list, i) => {
      offered[i] = list;
      if (auto[i] && !(list.length === 1 && list[0] === values[i])) {
        values[i] = null;
        auto[i] = false;
      }
      if (!values[i] && list.length === 1) {
        values[i] = list[0];
        auto[i] = true;
      }
      wrong = wrong || Boolean(values[i] && !list.includes(values[i]));
      paint(i);
    });
    error.textContent = wrong ? "A colour here cannot be beside what the other rooms hold: the ♦ spaces hold one tile of each colour, and no room one colour only." : "";
  };
  box.focusable = buttons[0][0];
  box.error = error;
  for (let i = 0; i < field.count; i += 1) paint(i);
  return box;
}

/** A bridge's dice typed as digits; when it is full the next bridge's field takes the typing. */
function diceField(field, onChange, next) {
  const id = slug(field.field);
  const input = h("input", {
    id,
    type: "text",
    inputmode: "numeric",
    autocomplete: "off",
    "aria-describedby": `${id}-error`,
    placeholder: Array.from({ length: field.count }, (_, i) => i + 1).join(" "),
    class: `dice dice-${field.colour}`,
  });
  const error = h("p", { id: `${id}-error`, class: "error field-error" });
  const box = h("div", { class: "dice-field", dataset: { field: field.field } }, h("label", { for: id }, `${field.label} (${field.count} dice)`), input, error);
  const digits = () => (input.value.match(/\d/g) || []).map(Number);
  input.addEventListener("input", () => {
    const values = digits();
    const wrong = values.some((v) => v < 1 || v > 6) || /[^\d\s,]/.test(input.value);
    input.toggleAttribute("aria-invalid", wrong);
    error.textContent = wrong ? "Dice show 1 to 6: type the digits, spaces between them if you like." : "";
    onChange(box);
    if (!wrong && values.length === field.count && next()) next().focus();
  });
  Object.defineProperty(box, "value", { get: () => (input.value.trim() ? digits() : null) });
  box.set = (given) => {
    input.value = (given || []).join(" ");
  };
  box.focusable = input;
  box.error = error;
  return box;
}

/** The turn order: the players tapped from the first to play (the top of the stack) to the last; once every
 * player but one is tapped, that one is the last. */
function stackField(field, names, onChange) {
  const order = [];
  const id = slug(field.field);
  const said = h("p", { id: `${id}-order`, class: "chosen", "aria-live": "polite" });
  const error = h("p", { id: `${id}-error`, class: "error field-error" });
  const buttons = names.map((name, seat) =>
    h("button", { type: "button", "aria-describedby": `${id}-order`, on: { click: () => add(seat) } }, name),
  );
  const clear = h("button", { type: "button", class: "link", on: { click: () => { order.length = 0; paint(); } } }, "Start again");
  const box = h("div", { class: "stack-field", role: "group", "aria-labelledby": `${id}-label`, dataset: { field: field.field } },
    h("span", { id: `${id}-label`, class: "room-name" }, field.label), h("div", { class: "row" }, buttons, clear), said, error);
  function add(seat) {
    if (!order.includes(seat)) order.push(seat);
    if (order.length === names.length - 1) order.push(names.findIndex((_, other) => !order.includes(other)));
    paint();
  }
  function paint() {
    buttons.forEach((button, seat) => {
      const at = order.indexOf(seat);
      button.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      button.textContent = at >= 0 ? `${at + 1}. ${names[seat]}` : names[seat];
    });
    said.textContent = order.length ? `First to play: ${order.map((seat) => names[seat]).join(", then ")}` : "Not set: drawn, or entered later.";
    error.textContent = "";
    onChange(box);
  }
  Object.defineProperty(box, "value", { get: () => (order.length ? [...order] : null) });
  box.set = (given) => {
    order.length = 0;
    order.push(...(given || []));
    paint();
  };
  box.rename = (given) => {
    given.forEach((name, seat) => {
      if (seat < names.length) names[seat] = name;
    });
    paint();
  };
  box.focusable = buttons[0];
  box.error = error;
  paint();
  return box;
}

/** Put `value` at `path` (a field name: "castle.steward_2", "offer.0.resource") in the layout being built. */
function put(layout, path, value) {
  const keys = path.split(".");
  let node = layout;
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const nextIsIndex = !last && /^\d+$/.test(keys[i + 1]);
    if (last) node[key] = value;
    else {
      if (node[key] === undefined) node[key] = nextIsIndex ? [] : {};
      node = node[key];
    }
  });
}

/** The picker in a dialog that walks from one card field to the next empty one, in the form's order. */
function walker(ctx) {
  const title = h("h2", { id: "picker-title", tabindex: "-1" });
  const where = h("p", { id: "picker-where", class: "hint" });
  const body = h("div", { class: "picker-body" });
  const skip = h("button", { type: "button", on: { click: () => next() } }, "Skip this one");
  const done = h("button", { type: "button", class: "primary", on: { click: () => close() } }, "Done");
  const dialog = h("dialog", { id: "picker", class: "picker-dialog", "aria-labelledby": "picker-title", "aria-describedby": "picker-where" },
    h("div", { class: "picker-head" }, h("div", {}, where, title), h("div", { class: "row" }, skip, done)), body);
  dialog.addEventListener("close", () => {
    const box = current && ctx.box(current);
    current = null;
    if (box) box.focusable.focus();
  });
  document.body.append(dialog);
  let current = null;
  let shown = "";

  function show(name, keep = false) {
    const box = ctx.box(name);
    const candidates = ctx.candidates(box.field);
    const key = `${name}|${candidates.map((entry) => entry.id).join(",")}|${box.value}`;
    if (keep && key === shown) return;
    const find = dialog.querySelector("input[type=search]");
    const typed = keep && find ? find.value : "";
    const typing = keep && find && document.activeElement === find;
    current = name;
    shown = key;
    dialog.dataset.field = name;
    replace(title, box.field.label);
    replace(where, `${ctx.sectionOf(name)} · ${ctx.position(name)}`);
    const grid = pickerGrid({
      candidates,
      cards: ctx.cards,
      chosen: box.value,
      label: "the card",
      idPrefix: "picker",
      onPick: (entry) => {
        box.set(entry.id);
        ctx.changed(box);
        next();
      },
    });
    replace(body, grid.node);
    const input = body.querySelector("input[type=search]");
    if (typed && input) {
      input.value = typed;
      input.dispatchEvent(new Event("input"));
    }
    if (typing && input) input.focus();
    else if (!keep) grid.focus();
  }
  function next() {
    const following = ctx.nextEmpty(current);
    if (following) show(following);
    else close();
  }
  function close() {
    if (dialog.open) dialog.close();
  }
  return {
    open(name) {
      show(name);
      if (!dialog.open) dialog.showModal();
      body.scrollTop = 0;
    },
    refresh() {
      if (dialog.open && current) show(current, true);
    },
    busy(pending) {
      dialog.setAttribute("aria-busy", pending ? "true" : "false");
    },
  };
}

/**
 * The table setup drawn in `container`. Returns {load(query, names), layout(), entered(), showErrors(errors),
 * clearErrors()}: load fetches the form for a game's players, expansions, solo mode and first-game option.
 */
export function tableSetup(container, onChange = () => {}) {
  let boxes = [];
  let form = null;
  let asked = "";
  let choices = null;
  let asking = 0;
  const ctx = {
    cards: {},
    colours: [],
    entry(pool, id) {
      return (form.pools[pool] || []).find((entry) => entry.id === id) || null;
    },
    box(name) {
      return boxes.find((box) => box.dataset.field === name);
    },
    candidates(field) {
      const pool = (form.pools[field.pool] || []).map((entry) => ({ ...entry, pool: field.pool }));
      const left = choices && choices.fields[field.field];
      return left ? left.map((id) => pool.find((entry) => entry.id === id)).filter(Boolean) : pool;
    },
    cardFields() {
      return boxes.filter((box) => box.field);
    },
    nextEmpty(name) {
      const fields = ctx.cardFields();
      const at = fields.findIndex((box) => box.dataset.field === name);
      const following = fields.slice(at + 1).find((box) => !box.value);
      return following ? following.dataset.field : null;
    },
    sectionOf(name) {
      const section = form.sections.find((s) => s.fields.some((f) => f.field === name));
      return section ? section.title : "";
    },
    position(name) {
      const section = form.sections.find((s) => s.fields.some((f) => f.field === name));
      const at = section.fields.findIndex((f) => f.field === name);
      return `${at + 1} of ${section.fields.length}`;
    },
    walk(name) {
      walk.open(name);
    },
    changed(box) {
      onChange(box);
      if (box.field || box.dataset.field.startsWith("die_tiles.")) refresh();
    },
  };
  const walk = walker(ctx);

  /** What the choices depend on: the card and die-tile fields entered. */
  function entries() {
    const layout = {};
    for (const box of boxes) {
      const value = box.value;
      if ((box.field || box.dataset.field.startsWith("die_tiles.")) && value !== null && value !== undefined) put(layout, box.dataset.field, value);
    }
    return layout;
  }

  async function refresh() {
    asking += 1;
    const ask = asking;
    container.dataset.choices = "pending";
    walk.busy(true);
    try {
      const layout = encodeURIComponent(JSON.stringify(entries()));
      const answer = await call("GET", `/api/games/layout-choices?${asked}&layout=${layout}`);
      if (ask !== asking) return;
      choices = answer.body;
      for (const box of boxes) {
        const name = box.dataset.field;
        if (box.field && choices.fields[name]) box.offer(choices.fields[name]);
        else if (name.startsWith("die_tiles.") && choices.tiles[name.slice(10)]) box.offer(choices.tiles[name.slice(10)]);
      }
      walk.refresh();
    } catch (problem) {
      // the pickers keep what they offered: the server judges the whole layout when the game is created
    } finally {
      if (ask === asking) {
        container.dataset.choices = "fresh";
        walk.busy(false);
      }
    }
  }

  function draw(names) {
    boxes = [];
    const dice = [];
    const sections = form.sections.map((section) => {
      const fields = section.fields.map((field) => {
        let box;
        if (field.kind === "card") box = cardSlot(field, ctx);
        else if (field.kind === "tiles") box = tilesField(field, ctx);
        else if (field.kind === "dice") {
          const at = dice.length;
          box = diceField(field, onChange, () => (dice[at + 1] ? dice[at + 1].focusable : null));
          dice.push(box);
        } else box = stackField(field, [...names.slice(0, field.seats)], onChange);
        boxes.push(box);
        return box;
      });
      let body = fields;
      if (section.id === "die_tiles") body = h("div", { class: "castle-drawing" }, fields);
      else if (section.id === "offer") {
        // the cards that lie on the table as pairs, drawn as pairs
        const pairs = new Map();
        for (const box of fields) {
          const pair = box.dataset.field.split(".")[1];
          if (!pairs.has(pair)) pairs.set(pair, []);
          pairs.get(pair).push(box);
        }
        body = [...pairs.entries()].map(([pair, list]) => {
          // the pair's name once, above its cards (each slot's own name still says it in full)
          const name = list[0].field.label.split(": ")[0];
          list.forEach((box) => box.shorten(name));
          return h("div", { class: "pair", role: "group", "aria-label": name }, h("span", { class: "pair-name", "aria-hidden": "true" }, name), list);
        });
      }
      return h("fieldset", { class: `layout-section layout-${section.id}` }, h("legend", {}, section.title), h("p", { class: "hint" }, section.hint), body);
    });
    const notes = (form.notes || []).map((note) => h("p", { class: "hint laid-note" }, note));
    replace(container, notes, sections);
  }

  return {
    async load(query, names) {
      const search = String(new URLSearchParams(query));
      if (form && search === asked) {
        // the same fields: only the players' names may have changed (what was typed, and the focus, stay)
        boxes.filter((box) => box.rename).forEach((box) => box.rename(names));
        return;
      }
      const answer = await call("GET", `/api/games/layout-form?${search}`);
      const kept = form ? this.layout() : {};
      form = answer.body;
      asked = search;
      choices = null;
      ctx.cards = byId(form.catalog);
      ctx.colours = form.colours;
      container.dataset.query = search;
      draw(names);
      for (const box of boxes) {
        const value = box.dataset.field.split(".").reduce((node, key) => (node == null ? undefined : node[key]), kept);
        if (value !== undefined && value !== null) box.set(value);
      }
      await refresh();
    },
    /** What was entered, as a layout (only the fields given). */
    layout() {
      const layout = {};
      for (const box of boxes) {
        const value = box.value;
        if (value !== null && value !== undefined) put(layout, box.dataset.field, value);
      }
      return layout;
    },
    entered() {
      return boxes.some((box) => box.value !== null && box.value !== undefined);
    },
    clearErrors() {
      for (const box of boxes) {
        box.error.textContent = "";
        box.focusable.removeAttribute("aria-invalid");
      }
    },
    /** The server's problems (field, rule, message) under their fields; the first one's field is focused. Returns
     * the problems that name no field drawn here (said with the form's own error). */
    showErrors(errors) {
      this.clearErrors();
      const elsewhere = [];
      let first = null;
      for (const problem of errors) {
        const box = boxes.find((b) => b.dataset.field === problem.field) || boxes.find((b) => problem.field.startsWith(`${b.dataset.field}.`));
        if (!box) {
          elsewhere.push(problem);
          continue;
        }
        box.error.textContent = `${problem.message}${problem.rule ? ` (${problem.rule})` : ""}`;
        box.focusable.setAttribute("aria-invalid", "true");
        first = first || box;
      }
      if (first) first.focusable.focus();
      return elsewhere;
    },
  };
}
