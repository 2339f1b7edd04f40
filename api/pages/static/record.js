/* heronlog pages: the recording screen.
 *
 * Loads the game, its legal moves, its recent moves and its score from the API; draws the board (board.js) and
 * the prompt's moves as buttons (moves.js); posts a move, an undo or a redo with the version it expects
 * (If-Match) and a fresh Idempotency-Key, and takes the game and its next legal moves from that answer (only
 * the timeline and the score are read again); follows the game's event stream so that moves recorded on
 * another device (a player's phone) appear here at once. The board is the input: the parts the prompt's moves act
 * on (the API's targets) are buttons on it; one that several moves act on asks which in the prompt bar, where
 * the moves with no place on the board wait too, and a card revealed at a table is picked by its picture. After a
 * move the page does not move: the board brings the next question's lit parts into view in its own box
 * (board.js bringIntoView), and the focus goes to the question over it. An undo says which moves it undid; each of the last moves can
 * be the point to undo back to. The end of the game is announced with the winners and the final sheet. Keys: Ctrl+Z undo, Ctrl+Y (or Ctrl+Shift+Z) redo, 1-9 press
 * the first nine move buttons. On a phone, undo, redo and a jump to the board (and back) sit in a bar at the
 * bottom of the screen (the quick bar). A write whose answer never came is sent again with the same key
 * (api.js, callRetried), saying so, so that a dropped connection neither loses the move nor records it twice.
 */

import { callRetried, follow, read, randomKey, retrying, tokenFor } from "./api.js";
import { bringIntoView, draw, highlight, words as boardWords } from "./board.js";
import { h, replace, say } from "./dom.js";
import { entryText, gameId, identify, renderAccess, renderHeader, rivalLines, scoreTable } from "./game.js";
import { byId } from "./cards.js";
import { drawnReveal, render as renderMoves } from "./moves.js";
import { seatLinks } from "./share.js";

const id = gameId();
const view = {
  game: null,
  me: null,
  busy: false,
  buttons: [],
  loading: null,
  stop: null,
};

function canAct(move) {
  if (!move || !view.game || view.game.over) return false;
  if (view.me === "owner") return true;
  if (view.me && view.me.startsWith("seat:")) return move.seat === Number(view.me.slice(5));
  return false;
}

function setBusy(busy) {
  view.busy = busy;
  document.getElementById("app").setAttribute("aria-busy", busy ? "true" : "false");
  document.querySelectorAll("#moves button, #moves input, #prompt-bar-moves button, #undo, #redo").forEach((node) => {
    if (busy) node.disabled = true;
  });
}

function explain(error) {
  if (error.code === "stale_version") return "Someone recorded a move meanwhile; the board is up to date now.";
  if (error.status === 401) return "This browser has no valid token for this game: paste one above to record.";
  if (error.status === 403) return error.message;
  if (error.status === 422) return `Not allowed${error.rule ? ` (${error.rule})` : ""}: ${error.message}`;
  return error.message;
}

/** Where a write's refusal is said: under the undo and redo buttons for those, above the moves for a move (the
 * moves are drawn again after a refusal, so the message cannot sit inside their list). */
function messagePlace(path) {
  return path === "moves" ? document.getElementById("prompt-help") : document.querySelector(".history-buttons");
}

async function write(path, body) {
  setBusy(true);
  say(messagePlace("moves"), "");
  say(messagePlace("undo"), "");
  try {
    const sent = { body, token: tokenFor(id), version: view.game.version, idempotencyKey: randomKey() };
    const answer = await callRetried("POST", `/api/games/${id}/${path}`, sent, (attempt, total) =>
      say(messagePlace(path), retrying(attempt, total)),
    );
    say(messagePlace(path), ""); // a retry's notice, now answered
    const before = view.entries || [];
    view.pick = null;
    await load(answer.body);
    if (path === "undo" || path === "redo") sayUndone(path, before, view.entries || []);
    // the next question is read where the board is (the bar over it), and the page does not move to it
    const bar = document.getElementById("prompt-bar");
    (bar && !bar.hidden ? document.getElementById("prompt-bar-text") : document.getElementById("prompt-title")).focus({ preventScroll: true });
  } catch (error) {
    say(messagePlace(path), explain(error), "error");
    await load();
  } finally {
    setBusy(false);
    if (view.last) paint(...view.last);
  }
}

