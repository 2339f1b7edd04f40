/* heronlog pages: the replay screen's computer analysis.
 *
 * "Request a computer analysis" (with a token) asks POST /api/games/{id}/analysis; while it runs, a progress bar
 * follows the game's event stream (AnalysisProgressed) and the results are read again from
 * GET /api/games/{id}/analysis. Then: a chart of each player's expected final margin after every decision
 * (marginChart), each move of the list marked ?!, ? or ?? by what it cost against the best move found, and for
 * the move shown: the best move and the move played with their figures and errors, every move evaluated, a
 * button that shows the best move on the board (the board before the move, its part lit) and "Annotate this",
 * which posts the analysis's words as an annotation by the person at the page. Every word about the game comes
 * from the API (the moves' words, the notes' text); this module puts figures beside them.
 */

import { callRetried, follow, randomKey, read, retrying, tokenFor } from "./api.js";
import { highlight } from "./board.js";
import { marginChart } from "./chart.js";
import { h, replace, say } from "./dom.js";

const area = document.getElementById("analysis");
const status = document.getElementById("analysis-status");
const bar = document.getElementById("analysis-progress");
const ask = document.getElementById("analysis-request");
const detail = document.getElementById("analysis-detail");
const chartBox = document.getElementById("analysis-chart");

const state = { report: null, byVersion: new Map(), stop: null, timer: null, hooks: null, pinned: null };

function signed(value) {
  return `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(1)}`;
}

function percent(value) {
  return `${Math.round(value * 100)}%`;
}

/** A probability as people read it: never "100%" nor "0%" for an estimate. */
function chance(value) {
  if (value >= 0.995) return "over 99%";
  if (value <= 0.005) return "under 1%";
  return percent(value);
}

function figures(value) {
  return `expected margin ${signed(value.margin)} ± ${value.margin_se.toFixed(1)} CP, won ${percent(value.win)} ± ${percent(value.win_se)} of ${value.playouts} playouts`;
}

const MARK_TITLES = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };

/** The glyph of the move at a version, as a badge for the list of moves (null when none). */
export function markBadge(version) {
  const decision = state.byVersion.get(version);
  if (!decision || !decision.mark) return null;
  const played = decision.played;
  return h(
    "abbr",
    { class: `glyph analysis-mark mark-${decision.mark === "??" ? "blunder" : decision.mark === "?" ? "mistake" : "dubious"}`, title: `${MARK_TITLES[decision.mark]}: costs ${played.cost.toFixed(1)} ± ${played.cost_se.toFixed(1)} CP against the best move found` },
    decision.mark,
  );
}

function paintStatus() {
  const report = state.report;
  const run = report && report.run;
  const token = tokenFor(state.hooks.gameId);
  const current = run && !report.stale && run.moves_now <= run.moves_covered && !run.failed;
  ask.hidden = !token || Boolean(current);
  bar.hidden = !(run && report.status === "running");
  if (!run) {
    replace(status, token ? "No analysis of this game yet." : "No analysis of this game yet. Requesting one needs one of the game's tokens.");
    ask.textContent = "Request a computer analysis";
    return;
  }
  bar.max = run.total;
  bar.value = run.evaluated + run.failed;
  bar.textContent = `${run.evaluated} of ${run.total}`;
  const done = `${run.evaluated} of ${run.total} decisions evaluated${run.failed ? `, ${run.failed} given up` : ""}`;
  const budget = `${run.playouts} playouts each, rules ${run.rules_version}`;
  let text = report.status === "running" ? `Analysing: ${done} (${budget}).` : `Analysis of moves 1 to ${run.moves_covered}: ${done} (${budget}).`;
  if (report.status === "running" && run.evaluated === 0 && run.running === 0) text += " Waiting for a worker to take the first decision.";
  if (report.stale) text += ` This analysis is stale: ${report.stale}.`;
  else if (run.moves_now > run.moves_covered) text += ` The ${run.moves_now - run.moves_covered} later moves are not analysed.`;
  replace(status, text);
  ask.textContent = report.stale || run.moves_now > run.moves_covered ? "Request a new analysis" : "Request a computer analysis";
}

