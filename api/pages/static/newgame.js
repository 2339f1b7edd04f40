/* heronlog pages: the new-game form. Posts the seats, mode, expansions and options to POST /api/games, keeps
 * the owner token in this browser, and shows it once with the seats' links to share at the table.
 */

import { callRetried, randomKey, retrying, saveToken } from "./api.js";
import { h, replace, wireCopyButtons } from "./dom.js";
import { seatLinks } from "./share.js";

const form = document.getElementById("new-game");
const error = document.getElementById("form-error");

/** The seed only means something in seeded mode: in table mode its field is disabled, so that nobody types a
 * seed the game would not use. */
function paintSeed() {
  form.elements.seed.disabled = form.elements.mode.value !== "seeded";
}

function setup() {
  const players = [];
  for (let i = 0; i < 4; i += 1) {
    const name = form.elements[`seat-${i}-name`].value.trim();
    if (name) players.push({ name, colour: form.elements[`seat-${i}-colour`].value });
  }
  if (!players.length) throw new Error("Give at least one seat a name.");
  const colours = players.map((p) => p.colour);
  if (new Set(colours).size !== colours.length) throw new Error("Give each seat its own colour.");
  const solo = form.elements.solo.value;
  if (solo && players.length !== 1) throw new Error("A solo game has one seat: the rival takes the other. Keep one name.");
  if (!solo && players.length === 1) throw new Error("One seat is a solo game: choose the rival's difficulty, or name more seats.");
  const body = { players, mode: form.elements.mode.value, private: form.elements.private.checked };
  if (solo) body.solo = solo;
  const title = form.elements.title.value.trim();
  if (title) body.title = title;
  const seed = form.elements.seed.value.trim();
  if (seed && body.mode === "seeded") {
    // Up to 2^53, as the service draws them (16 digits mostly): a seed copied from another game must fit.
    if (!/^\d+$/.test(seed) || BigInt(seed) > 2n ** 53n) throw new Error(`The seed is a whole number from 0 to ${2n ** 53n}.`);
    body.seed = Number(seed);
  }
  if (form.elements.first_game.checked) body.options = { first_game: true };
  if (form.elements.matcha.checked) body.expansions = ["matcha"];
  return body;
}

form.querySelectorAll("input[name=mode]").forEach((radio) => radio.addEventListener("change", paintSeed));
paintSeed();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  let body;
  try {
    body = setup();
  } catch (problem) {
    error.textContent = problem.message;
    return;
  }
  const submit = form.querySelector("button[type=submit]");
  submit.disabled = true;
  try {
    // sent again with the same key if no answer came: the server then answers the game it made, not a second one
    const answer = await callRetried("POST", "/api/games", { body, idempotencyKey: randomKey() }, (attempt, total) => {
      error.textContent = retrying(attempt, total);
    });
    error.textContent = "";
    const game = answer.body.game;
    saveToken(game.game_id, answer.body.owner_token);
    form.hidden = true;
    const created = document.getElementById("created");
    created.hidden = false;
    document.getElementById("owner-token").value = answer.body.owner_token;
    const link = document.getElementById("record-link");
    link.href = `/games/${game.game_id}`;
    link.textContent = `Open the recording screen for ${game.title}`;
    seatLinks(document.getElementById("seat-links"), game.game_id, game.players, answer.body.owner_token);
    wireCopyButtons(created);
    document.getElementById("created-title").focus();
  } catch (problem) {
    const fields = problem.details && problem.details.fields;
    replace(error, problem.message, fields ? h("code", {}, ` ${JSON.stringify(fields)}`) : null);
  } finally {
    submit.disabled = false;
  }
});