/** After an undo (or a redo): which moves it took back (or put back), in the API's words. */
function sayUndone(path, before, after) {
  const kept = new Set(after.map((entry) => entry.version));
  const had = new Set(before.map((entry) => entry.version));
  const changed = path === "undo" ? before.filter((entry) => !kept.has(entry.version)) : after.filter((entry) => !had.has(entry.version));
  if (!changed.length) return;
  const verb = path === "undo" ? "Undone" : "Redone";
  const list = changed.map((entry) => `move ${entry.index}: ${entry.description}`);
  const words = changed.length === 1 ? `${verb}: ${list[0]}.` : `${verb}: ${changed.length} moves, ${list[0]} … ${list[list.length - 1]}.`;
  say(messagePlace("undo"), words);
}

function paintControls() {
  const game = view.game;
  if (!game) return;
  const writer = Boolean(view.me);
  // a watcher (no token) has nothing to undo: the phone's quick bar then shows only its jump (style.css)
  document.getElementById("app").toggleAttribute("data-watching", !writer);
  document.getElementById("undo").disabled = view.busy || !writer || !game.can_undo;
  document.getElementById("redo").disabled = view.busy || !writer || !game.redoable;
  document.getElementById("redo").textContent = game.redoable ? `Redo (${game.redoable})` : "Redo";
  view.buttons.forEach((button) => {
    if (view.busy) button.disabled = true;
  });
}

function renderRecent(entries) {
  const recent = entries.slice(-8).reverse();
  const writer = Boolean(view.me) && view.game && !view.game.over;
  replace(
    document.getElementById("recent"),
    recent.length
      ? recent.map((entry, i) =>
          h(
            "li",
            { value: entry.index },
            entryText(entry),
            rivalLines(entry),
            writer && i > 0 && entry.index !== null
              ? h("button", { type: "button", class: "link undo-to", "aria-label": `Undo to move ${entry.index}: undo every move after it`, on: { click: () => write("undo", { to_version: entry.version }) } }, "Undo to here")
              : null,
          ),
        )
      : h("li", {}, "No move yet."),
  );
}

function renderOwnerTools(game) {
  const area = document.getElementById("owner-tools");
  if (view.me !== "owner") {
    if (area) area.remove();
    return;
  }
  if (area) return;
  const list = h("ul", { class: "seat-links" });
  const details = h("details", { id: "owner-tools", class: "owner-tools" }, h("summary", {}, "Share seat links"), list);
  document.getElementById("access").after(details);
  seatLinks(list, id, game.players, tokenFor(id));
}

async function load(written = null) {
  // One load at a time; a load asked for meanwhile runs once more afterwards (in full).
  if (view.loading) {
    view.again = true;
    return view.loading;
  }
  // A write's answer carries the game and its next legal moves: after a write only the timeline and the
  // score are fetched (two requests fewer on a phone's connection).
  const carried = written && written.game && written.legal_moves ? written : null;
  view.loading = (async () => {
    try {
      if (!view.catalog) {
        const body = (await read(id, `/api/games/${id}/catalog`)).body;
        view.catalog = body.catalog;
        view.cards = byId(body.catalog);
        view.words = body.words;
      }
      const [game, legal, timeline, score] = await Promise.all([
        carried ? { body: carried.game } : read(id, `/api/games/${id}`),
        carried ? { body: carried.legal_moves } : read(id, `/api/games/${id}/legal-moves`),
        read(id, `/api/games/${id}/timeline`),
        read(id, `/api/games/${id}/score`),
      ]);
      game.body.state.catalog = view.catalog; // the API sends the catalog once, not with every state
      view.game = game.body;
      view.last = [game.body, legal.body, timeline.body.entries, score.body];
      paint(...view.last);
    } catch (error) {
      // refused (private without a token) or unknown: nothing of the game shows but the box for a token
      const locked = [401, 403, 404].includes(error.status);
      view.game = locked ? null : view.game;
      replace(document.getElementById("prompt-title"), error.status === 401 ? "This game is private" : "Could not load the game");
      replace(document.getElementById("prompt-help"), error.status === 401 ? "This game is private: paste a token to see it." : explain(error));
      renderAccess(id, { players: [] }, null, restart, { locked });
    }
  })();
  await view.loading;
  view.loading = null;
  if (view.again) {
    view.again = false;
    await load();
  }
}

