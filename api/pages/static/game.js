/* heronlog pages: what the recording and replay screens share: the game's header (title, players, status),
 * the access line (which token this browser holds), and the score sheet table.
 */

import { call, forgetToken, keepToken, keptTokens, rememberPrivate, roleOf, saveToken, takeFragmentToken, tokenFor, whoAmI } from "./api.js";
import { h, replace } from "./dom.js";
import { iconSvg } from "./moves.js";

export function gameId() {
  return document.getElementById("app").dataset.gameId;
}

/** Who a role is, in words that need no game loaded: "the owner", "seat 2". */
function roleWords(you) {
  if (you === "owner") return "the owner";
  if (you && you.startsWith("seat:")) return `seat ${Number(you.slice(5)) + 1}`;
  return "an unknown role";
}

/**
 * Take a shared link's #token= (if any), then learn who this browser's token speaks for ("owner", "seat:1" or
 * null). A link never replaces a token the browser holds without asking: a token the server refuses (garbage,
 * another game's, withdrawn) is not kept, and said so; a valid token other than the one in use is kept beside it
 * and offered (offerToken), the one in use staying in use until the person picks the link's. `onChange` runs
 * when they do (the page starts again with that token).
 */
export async function identify(id, onChange = () => window.location.reload()) {
  const offered = takeFragmentToken();
  const held = tokenFor(id);
  if (!offered || offered === held) return whoAmI(id);
  const linked = await roleOf(id, offered);
  if (linked === null) {
    offerToken(id, { refused: true });
    return whoAmI(id);
  }
  const me = held ? await whoAmI(id) : null;
  if (!me) {
    // nothing valid held (or the server cannot say whose the held one is: then it stays kept beside)
    if (tokenFor(id)) keepToken(id, tokenFor(id));
    saveToken(id, offered, linked || null);
    return linked || whoAmI(id);
  }
  keepToken(id, offered, linked || null);
  offerToken(id, { linked, me }, onChange);
  return me;
}

/** The question a link asks when it brings a token other than the one in use (or one the server refused): shown
 * under the access line until answered; both tokens stay in this browser whatever the answer. */
function offerToken(id, { refused = false, linked = null, me = null }, onChange = () => {}) {
  let box = document.getElementById("token-offer");
  if (!box) {
    box = h("div", { id: "token-offer", class: "warning token-offer", role: "status" });
    document.getElementById("access").after(box);
  }
  const close = () => box.remove();
  if (refused) {
    replace(
      box,
      h("p", {}, "The link's token is not valid for this game: it was not kept, and this browser's own token (if any) is unchanged."),
      h("button", { type: "button", class: "link", on: { click: close } }, "Dismiss"),
    );
    return;
  }
  const offered = keptTokens(id).find((entry) => entry.you === linked && entry.token !== tokenFor(id));
  replace(
    box,
    h(
      "p",
      {},
      `This link holds the token of ${roleWords(linked)}. This browser records as ${roleWords(me)}, and keeps that token: `,
      "both stay in this browser, and the access line switches between them.",
    ),
    h(
      "button",
      {
        type: "button",
        id: "use-link-token",
        on: {
          click: () => {
            if (offered) saveToken(id, offered.token, offered.you);
            close();
            onChange();
          },
        },
      },
      `Use the link's token (${roleWords(linked)}) here`,
    ),
    " ",
    h("button", { type: "button", id: "keep-my-token", on: { click: close } }, `Keep recording as ${roleWords(me)}`),
  );
}

export function roleName(game, me) {
  if (me === "owner") return "the owner (any seat, and chance)";
  if (me && me.startsWith("seat:")) {
    const seat = Number(me.slice(5));
    return `${(game.players[seat] || {}).name || me} (seat ${seat + 1})`;
  }
  return null;
}

/** Where a game stands, in words, from its coordinates: "setting up", "round 2, turn 3", "end of round 2" or
 * "finished". */
export function whereWords(coordinates, over = false) {
  if (over) return "finished";
  if (coordinates.phase === "end_of_round") return `end of round ${coordinates.round}`;
  return coordinates.phase === "setup" ? "setting up" : `round ${coordinates.round}, turn ${coordinates.turn}`;
}

/**
 * A finished game is offered to BG Stats: "Send to BG Stats" is BG Stats' create-play link, which opens the app
 * with the play filled in (the server builds it: export?format=bgstats-link), and "BG Stats file" downloads the
 * play as a file BG Stats imports. A game in progress or abandoned is offered neither: it is not a won play.
 */
async function offerBgStats(game) {
  const spot = document.getElementById("bgstats");
  if (!spot) return;
  const finished = game.over && game.status !== "abandoned";
  const shown = finished ? String(game.version) : "";
  if (spot.dataset.version === shown) return;
  spot.dataset.version = shown;
  if (!finished) {
    replace(spot);
    return;
  }
  const base = `/api/games/${game.game_id}/export`;
  const file = h("a", { href: `${base}?format=bgstats`, download: true, id: "bgstats-file" }, "BG Stats file");
  try {
    const answer = await call("GET", `${base}?format=bgstats-link`, { token: tokenFor(game.game_id) });
    replace(spot, h("a", { href: answer.body.url, id: "bgstats-send", rel: "noopener" }, "Send to BG Stats"), file);
  } catch (error) {
    replace(spot, file); // the file still works; the link is only for a game the server calls finished
  }
}

export function renderHeader(game) {
  offerBgStats(game);
  if (game.private) rememberPrivate(game.game_id); // the players' pages count it for this browser
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
        // each seat's player has a page of their own (the seat may be linked to another player: the server says)
        p.automatic ? p.name : h("a", { href: `/games/${game.game_id}/seats/${i}/player`, class: "seat-player" }, p.name),
        p.automatic ? h("span", { class: "tag automatic" }, "automatic") : null,
      ]),
    ),
    ` · ${game.solo ? `solo game (${game.solo}) · ` : ""}${game.mode} mode${game.private ? " · private" : ""} · ${where} · move ${game.moves}`,
    game.parent ? [" · what-if branch of ", h("a", { href: `/games/${game.parent.game_id}/replay?version=${game.parent.version}` }, "its parent game")] : null,
  );
  // A game imported with a catalog of its own says so on each of its pages: its points are not the printed game's.
  let flag = document.getElementById("catalog-flag");
  if (game.catalog_override && !flag) {
    flag = h(
      "p",
      { id: "catalog-flag", class: "warning" },
      "Played with a catalog of its own, not the components heronlog packages: its cards, tiles and points may differ from the printed game's.",
    );
    document.getElementById("game-meta").after(flag);
  } else if (!game.catalog_override && flag) {
    flag.remove();
  }
}

/** The access line: who this browser records as, a box to paste a token, and "forget". `locked`: the game
 * could not be read without a token (a private game): the page shows nothing else but this box. */
export function renderAccess(id, game, me, onChange, { locked = false } = {}) {
  document.getElementById("app").toggleAttribute("data-locked", locked);
  const box = document.getElementById("access");
  const role = roleName(game, me);
  if (role) {
    // The other tokens this browser keeps for the game (a link's, the owner's): one click uses one instead.
    const others = keptTokens(id).filter((entry) => entry.token !== tokenFor(id) && entry.you);
    replace(
      box,
      h("span", {}, `This browser records as ${role}. `),
      others.map((entry) => [
        h(
          "button",
          { type: "button", class: "link switch-token", on: { click: () => { saveToken(id, entry.token, entry.you); onChange(); } } },
          `Record as ${roleName(game, entry.you) || entry.you}`,
        ),
        " ",
      ]),
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
