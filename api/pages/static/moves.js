/* heronlog pages: the pending prompt's legal moves as controls.
 *
 * render(container, options) draws one button per legal move, grouped, each in the API's words (the listing's
 * `choices`: words, group, board target, icons); chance prompts of table-mode games become small forms: the
 * dice that were rolled (typed in any order), a card or tile picker. Each control posts exactly one move that
 * the API listed. Hovering or focusing a move calls options.onHover(target) so that the board lights the part
 * it acts on. The recording screen uses it for the list of moves and for the prompt bar beside the board (the
 * moves with no place on the board); the replay's "Correct this move…" for the moves legal at an earlier move.
 */

import { h, replace, s } from "./dom.js";
import { isReroll, rerollForm } from "./rollform.js";

/** Where a group goes in the list: the bridges, rooms and choices first, then the seal conversions (folded when
 * anything else is offered), then "Finish". */
function rank(name, entries) {
  if (name === "Finish") return 2;
  return entries.every(({ move }) => move.kind === "convert") ? 1 : 0;
}

/** An icon of the page's one icon set (the sprite in base.html), decorative: the words say the same. A count
 * ("coin:2") is shown beside it; a colour ("tile:coral") tints the icons drawn in the current colour. */
export function iconSvg(notation) {
  const [name, arg] = String(notation).split(":");
  const tint = arg && !/^\d+$/.test(arg) ? ` tint-${arg}` : "";
  const svg = s("svg", { class: `icon${tint}`, "aria-hidden": "true", focusable: "false", viewBox: "0 0 24 24" }, s("use", { href: `#i-${name}` }));
  return arg && /^\d+$/.test(arg) ? h("span", { class: "icon-count" }, svg, h("span", { "aria-hidden": "true" }, arg)) : svg;
}

/** A move's words: the API's (its choice at the same place), else its kind. */
export function choiceWords(listing, move) {
  const i = listing.moves.indexOf(move);
  const choice = (listing.choices || [])[i];
  return choice ? choice.words : String(move.kind).replaceAll("_", " ");
}

function sameDice(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.every((value, i) => value === y[i]);
}

/** The dice of options.start when it is a roll of this bridge with as many dice (a correction starts from the
 * dice recorded, so that changing one die is typing one), else none. */
function startingDice(prompt, options, count) {
  const start = options.start;
  const fits = start && start.kind === "roll" && start.bridge === prompt.context.bridge && (start.dice || []).length === count;
  return fits ? start.dice : [];
}