function paintChart() {
  const report = state.report;
  const decisions = report ? report.decisions.filter((d) => d.played) : [];
  if (!decisions.length) {
    replace(chartBox);
    return;
  }
  const current = state.hooks.currentVersion();
  const points = decisions.map((d) => ({ label: `Move ${d.index} (${d.player})`, version: d.version, seat: d.seat, values: d.played.seats, mark: d.mark }));
  replace(chartBox, marginChart(state.hooks.players(), points, current, (version) => state.hooks.goToVersion(version)));
}

function moveRow(value, decision) {
  const best = value === decision.moves[0];
  const played = decision.played && value.words === decision.played.words && value.playouts === decision.played.playouts;
  return h(
    "tr",
    { class: `${best ? "best" : ""}${played ? " played" : ""}` },
    h("th", { scope: "row" }, value.words, best ? h("span", { class: "tag" }, "best") : null, played ? h("span", { class: "tag" }, "played") : null),
    h("td", {}, `${signed(value.margin)} ± ${value.margin_se.toFixed(1)}`),
    h("td", {}, `${percent(value.win)} ± ${percent(value.win_se)}`),
    h("td", {}, best ? "—" : `${value.cost.toFixed(1)} ± ${value.cost_se.toFixed(1)}`),
    h("td", {}, String(value.playouts)),
  );
}

async function showBest(decision) {
  const hooks = state.hooks;
  await hooks.goToBefore(decision.version);
  // the board now stands before the move: the panel stays on the decision made there
  state.pinned = { decision, at: hooks.currentVersion() };
  paintDetail();
  try {
    const answer = await read(hooks.gameId, `/api/games/${hooks.gameId}/legal-moves?before=${decision.version}`);
    const listing = answer.body;
    const at = listing.moves.findIndex((move) => hooks.sameMove(move, decision.best.move));
    const target = at >= 0 && listing.choices ? listing.choices[at].target : null;
    const board = document.getElementById("board");
    highlight(board, target);
    board.scrollIntoView({ block: "nearest" });
    say(detail, target ? `The board before move ${decision.index}: the best move found, ${decision.best.words}, is lit.` : `The board before move ${decision.index}: the best move found is ${decision.best.words}.`);
  } catch (error) {
    say(detail, error.message, "error");
  }
}

async function annotate(decision, button) {
  const hooks = state.hooks;
  const token = tokenFor(hooks.gameId);
  if (!token) {
    say(button, "Annotating needs one of the game's tokens.", "error");
    return;
  }
  try {
    const sent = { body: { version: decision.version, text: decision.note.text, glyph: decision.note.glyph }, token, idempotencyKey: randomKey() };
    await callRetried("POST", `/api/games/${hooks.gameId}/annotations`, sent, (attempt, total) => say(button, retrying(attempt, total)));
    await hooks.reloadNotes();
    say(button, "The analysis is now an annotation of this move.");
  } catch (error) {
    say(button, error.message, "error");
  }
}

