/* heronlog pages: the replay screen.
 *
 * Steps through a game by move, turn or round (buttons, a slider, the keyboard), redrawing the board from
 * GET /api/games/{id}/states/{version} without a page load. Deep links: ?version=N, or ?round=R&turn=T (the
 * board when that turn began). Undone moves are hidden unless asked for. Annotations sit beside their move
 * (add, edit, delete, glyphs); the score timeline chart shows each player's total after every turn; the score
 * sheet follows the position; "What if?" forks the game at the position shown and opens the new game.
 *
 * "Correct this move…" (with a token that may amend the move shown): another move was played, a move before it
 * was forgotten, or it never happened; the moves legal just before it (GET legal-moves?before=V) are drawn as the
 * recording screen draws them (moves.js, in the API's words; a dice or card form starts from the recorded one);
 * choosing one asks the API for a dry run. Each later move that no longer fits is then shown in its turn, in the
 * API's words ("Move 14 no longer fits: …. What did Ben really do?"), with the board where it stood, the API's
 * suggestions (the first one tap) and the moves legal there; the next dry run finds the next one, until every
 * later move fits or the person drops the rest. One confirmation ("N of M later moves kept, K corrected") then
 * writes the whole correction with If-Match, and the replay reloads; a stale answer reads the game again and
 * checks the same answers on it. The moves of the line are shown as the line stands now
 * (states/V?current_line=1), so a corrected move sits in its place.
 */

import { call, callRetried, randomKey, read, retrying, saveToken, tokenFor } from "./api.js";
import { draw, highlight, words as boardWords } from "./board.js";
import { h, replace, say, copyText } from "./dom.js";
import { entryText, gameId, identify, renderAccess, renderHeader, rivalLines, scoreTable, whereWords } from "./game.js";
import { lineChart } from "./chart.js";
import { byId } from "./cards.js";
import { choiceWords, iconSvg, render as renderMoves } from "./moves.js";
import { initAnalysis, markBadge, paintDetail as paintAnalysis } from "./analysis.js";

/** An annotation's target ({kind, id}) as the id of the board part it names ("room:steward_1", "well:"). */
function targetKey(target) {
  return target ? `${target.kind}:${target.id ?? ""}` : "";
}

function parseTarget(key) {
  if (!key) return null;
  const at = key.indexOf(":");
  return { kind: key.slice(0, at), id: key.slice(at + 1) };
}

function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

const id = gameId();
const view = {
  game: null,
  me: null,
  entries: [], // the timeline (with undone moves when shown)
  positions: [], // [{version, entry}] in version order; position 0 is the game as created
  at: 0,
  states: new Map(),
  notes: [],
  parts: [], // the parts of the board an annotation may point at (the API's words: annotations, parts)
  shown: "", // the data-part of the part outlined on the board, if any
  request: 0,
};
/** The correction under way: the move's version, the API's alternatives, the move chosen, the resolutions of
 * the later misfits so far, the last dry run's report, and whether the person chose to drop the rest. */
const correction = { version: null, listing: null, kind: "replace", move: null, resolutions: [], report: null, dropping: false, busy: false };

const slider = document.getElementById("slider");
const noteForm = document.getElementById("note-form");
// The places where the page says what became of an action (dom.js say), each beside the controls it is about.
const stepButtons = document.querySelector(".step-buttons");
const replayOptions = document.querySelector(".replay-options");
const noteButtons = document.getElementById("note-buttons");
const moveList = document.getElementById("move-list");

function turnKey(entry) {
  return entry ? `${entry.round}/${entry.turn}/${entry.seat}` : "start";
}

function roundKey(entry) {
  return entry ? String(entry.round) : "start";
}

/**
 * The positions: the moves of the line of play in its order (after an amendment the new move stands where the
 * old one stood, though its version is later), and, when asked for, each undone move after the last position
 * recorded before it.
 */
function buildPositions() {
  const shown = document.getElementById("show-undone").checked;
  const line = view.entries.filter((entry) => !entry.undone).sort((a, b) => a.index - b.index);
  const positions = [{ version: 1, entry: null }, ...line.map((entry) => ({ version: entry.version, entry }))];
  if (shown) {
    for (const entry of view.entries.filter((e) => e.undone).sort((a, b) => a.version - b.version)) {
      let at = positions.length;
      while (at > 1 && positions[at - 1].version > entry.version) at -= 1;
      positions.splice(at, 0, { version: entry.version, entry });
    }
  }
  view.positions = positions;
  slider.max = String(view.positions.length - 1);
}

/** States come without the catalog (the same for the whole game): the screen fetched it once. */
function withCatalog(payload) {
  payload.state.catalog = view.catalog;
  return payload;
}

/** The board at a position: a move of the line as the line stands now; an undone move as it stood then. */
async function stateAt(position) {
  const onLine = Boolean(position.entry && !position.entry.undone);
  const key = `${position.version}${onLine ? "/line" : ""}`;
  const path = `/api/games/${id}/states/${position.version}${onLine ? "?current_line=1" : ""}`;
  if (!view.states.has(key)) view.states.set(key, read(id, path).then((a) => withCatalog(a.body)));
  try {
    return await view.states.get(key);
  } catch (error) {
    view.states.delete(key);
    throw error;
  }
}

/** The position in words: the move shown, numbered along the line of play (an undone move has no number, so
 * showing the undone moves renumbers nothing), and where it was played. */
function describePosition(index) {
  const { version, entry } = view.positions[index];
  const total = view.positions.filter((p) => p.entry && !p.entry.undone).length;
  if (!entry) return `Start of the game (version ${version}) · ${total} moves`;
  if (entry.undone) return `Undone move · version ${version} · ${entry.description}`;
  const where = entry.round ? `round ${entry.round}, ${entry.phase === "end_of_round" ? "end of the round" : entry.turn ? `turn ${entry.turn}` : "setup"}` : "setup";
  return `Move ${entry.index} of ${total} · version ${version} · ${where} · ${entry.description}`;
}

