/* heronlog pages: the table setup on one screen, on the new-game form.
 *
 * The server says which fields a game's setup has, in order, with their words, and every card or tile a field
 * may take, described by what is printed on it (GET /api/games/layout-form). This module draws them: a card is
 * found by typing what it shows (any words of it, in any order) and chosen from the matches; a room's die tiles
 * are tapped on the room's drawing, each tap the next colour; a bridge's dice are typed as digits ("2 3 4", or
 * "234"), the next bridge taking over when one is full; the turn order is the players tapped from the first.
 * layout() gives what was entered as the layout POST /api/games takes; showErrors() puts the server's problems
 * (details.errors of a 422 invalid_layout) under their fields. It checks nothing the server checks.
 */

import { call } from "./api.js";
import { h, replace } from "./dom.js";

const MATCHES = 6;

function slug(field) {
  return `f-${field.replaceAll(".", "-")}`;
}

function words(text) {
  return text.toLowerCase().split(/[\s,;:+·()→]+/).filter(Boolean);
}

/** A field where one card or tile is chosen by typing what it shows. */
function cardField(field, pool, onChange) {
  const id = slug(field.field);
  const list = h("ul", { id: `${id}-list`, role: "listbox", class: "picks", hidden: true, "aria-label": `${field.label}: matches` });
  const input = h("input", {
    id,
    type: "text",
    role: "combobox",
    autocomplete: "off",
    spellcheck: "false",
    "aria-autocomplete": "list",
    "aria-expanded": "false",
    "aria-controls": list.id,
    "aria-describedby": `${id}-error`,
    placeholder: "Type what it shows, or its number",
  });
  const error = h("p", { id: `${id}-error`, class: "error field-error" });
  const box = h("div", { class: "pick", dataset: { field: field.field } }, h("label", { for: id }, field.label), input, list, error);
  let shown = [];
  let active = -1;

  function close() {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  }

  function mark() {
    [...list.children].forEach((item, i) => item.setAttribute("aria-selected", i === active ? "true" : "false"));
    if (active >= 0) input.setAttribute("aria-activedescendant", list.children[active].id);
    else input.removeAttribute("aria-activedescendant");
  }

  function choose(entry) {
    box.value = entry ? entry.id : null;
    input.value = entry ? entry.words : "";
    input.removeAttribute("aria-invalid");
    error.textContent = "";
    close();
    onChange(box);
  }

  function show() {
    const typed = words(input.value);
    box.value = null;
    if (!typed.length) {
      close();
      return;
    }
    shown = pool.filter((entry) => {
      const have = words(entry.words);
      return typed.every((word) => have.some((w) => w.startsWith(word)));
    }).slice(0, MATCHES);
    active = shown.length ? 0 : -1;
    replace(
      list,
      shown.length
        ? shown.map((entry, i) =>
            h("li", { id: `${id}-opt-${i}`, role: "option", on: { mousedown: (event) => event.preventDefault(), click: () => choose(entry) } }, entry.words),
          )
        : h("li", { class: "none", role: "option", "aria-disabled": "true" }, "Nothing printed so: try other words."),
    );
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    mark();
  }

  input.addEventListener("input", show);
  input.addEventListener("blur", () => setTimeout(close, 150));
  input.addEventListener("keydown", (event) => {
    if (list.hidden || !shown.length) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      active = (active + (event.key === "ArrowDown" ? 1 : -1) + shown.length) % shown.length;
      mark();
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(shown[Math.max(active, 0)]);
    } else if (event.key === "Escape") {
      close();
    }
  });
  box.value = null;
  box.set = (value) => choose(pool.find((entry) => entry.id === value) || null);
  box.focusable = input;
  box.error = error;
  return box;
}

/** A room's die tiles drawn as its spaces: each tap shows the next colour (then none again). */
function tilesField(field, colours, onChange) {
  const id = slug(field.field);
  const tiles = [];
  const values = Array(field.count).fill(null);
  const error = h("p", { id: `${id}-error`, class: "error field-error" });
  const box = h("div", { class: "room-tiles", role: "group", "aria-labelledby": `${id}-label`, dataset: { field: field.field } });
  function paint(i) {
    const colour = values[i];
    const named = colour ? colours.find((c) => c.id === colour).words : "not set";
    const diamond = field.diamond === i ? " (♦)" : "";
    tiles[i].className = `tile ${colour ? `tile-${colour}` : "tile-none"}`;
    tiles[i].setAttribute("aria-label", `${field.label}, tile ${i + 1}${diamond}: ${named}`);
    tiles[i].querySelector(".tile-word").textContent = colour ? named : "?";
  }
  for (let i = 0; i < field.count; i += 1) {
    tiles.push(
      h(
        "button",
        {
          type: "button",
          "aria-describedby": `${id}-error`,
          on: {
            click: () => {
              const at = colours.findIndex((c) => c.id === values[i]);
              values[i] = at + 1 < colours.length ? colours[at + 1].id : null;
              paint(i);
              error.textContent = "";
              onChange(box);
            },
          },
        },
        field.diamond === i ? h("span", { class: "diamond", "aria-hidden": "true" }, "♦") : null,
        h("span", { class: "tile-word" }),
      ),
    );
    paint(i);
  }
  replace(box, h("span", { id: `${id}-label`, class: "room-name" }, field.label), h("span", { class: "tiles" }, tiles), error);
  Object.defineProperty(box, "value", { get: () => (values.some(Boolean) ? [...values] : null) });
  box.set = (given) => {
    (given || []).forEach((colour, i) => {
      values[i] = colour;
      paint(i);
    });
  };
  box.focusable = tiles[0];
  box.error = error;
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

/** The turn order: the players tapped from the first to play (the top of the stack) to the last. */
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

/**
 * The table setup drawn in `container`. Returns {load(query, names), layout(), entered(), showErrors(errors),
 * clearErrors()}: load fetches the form for a game's players, expansions, solo mode and first-game option.
 */
export function tableSetup(container, onChange = () => {}) {
  let boxes = [];
  let form = null;
  let asked = "";

  function draw(names) {
    boxes = [];
    const dice = [];
    const sections = form.sections.map((section) => {
      const fields = section.fields.map((field) => {
        let box;
        if (field.kind === "card") box = cardField(field, form.pools[field.pool] || [], onChange);
        else if (field.kind === "tiles") box = tilesField(field, form.colours, onChange);
        else if (field.kind === "dice") {
          const at = dice.length;
          box = diceField(field, onChange, () => (dice[at + 1] ? dice[at + 1].focusable : null));
          dice.push(box);
        } else box = stackField(field, [...names.slice(0, field.seats)], onChange);
        boxes.push(box);
        return box;
      });
      const body = section.id === "die_tiles" ? h("div", { class: "castle-drawing" }, fields) : fields;
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
      container.dataset.query = search;
      draw(names);
      for (const box of boxes) {
        const value = box.dataset.field.split(".").reduce((node, key) => (node == null ? undefined : node[key]), kept);
        if (value !== undefined && value !== null) box.set(value);
      }
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