function rollForm(prompt, moves, options) {
  const count = (moves[0] && moves[0].dice.length) || prompt.context.dice || 0;
  const recorded = startingDice(prompt, options, count);
  const inputs = Array.from({ length: count }, (_, i) =>
    h("input", { type: "number", min: 1, max: 6, inputmode: "numeric", required: true, id: `die-${i}`, "aria-label": `${prompt.context.bridge} die ${i + 1}`, class: "die-input", value: recorded.length ? String(recorded[i]) : "" }),
  );
  const problem = h("p", { class: "error", role: "alert" });
  return h(
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
}

function pickerForm(entries, options, legend) {
  // A select shows one line, cut at the screen's edge on a phone: the whole text of the card chosen is
  // repeated under it, wrapped.
  const chosen = h("p", { id: "chance-pick-about", class: "hint chosen", "aria-live": "polite" });
  const select = h(
    "select",
    { id: "chance-pick", "aria-describedby": "chance-pick-about", on: { change: () => replace(chosen, select.selectedOptions[0].textContent) } },
    entries.map(({ choice, move }, i) => h("option", { value: String(i) }, choice.words, markOf(options, move, " — "))),
  );
  // a correction starts from the card or tile recorded (options.start)
  const start = options.start ? entries.findIndex(({ move }) => sameFields(move, options.start)) : -1;
  if (start >= 0) select.value = String(start);
  replace(chosen, select.selectedOptions[0] ? select.selectedOptions[0].textContent : "");
  return h(
    "form",
    {
      class: "chance-form",
      on: {
        submit: (event) => {
          event.preventDefault();
          options.onMove(entries[Number(select.value)].move);
        },
      },
    },
    h("label", { for: "chance-pick" }, legend),
    select,
    chosen,
    h("button", { type: "submit", class: "primary", disabled: !options.canAct(entries[0].move) }, options.submit || "Record"),
  );
}

/** Whether two moves say the same, whatever the order of their fields. */
function sameFields(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

/** The words an optional options.mark(move) adds to a move's control (the replay's "as recorded"). */
function markOf(options, move, separator) {
  const mark = options.mark ? options.mark(move) : null;
  return mark ? `${separator}${mark}` : null;
}

/**
 * options: {prompt, moves, choices, canAct(move), onMove(move), onHover(target)?, mark(move)?, submit?,
 * only(choice)?, compact?, batch?, start?}. start, when given, is the move a chance form starts from (the replay's
 * correction: the dice or card recorded). only, when given, keeps the moves whose choice it accepts (the prompt bar: the
 * moves with no board target); compact leaves the group headings out (the seal conversions stay folded under
 * theirs); batch lets a round's reroll of every bridge be one form (rollform.js), whose onMove is given
 * {moves: [...]}. Returns the buttons in order (for the number keys of the recording screen).
 */
export function render(container, options) {
  const { prompt, moves } = options;
  const choices = options.choices || [];
  const entries = moves
    .map((move, i) => ({ move, choice: choices[i] || { words: String(move.kind).replaceAll("_", " "), group: "Choices", target: null, icons: [] } }))
    .filter((entry) => !options.only || options.only(entry.choice, entry.move));
  if (!entries.length) {
    replace(container);
    return [];
  }
  const chance = entries.filter((entry) => entry.move.seat === null);
  if (chance.length && prompt.kind === "roll") {
    const rolls = chance.map((entry) => entry.move);
    replace(container, options.batch && isReroll(prompt) ? rerollForm(prompt, rolls, options) : rollForm(prompt, rolls, options));
    return [];
  }
  if (chance.length > 6 && ["reveal", "well_tile", "stack_order", "solo_card"].includes(prompt.kind)) {
    // the picker is labelled with the API's question ("Chance: which steward card was revealed for steward room 2?")
    replace(container, pickerForm(chance, options, prompt.text || "The card or tile revealed"));
    return [];
  }
  const groups = new Map();
  for (const entry of entries) {
    if (!groups.has(entry.choice.group)) groups.set(entry.choice.group, []);
    groups.get(entry.choice.group).push(entry);
  }
  const names = [...groups.keys()].sort((a, b) => rank(a, groups.get(a)) - rank(b, groups.get(b)));
  const buttons = [];
  const hover = (target) => options.onHover && options.onHover(target);
  const sections = names.map((name) => {
    const list = groups.get(name).map(({ move, choice }) => {
      const mark = markOf(options, move, "");
      const button = h(
        "button",
        {
          type: "button",
          class: `move move-${move.kind}${move.kind === "convert" ? " free" : ""}`,
          disabled: !options.canAct(move),
          dataset: { kind: move.kind, target: choice.target || "" },
          on: {
            click: () => options.onMove(move),
            mouseenter: () => hover(choice.target),
            mouseleave: () => hover(null),
            focus: () => hover(choice.target),
            blur: () => hover(null),
          },
        },
        (choice.icons || []).length ? h("span", { class: "move-icons" }, choice.icons.map(iconSvg)) : null,
        choice.words,
        mark ? h("span", { class: "tag" }, mark) : null,
      );
      buttons.push(button);
      return h("li", {}, button);
    });
    const conversions = groups.get(name).every(({ move }) => move.kind === "convert");
    if (conversions && (names.length > 1 || options.compact)) {
      // the moves they make affordable are listed with them (their words say how they are paid): the
      // conversions themselves wait folded under their group's heading, "Convert seals…" (in the prompt bar
      // always: the board's question comes first)
      return h("details", { class: "move-group conversions" }, h("summary", {}, name), h("ul", {}, list));
    }
    const bare = options.compact || (names.length === 1 && name === "Choices");
    return h(
      "section",
      { class: `move-group${conversions ? " conversions" : ""}`, "aria-label": name },
      bare ? null : h("h3", {}, name),
      h("ul", {}, list),
    );
  });
  replace(container, sections);
  return buttons;
}