/** The panel of the move shown: what it cost, the best move, every move evaluated. */
export function paintDetail() {
  if (!state.hooks) return;
  paintChart();
  const at = state.hooks.currentVersion();
  if (state.pinned && state.pinned.at !== at) state.pinned = null;
  const decision = state.pinned ? state.pinned.decision : state.byVersion.get(at);
  if (!decision) {
    replace(detail, state.report && state.report.run ? h("p", { class: "hint" }, "No decision of a player here: step to a move to see its analysis.") : null);
    return;
  }
  if (!decision.played) {
    replace(detail, h("p", { class: "hint" }, decision.status === "failed" ? `Move ${decision.index} could not be evaluated: ${decision.failure}` : `Move ${decision.index} is not evaluated yet.`));
    return;
  }
  const { best, played } = decision;
  const isBest = played.cost === 0 && played.words === best.words;
  const verdict = isBest
    ? `Move ${decision.index} (${decision.player}) is the best move found.`
    : `Move ${decision.index} (${decision.player}) costs ${played.cost.toFixed(1)} ± ${played.cost_se.toFixed(1)} CP against the best move found (the best is better with probability ${chance(played.confidence)})${decision.mark ? `: ${decision.mark} (${MARK_TITLES[decision.mark]})` : "."}`;
  const annotateButton = h("button", { type: "button", class: "annotate-analysis" }, "Annotate this");
  annotateButton.addEventListener("click", () => annotate(decision, annotateButton));
  replace(
    detail,
    h("p", { class: `analysis-verdict${decision.mark ? " marked" : ""}` }, decision.mark ? h("abbr", { class: "glyph", title: MARK_TITLES[decision.mark] }, decision.mark) : null, verdict),
    h("dl", { class: "analysis-figures" }, h("dt", {}, "Best move found"), h("dd", {}, `${best.words}: ${figures(best)}`), h("dt", {}, "Move played"), h("dd", {}, `${played.words}: ${figures(played)}`)),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", class: "show-best", on: { click: () => showBest(decision) } }, "Show the best move on the board"),
      annotateButton,
    ),
    h(
      "details",
      { class: "analysis-moves" },
      h("summary", {}, `Every move evaluated (${decision.moves.length})`),
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          {},
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Margin (CP)"), h("th", { scope: "col" }, "Won"), h("th", { scope: "col" }, "Cost"), h("th", { scope: "col" }, "Playouts"))),
          h("tbody", {}, decision.moves.map((value) => moveRow(value, decision))),
        ),
      ),
    ),
  );
}

function take(report) {
  state.report = report;
  state.byVersion = new Map(report.decisions.map((d) => [d.version, d]));
  paintStatus();
  paintDetail();
  state.hooks.repaintMoves();
  if (report.status === "running" && !report.stale) following();
  else stopFollowing();
}

async function load() {
  try {
    const answer = await read(state.hooks.gameId, `/api/games/${state.hooks.gameId}/analysis`);
    take(answer.body);
  } catch (error) {
    say(status, error.message, "error");
  }
}

function soon() {
  if (state.timer) return;
  state.timer = setTimeout(() => {
    state.timer = null;
    load();
  }, 1500);
}

/** While the analysis runs: the progress bar follows the event stream, the results are read again now and then. */
function following() {
  if (state.stop) return;
  const version = state.report && state.report.run ? state.report.run.game_version : 0;
  state.stop = follow(state.hooks.gameId, version, (event) => {
    if (event.event !== "AnalysisProgressed") return;
    bar.value = event.data.evaluated + event.data.failed;
    soon();
  });
  state.poll = setInterval(load, 5000); // the stream may be refused or cut: the results come all the same
}

function stopFollowing() {
  if (state.stop) state.stop();
  state.stop = null;
  clearInterval(state.poll);
}

async function request() {
  const gameId = state.hooks.gameId;
  try {
    const game = await read(gameId, `/api/games/${gameId}`); // the analysis covers the game as it stands now
    const sent = { body: {}, token: tokenFor(gameId), version: game.etag, idempotencyKey: randomKey() };
    const answer = await callRetried("POST", `/api/games/${gameId}/analysis`, sent, (attempt, total) => say(ask, retrying(attempt, total)));
    take(answer.body);
  } catch (error) {
    say(ask, error.message, "error");
  }
}

/** Start: hooks into the replay screen (its game, its position, its steps, its notes). */
export function initAnalysis(hooks) {
  state.hooks = hooks;
  area.hidden = false;
  ask.addEventListener("click", request);
  return load();
}
