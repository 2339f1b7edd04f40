/* heronlog pages: a player's page.
 *
 * Reads the player from the API with the tokens of the private games this browser holds (Game-Tokens: a private
 * game counts only for someone who holds one of its tokens) and draws their record as tiles, their rating after
 * each rated game (a line with its uncertainty, chart.js), each score line's mean beside every player's (bars),
 * their rivals head to head, their record by table, and their games. When this browser holds the owner token of
 * some of their games, it offers to merge them into another player (a typo) or to split some seats off to
 * another (two people of one name): the server links the seats of the games whose owner token it is sent.
 */

import { ApiError, call, gameTokens, keptTokens, privateGames, randomKey, tokenFor } from "./api.js";
import { barChart, lineChart } from "./chart.js";
import { h, replace, say } from "./dom.js";

const app = document.getElementById("app");
const id = app.dataset.playerId;
const from = new URLSearchParams(window.location.search).get("game");
const PAGE = 25;
const view = { player: null, games: [], total: 0 };

/** The private games this browser holds a token of, the game this page was opened from first. */
function tokens() {
  return gameTokens([...(from ? [from] : []), ...privateGames()]);
}

function get(path) {
  return call("GET", path, { gameTokens: tokens() });
}

function number(value, digits = 1) {
  return value === null || value === undefined ? "—" : Number(value).toFixed(digits).replace(/\.0+$/, "");
}

function percent(won, games) {
  return games ? `${Math.round((100 * won) / games)}%` : "—";
}

function date(text) {
  return text ? text.slice(0, 10) : "";
}

function tile(label, value, note = null) {
  return h("div", { class: "tile" }, h("span", { class: "tile-value" }, value), h("span", { class: "tile-label" }, label), note ? h("span", { class: "tile-note" }, note) : null);
}

function renderSummary(player) {
  const r = player.record;
  const rating = player.rating;
  const box = document.getElementById("summary");
  box.hidden = false;
  replace(
    box,
    tile("games finished", String(r.games), r.listed > r.games ? `${r.listed} listed` : null),
    tile("won", String(r.won), percent(r.won, r.games)),
    tile("mean score", number(r.mean_score)),
    tile("best score", r.best_score === null ? "—" : String(r.best_score), r.best_game ? h("a", { href: `/games/${r.best_game}/replay` }, "the game") : null),
    tile("rating", rating ? `${number(rating.mu)} ± ${number(rating.sigma)}` : "—", rating ? `${rating.games} rated game${rating.games === 1 ? "" : "s"}` : "no rated game yet"),
  );
}

function renderRating(player) {
  const host = document.getElementById("rating-chart");
  if (!player.history.length) {
    replace(host, h("p", { class: "hint" }, "No rated game yet: a rating comes from finished public games of two or more players."));
    return;
  }
  const points = player.history.map((point) => ({ label: date(point.finished_on), values: [Number(point.mu.toFixed(1)), Number(point.ordinal.toFixed(1))] }));
  replace(
    host,
    lineChart(
      [{ name: "rating (μ)", colour: "blue" }, { name: "held with near certainty (μ − 3σ)", colour: "black" }],
      points,
      null,
      { rounds: false, xLabel: "after each rated game →", what: `${player.name}'s rating`, unit: "" },
    ),
    h("p", { class: "hint" }, "openskill's Plackett-Luce rating: μ is the estimate, σ its uncertainty; the lower line is what the player holds with near certainty, and what the list sorts by."),
  );
}

function renderLines(player) {
  const host = document.getElementById("lines-chart");
  const lines = player.record.lines;
  if (!player.record.games) {
    replace(host, h("p", { class: "hint" }, "No finished game yet."));
    return;
  }
  replace(
    host,
    barChart(
      lines.map((line) => ({ label: line.words, values: [line.mean, line.club_mean] })),
      [{ name: player.name, colour: "red" }, { name: "every player", colour: "white" }],
      `${player.name}'s score lines`,
    ),
  );
}

function renderVersus(player) {
  const host = document.getElementById("versus");
  if (!player.versus.length) {
    replace(host, h("p", { class: "hint" }, "No finished game with others yet."));
    return;
  }
  replace(
    host,
    h(
      "table",
      { class: "games versus" },
      h("caption", { class: "visually-hidden" }, `${player.name} against each player, most games together first`),
      h("thead", {}, h("tr", {}, ["Player", "Together", `${player.name} ahead`, "Behind", "Tied"].map((words) => h("th", { scope: "col" }, words)))),
      h(
        "tbody",
        {},
        player.versus.map((rival) =>
          h(
            "tr",
            {},
            h("th", { scope: "row", "data-label": "Player" }, h("a", { href: `/players/${rival.player_id}` }, rival.name)),
            h("td", { "data-label": "Together" }, String(rival.games_together)),
            h("td", { "data-label": `${player.name} ahead` }, String(rival.ahead)),
            h("td", { "data-label": "Behind" }, String(rival.behind)),
            h("td", { "data-label": "Tied" }, String(rival.tied)),
          ),
        ),
      ),
    ),
  );
}

