/* heronlog pages: the replay screen.
 *
 * Steps through a game by move, turn or round (buttons, a slider, the keyboard), redrawing the board from
 * GET /api/games/{id}/states/{version} without a page load. Deep links: ?version=N, or ?round=R&turn=T (the
 * board when that turn began). Undone moves are hidden unless asked for. Annotations sit beside their move
 * (add, edit, delete, glyphs); the score timeline chart shows each player's total after every turn; the score
 * sheet follows the position; "What if?" forks the game at the position shown and opens the new game.
 */

import { call, read, saveToken, tokenFor } from "./api.js";
import { draw } from "./board.js";
import { h, replace, toast, copyText } from "./dom.js";
import { entryText, gameId, identify, renderAccess, renderHeader, rivalLines, scoreTable } from "./game.js";
import { lineChart } from "./chart.js";

const id = gameId();
const view = {
  game: null,
  me: null,
  entries: [], // the timeline (with undone moves when shown)
  positions: [], // [{version, entry}] in version order; position 0 is the game as created
  at: 0,
  states: new Map(),
  notes: [],
  request: 0,
};

const slider = document.getElementById("slider");
const noteForm = document.getElementById("note-form");

function turnKey(entry) {
  return entry ? `${entry.round}/${entry.turn}/${entry.seat}` : "start";
}

function roundKey(entry) {
  return entry ? String(entry.round) : "start";
}

function buildPositions() {
  const shown = document.getElementById("show-undone").checked;
  const entries = view.entries.filter((entry) => shown || !entry.undone).sort((a, b) => a.version - b.version);
  view.positions = [{ version: 1, entry: null }, ...entries.map((entry) => ({ version: entry.version, entry }))];
  slider.max = String(view.positions.length - 1);
}

/** States come without the catalog (the same for the whole game): the screen fetched it once. */
function withCatalog(payload) {
  payload.state.catalog = view.catalog;
  return payload;
}

async function stateAt(version) {
  if (!view.states.has(version)) view.states.set(version, read(id, `/api/games/${id}/states/${version}`).then((a) => withCatalog(a.body)));
  try {
    return await view.states.get(version);
  } catch (error) {
    view.states.delete(version);
    throw error;
  }
}

function describePosition(index) {
  const { version, entry } = view.positions[index];
  const total = view.positions.length - 1;
  if (!entry) return `Start of the game (version ${version}) · ${total} moves`;
  const where = entry.round ? `round ${entry.round}, ${entry.turn ? `turn ${entry.turn}` : "setup"}` : "setup";
  return `Move ${index} of ${total} · version ${version} · ${where} · ${entry.undone ? "undone: " : ""}${entry.description}`;
}

function setUrl(version) {
  const url = new URL(window.location.href);
  url.search = version > 1 ? `?version=${version}` : "";
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
}

async function go(index, { fromSlider = false } = {}) {
  index = Math.max(0, Math.min(view.positions.length - 1, index));
  view.at = index;
  if (!fromSlider) slider.value = String(index);
  slider.setAttribute("aria-valuetext", describePosition(index));
  replace(document.getElementById("position"), describePosition(index));
  paintMoveList();
  const { version } = view.positions[index];
  setUrl(version);
  const ticket = (view.request += 1);
  try {
    const payload = await stateAt(version);
    if (ticket !== view.request) return; // a later step won
    draw(document.getElementById("board"), document.querySelector("#board-text .board-words"), payload.state, view.game.players, payload.prompt.seat);
    const final = payload.over && version === view.game.version;
    replace(document.getElementById("sheet-title"), final ? "Final score sheet" : "Score sheet at this point");
    replace(document.getElementById("sheet"), scoreTable(payload.score, final ? "The final score" : `After version ${version}`));
    paintChart();
    document.getElementById("board").dataset.version = String(version);
  } catch (error) {
    toast(error.message, "error");
  }
}

function target(step) {
  const at = view.at;
  const positions = view.positions;
  const keyOf = step.endsWith("round") ? (p) => roundKey(p.entry) : (p) => turnKey(p.entry);
  if (step === "first") return 0;
  if (step === "last") return positions.length - 1;
  if (step === "prev") return at - 1;
  if (step === "next") return at + 1;
  if (step.startsWith("next")) {
    // the last position of the next turn (or round): the board once it has been played
    let i = at + 1;
    if (i >= positions.length) return at;
    const key = keyOf(positions[i]);
    while (i + 1 < positions.length && keyOf(positions[i + 1]) === key) i += 1;
    return i;
  }
  // prev: the last position of the turn (or round) before the current one
  let i = at;
  const key = keyOf(positions[i]);
  while (i > 0 && keyOf(positions[i]) === key) i -= 1;
  return i;
}