/** The board's targets: each part the prompt's moves (those this browser may record) act on, with the words
 * its button says, and the moves there. */
function targetsOf(legal) {
  const byTarget = new Map();
  (legal.choices || []).forEach((choice, i) => {
    const move = legal.moves[i];
    if (!choice.target || !canAct(move)) return;
    if (!byTarget.has(choice.target)) byTarget.set(choice.target, []);
    byTarget.get(choice.target).push(i);
  });
  const words = new Map();
  for (const [target, list] of byTarget) {
    const name = (view.words && view.words.parts[target]) || target;
    words.set(target, list.length === 1 ? legal.choices[list[0]].words : `${name}: ${list.length} choices`);
  }
  return { byTarget, words };
}

function chooseOnBoard(target) {
  if (view.busy || !view.legal) return;
  const list = (view.targets && view.targets.byTarget.get(target)) || [];
  if (list.length === 1) write("moves", view.legal.moves[list[0]]);
  else if (list.length > 1) {
    view.pick = target; // several moves there: the prompt bar asks which
    paintBar();
    const first = document.querySelector("#prompt-bar-moves button");
    if (first) first.focus();
  }
}

/** The prompt bar beside the board: the question, and the moves with no place on the board (or, after a part
 * several moves act on was chosen, those moves). */
function paintBar() {
  const game = view.game;
  const legal = view.legal;
  const bar = document.getElementById("prompt-bar");
  if (!bar || !game || !legal) return;
  const text = document.getElementById("prompt-bar-text");
  const movesBox = document.getElementById("prompt-bar-moves");
  if (game.over) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const prompt = legal.prompt || game.prompt;
  const picking = view.pick && view.targets.byTarget.has(view.pick) ? view.pick : null;
  const name = picking ? (view.words && view.words.parts[picking]) || picking : "";
  // the question, and under it what the server says it needs (the Courtier's two steps, a castle dealt again, a die
  // tile the rules lay elsewhere): read where the board is, without looking away from it
  const said = !picking && prompt ? [prompt.help, prompt.hint].filter(Boolean).join(" ") : "";
  replace(text, picking ? `${name.charAt(0).toUpperCase()}${name.slice(1)}: which one?` : prompt ? prompt.text : "", said ? h("span", { class: "prompt-bar-hint" }, said) : null);
  // the moves the board cannot take: no target, or a part this drawing does not have
  const drawn = (target) => Boolean(target) && view.targets.byTarget.has(target) && Boolean(document.querySelector(`#board [data-part="${CSS.escape(target)}"]`));
  // (the dice rolled stay in the list's form; a card or tile revealed is picked here, over the board, by its
  // picture: the list then only points here)
  const reveal = drawnReveal(prompt, legal.moves, view.cards);
  const only = picking
    ? (choice) => choice.target === picking
    : (choice, move) => (reveal ? move.seat === null : move.seat !== null && (!canAct(move) || !drawn(choice.target)));
  const buttons = renderMoves(movesBox, { prompt, moves: legal.moves, choices: legal.choices, canAct, cards: view.cards, onMove: (move) => write("moves", move), onHover: hover, only, compact: true });
  if (picking) {
    movesBox.append(h("button", { type: "button", class: "link", on: { click: () => { view.pick = null; paintBar(); } } }, "Back to the board"));
  }
  if (view.busy) buttons.forEach((button) => { button.disabled = true; });
}

function hover(target) {
  highlight(document.getElementById("board"), target);
}

