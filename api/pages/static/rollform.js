/* heronlog pages: a round's reroll on one form (the recording screen).
 *
 * After rounds 1 and 2 every bridge is rolled again (R-E04). In a table game the recorder enters what the dice
 * show: the roll prompt's context lists the bridges rolled one after another from here (`bridges`) and how many
 * dice each has (`dice`), and this form asks for all of them at once, each bridge's dice typed as digits ("2 3
 * 4", or "234": the next bridge takes over when one is full), then records them as one batch, all or nothing.
 * The rules judge the rolls; the form only reads digits.
 */

import { h } from "./dom.js";

/** Whether the pending prompt is a reroll of several bridges, which this form takes. */
export function isReroll(prompt) {
  return Boolean(prompt && prompt.kind === "roll" && prompt.context && (prompt.context.bridges || []).length > 1);
}

/** options: {canAct(move), onMove(body)}; `moves` are the first bridge's legal rolls (who may enter them). */
export function rerollForm(prompt, moves, options) {
  const { bridges, dice } = prompt.context;
  const problem = h("p", { class: "error", role: "alert" });
  const inputs = bridges.map((bridge) =>
    h("input", {
      id: `reroll-${bridge}`,
      type: "text",
      inputmode: "numeric",
      autocomplete: "off",
      class: `reroll-dice dice-${bridge}`,
      placeholder: Array.from({ length: dice }, (_, i) => i + 1).join(" "),
    }),
  );
  const digits = (input) => (input.value.match(/\d/g) || []).map(Number);
  inputs.forEach((input, i) =>
    input.addEventListener("input", () => {
      if (digits(input).length === dice && inputs[i + 1] && !inputs[i + 1].value) inputs[i + 1].focus();
    }),
  );
  const fields = bridges.map((bridge, i) =>
    h("div", { class: "reroll-bridge" }, h("label", { for: inputs[i].id }, `The ${bridge} bridge (${dice} dice)`), inputs[i]),
  );
  return h(
    "form",
    {
      class: "chance-form reroll",
      novalidate: true,
      on: {
        submit: (event) => {
          event.preventDefault();
          const rolls = inputs.map(digits);
          const wrong = rolls.findIndex(
            (values, i) => values.length !== dice || values.some((v) => v < 1 || v > 6) || /[^\d\s,]/.test(inputs[i].value),
          );
          if (wrong >= 0) {
            problem.textContent = `The ${bridges[wrong]} bridge: type its ${dice} dice, each 1 to 6.`;
            inputs[wrong].setAttribute("aria-invalid", "true");
            inputs[wrong].focus();
            return;
          }
          // laid ascending on their bridges (R-S07, R-E04): a roll is recorded in that order
          const batch = bridges.map((bridge, i) => ({ kind: "roll", seat: null, bridge, dice: [...rolls[i]].sort((a, b) => a - b) }));
          options.onMove({ moves: batch });
        },
      },
    },
    h("fieldset", {}, h("legend", {}, "The dice rolled for the new round"), fields),
    problem,
    h("button", { type: "submit", class: "primary", disabled: !options.canAct(moves[0]) }, "Record the rolls"),
  );
}
