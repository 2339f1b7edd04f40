/* heronlog pages: the pending prompt's legal moves as controls.
 *
 * render(container, options) draws one button per legal move, grouped, each in the API's words (the listing's
 * `choices`: words, group, board target, icons); chance prompts of table-mode games become small forms: the
 * dice that were rolled (typed in any order), the cards or tiles that may be revealed drawn as the board draws
 * them (picker.js, given options.cards: the catalog by id), one tap each. Each control posts exactly one move that
 * the API listed. Hovering or focusing a move calls options.onHover(target) so that the board lights the part
 * it acts on. The recording screen uses it for the list of moves and for the prompt bar beside the board (the
 * moves with no place on the board); the replay's "Correct this move…" for the moves legal at an earlier move.
 */

import { h, replace, s } from "./dom.js";
import { pickerGrid } from "./picker.js";
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

/** What a chance move puts on the table, as the picker draws it: its card or tile and the pool it is from. */
function revealed(move) {
  if (move.kind === "well_tile") return { id: move.tile, pool: "die_tiles" };
  if (move.kind === "solo_card") return { id: move.card, pool: "solo" };
  return { id: move.card, pool: move.pool };
}

/** The cards or tiles that may be revealed, drawn as the board draws them (picker.js): one tap records one. */
function revealPicker(entries, options, legend) {
  const byCard = new Map();
  const candidates = entries.map(({ choice, move }) => {
    const { id, pool } = revealed(move);
    byCard.set(id, move);
    const mark = markOf(options, move, " — ");
    return { id, pool, words: `${choice.words}${mark || ""}` };
  });
  const chosen = options.mark ? (entries.find(({ move }) => options.mark(move)) || {}).move : null;
  const grid = pickerGrid({
    candidates,
    cards: options.cards,
    chosen: chosen ? revealed(chosen).id : null,
    label: "the card",
    idPrefix: options.idPrefix || "reveal",
    onPick: (entry) => options.onMove(byCard.get(entry.id)),
  });
  const allowed = options.canAct(entries[0].move);
  grid.node.querySelectorAll(".pick-card").forEach((button) => {
    button.disabled = !allowed;
  });
  // in the prompt bar the question is the bar's own words
  return h("section", { class: "chance-form reveal-picker", "aria-label": legend }, options.compact ? null : h("p", { class: "picker-question" }, legend), grid.node);
}

/** Whether the prompt's chance moves are cards or tiles the picker draws (so the recording screen shows them over
 * the board, where the question is). */
export function drawnReveal(prompt, moves, cards) {
  const chance = moves.filter((move) => move.seat === null);
  return Boolean(prompt && cards && chance.length > 1 && ["reveal", "well_tile", "solo_card"].includes(prompt.kind) && chance.every((move) => cards[revealed(move).id]));
}

/** The words an optional options.mark(move) adds to a move's control (the replay's "as recorded"). */
function markOf(options, move, separator) {
  const mark = options.mark ? options.mark(move) : null;
  return mark ? `${separator}${mark}` : null;
}

/**
 * options: {prompt, moves, choices, canAct(move), onMove(move), onHover(target)?, mark(move)?, submit?,
 * only(choice)?, compact?, batch?, cards?, idPrefix?, start?}. start, when given, is the move a chance form starts
 * from (the replay's correction: the dice recorded). only, when given, keeps the moves whose choice it accepts (the prompt bar: the
 * moves with no board target); compact leaves the group headings out (the seal conversions stay folded under
 * theirs); batch lets a round's reroll of every bridge be one form (rollform.js), whose onMove is given
 * {moves: [...]}. Returns the buttons in order (for the number keys of the recording screen).
 */
export function render(container, options) {
  const { prompt, moves } = options;
  const choices = options.choices || [];
  const entries = moves
    .map((move, i) => ({ move, choice: choices[i] || { words: String(move.kind).replaceAll("_", " "), group: "Choices", target: null, icons: [] } }))
    // a legal move the API keeps out of the offer (a seal conversion that cannot serve the player to play)
    .filter((entry) => entry.choice.offered !== false)
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
  if (drawnReveal(prompt, chance.map(({ move }) => move), options.cards)) {
    // the picker is labelled with the API's question ("Chance: which steward card was revealed for steward room 2?")
    replace(container, revealPicker(chance, options, prompt.text || "The card or tile revealed"));
    return [...container.querySelectorAll(".pick-card")];
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
