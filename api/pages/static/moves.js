/* heronlog pages: the pending prompt's legal moves as controls.
 *
 * render(container, options) draws one button per legal move, grouped (the bridges, the castle, seal
 * conversions, finishing a menu...). Chance prompts of table-mode games become small forms: the dice that were
 * rolled (typed in any order), a card or tile picker. Each control posts exactly one move that the API listed.
 * The recording screen uses it for the pending prompt, the replay's "Correct this move…" for the moves that
 * were legal at an earlier move.
 */

import { h, replace } from "./dom.js";
import { moveGroup, moveLabel } from "./labels.js";
import { isReroll, rerollForm } from "./rollform.js";

const LAST_GROUPS = ["Seal conversions", "Finish"];

function sameDice(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.every((value, i) => value === y[i]);
}

function rollForm(state, prompt, moves, options) {
  const count = (moves[0] && moves[0].dice.length) || prompt.context.dice || 0;
  const inputs = Array.from({ length: count }, (_, i) =>
    h("input", { type: "number", min: 1, max: 6, inputmode: "numeric", required: true, id: `die-${i}`, "aria-label": `${prompt.context.bridge} die ${i + 1}`, class: "die-input" }),
  );
  const problem = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    {
      class: "chance-form",
      novalidate: true,
      on: {
        submit: (event) => {
          event.preventDefault();
          const values = inputs.map((input) => Number(input.value));
          if (values.some((v) => !Number.isInteger(v) || v < 1 || v > 6)) {
            problem.textContent = "Each die shows 1 to 6.";
            return;
          }
          const move = moves.find((m) => sameDice(m.dice, values));
          if (!move) {
            problem.textContent = "Those values are not a roll the rules allow here.";
            return;
          }
          options.onMove(move);
        },
      },
    },
    h("fieldset", {}, h("legend", {}, `The ${prompt.context.bridge} dice`), h("div", { class: "dice-inputs" }, inputs)),
    problem,
    h("button", { type: "submit", class: "primary", disabled: !options.canAct(moves[0]) }, options.submit || "Record the roll"),
  );
  return form;
}

function pickerForm(state, prompt, moves, options, legend) {
  // A select shows one line, cut at the screen's edge on a phone: the whole text of the card chosen is
  // repeated under it, wrapped.
  const chosen = h("p", { id: "chance-pick-about", class: "hint chosen", "aria-live": "polite" });
  const select = h(
    "select",
    { id: "chance-pick", "aria-describedby": "chance-pick-about", on: { change: () => replace(chosen, select.selectedOptions[0].textContent) } },
    moves.map((move, i) => h("option", { value: String(i) }, moveLabel(state, prompt, move), markOf(options, move, " — "))),
  );
  replace(chosen, select.options[0] ? select.options[0].textContent : "");
  return h(
    "form",
    {
      class: "chance-form",
      on: {
        submit: (event) => {
          event.preventDefault();
          options.onMove(moves[Number(select.value)]);
        },
      },
    },
    h("label", { for: "chance-pick" }, legend),
    select,
    chosen,
    h("button", { type: "submit", class: "primary", disabled: !options.canAct(moves[0]) }, options.submit || "Record"),
  );
}

/** The words an optional options.mark(move) adds to a move's control (the replay's "as recorded"). */
function markOf(options, move, separator) {
  const mark = options.mark ? options.mark(move) : null;
  return mark ? `${separator}${mark}` : null;
}

/**
 * options: {state, prompt, moves, canAct(move), onMove(move), mark(move)?, submit?}. mark, when given, returns
 * words to show beside a move (or null); submit names the chance forms' button ("Record" otherwise). Returns
 * the buttons in order (for the number keys of the recording screen).
 */
export function render(container, options) {
  const { state, prompt, moves } = options;
  if (!moves.length) {
    replace(container);
    return [];
  }
  const chance = moves.filter((m) => m.seat === null);
  if (chance.length && prompt.kind === "roll") {
    replace(container, options.batch && isReroll(prompt) ? rerollForm(prompt, chance, options) : rollForm(state, prompt, chance, options));
    return [];
  }
  if (chance.length > 6 && ["reveal", "well_tile", "stack_order", "solo_card"].includes(prompt.kind)) {
    const legend = { stack_order: "The stack, top first", solo_card: "The solo card revealed" }[prompt.kind] || "The card or tile revealed";
    replace(container, pickerForm(state, prompt, chance, options, legend));
    return [];
  }
  const groups = new Map();
  for (const move of moves) {
    const group = moveGroup(prompt, move);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(move);
  }
  const names = [...groups.keys()].sort((a, b) => LAST_GROUPS.indexOf(a) - LAST_GROUPS.indexOf(b));
  const buttons = [];
  const sections = names.map((name) => {
    const list = groups.get(name).map((move) => {
      const allowed = options.canAct(move);
      const mark = markOf(options, move, "");
      const note = options.notes ? options.notes[moves.indexOf(move)] : ""; // how a move with conversions is paid
      const button = h(
        "button",
        {
          type: "button",
          class: `move move-${move.kind}${move.kind === "convert" ? " free" : ""}`,
          disabled: !allowed,
          dataset: { kind: move.kind },
          on: { click: () => options.onMove(move) },
        },
        moveLabel(state, prompt, move),
        note ? h("span", { class: "tag paid" }, note) : null,
        mark ? h("span", { class: "tag" }, mark) : null,
      );
      buttons.push(button);
      return h("li", {}, button);
    });
    const single = names.length === 1 && name === "Choices";
    if (name === "Seal conversions" && names.length > 1) {
      // the moves they make affordable are listed with them: the conversions themselves wait under one heading
      return h("details", { class: "move-group conversions" }, h("summary", {}, "Convert seals… (free, any time on your turn)"), h("ul", {}, list));
    }
    return h(
      "section",
      { class: `move-group${name === "Seal conversions" ? " conversions" : ""}`, "aria-label": name },
      single ? null : h("h3", {}, name === "Seal conversions" ? "Seal conversions (free, any time on your turn)" : name),
      h("ul", {}, list),
    );
  });
  replace(container, sections);
  return buttons;
}
