/* heronlog pages: a picker of cards or tiles by their pictures, as the board draws them (cards.js).
 *
 * pickerGrid(options) shows the candidates (only those the server says may go there) as buttons, each the
 * card's picture with its id, its accessible name the API's words for it: one tap picks. Typing filters them by
 * what they show (any words, in any order, or the id), and Enter picks the first match. The new-game page's
 * table setup opens it in a dialog that walks from field to field (layoutform.js); the recording screen shows
 * it for a card revealed mid-game (moves.js). It knows no rule: what may be picked is the caller's list.
 */

import { h, replace } from "./dom.js";
import { picture } from "./cards.js";

function words(text) {
  return String(text).toLowerCase().split(/[\s,;:+·()→]+/).filter(Boolean);
}

/** Whether an entry shows every word typed (each the start of one of its words). */
function shows(entry, typed) {
  const have = words(entry.words);
  return typed.every((word) => have.some((w) => w.startsWith(word)));
}

/**
 * options: {candidates: [{id, words, pool}], cards (byId), onPick(entry), chosen (an id), label (what is
 * picked, for the filter's label), filter (true: a field to type in), idPrefix}. Returns {node, focus()}.
 */
export function pickerGrid(options) {
  const { candidates, cards } = options;
  const prefix = options.idPrefix || "pick";
  const list = h("ul", { class: "picker-grid", role: "list" });
  const none = h("p", { class: "hint picker-none", hidden: true }, "Nothing printed so: try other words.");
  const buttons = candidates.map((entry) =>
    h(
      "button",
      {
        type: "button",
        class: "pick-card",
        "aria-label": entry.words,
        "aria-pressed": entry.id === options.chosen ? "true" : "false",
        dataset: { id: entry.id },
        on: { click: () => options.onPick(entry) },
      },
      picture(cards, entry.pool, entry.id) || h("span", { class: "pick-words" }, entry.words),
      h("span", { class: "pick-id", "aria-hidden": "true" }, entry.id),
    ),
  );
  replace(list, buttons.map((button) => h("li", {}, button)));
  let input = null;
  const parts = [];
  if (options.filter !== false && candidates.length > 4) {
    input = h("input", {
      id: `${prefix}-find`,
      type: "search",
      autocomplete: "off",
      spellcheck: "false",
      enterkeyhint: "go",
      placeholder: "Type what it shows, or its number",
      "aria-controls": `${prefix}-grid`,
    });
    list.id = `${prefix}-grid`;
    input.addEventListener("input", () => {
      const typed = words(input.value);
      let shown = 0;
      candidates.forEach((entry, i) => {
        const hit = !typed.length || shows(entry, typed);
        buttons[i].parentElement.hidden = !hit;
        if (hit) shown += 1;
      });
      none.hidden = shown > 0;
    });
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      const first = buttons.find((button) => !button.parentElement.hidden);
      if (first) first.click();
    });
    parts.push(h("label", { for: input.id, class: "picker-find" }, `Find ${options.label || "it"} by what it shows`), input);
  }
  const node = h("div", { class: "picker" }, parts, list, none);
  return {
    node,
    /** Focus the field to type in where there is a keyboard at hand (a phone's would cover the cards), else the
     * card chosen or the first. */
    focus() {
      const fine = window.matchMedia && window.matchMedia("(pointer: fine)").matches;
      const target = (fine && input) || buttons.find((button) => button.getAttribute("aria-pressed") === "true") || buttons[0] || input;
      if (target) target.focus({ preventScroll: false });
    },
  };
}