function glyphTitle(glyph) {
  return { "!": "good move", "?": "mistake", "!!": "brilliant move", "??": "blunder", "!?": "interesting move", "?!": "dubious move" }[glyph] || "";
}

function noteItem(note) {
  const mine = view.me === "owner" || view.me === note.author;
  return h(
    "li",
    { class: "note", dataset: { note: note.id } },
    note.glyph ? h("abbr", { class: "glyph", title: glyphTitle(note.glyph) }, note.glyph) : null,
    h("span", { class: "note-text" }, note.text),
    h("span", { class: "note-by" }, ` — ${note.author_name}${note.edited_on ? " (edited)" : ""}`),
    mine
      ? h(
          "span",
          { class: "note-actions" },
          h("button", { type: "button", class: "link", on: { click: () => editNote(note) } }, "Edit"),
          h("button", { type: "button", class: "link", on: { click: () => deleteNote(note) } }, "Delete"),
        )
      : null,
  );
}

function paintMoveList() {
  const list = document.getElementById("move-list");
  const byVersion = new Map();
  for (const note of view.notes) {
    if (!byVersion.has(note.version)) byVersion.set(note.version, []);
    byVersion.get(note.version).push(note);
  }
  let currentNode = null;
  const items = view.positions.map((position, index) => {
    const entry = position.entry;
    const current = index === view.at;
    const notes = byVersion.get(position.version) || [];
    const text = entry ? entryText(entry) : "Start of the game";
    const item = h(
      "li",
      { class: `${current ? "current" : ""}${entry && entry.undone ? " undone" : ""}`, value: index },
      h(
        "button",
        { type: "button", class: "step-to", "aria-current": current ? "step" : null, on: { click: () => go(index) } },
        entry && entry.undone ? h("span", { class: "tag" }, "undone") : null,
        text,
      ),
      entry ? rivalLines(entry) : null,
      notes.length ? h("ul", { class: "notes" }, notes.map(noteItem)) : null,
    );
    if (current) currentNode = item;
    return item;
  });
  replace(list, items);
  if (currentNode) currentNode.scrollIntoView({ block: "nearest" });
}

function chartPoints() {
  const points = [];
  let lastKey = null;
  for (const entry of view.entries.filter((e) => !e.undone).sort((a, b) => a.version - b.version)) {
    if (!entry.totals) continue;
    const key = turnKey(entry);
    const label = entry.round && entry.turn ? `R${entry.round} T${entry.turn} ${entry.player || ""}` : "setup";
    if (key === lastKey) points[points.length - 1] = { label, round: entry.round, version: entry.version, values: entry.totals };
    else points.push({ label, round: entry.round, version: entry.version, values: entry.totals });
    lastKey = key;
  }
  return points;
}

function paintChart() {
  const points = chartPoints();
  const version = view.positions[view.at] ? view.positions[view.at].version : 1;
  let current = -1;
  points.forEach((p, i) => {
    if (p.version <= version) current = i;
  });
  replace(document.getElementById("chart"), points.length ? lineChart(view.game.players, points, current) : h("p", {}, "No move yet."));
}

function resetNoteForm() {
  noteForm.reset();
  noteForm.elements.id.value = "";
  document.getElementById("note-save").textContent = "Add the comment";
  document.getElementById("note-cancel").hidden = true;
  document.getElementById("note-error").textContent = "";
}

function editNote(note) {
  noteForm.elements.id.value = note.id;
  noteForm.elements.text.value = note.text;
  noteForm.elements.glyph.value = note.glyph || "";
  document.getElementById("note-save").textContent = "Save the edit";
  document.getElementById("note-cancel").hidden = false;
  noteForm.elements.text.focus();
}

async function deleteNote(note) {
  if (!window.confirm("Delete this comment?")) return;
  try {
    await call("DELETE", `/api/games/${id}/annotations/${note.id}`, { token: tokenFor(id) });
    await loadNotes();
    toast("Comment deleted.");
  } catch (error) {
    toast(error.message, "error");
  }
}

async function loadNotes() {
  const answer = await read(id, `/api/games/${id}/annotations`);
  view.notes = answer.body.annotations;
  paintMoveList();
}

async function loadTimeline() {
  const shown = document.getElementById("show-undone").checked;
  const answer = await read(id, `/api/games/${id}/timeline${shown ? "?include_undone=1" : ""}`);
  view.entries = answer.body.entries;
  buildPositions();
}

