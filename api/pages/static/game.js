/* heronlog pages: what the recording and replay screens share: the game's header (title, players, status),
 * the access line (which token this browser holds), and the score sheet table.
 */

import { adoptFragmentToken, forgetToken, saveToken, tokenFor, whoAmI } from "./api.js";
import { h, replace } from "./dom.js";
import { iconSvg } from "./moves.js";

export function gameId() {
  return document.getElementById("app").dataset.gameId;
}

/** Adopt a #token= fragment, then learn who this browser's token speaks for ("owner", "seat:1" or null). */
export async function identify(id) {
  adoptFragmentToken(id);
  return whoAmI(id);
}

export function roleName(game, me) {
  if (me === "owner") return "the owner (any seat, and chance)";
  if (me && me.startsWith("seat:")) {
    const seat = Number(me.slice(5));
    return `${(game.players[seat] || {}).name || me} (seat ${seat + 1})`;
  }
  return null;
}

/** Where a game stands, in words, from its coordinates: "setting up", "round 2, turn 3" or "finished". */
export function whereWords(coordinates, over = false) {
  if (over) return "finished";
  return coordinates.phase === "setup" ? "setting up" : `round ${coordinates.round}, turn ${coordinates.turn}`;
}

export function renderHeader(game) {
  document.title = `${game.title} · heronlog`;
  replace(document.getElementById("game-title"), game.title);
  const where = game.status === "abandoned" && !game.over ? "abandoned" : whereWords(game.coordinates, game.over);
  replace(
    document.getElementById("game-meta"),
    h(
      "span",
      { class: "players" },
      game.players.map((p, i) => [
        i ? ", " : "",
        h("span", { class: `swatch colour-${p.colour}`, "aria-hidden": "true" }),
        p.name,
        p.automatic ? h("span", { class: "tag automatic" }, "automatic") : null,
      ]),
    ),
    ` · ${game.solo ? `solo game (${game.solo}) · ` : ""}${game.mode} mode${game.private ? " · private" : ""} · ${where} · move ${game.moves}`,
    game.parent ? [" · what-if branch of ", h("a", { href: `/games/${game.parent.game_id}/replay?version=${game.parent.version}` }, "its parent game")] : null,
  );
}

/** The access line: who this browser records as, a box to paste a token, and "forget". `locked`: the game
 * could not be read without a token (a private game): the page shows nothing else but this box. */
export function renderAccess(id, game, me, onChange, { locked = false } = {}) {
  document.getElementById("app").toggleAttribute("data-locked", locked);
  const box = document.getElementById("access");
  const role = roleName(game, me);
  if (role) {
    replace(
      box,
      h("span", {}, `This browser records as ${role}. `),
      h("button", { type: "button", class: "link", on: { click: () => { forgetToken(id); onChange(); } } }, "Forget the token"),
    );
    return;
  }
  const input = h("input", { id: "token-input", autocomplete: "off", spellcheck: "false" });
  replace(
    box,
    h(
      "form",
      {
        class: "token-form",
        on: {
          submit: (event) => {
            event.preventDefault();
            const token = input.value.trim();
            if (token) saveToken(id, token);
            onChange();
          },
        },
      },
      h(
        "label",
        { for: "token-input" },
        tokenFor(id)
          ? "That token is not valid here. Paste another:"
          : locked
            ? "This game is private: paste a token to see it."
            : "Watching only. To record, paste a token:",
      ),
      input,
      h("button", { type: "submit" }, "Use it"),
    ),
  );
}

/** The score sheet as a table: one column per player, each line in the API's words with the icons of what it
 * counts (the pages' one icon set), then the total and the rank. */
export function scoreTable(sheets, caption) {
  if (!sheets || !sheets.length) return h("p", {}, "No score yet.");
  const lines = sheets[0].lines;
  return h(
    "table",
    { class: "sheet" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Line"), sheets.map((sheet) => h("th", { scope: "col" }, sheet.player)))),
    h(
      "tbody",
      {},
      lines.map((line, row) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, (line.icons || []).length ? h("span", { class: "line-icons" }, line.icons.map(iconSvg)) : null, line.label),
          sheets.map((sheet) => h("td", {}, String(sheet.lines[row] ? sheet.lines[row].points : ""))),
        ),
      ),
      h("tr", { class: "total" }, h("th", { scope: "row" }, "Total"), sheets.map((sheet) => h("td", {}, String(sheet.total)))),
      h("tr", {}, h("th", { scope: "row" }, "Rank"), sheets.map((sheet) => h("td", {}, String(sheet.rank)))),
    ),
  );
}

/** A timeline entry's words: its description, tagged when it belongs to the solo rival's automatic turn. */
export function entryText(entry) {
  return [entry.automatic ? h("span", { class: "tag automatic" }, "automatic") : null, entry.automatic ? " " : null, entry.description];
}

/** The lines of the solo rival's turn drawn with a move (seeded mode: they come as its chance outcomes). */
export function rivalLines(entry) {
  const lines = (entry.automatic_chance || []).map((i) => (entry.chance || [])[i]).filter(Boolean);
  if (!lines.length) return null;
  return h("ul", { class: "automatic-lines" }, lines.map((line) => h("li", { class: "automatic-line" }, h("span", { class: "tag automatic" }, "automatic"), " ", line)));
}