/** Where the board shown stands (the turn a move ends may be the next one's start: ?round=1&turn=2 shows the
 * board as turn 2 began, after the last move of turn 1). */
function describeBoard(payload) {
  return `The board: ${whereWords(payload.coordinates, payload.over)}.`;
}

/** Scroll a list's own box (not the page) so that its item shows: the page stays where the board is. */
function scrollWithin(box, item) {
  const outer = box.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  if (inner.top < outer.top) box.scrollTop += inner.top - outer.top;
  else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom;
}

function setUrl(version) {
  const url = new URL(window.location.href);
  url.search = version > 1 ? `?version=${version}` : "";
  window.history.replaceState(null, "", url.pathname + url.search + url.hash);
}

async function go(index, { fromSlider = false } = {}) {
  index = Math.max(0, Math.min(view.positions.length - 1, index));
  // what was said about the position left (a link copied, a fork refused, a comment deleted) is said no more
  for (const place of [stepButtons, replayOptions, correctOpen, moveList]) say(place, "");
  view.at = index;
  if (!fromSlider) slider.value = String(index);
  slider.setAttribute("aria-valuetext", describePosition(index));
  replace(document.getElementById("position"), describePosition(index));
  replace(document.getElementById("position-board"));
  paintMoveList();
  paintCorrection();
  const position = view.positions[index];
  const { version } = position;
  setUrl(version);
  const ticket = (view.request += 1);
  try {
    const payload = await stateAt(position);
    if (ticket !== view.request) return; // a later step won
    const model = { state: payload.state, players: view.game.players, words: view.words, waitingSeat: payload.prompt.seat };
    draw(document.getElementById("board"), model, { promptKey: String(version) });
    boardWords(document.querySelector("#board-text .board-words"), model);
    replace(document.getElementById("position-board"), describeBoard(payload));
    const final = payload.over && index === view.positions.length - 1 && !(position.entry && position.entry.undone);
    replace(document.getElementById("sheet-title"), final ? "Final score sheet" : "Score sheet at this point");
    replace(document.getElementById("sheet"), scoreTable(payload.score, final ? "The final score" : `After version ${version}`));
    paintChart();
    paintAnalysis();
    paintShown();
    document.getElementById("board").dataset.version = String(version);
  } catch (error) {
    say(stepButtons, error.message, "error");
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

/** The part of the board a target names, in words (the ids of this game's board, else as the API keeps them). */
function targetWords(target) {
  const key = targetKey(target);
  const part = view.parts.find((item) => targetKey(item.target) === key);
  return part ? part.words : `${target.kind.replaceAll("_", " ")} ${target.id}`.trim();
}

/** Outline the part of the board an annotation points at (none for ""), now and after each redraw. */
function showPart(key) {
  view.shown = key;
  paintShown();
}

function paintShown() {
  document.querySelectorAll("#board .target-shown").forEach((node) => node.classList.remove("target-shown"));
  if (view.shown) document.querySelectorAll(`#board [data-part="${CSS.escape(view.shown)}"]`).forEach((node) => node.classList.add("target-shown"));
}

/** A target's words and its "show" button; the annotation outlines its part while pointed at or focused. */
function noteTarget(item, target) {
  const key = targetKey(target);
  const words = targetWords(target);
  item.addEventListener("mouseenter", () => showPart(key));
  item.addEventListener("mouseleave", () => item.contains(document.activeElement) || showPart(""));
  item.addEventListener("focusin", () => showPart(key));
  item.addEventListener("focusout", (event) => item.contains(event.relatedTarget) || showPart(""));
  const show = () => {
    showPart(key);
    const node = document.querySelector(`#board [data-part="${CSS.escape(key)}"]`);
    if (node) node.scrollIntoView({ block: "nearest" });
  };
  const icon = view.words && view.words.part_icons ? view.words.part_icons[key] : null;
  return [
    h("span", { class: "note-target" }, " → ", icon ? iconSvg(icon) : null, words),
    h("button", { type: "button", class: "link", "aria-label": `Show ${words} on the board`, on: { click: show } }, "show"),
  ];
}

function noteItem(note) {
  const mine = note.yours; // the API says whether this browser's token may change it (the owner, or its writer)
  const item = h(
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
  if (note.target) item.querySelector(".note-text").after(...noteTarget(item, note.target));
  return item;
}

function paintMoveList() {
  const list = document.getElementById("move-list");
  const byVersion = new Map();
  for (const note of view.notes) {
    if (!byVersion.has(note.version)) byVersion.set(note.version, []);
    byVersion.get(note.version).push(note);
  }
  // A note on a move a correction replaced reads beside the move standing in its place now (the API's
  // stands_for), unless the replaced move is shown itself (with the undone moves).
  const shownVersions = new Set(view.positions.map((position) => position.version));
  let currentNode = null;
  const items = view.positions.map((position, index) => {
    const entry = position.entry;
    const current = index === view.at;
    const places = entry && !entry.undone ? (entry.stands_for || []).filter((version) => !shownVersions.has(version)) : [];
    const notes = [position.version, ...places].flatMap((version) => byVersion.get(version) || []);
    const text = entry ? entryText(entry) : "Start of the game";
    const item = h(
      "li",
      { class: `${current ? "current" : ""}${entry && entry.undone ? " undone" : ""}`, value: entry ? entry.index : 0 },
      h(
        "button",
        { type: "button", class: "step-to", "aria-current": current ? "step" : null, on: { click: () => go(index) } },
        entry && entry.undone ? h("span", { class: "tag" }, "undone") : null,
        text,
        entry && !entry.undone ? markBadge(entry.version) : null,
        // a corrected move says so, and what was recorded first (in the words it was recorded with)
        entry && !entry.undone && entry.correction ? h("span", { class: "tag corrected" }, "corrected") : null,
      ),
      entry && !entry.undone && entry.replaced ? h("p", { class: "hint replaced" }, `recorded first as: ${entry.replaced}`) : null,
      entry ? rivalLines(entry) : null,
      notes.length ? h("ul", { class: "notes" }, notes.map(noteItem)) : null,
    );
    if (current) currentNode = item;
    return item;
  });
  replace(list, items);
  if (currentNode) scrollWithin(list, currentNode);
}

function chartPoints() {
  const points = [];
  let lastKey = null;
  for (const entry of view.entries.filter((e) => !e.undone).sort((a, b) => a.index - b.index)) {
    if (!entry.totals) continue;
    const key = turnKey(entry);
    const label = entry.phase === "end_of_round" ? `R${entry.round} end` : entry.round && entry.turn ? `R${entry.round} T${entry.turn} ${entry.player || ""}` : "setup";
    const point = { label, round: entry.round, version: entry.version, index: entry.index, values: entry.totals };
    if (key === lastKey) points[points.length - 1] = point;
    else points.push(point);
    lastKey = key;
  }
  return points;
}

/** How many moves of the line of play the position shown has played (an undone move: those before it). */
function lineIndexAt(at) {
  for (let i = at; i > 0; i -= 1) {
    const entry = view.positions[i] && view.positions[i].entry;
    if (entry && !entry.undone) return entry.index;
  }
  return 0;
}

function paintChart() {
  const points = chartPoints();
  const played = lineIndexAt(view.at);
  let current = -1;
  points.forEach((p, i) => {
    if (p.index <= played) current = i;
  });
  replace(document.getElementById("chart"), points.length ? lineChart(view.game.players, points, current) : h("p", {}, "No move yet."));
}

function resetNoteForm() {
  noteForm.reset();
  noteForm.elements.id.value = "";
  document.getElementById("note-save").textContent = "Add the comment";
  document.getElementById("note-cancel").hidden = true;
  say(noteButtons, "");
}

function editNote(note) {
  noteForm.elements.id.value = note.id;
  noteForm.elements.text.value = note.text;
  noteForm.elements.glyph.value = note.glyph || "";
  const part = noteForm.elements.part;
  const key = targetKey(note.target);
  if (key && ![...part.options].some((option) => option.value === key)) part.append(h("option", { value: key }, targetWords(note.target)));
  part.value = key;
  document.getElementById("note-save").textContent = "Save the edit";
  document.getElementById("note-cancel").hidden = false;
  noteForm.elements.text.focus();
}

async function deleteNote(note) {
  if (!window.confirm("Delete this comment?")) return;
  try {
    const sent = { token: tokenFor(id), idempotencyKey: randomKey() };
    await callRetried("DELETE", `/api/games/${id}/annotations/${note.id}`, sent, (attempt, total) =>
      say(moveList, retrying(attempt, total)),
    );
    await loadNotes();
    // said under the list of moves, where its Delete button was
    say(moveList, "Comment deleted.");
  } catch (error) {
    say(moveList, error.message, "error");
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
  const exact = view.positions.findIndex((p) => p.version === version);
  if (exact >= 0) return exact;
  let best = 0;
  view.positions.forEach((p, i) => {
    if (p.version <= version) best = i;
  });
  return best;
}

/** The position a deep link asks for: {index, problem}, the problem in words when the link names no such turn. */
async function startingIndex() {
  const params = new URLSearchParams(window.location.search);
  if (params.has("version")) return { index: indexOfVersion(Number(params.get("version"))), problem: "" };
  if (params.has("round") && params.has("turn")) {
    const query = new URLSearchParams({ round: params.get("round"), turn: params.get("turn") });
    if (params.has("seat")) query.set("seat", params.get("seat"));
    try {
      const answer = await read(id, `/api/games/${id}/states?${query}`);
      return { index: indexOfVersion(answer.body.version), problem: "" };
    } catch (error) {
      return { index: view.positions.length - 1, problem: `No such turn in this game: ${error.message}` };
    }
  }
  return { index: view.positions.length - 1, problem: "" };
}

// --- correcting a move ----------------------------------------------------------------------------------
//
// The steps: choose the move really played (the moves legal then); each dry run's report names the first later
// move that no longer fits, which the person resolves in its turn (the move really played there, "it never
// happened", or a move left out before it) until every later move fits, or drops the rest; one confirmation
// then writes the whole correction (one amendment with its resolutions). Every word about the game comes from
// the API (the moves' words, the rules' reasons); this page only puts them in sentences.

const correctArea = document.getElementById("correct-area");
const correctOpen = document.getElementById("correct-open");
const correctPanel = document.getElementById("correct-panel");
const correctApply = document.getElementById("correct-apply");
const correctError = document.getElementById("correct-error");
const correctReport = document.getElementById("correct-report");
const correctMisfit = document.getElementById("correct-misfit");
const correctKeep = document.getElementById("correct-keep");

function mySeat() {
  return view.me && view.me.startsWith("seat:") ? Number(view.me.slice(5)) : null;
}

/** The API lets a seat token amend its own seat's moves, and the owner any move (chance included). */
function mayActFor(seat) {
  return view.me === "owner" || (mySeat() !== null && seat === mySeat());
}

function amendable(entry) {
  return Boolean(view.me && view.game && entry && !entry.undone && view.game.status !== "abandoned" && mayActFor(entry.seat));
}

/** One text per move, whatever the order of its keys (the API lists moves and records them in its own). */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function sameMove(a, b) {
  return Boolean(a && b) && canonical(a) === canonical(b);
}

function entryOf(version) {
  return view.entries.find((entry) => entry.version === version && !entry.undone) || null;
}

function moveWords(version) {
  const entry = entryOf(version);
  return entry ? `move ${entry.index}, “${entry.description}”` : `the move of version ${version}`;
}

function explainAmend(error) {
  if (error.status === 412 && error.code === "stale_version") {
    const now = error.details.current_version;
    return `Someone changed the game meanwhile${now ? ` (it is at version ${now} now)` : ""}: nothing was corrected. The moves and the replay are read again, and your answers so far checked again on the game as it is now.`;
  }
  if (error.status === 409) return `Nothing was corrected: ${error.message}.`;
  if (error.status === 401) return "This browser's token is not valid for this game (any more): paste one above to correct moves.";
  if (error.status === 403) return `This token may not correct that move: ${error.message}.`;
  if (error.status === 404) return `That move is no longer on the line of play (undone or replaced meanwhile): ${error.message}.`;
  if (error.code === "amend_unchanged") return `Nothing to correct: that is the move recorded there. Choose another one.`;
  if (error.code && error.code.startsWith("resolution_")) return `That answer does not fit this correction: ${error.message}.`;
  if (error.status === 422) return `The rules refuse this${error.rule ? ` (${error.rule})` : ""}: ${error.message}.`;
  if (error.status === 400) return `The server could not read this correction: ${error.message}.`;
  return `Nothing was corrected: ${error.message}.`;
}

/** While a request is out the panel is busy: its controls stay as they are (a chance form keeps its dice)
 * and a second choice is ignored until the answer is in. */
function setCorrectionBusy(busy) {
  correction.busy = busy;
  correctPanel.setAttribute("aria-busy", busy ? "true" : "false");
  correctApply.disabled = busy;
  correctPanel.querySelectorAll(".correct-steps button").forEach((button) => {
    button.disabled = busy;
  });
}

/** Mark the move chosen among the buttons (a chance form is left as typed). */
function repaintChoice() {
  if (correction.listing && !document.querySelector("#correct-moves .chance-form")) paintAlternatives();
}

/** Back to choosing the correction itself: no report, no misfit, no resolutions; the board of the replay. */
function clearReport() {
  const misfitShown = !correctMisfit.hidden;
  correction.move = null;
  correction.report = null;
  correction.resolutions = [];
  correction.dropping = false;
  correctReport.hidden = true;
  correctMisfit.hidden = true;
  correctApply.hidden = true;
  replace(document.getElementById("correct-report-body"));
  replace(document.getElementById("correct-misfit-moves"));
  showChoices(true);
  if (misfitShown) redrawPosition();
}

/** The choices of the correction itself, or (while later misfits are being resolved, which another choice
 * would undo) the one chosen, in words. */
function showChoices(shown) {
  const removing = correction.kind === "remove";
  document.getElementById("correct-kind").hidden = !shown;
  document.getElementById("correct-hint").hidden = !shown || removing;
  document.getElementById("correct-moves").hidden = !shown || removing;
  document.getElementById("correct-remove").hidden = !shown || !removing;
  const chosen = document.getElementById("correct-chosen");
  chosen.hidden = shown;
  if (!shown && correction.listing) replace(chosen, `${capitalFirst(correctionWords())}.`);
}

/** The correction chosen, in words: what it says happened at the corrected move. */
function correctionWords() {
  const at = moveWords(correction.version);
  if (correction.kind === "remove") return `${at} never happened`;
  const words = correction.move ? choiceWords(correction.listing, correction.move) : "";
  if (correction.kind === "insert") return `before ${at}: ${words}, forgotten`;
  return `${at} becomes: ${words}`;
}

/** The correction as the API takes it (docs/api/amend.md): the move, a move inserted, or none. */
function correctionBody() {
  if (correction.kind === "remove") return { remove: true };
  if (correction.kind === "insert") return { insert: [correction.move] };
  return { move: correction.move };
}

/** The board of the position shown in the replay again (a misfit's step draws the board where it stands). */
function redrawPosition() {
  if (view.positions.length) go(view.at);
}

function closeCorrection({ focus = false } = {}) {
  correction.version = null;
  correction.listing = null;
  correction.kind = "replace";
  document.getElementById("correct-kind-replace").checked = true;
  clearReport();
  correctError.textContent = "";
  correctPanel.hidden = true;
  correctOpen.setAttribute("aria-expanded", "false");
  replace(document.getElementById("correct-moves"));
  if (focus && !correctArea.hidden) correctOpen.focus();
}

/** Show the control when the move shown may be corrected with this browser's token; close it on another move. */
function paintCorrection() {
  const position = view.positions[view.at];
  const entry = position ? position.entry : null;
  if (correction.version !== null && (!entry || entry.version !== correction.version || entry.undone)) closeCorrection();
  if (!amendable(entry)) {
    correctArea.hidden = true;
    return;
  }
  correctArea.hidden = false;
  replace(
    document.getElementById("correct-about"),
    `Was move ${entry.index} entered wrong (“${entry.description}”)? Replace it with the move really played: the later moves are checked again one by one, each that no longer fits is yours to resolve, and nothing is deleted.`,
  );
}

function paintAlternatives() {
  const { listing } = correction;
  const { prompt, moves, recorded } = listing;
  const entry = entryOf(correction.version);
  replace(document.getElementById("correct-prompt"), `Instead of ${entry ? `move ${entry.index}` : "that move"}: ${prompt.text}`);
  renderMoves(document.getElementById("correct-moves"), {
    prompt,
    moves,
    choices: listing.choices,
    canAct: (move) => Boolean(move) && mayActFor(move.seat),
    onMove: dryRun,
    cards: byId(view.catalog),
    idPrefix: "correct",
    submit: correction.kind === "insert" ? "Check: this was forgotten" : "Check this correction",
    start: recorded,
    mark: (move) =>
      correction.kind === "replace" && sameMove(move, recorded) ? "as recorded" : sameMove(move, correction.move) ? "chosen" : null,
  });
  showChoices(true);
}

async function openCorrection() {
  const entry = view.positions[view.at].entry;
  if (!amendable(entry) || correction.busy) return;
  closeCorrection();
  say(correctOpen, "");
  correction.version = entry.version;
  correctPanel.hidden = false;
  correctOpen.setAttribute("aria-expanded", "true");
  replace(document.getElementById("correct-prompt"), "Reading the moves allowed then…");
  try {
    const answer = await read(id, `/api/games/${id}/legal-moves?before=${entry.version}`);
    if (correction.version !== entry.version) return; // the replay moved on meanwhile
    answer.body.state.catalog = view.catalog;
    correction.listing = answer.body;
    paintAlternatives();
    document.getElementById("correct-prompt").focus();
  } catch (error) {
    correctError.textContent = explainAmend(error);
  }
}

function versionList(versions) {
  return h("ol", { class: "correct-list" }, versions.map((version) => h("li", {}, moveWords(version))));
}

function capitalFirst(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** How the later moves fare in a report: kept (their versions), corrected by a resolution, dropped. A recorded
 * move replaced by its resolution counts once: a misfit still there after its own resolution is among the
 * dropped already. */
function tally(report) {
  const dropped = new Set(report.dropped);
  const replaced = report.resolved.filter((entry) => !entry.kept && !dropped.has(entry.version)).length;
  return { kept: report.kept.length, corrected: report.resolved.length, dropped: report.dropped.length, later: report.kept.length + replaced + report.dropped.length };
}

/** A resolution in words: what was really played where a recorded move no longer fitted. */
function resolvedWords(entry) {
  const played = entry.words.length ? entry.words.map((words) => `“${words}”`).join(", then ") : null;
  const recorded = `“${entry.recorded_words}”`;
  if (!played) return `Move ${entry.index}, ${recorded}, never happened.`;
  if (entry.kept) return `Before move ${entry.index}, ${recorded}: ${played}.`;
  return `Move ${entry.index}, ${recorded}, was ${played}.`;
}

/** The confirmation: what the whole correction does, in words, and the one button that writes it. */
function paintReport() {
  const { report } = correction;
  const { kept, corrected, dropped, later } = tally(report);
  correctMisfit.hidden = true;
  const parts = [h("p", {}, `${capitalFirst(correctionWords())}.`)];
  if (!later) {
    parts.push(h("p", {}, "No move was recorded after it: nothing else changes."));
  } else if (report.all_fit && !corrected) {
    parts.push(h("p", {}, later === 1 ? "The one later move still applies." : `All ${later} later moves still apply.`));
  } else {
    const words = [`${kept} of the ${later} later moves kept`];
    if (corrected) words.push(`${corrected} corrected`);
    if (dropped) words.push(`${dropped} no longer ${dropped === 1 ? "fits" : "fit"}`);
    parts.push(h("p", { class: "correct-tally" }, `${capitalFirst(words.join(", "))}.`));
  }
  if (report.resolved.length) {
    parts.push(h("h4", {}, `Corrected (${report.resolved.length})`), h("ol", { class: "correct-list" }, report.resolved.map((entry) => h("li", {}, resolvedWords(entry)))));
  }
  if (report.redrawn && report.redrawn.length) {
    parts.push(
      h(
        "p",
        {},
        `heronlog draws again the dice or cards that followed ${report.redrawn.length === 1 ? "one of them" : `${report.redrawn.length} of them`} (this correction changes what chance had to decide there): ${report.redrawn.map(moveWords).join("; ")}.`,
      ),
    );
  }
  if (kept && !report.all_fit) {
    parts.push(h("h4", {}, `Still apply (${kept})`), versionList(report.kept));
  } else if (kept) {
    parts.push(h("details", {}, h("summary", {}, `The moves that still apply (${kept})`), versionList(report.kept)));
  }
  if (report.first_misfit) {
    const misfit = report.first_misfit;
    parts.push(
      h(
        "p",
        { class: "warning" },
        `${capitalFirst(moveWords(misfit.version))} no longer fits after this correction: ${misfit.reason}${misfit.rule ? ` (${misfit.rule})` : ""}.`,
      ),
      h("h4", {}, `Would leave the line of play (${report.dropped.length})`),
      versionList(report.dropped),
      h(
        "p",
        {},
        "Applying the correction drops them from the line of play: nothing is deleted (they stay in the game's log, under “Show undone moves”), and the moves really played from there on are recorded again on the recording screen.",
      ),
    );
  } else if (view.game.over && !report.over) {
    parts.push(h("p", { class: "warning" }, "After this correction the game is not over yet: it waits for a move nobody recorded (the corrected line gives someone one more choice). Record it on the recording screen once the correction is applied."));
  }
  replace(document.getElementById("correct-report-body"), parts);
  showChoices(!(correction.resolutions.length || correction.dropping));
  document.getElementById("correct-chosen").hidden = true; // the report's first line says it
  correctReport.hidden = false;
  correctApply.hidden = false;
  document.getElementById("correct-report-back").hidden = !(correction.resolutions.length || correction.dropping);
}

/** The board's targets where a misfit stands: each part the legal moves there act on (the API's targets, for
 * the moves this token may play), with the words its button says and the moves there. */
function misfitTargets(misfit) {
  const byTarget = new Map();
  (misfit.choices || []).forEach((choice, i) => {
    const move = misfit.legal_moves[i];
    if (!choice.target || !move || !mayActFor(move.seat)) return;
    if (!byTarget.has(choice.target)) byTarget.set(choice.target, []);
    byTarget.get(choice.target).push(i);
  });
  const words = new Map();
  for (const [target, list] of byTarget) {
    const name = (view.words && view.words.parts[target]) || target;
    words.set(target, list.length === 1 ? misfit.choices[list[0]].words : `${name}: ${list.length} choices`);
  }
  return { byTarget, words };
}

/** A part of the misfit's board chosen: its one move resolves the misfit; of several, the list asks which (the
 * first of them is focused, the others follow it). */
function misfitOnBoard(targets, misfit, target) {
  const list = targets.byTarget.get(target) || [];
  if (list.length === 1) {
    resolveWith([misfit.legal_moves[list[0]]]);
    return;
  }
  const first = [...document.querySelectorAll("#correct-misfit-moves button.move")].find((button) => button.dataset.target === target);
  if (first) first.focus();
}

/** What probably happened where the misfit stands, as the API suggests it (best first): the first is one tap
 * ("Yes: ..."), the others follow, each with how many later moves it keeps. A suggestion is a whole
 * resolution: it takes the place of any answer given there. */
function paintSuggestions(misfit) {
  const list = misfit.suggestions || [];
  const keeps = (one) => `keeps ${one.capped ? "at least " : ""}${plural(one.keeps, "later move")}`;
  const button = (one, first) =>
    h(
      "button",
      { type: "button", class: first ? "primary suggestion" : "suggestion", on: { click: () => resolveWithSuggestion(one) } },
      first ? `Yes: ${one.words} (${keeps(one)})` : `${one.words} (${keeps(one)})`,
    );
  replace(
    document.getElementById("correct-suggestions"),
    list.length
      ? [
          h("p", { class: "question" }, "Probably:"),
          button(list[0], true),
          list.length > 1 ? h("details", { class: "others" }, h("summary", {}, `Other answers (${list.length - 1})`), list.slice(1).map((one) => button(one, false))) : null,
          h("p", { class: "hint" }, "Or choose what happened below."),
        ]
      : [],
  );
}

async function resolveWithSuggestion(suggestion) {
  const misfit = correction.report && correction.report.first_misfit;
  if (correction.busy || !misfit) return;
  const resolution = suggestion.resolution;
  const resolutions = [...correction.resolutions.filter((one) => one.index !== resolution.index), resolution];
  if (await check(resolutions)) showStep();
  else document.getElementById("correct-misfit-title").focus();
}

/** A later move no longer fits: say it, draw the board where it stands, and offer what was legal there. */
function paintMisfit() {
  const misfit = correction.report.first_misfit;
  const { kept, corrected, later } = tally(correction.report);
  correctReport.hidden = true;
  correctApply.hidden = true;
  const who = misfit.player ? `What did ${misfit.player} really do?` : "What really happened there (the dice, card or tile)?";
  replace(
    document.getElementById("correct-misfit-title"),
    misfit.after_resolution ? `Move ${misfit.index} still does not fit` : `Move ${misfit.index} no longer fits`,
  );
  replace(
    document.getElementById("correct-misfit-about"),
    `Recorded: “${misfit.recorded_words}”. After the correction${misfit.after_resolution ? " and the moves before it" : ""}: ${misfit.reason}${misfit.rule ? ` (${misfit.rule})` : ""}.`,
  );
  replace(document.getElementById("correct-misfit-question"), who);
  replace(
    document.getElementById("correct-progress"),
    `So far ${kept} of the ${later} later moves are kept${corrected ? `, ${corrected} corrected` : ""}. Choose below: the move chosen replaces move ${misfit.index}, unless it happened too (tick the box).`,
  );
  paintSuggestions(misfit);
  replace(document.getElementById("correct-keep-label"), `Move ${misfit.index} happened too, right after the move I choose (it was left out of the record)`);
  correctKeep.checked = false;
  document.getElementById("correct-skip").textContent = `Move ${misfit.index} never happened`;
  const state = { ...misfit.state, catalog: view.catalog };
  const board = document.getElementById("board");
  renderMoves(document.getElementById("correct-misfit-moves"), {
    prompt: misfit.prompt,
    moves: misfit.legal_moves,
    choices: misfit.choices,
    canAct: (move) => Boolean(move) && mayActFor(move.seat),
    onMove: (move) => resolveWith([move]),
    onHover: (target) => highlight(board, target),
    cards: byId(view.catalog),
    idPrefix: "misfit",
    submit: "This is what happened",
  });
  if (!misfit.legal_moves.length) replace(document.getElementById("correct-misfit-moves"), h("p", {}, "Nothing can be played there: the game is over at that point. Drop the rest from here."));
  showChoices(false);
  correctMisfit.hidden = false;
  // the board where the misfit stands (the replay's own board comes back when the correction closes), the parts
  // the moves legal there act on lit and pressable, as on the recording screen
  const model = { state, players: view.game.players, words: view.words, waitingSeat: misfit.prompt.seat };
  const targets = misfitTargets(misfit);
  draw(board, model, { targets: targets.words, onTarget: (target) => misfitOnBoard(targets, misfit, target), promptKey: `misfit:${misfit.index}:${correction.resolutions.length}` });
  boardWords(document.querySelector("#board-text .board-words"), model);
  replace(document.getElementById("position-board"), `The board where move ${misfit.index} stood, after the correction so far.`);
  document.getElementById("correct-misfit-title").focus();
}

function showStep() {
  if (correction.report.first_misfit && !correction.dropping) paintMisfit();
  else {
    const hadMisfit = !correctMisfit.hidden;
    paintReport();
    if (hadMisfit) redrawPosition();
    correctReport.focus();
  }
}

/** Read the game, the replay and the alternatives again after a stale answer. The panel says it is busy
 * meanwhile (aria-busy), so that nobody types into a form about to be drawn again. */
async function reread() {
  correctPanel.setAttribute("aria-busy", "true");
  try {
    await readAgain();
  } finally {
    correctPanel.setAttribute("aria-busy", correction.busy ? "true" : "false");
  }
}

async function readAgain() {
  const version = correction.version;
  const game = await read(id, `/api/games/${id}`);
  view.game = game.body;
  renderHeader(view.game);
  view.states.clear();
  await loadTimeline();
  const index = view.positions.findIndex((p) => p.version === version && p.entry && !p.entry.undone);
  if (index < 0) {
    closeCorrection();
    await go(view.at);
    return;
  }
  view.at = index;
  const problem = correctError.textContent;
  await go(index);
  await openCorrection();
  if (!correctError.textContent) correctError.textContent = problem;
}

/** Ask the API what the correction does with the resolutions so far (a dry run writes nothing). After a stale
 * answer the game is read again and the same correction, with the same answers, checked again on it. */
async function check(resolutions) {
  correctError.textContent = "";
  setCorrectionBusy(true);
  let stale = false;
  let done = false;
  try {
    const answer = await call("POST", `/api/games/${id}/amend`, {
      body: { version: correction.version, ...correctionBody(), resolutions, dry_run: true },
      token: tokenFor(id),
      version: correction.listing.version,
    });
    correction.resolutions = resolutions;
    correction.report = answer.body.report;
    done = true;
  } catch (error) {
    correctError.textContent = explainAmend(error);
    stale = error.status === 412 && error.code === "stale_version";
  } finally {
    setCorrectionBusy(false);
  }
  if (stale) return await rereadKeeping(resolutions);
  return done;
}

/** Read the game again after a stale answer, keeping the correction and the answers given: they are checked
 * again on the game as it is now (the person answers only what changed). */
async function rereadKeeping(resolutions) {
  const kept = { kind: correction.kind, move: correction.move, dropping: correction.dropping };
  const problem = correctError.textContent;
  await reread();
  if (correction.version === null || !correction.listing || (kept.kind !== "remove" && !kept.move)) return false;
  correction.kind = kept.kind;
  document.getElementById(`correct-kind-${kept.kind}`).checked = true;
  correction.move = kept.move;
  paintAlternatives();
  const done = await check(resolutions);
  correction.dropping = kept.dropping && Boolean(correction.report && correction.report.first_misfit);
  if (done) {
    showStep();
    correctError.textContent = problem;
  }
  return done;
}

async function dryRun(move) {
  if (correction.busy || !correction.listing) return;
  correctError.textContent = "";
  clearReport();
  if (correction.kind === "replace" && sameMove(move, correction.listing.recorded)) {
    repaintChoice();
    correctError.textContent = "That is the move recorded there already: choose another one.";
    return;
  }
  correction.move = move;
  const done = await check([]);
  repaintChoice();
  if (done) showStep();
  else document.getElementById("correct-prompt").focus();
}

/** Resolve the misfit shown with `moves` (none: it never happened); with the box ticked, the recorded move
 * happened too, after them. A misfit still there after its own resolution's moves extends that resolution. */
async function resolveWith(moves) {
  const misfit = correction.report && correction.report.first_misfit;
  if (correction.busy || !misfit) return;
  const keep = moves.length > 0 && correctKeep.checked;
  let resolutions = [...correction.resolutions];
  let earlier = [];
  if (misfit.after_resolution) {
    const at = resolutions.findIndex((one) => one.index === misfit.index);
    const last = at >= 0 ? resolutions.splice(at, 1)[0] : null;
    earlier = last ? last.moves || (last.move ? [last.move] : []) : [];
  }
  resolutions = [...resolutions, { index: misfit.index, moves: [...earlier, ...moves], keep_recorded: keep }];
  if (await check(resolutions)) showStep();
  else document.getElementById("correct-misfit-title").focus();
}

/** One step back: from the confirmation to the misfit left, or the last resolution undone. */
async function stepBack() {
  if (correction.busy || !correction.report) return;
  if (correction.dropping) {
    correction.dropping = false;
    showStep();
    return;
  }
  if (!correction.resolutions.length) {
    clearReport();
    repaintChoice();
    document.getElementById("correct-prompt").focus();
    return;
  }
  if (await check(correction.resolutions.slice(0, -1))) showStep();
}

function dropTheRest() {
  if (correction.busy || !correction.report) return;
  correction.dropping = true;
  showStep();
}

async function applyCorrection() {
  if (correction.busy || (correction.kind !== "remove" && !correction.move)) return;
  correctError.textContent = "";
  setCorrectionBusy(true);
  let stale = false;
  try {
    const sent = {
      body: { version: correction.version, ...correctionBody(), resolutions: correction.resolutions },
      token: tokenFor(id),
      version: correction.listing.version,
      idempotencyKey: randomKey(),
    };
    const answer = await callRetried("POST", `/api/games/${id}/amend`, sent, (attempt, total) => {
      correctError.textContent = retrying(attempt, total);
    });
    const written = answer.body.versions;
    const shown = answer.body.report.first_misfit ? null : answer.body.report.kept[0];
    const amended = correction.kind === "replace" ? written[written.length - 1] : correction.kind === "insert" ? written[0] : shown;
    const { kept, corrected, dropped, later } = tally(answer.body.report);
    closeCorrection();
    view.game = answer.body.game;
    renderHeader(view.game);
    view.states.clear();
    await Promise.all([loadTimeline(), loadNotes()]);
    await go(amended ? indexOfVersion(amended) : view.at);
    const fate = later ? `: ${kept} of ${plural(later, "later move")} kept${corrected ? `, ${corrected} corrected` : ""}${dropped ? `, ${dropped} left the line of play` : ""}` : "";
    say(correctArea.hidden ? stepButtons : correctOpen, `Move corrected${fate}.`);
    (correctArea.hidden ? document.getElementById("position") : correctOpen).focus();
  } catch (error) {
    correctError.textContent = explainAmend(error);
    stale = error.status === 412 && error.code === "stale_version";
  } finally {
    setCorrectionBusy(false);
  }
  if (stale) await rereadKeeping(correction.resolutions);
}

async function start() {
  view.me = await identify(id);
  try {
    const [game, catalog] = await Promise.all([read(id, `/api/games/${id}`), read(id, `/api/games/${id}/catalog`)]);
    view.game = game.body;
    view.catalog = catalog.body.catalog;
    view.words = catalog.body.words;
  } catch (error) {
    const locked = [401, 403, 404].includes(error.status);
    replace(document.getElementById("position"), error.status === 401 ? "This game is private: paste a token to see it." : error.message);
    renderAccess(id, { players: [] }, null, start, { locked });
    return;
  }
  renderHeader(view.game);
  renderAccess(id, view.game, view.me, start);
  view.parts = view.words.annotations.map((key) => ({ target: parseTarget(key), words: view.words.parts[key] || key }));
  replace(
    noteForm.elements.part,
    h("option", { value: "" }, "nothing in particular"),
    view.parts.map((part) => h("option", { value: targetKey(part.target) }, capitalise(part.words))),
  );
  noteForm.querySelectorAll("textarea, select, button").forEach((node) => {
    node.disabled = !view.me;
  });
  // Without a token the form says so in a hint of its own, not with say(): a message is scrolled into view, and
  // a visitor from a shared link would land on the greyed-out form instead of the step bar and the board.
  document.getElementById("note-locked").hidden = Boolean(view.me);
  await Promise.all([loadTimeline(), loadNotes()]);
  const { index, problem } = await startingIndex();
  await go(index);
  if (problem) say(stepButtons, problem, "error");
  await initAnalysis({
    gameId: id,
    players: () => view.game.players,
    currentVersion: () => (view.positions[view.at] ? view.positions[view.at].version : null),
    goToVersion: (version) => go(indexOfVersion(version)),
    goToBefore: (version) => go(Math.max(0, indexOfVersion(version) - 1)),
    sameMove,
    reloadNotes: loadNotes,
    repaintMoves: paintMoveList,
  });
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
  say(replayOptions, "");
  try {
    const sent = { body: { version }, token: tokenFor(id), idempotencyKey: randomKey() };
    const answer = await callRetried("POST", `/api/games/${id}/forks`, sent, (attempt, total) =>
      say(replayOptions, retrying(attempt, total)),
    );
    saveToken(answer.body.game.game_id, answer.body.owner_token);
    window.location.assign(`/games/${answer.body.game.game_id}`);
  } catch (error) {
    say(replayOptions, `No branch was made: ${error.message}`, "error");
  }
});
document.getElementById("copy-link").addEventListener("click", async () => {
  const link = window.location.href.split("#")[0];
  const done = await copyText(link);
  say(replayOptions, done ? "Link copied." : `Copy this link by hand: ${link}`);
});
document.getElementById("note-cancel").addEventListener("click", resetNoteForm);
correctOpen.addEventListener("click", () => (correctPanel.hidden ? openCorrection() : closeCorrection({ focus: true })));
document.getElementById("correct-cancel").addEventListener("click", () => closeCorrection({ focus: true }));
correctApply.addEventListener("click", applyCorrection);
document.getElementById("correct-skip").addEventListener("click", () => resolveWith([]));
document.querySelectorAll("input[name=correct-kind]").forEach((radio) =>
  radio.addEventListener("change", () => {
    if (correction.busy || !radio.checked) return;
    correction.kind = radio.value;
    clearReport();
    if (correction.listing) paintAlternatives();
  }),
);
document.getElementById("correct-remove").addEventListener("click", async () => {
  if (correction.busy || !correction.listing) return;
  clearReport();
  correction.move = null;
  if (await check([])) showStep();
});
document.getElementById("correct-drop").addEventListener("click", dropTheRest);
document.getElementById("correct-back").addEventListener("click", stepBack);
document.getElementById("correct-report-back").addEventListener("click", stepBack);
noteForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = noteForm.elements.text.value.trim();
  const glyph = noteForm.elements.glyph.value || null;
  const target = parseTarget(noteForm.elements.part.value);
  const noteId = noteForm.elements.id.value;
  if (!text) {
    say(noteButtons, "Write a comment first.", "error");
    return;
  }
  // sent again with the same key when no answer came (callRetried): a comment is added once, not twice
  const retried = (attempt, total) => say(noteButtons, retrying(attempt, total));
  try {
    if (noteId) {
      const sent = { body: { text, glyph, target }, token: tokenFor(id), idempotencyKey: randomKey() };
      await callRetried("PATCH", `/api/games/${id}/annotations/${noteId}`, sent, retried);
    } else {
      const version = view.positions[view.at].version;
      const sent = { body: { version, text, glyph, target }, token: tokenFor(id), idempotencyKey: randomKey() };
      await callRetried("POST", `/api/games/${id}/annotations`, sent, retried);
    }
    resetNoteForm();
    await loadNotes();
    say(noteButtons, noteId ? "Comment saved." : "Comment added.");
  } catch (error) {
    say(noteButtons, error.message, "error");
  }
});
document.addEventListener("keydown", (event) => {
  const t = event.target;
  if (event.key === "Escape" && !correctPanel.hidden && !correction.busy) {
    event.preventDefault();
    closeCorrection({ focus: true });
    return;
  }
  if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
  if (t instanceof Element && t.closest("#correct-panel")) return; // its buttons, not the replay's steps
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
