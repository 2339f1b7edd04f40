/* heronlog pages: the stand-alone score sheet. Reads the tallies table, posts it to POST /api/score-sheets
 * and shows the points line by line. Nothing is stored.
 */

import { call } from "./api.js";
import { replace } from "./dom.js";
import { scoreTable } from "./game.js";

const form = document.getElementById("score-form");
const COUNTS = ["cp", "coins", "seals", "food", "iron", "pearl", "pot", "gardener_points"];

function count(name) {
  const value = form.elements[name].value.trim();
  return value === "" ? 0 : Number(value);
}

function tallies() {
  const players = [];
  for (let i = 0; i < 4; i += 1) {
    const name = form.elements[`p${i}-name`].value.trim();
    if (!name) continue;
    const player = { name };
    for (const key of COUNTS) player[key] = count(`p${i}-${key}`);
    player.courtiers = Object.fromEntries(["gate", "steward", "diplomat", "daimyo"].map((k) => [k, count(`p${i}-${k}`)]));
    player.warriors = Object.fromEntries(["yard_1", "yard_2", "yard_3"].map((k) => [k, count(`p${i}-${k}`)]));
    players.push(player);
  }
  return { players, tie_break: form.elements.shared.checked ? "shared" : "turn_order" };
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("score-error");
  error.textContent = "";
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
  }
});