function indexOfVersion(version) {
  let best = 0;
  view.positions.forEach((p, i) => {
    if (p.version <= version) best = i;
  });
  return best;
}

async function startingIndex() {
  const params = new URLSearchParams(window.location.search);
  if (params.has("version")) return indexOfVersion(Number(params.get("version")));
  if (params.has("round") && params.has("turn")) {
    const query = new URLSearchParams({ round: params.get("round"), turn: params.get("turn") });
    if (params.has("seat")) query.set("seat", params.get("seat"));
    try {
      const answer = await read(id, `/api/games/${id}/states?${query}`);
      view.states.set(answer.body.version, Promise.resolve(withCatalog(answer.body)));
      return indexOfVersion(answer.body.version);
    } catch (error) {
      toast(`No such turn in this game: ${error.message}`, "error");
    }
  }
  return view.positions.length - 1;
}

async function start() {
  view.me = await identify(id);
  try {
    const [game, catalog] = await Promise.all([read(id, `/api/games/${id}`), read(id, `/api/games/${id}/catalog`)]);
    view.game = game.body;
    view.catalog = catalog.body.catalog;
  } catch (error) {
    replace(document.getElementById("position"), error.status === 401 ? "This game is private: paste a token to see it." : error.message);
    renderAccess(id, { players: [] }, null, start);
    return;
  }
  renderHeader(view.game);
  renderAccess(id, view.game, view.me, start);
  noteForm.querySelectorAll("textarea, select, button").forEach((node) => {
    node.disabled = !view.me;
  });
  if (!view.me) document.getElementById("note-error").textContent = "Annotating needs one of the game's tokens.";
  await Promise.all([loadTimeline(), loadNotes()]);
  await go(await startingIndex());
}

document.querySelectorAll("[data-step]").forEach((button) => {
  button.addEventListener("click", () => go(target(button.dataset.step)));
});
slider.addEventListener("input", () => {
  clearTimeout(view.slideTimer);
  const index = Number(slider.value);
  replace(document.getElementById("position"), describePosition(index));
  view.slideTimer = setTimeout(() => go(index, { fromSlider: true }), 60);
});
document.getElementById("show-undone").addEventListener("change", async () => {
  const version = view.positions[view.at].version;
  await loadTimeline();
  paintMoveList();
  await go(indexOfVersion(version));
});
document.getElementById("fork").addEventListener("click", async () => {
  const version = view.positions[view.at].version;
  try {
    const answer = await call("POST", `/api/games/${id}/forks`, { body: { version }, token: tokenFor(id) });
    saveToken(answer.body.game.game_id, answer.body.owner_token);
    window.location.assign(`/games/${answer.body.game.game_id}`);
  } catch (error) {
    toast(error.message, "error");
  }
});
document.getElementById("copy-link").addEventListener("click", async () => {
  const done = await copyText(window.location.href.split("#")[0]);
  toast(done ? "Link copied." : window.location.href.split("#")[0]);
});
document.getElementById("note-cancel").addEventListener("click", resetNoteForm);
noteForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = noteForm.elements.text.value.trim();
  const glyph = noteForm.elements.glyph.value || null;
  const noteId = noteForm.elements.id.value;
  if (!text) {
    document.getElementById("note-error").textContent = "Write a comment first.";
    return;
  }
  try {
    if (noteId) {
      await call("PATCH", `/api/games/${id}/annotations/${noteId}`, { body: { text, glyph }, token: tokenFor(id) });
    } else {
      const version = view.positions[view.at].version;
      await call("POST", `/api/games/${id}/annotations`, { body: { version, text, glyph }, token: tokenFor(id) });
    }
    resetNoteForm();
    await loadNotes();
    toast(noteId ? "Comment saved." : "Comment added.");
  } catch (error) {
    document.getElementById("note-error").textContent = error.message;
  }
});
document.addEventListener("keydown", (event) => {
  const t = event.target;
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey || !view.positions.length) return;
  const keys = {
    ArrowLeft: event.shiftKey ? "prev-turn" : "prev",
    ArrowRight: event.shiftKey ? "next-turn" : "next",
    PageUp: event.shiftKey ? "prev-round" : "prev-turn",
    PageDown: event.shiftKey ? "next-round" : "next-turn",
    Home: "first",
    End: "last",
    "[": "prev-round",
    "]": "next-round",
  };
  if (keys[event.key]) {
    event.preventDefault();
    go(target(keys[event.key]));
  } else if (event.key === "a" || event.key === "A") {
    event.preventDefault();
    noteForm.elements.text.focus();
  }
});

start();