function groupTable(caption, heading, rows) {
  return h(
    "table",
    { class: "sheet group" },
    h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, heading), ["Games", "Won", "Mean"].map((words) => h("th", { scope: "col" }, words)))),
    h("tbody", {}, rows.map(([label, group]) => h("tr", {}, h("th", { scope: "row" }, label), h("td", {}, String(group.games)), h("td", {}, `${group.won} (${percent(group.won, group.games)})`), h("td", {}, number(group.mean_score))))),
  );
}

function renderGroups(player) {
  const r = player.record;
  const tables = [];
  if (r.by_players.length) tables.push(groupTable("By player count", "Players", r.by_players.map((g) => [String(g.players), g])));
  if (r.matcha.length) tables.push(groupTable("With and without Matcha", "Played", r.matcha.map((g) => [g.matcha ? "with Matcha" : "base game", g])));
  if (r.starts.length) tables.push(groupTable("By starting choice (R-S12)", "Resource card", r.starts.map((g) => [g.words, g])));
  if (r.solo.length) tables.push(groupTable("Solo, against each rival", "Rival", r.solo.map((g) => [`${g.matcha ? "the Tokugawa clan" : "the rival"}, ${g.difficulty}`, g])));
  replace(document.getElementById("groups"), tables.length ? tables : h("p", { class: "hint" }, "No finished game yet."));
}

function gameRow(game) {
  const status = game.status;
  return h(
    "tr",
    {},
    h(
      "th",
      { scope: "row", "data-label": "Game" },
      h("a", { class: "title", href: `/games/${game.game_id}/replay` }, game.title || "Untitled"),
      h("span", { class: "players" }, game.players.join(", ")),
      game.private ? h("span", { class: "tag" }, "private") : null,
      game.forked ? h("span", { class: "tag" }, "what if") : null,
      game.solo ? h("span", { class: "tag" }, `solo, ${game.solo}`) : null,
      game.matcha ? h("span", { class: "tag" }, "Matcha") : null,
    ),
    h("td", { "data-label": "Date" }, date(game.played_on)),
    h("td", { "data-label": "Status" }, status, game.counted || game.status !== "finished" ? null : h("span", { class: "tag" }, "not counted")),
    h("td", { "data-label": "Score" }, game.score === null ? "—" : `${game.score}${game.rank ? ` (rank ${game.rank})` : ""}`),
  );
}

function renderGames() {
  const host = document.getElementById("games");
  if (!view.games.length) {
    replace(host, h("p", { class: "hint" }, "No game."));
    return;
  }
  const more = view.games.length < view.total;
  replace(
    host,
    h(
      "table",
      { class: "games" },
      h("caption", { class: "visually-hidden" }, "Their games, newest first"),
      h("thead", {}, h("tr", {}, ["Game", "Date", "Status", "Score"].map((words) => h("th", { scope: "col" }, words)))),
      h("tbody", {}, view.games.map(gameRow)),
    ),
    more ? h("button", { type: "button", id: "more-games", on: { click: loadGames } }, `More games (${view.total - view.games.length} left)`) : null,
  );
}

async function loadGames() {
  const answer = await get(`/api/players/${id}/games?offset=${view.games.length}&limit=${PAGE}`);
  view.games.push(...answer.body.games);
  view.total = answer.body.total;
  renderGames();
  renderTools();
}

/** Every game of this player whose owner token this browser holds (read page by page). */
async function ownedGames() {
  const owned = [];
  for (let offset = 0; ; offset += 200) {
    const answer = await get(`/api/players/${id}/games?offset=${offset}&limit=200`);
    for (const game of answer.body.games) {
      const owner = keptTokens(game.game_id).find((entry) => entry.you === "owner");
      if (owner || (tokenFor(game.game_id) && game.private)) owned.push(game);
    }
    if (offset + 200 >= answer.body.total) return owned;
  }
}

/** Send a write to this player, 50 games' tokens at a time (the most one request names), each naming the player
 * as it stands then (If-Match: the ETag of the player's answer). */
