/* heronlog pages: the stand-alone score sheet. Reads the tallies table, posts it to POST /api/score-sheets
 * and shows the points line by line. Nothing is stored. The Matcha rows (whisks, gardeners placed, geishas by
 * place) show, and are sent, only with the Matcha box ticked. A tally the scorer refuses is named by its player's
 * name, marked (aria-invalid) and focused.
 */

import { call } from "./api.js";
import { replace } from "./dom.js";
import { scoreTable } from "./game.js";

const form = document.getElementById("score-form");
const COUNTS = ["cp", "coins", "seals", "food", "iron", "pearl", "pot", "gardener_points"];
const GEISHA_PLACES = [
  "entrance",
  "viewing_platform",
  "path_1",
  "path_2",
  "tea_house_upper",
  "tea_house_middle",
  "tea_house_lower",
];

function count(name) {
  const value = form.elements[name].value.trim();
  return value === "" ? 0 : Number(value);
}

/** The columns sent, in order: a column whose name is empty is left out, so seat n of the answer is columns[n]. */
function namedColumns() {
  return [0, 1, 2, 3].filter((i) => form.elements[`p${i}-name`].value.trim());
}

function tallies() {
  const players = [];
  for (const i of namedColumns()) {
    const name = form.elements[`p${i}-name`].value.trim();
    const player = { name };
    for (const key of COUNTS) player[key] = count(`p${i}-${key}`);
    player.courtiers = Object.fromEntries(["gate", "steward", "diplomat", "daimyo"].map((k) => [k, count(`p${i}-${k}`)]));
    player.warriors = Object.fromEntries(["yard_1", "yard_2", "yard_3"].map((k) => [k, count(`p${i}-${k}`)]));
    if (form.elements.matcha.checked) {
      player.whisks = count(`p${i}-whisks`);
      player.gardeners_placed = count(`p${i}-gardeners_placed`);
      player.geishas = Object.fromEntries(GEISHA_PLACES.map((k) => [k, count(`p${i}-${k}`)]));
    }
    players.push(player);
  }
  const body = { players, tie_break: form.elements.shared.checked ? "shared" : "turn_order" };
  if (form.elements.matcha.checked) body.expansions = ["matcha"];
  return body;
}

function paintMatcha() {
  form.querySelectorAll("tr.matcha-row").forEach((row) => {
    row.hidden = !form.elements.matcha.checked;
  });
}

function clearInvalid() {
  form.querySelectorAll("[aria-invalid]").forEach((input) => {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  });
}

/** Mark and focus the field a refusal is about (its player's column, its tally's row), when the form has it. */
function markInvalid(details, columns) {
  const column = columns[details.player];
  const field = column === undefined ? null : form.elements[`p${column}-${details.field || "name"}`];
  if (!field) return;
  field.setAttribute("aria-invalid", "true");
  field.setAttribute("aria-describedby", "score-error");
  field.focus();
}

form.elements.matcha.addEventListener("change", paintMatcha);
paintMatcha();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("score-error");
  error.textContent = "";
  clearInvalid();
  const columns = namedColumns();
  const body = tallies();
  if (!body.players.length) {
    error.textContent = "Give at least one player a name.";
    return;
  }
  try {
    const answer = await call("POST", "/api/score-sheets", { body });
    const result = document.getElementById("score-result");
    result.hidden = false;
    replace(document.getElementById("score-table"), scoreTable(answer.body.sheets, "Points by line"));
    document.getElementById("score-result-title").focus();
  } catch (problem) {
    error.textContent = problem.message;
    markInvalid(problem.details || {}, columns);
  }
});