function paintEnd(game, score) {
  const banner = document.getElementById("end-banner");
  if (!banner) return;
  banner.hidden = !game.over;
  if (!game.over) return;
  const sheets = score.sheets || [];
  const winners = sheets.filter((sheet) => sheet.rank === 1).map((sheet) => sheet.player);
  const best = sheets.length ? Math.max(...sheets.map((sheet) => sheet.total)) : 0;
  const replayLink = `/games/${id}/replay`;
  replace(
    banner,
    h("h2", { id: "end-title" }, winners.length > 1 ? `${winners.join(" and ")} share the victory` : `${winners[0] || "Nobody"} wins`, ` with ${best} points`),
    h("p", {}, `The game is over after ${game.moves} moves and ${game.coordinates.round} rounds.`),
    scoreTable(sheets, "Final score"),
    h("p", { class: "share" }, h("a", { href: replayLink, class: "button primary" }, "Replay the whole game"), " ", h("a", { href: `/api/games/${id}/export?format=text` }, "The game as text")),
  );
}

function paint(game, legal, entries, score) {
  renderHeader(game);
  renderAccess(id, game, view.me, restart);
  renderOwnerTools(game);
  view.legal = legal;
  view.entries = entries;
  const state = game.state;
  const prompt = game.over ? null : legal.prompt || game.prompt;
  view.targets = game.over || view.busy ? { byTarget: new Map(), words: new Map() } : targetsOf(legal);
  const model = { state, players: game.players, words: view.words, waitingSeat: prompt ? prompt.seat : null };
  draw(document.getElementById("board"), model, { targets: view.targets.words, onTarget: chooseOnBoard, promptKey: String(game.version) });
  boardWords(document.querySelector("#board-text .board-words"), model);
  replace(document.getElementById("prompt-title"), game.over ? "The game is over" : prompt ? prompt.text : "Nothing to record: this game is closed");
  let help = prompt ? [prompt.help, prompt.hint].filter(Boolean).join(" ") : "";
  if (!game.over && !legal.moves.some(canAct) && legal.moves.length && !view.busy) {
    const waiting = view.me ? `Waiting for ${prompt.seat === null ? "the owner to enter chance" : game.players[prompt.seat].name} to record.` : "Watching: moves appear here as they are recorded.";
    help = [prompt.help, waiting].filter(Boolean).join(" "); // the server's words still say what is going on
  }
  if (game.over) help = "Every turn is played: the winners and the final score are above the board.";
  replace(document.getElementById("prompt-help"), help);
  const reveal = !game.over && drawnReveal(prompt, legal.moves, view.cards);
  view.buttons = renderMoves(document.getElementById("moves"), { prompt: prompt || { kind: "over", context: {} }, moves: game.over ? [] : legal.moves, choices: legal.choices, canAct, batch: true, cards: view.cards, only: reveal ? (choice, move) => move.seat !== null : null, onMove: (move) => write("moves", move), onHover: hover }).filter((b) => !b.disabled);
  if (reveal) document.getElementById("moves").append(h("p", { class: "hint" }, "Pick it by its picture, over the board."));
  if (view.busy) document.querySelectorAll("#moves button, #moves input, #moves select").forEach((node) => { node.disabled = true; });
  paintBar();
  paintEnd(game, score);
  renderRecent(entries);
  replace(document.getElementById("score-now"), scoreTable(score.sheets, score.over ? "Final score" : "If the game ended now"));
  paintControls();
  paintJump();
  const board = document.getElementById("board");
  if (!view.busy && view.revealed !== game.version) {
    // a new question: its lit parts into view, in the board's own box (the person's own scrolling of it stays
    // while the same question is asked)
    view.revealed = game.version;
    const quick = getComputedStyle(quickBar).position === "fixed" ? quickBar.getBoundingClientRect().top : window.innerHeight;
    bringIntoView(board, quick);
  }
  board.dataset.version = String(game.version);
}

function listen() {
  if (view.stop) view.stop();
  const live = document.getElementById("live");
  view.stop = follow(
    id,
    view.game ? view.game.version : 0,
    (event) => {
      if (!view.game || Number(event.id) > view.game.version) load();
    },
    (state) => {
      const words = {
        live: "● Live: moves from other devices appear here.",
        refused: "Live updates are off: the server refused them (reload the page to try again).",
        polling: "◐ Following by asking every few seconds: the server's live connections are all in use.",
      };
      live.textContent = words[state] || "○ Reconnecting…";
      live.dataset.state = state;
    },
  );
}

