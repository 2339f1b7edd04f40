/* heronlog pages: who sat in each seat of a game.
 *
 * Each seat counts for the player of its name (a link to their page). The game's owner may say that a seat was
 * another player's (a typo, or two people of one name): the link is written beside the game (its If-Match is
 * the links' version), never into the game's own record, and taken back by linking the seat to its own name.
 */

import { ApiError, call, randomKey, read, tokenFor } from "./api.js";
import { h, replace, say } from "./dom.js";
import { gameId, identify, renderAccess, renderHeader } from "./game.js";

const id = gameId();

async function link(seat, name, version, place) {
  try {
    await call("POST", `/api/games/${id}/players`, { body: { seat, name }, token: tokenFor(id), version, idempotencyKey: randomKey() });
  } catch (error) {
    say(place, error instanceof ApiError ? (error.code === "stale_version" ? "Someone changed the links meanwhile: here they are now." : error.message) : String(error), "error");
    if (error.code !== "stale_version") return;
  }
  await load();
}

function seatRow(seat, version, owner) {
  const input = h("input", { id: `seat-${seat.seat}`, autocomplete: "off", maxlength: 40, value: seat.player, list: "known-players" });
  const button = h("button", { type: "submit" }, "Link");
  return h(
    "li",
    { class: "seat-player-row" },
    h(
      "p",
      {},
      h("strong", {}, `Seat ${seat.seat + 1}, “${seat.name}”: `),
      h("a", { href: `/players/${seat.player_id}?game=${id}` }, seat.player),
      seat.linked ? h("span", { class: "tag" }, "linked by the owner") : null,
    ),
    owner
      ? h(
          "form",
          { class: "row", on: { submit: (event) => { event.preventDefault(); link(seat.seat, input.value.trim(), version, button); } } },
          h("label", { for: `seat-${seat.seat}`, class: "visually-hidden" }, `Who sat in seat ${seat.seat + 1}`),
          input,
          button,
          seat.linked ? h("button", { type: "button", class: "link", on: { click: () => link(seat.seat, seat.name, version, button) } }, `Back to “${seat.name}”`) : null,
        )
      : null,
  );
}

async function load() {
  const me = await identify(id);
  let game;
  try {
    game = (await read(id, `/api/games/${id}`)).body;
  } catch (error) {
    renderAccess(id, { players: [] }, null, load, { locked: true });
    replace(document.getElementById("seats"), h("p", { class: "hint" }, error.message));
    return;
  }
  renderHeader(game);
  renderAccess(id, game, me, load);
  const answer = await read(id, `/api/games/${id}/players`);
  const owner = me === "owner";
  // the names offered as the owner types (the players with most games first)
  const known = owner ? (await call("GET", "/api/players?limit=200")).body.players : [];
  replace(
    document.getElementById("seats"),
    owner ? h("p", { class: "hint" }, "Type the name of the player who really sat there: an existing player's name, or a new one.") : null,
    h("datalist", { id: "known-players" }, known.map((player) => h("option", { value: player.name }))),
    h("ul", { class: "seat-players" }, answer.body.seats.map((seat) => seatRow(seat, answer.body.version, owner))),
  );
}

load();
