/* heronlog pages: the new-game form. Posts the seats, mode, expansions and options to POST /api/games, keeps
 * the owner token in this browser, and shows it once with the seats' links to share at the table. In table mode
 * the table's setup is entered on the same screen (layoutform.js) and sent with the game as its layout; "Draw
 * the rest for us" lets the service deal whatever was left out.
 */

import { callRetried, randomKey, retrying, saveToken } from "./api.js";
import { h, replace, wireCopyButtons } from "./dom.js";
import { tableSetup } from "./layoutform.js";
import { seatLinks } from "./share.js";

const form = document.getElementById("new-game");
const error = document.getElementById("form-error");
const setupArea = document.getElementById("table-setup");
const drawRest = document.getElementById("draw-rest");
const layoutForm = tableSetup(document.getElementById("layout-fields"));

/** The seed only means something in seeded mode: in table mode its field is disabled, so that nobody types a
 * seed the game would not use. The table's setup is asked for in table mode only. */
function paintSeed() {
  const table = form.elements.mode.value === "table";
  form.elements.seed.disabled = form.elements.mode.value !== "seeded";
  setupArea.hidden = !table;
  drawRest.hidden = !table;
  if (table) reloadSetup();
}

/** The seats named, as the game will have them (the quick buttons name them "Player 1"...). */
function seatNames() {
  const names = [];
  for (let i = 0; i < 4; i += 1) {
    const name = form.elements[`seat-${i}-name`].value.trim();
    if (name) names.push(name);
  }
  return names;
}

let reloading = 0;
/** The table setup's fields for the game as the form stands (players, solo, Matcha, the first-game option). */
function reloadSetup() {
  clearTimeout(reloading);
  reloading = setTimeout(async () => {
    const names = seatNames();
    const solo = form.elements.solo.value;
    const query = { players: String(solo ? 1 : Math.max(2, Math.min(4, names.length || 4))) };
    if (solo) query.solo = solo;
    if (form.elements.matcha.checked) query.expansions = "matcha";
    if (form.elements.first_game.checked) query.first_game = "1";
    const seats = names.length ? names : ["Player 1", "Player 2", "Player 3", "Player 4"];
    try {
      await layoutForm.load(query, seats);
    } catch (problem) {
      replace(document.getElementById("layout-fields"), h("p", { class: "error" }, problem.message));
    }
  }, 150);
}

/** "4 players": the first four seats named (a name typed stays), the others emptied. */
function quickSeats(count) {
  for (let i = 0; i < 4; i += 1) {
    const field = form.elements[`seat-${i}-name`];
    if (i >= count) field.value = "";
    else if (!field.value.trim()) field.value = `Player ${i + 1}`;
  }
  form.elements.solo.value = "";
  reloadSetup();
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
form.querySelectorAll(".quick-seat").forEach((button) => button.addEventListener("click", () => quickSeats(Number(button.dataset.count))));
/** A solo game chosen with no seat named: its one seat is named "Player 1", as the quick buttons name seats. */
form.elements.solo.addEventListener("change", () => {
  if (form.elements.solo.value && !seatNames().length) form.elements["seat-0-name"].value = "Player 1";
});
for (const name of ["solo", "matcha", "first_game"]) form.elements[name].addEventListener("change", () => form.elements.mode.value === "table" && reloadSetup());
for (let i = 0; i < 4; i += 1) form.elements[`seat-${i}-name`].addEventListener("change", () => form.elements.mode.value === "table" && reloadSetup());
paintSeed();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  layoutForm.clearErrors();
  let body;
  try {
    body = setup();
  } catch (problem) {
    error.textContent = problem.message;
    return;
  }
  const drawing = event.submitter === drawRest;
  if (body.mode === "table" && (drawing || layoutForm.entered())) {
    body.layout = layoutForm.layout();
    body.draw_rest = drawing;
  }
  const submit = event.submitter || form.querySelector("button[type=submit]");
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
    if (problem.code === "invalid_layout" && problem.details && problem.details.errors) {
      // each problem under its field; those that name no field here are said with the form's error
      const elsewhere = layoutForm.showErrors(problem.details.errors);
      const count = problem.details.errors.length;
      replace(
        error,
        `The table setup has ${count} problem${count > 1 ? "s" : ""}, each said under its field.`,
        elsewhere.map((p) => h("span", { class: "block" }, ` ${p.field}: ${p.message}${p.rule ? ` (${p.rule})` : ""}`)),
      );
      return;
    }
    const fields = problem.details && problem.details.fields;
    replace(error, problem.message, fields ? h("code", {}, ` ${JSON.stringify(fields)}`) : null);
  } finally {
    submit.disabled = false;
  }
});