async function relink(path, body, games, place) {
  let done = 0;
  let left = 0;
  for (let start = 0; start < Math.max(1, games.length); start += 50) {
    const part = games.slice(start, start + 50).map((game) => game.game_id);
    let now;
    try {
      now = await get(`/api/players/${id}`);
    } catch (error) {
      if (error.status === 404) break; // every seat of theirs is someone else's now
      throw error;
    }
    const answer = await call("POST", path, { body, gameTokens: gameTokens(part), idempotencyKey: randomKey(), ifMatch: now.etagText });
    done += answer.body.games.length;
    left = answer.body.left;
  }
  say(place, `Linked ${done} game${done === 1 ? "" : "s"}.${left ? ` ${left} public game${left === 1 ? " is" : "s are"} owned by others: their owners link those.` : ""}`);
}

async function send(path, body, games, place, then = load) {
  try {
    await relink(path, body, games, place);
  } catch (error) {
    say(place, error instanceof ApiError ? error.message : String(error), "error");
    return;
  }
  await then();
}

function renderTools() {
  const section = document.getElementById("owner-tools");
  const owned = view.games.filter((game) => keptTokens(game.game_id).some((entry) => entry.you === "owner"));
  section.hidden = !owned.length;
  if (!owned.length) return;
  const into = h("input", { id: "merge-into", autocomplete: "off", maxlength: 40, list: "merge-players" });
  const options = h("datalist", { id: "merge-players" });
  into.addEventListener("input", async () => {
    const words = into.value.trim();
    if (words.length < 1) return;
    const answer = await get(`/api/players?search=${encodeURIComponent(words)}&limit=10`);
    replace(options, answer.body.players.filter((p) => p.player_id !== id).map((p) => h("option", { value: p.name })));
  });
  const mergeButton = h("button", { type: "submit" }, "Merge");
  const merge = h(
    "form",
    {
      class: "card-form",
      on: {
        submit: async (event) => {
          event.preventDefault();
          const name = into.value.trim();
          const found = (await get(`/api/players?search=${encodeURIComponent(name)}&limit=50`)).body.players.find((p) => p.name.toLowerCase() === name.toLowerCase() && p.player_id !== id);
          if (!found) {
            say(mergeButton, `No other player is called “${name}”: pick one of the names offered.`, "error");
            return;
          }
          await send(`/api/players/${id}/merge`, { into: found.player_id }, await ownedGames(), mergeButton, async () => {
            window.location.assign(`/players/${found.player_id}`); // their games are that player's now
          });
        },
      },
    },
    h("label", { for: "merge-into" }, `${view.player.name} is the same person as…`),
    h("div", { class: "row" }, into, options, mergeButton),
    h("p", { class: "hint" }, "Every seat of theirs in the games this browser owns goes to that player; the games' records stay as they were."),
  );
  const name = h("input", { id: "split-name", autocomplete: "off", maxlength: 40 });
  const boxes = owned.map((game) =>
    h("div", { class: "choice" }, h("input", { type: "checkbox", id: `split-${game.game_id}`, value: game.game_id, dataset: { seat: game.seat } }), h("label", { for: `split-${game.game_id}` }, `${game.title || "Untitled"} (${date(game.played_on)})`)),
  );
  const splitButton = h("button", { type: "submit" }, "Split");
  const split = h(
    "form",
    {
      class: "card-form",
      on: {
        submit: async (event) => {
          event.preventDefault();
          const chosen = boxes.map((box) => box.querySelector("input")).filter((input) => input.checked);
          if (!chosen.length || !name.value.trim()) {
            say(splitButton, "Tick the games that were someone else's, and give that person's name.", "error");
            return;
          }
          const seats = chosen.map((input) => ({ game_id: input.value, seat: Number(input.dataset.seat) }));
          await send(`/api/players/${id}/split`, { name: name.value.trim(), seats }, chosen.map((input) => ({ game_id: input.value })), splitButton);
        },
      },
    },
    h("fieldset", {}, h("legend", {}, `Games that were someone else's (of those shown above that this browser owns)`), boxes),
    h("label", { for: "split-name" }, "That person's name"),
    h("div", { class: "row" }, name, splitButton),
  );
  replace(document.getElementById("tools"), merge, split);
}

async function load() {
  const status = document.getElementById("status");
  try {
    const answer = await get(`/api/players/${id}`);
    view.player = answer.body;
  } catch (error) {
    app.setAttribute("aria-busy", "false");
    replace(status, error.status === 404 ? "No such player here (a player of private games only shows to someone who holds one of their tokens)." : error.message);
    return;
  }
  const player = view.player;
  document.title = `${player.name} · heronlog`;
  replace(document.getElementById("player-name"), player.name);
  replace(status, "");
  status.hidden = true;
  renderSummary(player);
  renderRating(player);
  renderLines(player);
  renderVersus(player);
  renderGroups(player);
  view.games = [];
  await loadGames();
  app.setAttribute("aria-busy", "false");
}

load();