async function restart() {
  view.me = await identify(id, restart);
  await load();
  if (view.game) listen(); // a game this browser may not read has no events to follow either
  else if (view.stop) view.stop();
}

/* The quick bar: on a phone (style.css) the undo and redo buttons above, fixed to the bottom of the screen, with a
 * jump to the board, or back to the moves once the board fills the screen. The bar's height (taller while it says
 * something) pads the page's bottom (--quick-bar), so that the bar covers nothing. */
const quickBar = document.getElementById("quick-bar");
const jump = document.getElementById("jump");

function paintJump() {
  // the moves on the screen (above the bar): the jump goes to the board, else to the moves; its arrow points the
  // way the page scrolls to get there (on a phone the board comes first, the moves under it)
  const moves = document.getElementById("prompt-title").getBoundingClientRect();
  const above = getComputedStyle(quickBar).position === "fixed" ? quickBar.getBoundingClientRect().top : window.innerHeight;
  const toMoves = !(moves.top < above && moves.bottom > 0);
  const goal = (toMoves ? document.getElementById("prompt-title") : document.querySelector(".board-area")).getBoundingClientRect();
  const arrow = goal.top < 0 ? " ↑" : " ↓";
  if (jump.dataset.to === (toMoves ? "moves" : "board") && jump.querySelector(".jump-arrow").textContent === arrow) return;
  jump.dataset.to = toMoves ? "moves" : "board";
  jump.setAttribute("href", toMoves ? "#prompt-title" : "#board-title");
  jump.querySelector(".jump-word").textContent = toMoves ? "Moves" : "Board";
  jump.querySelector(".jump-arrow").textContent = arrow;
}

function measureBar() {
  const fixed = getComputedStyle(quickBar).position === "fixed";
  document.documentElement.style.setProperty("--quick-bar", `${fixed ? quickBar.getBoundingClientRect().height : 0}px`);
  paintJump();
}

document.getElementById("board-title").tabIndex = -1;
jump.addEventListener("click", (event) => {
  event.preventDefault(); // no #fragment in the address: it carries a shared link's token
  const toMoves = jump.dataset.to === "moves";
  (toMoves ? document.getElementById("prompt-title") : document.querySelector(".board-area")).scrollIntoView({ block: "start" });
  document.getElementById(toMoves ? "prompt-title" : "board-title").focus({ preventScroll: true });
  paintJump();
});
let jumpFrame = 0;
window.addEventListener("scroll", () => {
  if (!jumpFrame) jumpFrame = requestAnimationFrame(() => { jumpFrame = 0; paintJump(); });
}, { passive: true });
window.addEventListener("resize", measureBar);
const resized = new ResizeObserver(measureBar);
resized.observe(quickBar);
resized.observe(document.getElementById("main")); // the page drawn or changed: the jump may point elsewhere

document.getElementById("undo").addEventListener("click", () => write("undo", {}));
document.getElementById("redo").addEventListener("click", () => write("redo", { count: 1 }));
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
  const key = event.key.toLowerCase();
  if ((event.ctrlKey || event.metaKey) && key === "z" && !event.shiftKey) {
    event.preventDefault();
    if (!document.getElementById("undo").disabled) write("undo", {});
  } else if ((event.ctrlKey || event.metaKey) && (key === "y" || (key === "z" && event.shiftKey))) {
    event.preventDefault();
    if (!document.getElementById("redo").disabled) write("redo", { count: 1 });
  } else if (!event.ctrlKey && !event.metaKey && !event.altKey && /^[1-9]$/.test(event.key)) {
    // the buttons shown: a folded group's (the seal conversions under "Convert seals…") count once it is open
    const shown = view.buttons.filter((button) => !button.closest("details:not([open])"));
    const button = shown[Number(event.key) - 1];
    if (button && !button.disabled) button.click();
  }
});
window.addEventListener("pagehide", () => view.stop && view.stop());

restart();
