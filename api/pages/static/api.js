/* heronlog pages: the client of the JSON API, and where the pages keep tokens.
 *
 * Tokens: the owner or seat token a browser uses for a game is kept in localStorage under
 * "heronlog:token:<game id>"; every token the browser holds for the game (the owner's and a seat's, say: the
 * owner also plays at the table) is kept in "heronlog:tokens:<game id>", a JSON list of {token, you}, so that
 * one is never lost for another. A shared link carries a token in the URL fragment (#token=...), which browsers
 * never send to the server; the page removes it from the address bar at once, and keeps it only once the
 * server has said whose it is: it never replaces a token the browser holds without asking (game.js identify),
 * and a link whose token is not the game's changes nothing.
 */

const PREFIX = "heronlog:token:";
const KEPT = "heronlog:tokens:";

/**
 * A refusal of the API: a problem document (RFC 9457, application/problem+json) whose "detail" is for people,
 * with heronlog's members error_code, rule and details. A stale write (the game moved on) is 412 stale_version.
 */
export class ApiError extends Error {
  constructor(status, body) {
    const envelope = body && typeof body === "object" ? body : {};
    super(envelope.detail || `the server answered ${status}`);
    this.status = status;
    this.code = envelope.error_code || "error";
    this.rule = envelope.rule || null;
    this.details = envelope.details || {};
  }
}

function storage() {
  try {
    return window.localStorage;
  } catch (error) {
    return null; // storage disabled: tokens then live only as long as the page
  }
}

const memory = new Map();
const keptInMemory = new Map();

export function tokenFor(gameId) {
  const store = storage();
  return (store && store.getItem(PREFIX + gameId)) || memory.get(gameId) || null;
}

/** Every token this browser holds for the game, as [{token, you}] (you: "owner", "seat:1", or null when not
 * known yet), the one in use among them. */
export function keptTokens(gameId) {
  const store = storage();
  let kept = keptInMemory.get(gameId) || [];
  if (store) {
    try {
      const parsed = JSON.parse(store.getItem(KEPT + gameId) || "[]");
      if (Array.isArray(parsed)) kept = parsed.filter((entry) => entry && typeof entry.token === "string");
    } catch (error) {
      kept = []; // a list spoilt by hand: the token in use is still kept on its own
    }
  }
  const active = tokenFor(gameId);
  if (active && !kept.some((entry) => entry.token === active)) kept = [{ token: active, you: null }, ...kept];
  return kept;
}

function writeKept(gameId, kept) {
  keptInMemory.set(gameId, kept);
  const store = storage();
  if (!store) return;
  if (kept.length) store.setItem(KEPT + gameId, JSON.stringify(kept));
  else store.removeItem(KEPT + gameId);
}

/** Keep a token among the game's (saying whose it is, when known), without putting it in use. */
export function keepToken(gameId, token, you = null) {
  const kept = keptTokens(gameId).filter((entry) => entry.token !== token);
  const known = keptTokens(gameId).find((entry) => entry.token === token);
  writeKept(gameId, [...kept, { token, you: you || (known && known.you) || null }]);
}

/** Use this token for the game from now on (it is kept too; the one used before stays kept). */
export function saveToken(gameId, token, you = null) {
  keepToken(gameId, token, you);
  memory.set(gameId, token);
  const store = storage();
  if (store) store.setItem(PREFIX + gameId, token);
}

/** Forget the token in use (it no longer works, or the person asked): another one kept for the game, if
 * any, is used instead. */
export function forgetToken(gameId) {
  const gone = tokenFor(gameId);
  const rest = keptTokens(gameId).filter((entry) => entry.token !== gone);
  writeKept(gameId, rest);
  memory.delete(gameId);
  const store = storage();
  if (store) store.removeItem(PREFIX + gameId);
  if (rest.length) saveToken(gameId, rest[rest.length - 1].token, rest[rest.length - 1].you);
}

/** The token a shared link carries in its #token= fragment, or null; the fragment leaves the address bar at
 * once (and the history: the token is not left for the next person at this browser to find). Nothing is kept
 * here: game.js identify decides, once the server has said whose the token is. */
export function takeFragmentToken() {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const token = params.get("token");
  if (token === null) return null;
  params.delete("token");
  const rest = params.toString();
  const url = window.location.pathname + window.location.search + (rest ? `#${rest}` : "");
  window.history.replaceState(window.history.state, "", url);
  const trimmed = token.trim();
  return trimmed || null;
}

/** Whom a token speaks for in this game ("owner", "seat:1"); null when the server refuses it (not one of the
 * game's tokens, or garbage); undefined when the server could not say (offline, unwell). */
export async function roleOf(gameId, token) {
  try {
    const answer = await call("GET", `/api/games/${gameId}/access`, { token });
    return typeof answer.body.you === "string" ? answer.body.you : undefined;
  } catch (error) {
    return error.status === 401 || error.status === 400 ? null : undefined;
  }
}

const PRIVATE = "heronlog:private";
const PRIVATE_SENT = 50; // the most games one request may name in Game-Tokens

/** The private games this browser holds a token of, newest first (the players' pages count them: a player's
 * private games count only in answers to a request that holds their tokens). */
export function privateGames() {
  const store = storage();
  try {
    const kept = JSON.parse((store && store.getItem(PRIVATE)) || "[]");
    return Array.isArray(kept) ? kept.filter((id) => typeof id === "string" && tokenFor(id)) : [];
  } catch (error) {
    return [];
  }
}

/** Remember that a game whose token this browser holds is private (the game's pages say so when they load it). */
export function rememberPrivate(gameId) {
  const store = storage();
  if (!store || !tokenFor(gameId)) return;
  const kept = [gameId, ...privateGames().filter((id) => id !== gameId)].slice(0, 500);
  store.setItem(PRIVATE, JSON.stringify(kept));
}

/** The Game-Tokens header's value for some games (those this browser holds a token of, at most 50), or null. */
export function gameTokens(gameIds) {
  const pairs = [...new Set(gameIds)].filter((id) => tokenFor(id)).slice(0, PRIVATE_SENT).map((id) => `${id}=${tokenFor(id)}`);
  return pairs.length ? pairs.join(",") : null;
}

/** A random key for Idempotency-Key (crypto.randomUUID needs a secure context; phones on a LAN may not be). */
export function randomKey() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Call the API. Options: body (JSON), token (sent as a Bearer token), version (sent as If-Match),
 * idempotencyKey, gameTokens (the Game-Tokens header: gameTokens()), ifMatch (If-Match as it is). Resolves to {status, etag, body}; rejects with ApiError for any answer that is not 2xx.
 */
export async function call(method, path, options = {}) {
  const headers = { Accept: "application/json, application/problem+json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.version !== undefined && options.version !== null) headers["If-Match"] = `"${options.version}"`;
  if (options.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey;
  if (options.gameTokens) headers["Game-Tokens"] = options.gameTokens;
  if (options.ifMatch) headers["If-Match"] = options.ifMatch; // an ETag as the server gave it (a player's)
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: "no-store",
      credentials: "omit",
    });
  } catch (error) {
    throw new ApiError(0, { error_code: "offline", detail: "the server cannot be reached: check the connection" });
  }
  const text = await response.text();
  let body = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch (error) {
      body = text;
    }
  }
  if (!response.ok) throw new ApiError(response.status, body);
  const etag = response.headers.get("ETag");
  return { status: response.status, etag: etag ? Number(etag.replace(/\D/g, "")) : null, etagText: etag, body };
}

/** The pauses before each new try of a write that got no answer (milliseconds): about seven seconds in all. */
export const RETRY_DELAYS = [1000, 2000, 4000];

/**
 * call() for a write sent with an idempotencyKey, sent again with the same key (and the same If-Match) when no
 * answer came (the connection dropped: a phone's Wi-Fi at the table) or the store was briefly unavailable
 * (503). The server answers a retry of a write it has already made with that write's own answer, and makes it
 * only once, so a move whose answer was lost is recorded once however often it is sent. onRetry(attempt, total)
 * is called before each new try; the last refusal is thrown as call() throws it.
 */
export async function callRetried(method, path, options, onRetry = () => {}) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call(method, path, options);
    } catch (error) {
      const passing = error.code === "offline" || error.status === 503;
      if (!passing || !options.idempotencyKey || attempt >= RETRY_DELAYS.length) throw error;
      onRetry(attempt + 1, RETRY_DELAYS.length);
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS[attempt]));
    }
  }
}

/** What a page says while a write is sent again (callRetried's onRetry). */
export function retrying(attempt, total) {
  return `No answer from the server: sending it again (${attempt} of ${total})…`;
}

/** GET with the game's token when the browser holds one (private games need it). */
export function read(gameId, path) {
  return call("GET", path, { token: tokenFor(gameId) });
}

/**
 * Follow a game's server-sent events with fetch (so the token travels as a header, which EventSource cannot
 * send). Calls onEvent({id, event, data}) for each event and reconnects after a pause, resuming after the last
 * id seen, when the connection failed or the server was unwell (5xx), reading the events missed meanwhile with
 * one `changes` request each time (onState("polling")). A refusal (4xx: 401, 403, 404...) would be answered the
 * same way again: the stream then stops and says "refused". Returns a function that stops it.
 */
export function follow(gameId, after, onEvent, onState = () => {}) {
  let stopped = false;
  let controller = null;
  let last = after;
  async function once() {
    controller = new AbortController();
    const headers = { Accept: "text/event-stream" };
    const token = tokenFor(gameId);
    if (token) headers.Authorization = `Bearer ${token}`;
    const response = await fetch(`/api/games/${gameId}/stream?after=${last}&timeout=120`, {
      headers,
      signal: controller.signal,
      cache: "no-store",
      credentials: "omit",
    });
    if (response.status >= 400 && response.status < 500) {
      stopped = true;
      onState("refused");
      return;
    }
    if (!response.ok || !response.body) {
      const error = new Error(`stream answered ${response.status}`);
      error.pause = Number(response.headers.get("Retry-After")) * 1000 || 0;
      throw error;
    }
    onState("live");
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let cut;
      while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
        const message = { id: null, event: "message", data: "" };
        for (const line of block.split(/\r?\n/)) {
          if (!line || line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const item = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "data") message.data += (message.data ? "\n" : "") + item;
          else if (field === "id") message.id = item;
          else if (field === "event") message.event = item;
        }
        if (message.id !== null) last = Number(message.id);
        if (message.data) {
          try {
            onEvent({ ...message, data: JSON.parse(message.data) });
          } catch (error) {
            /* a malformed event is skipped: the next full reload corrects the page */
          }
        }
      }
    }
  }
  /** Read the events since the last one seen, once (`changes`), as the stream would have given them. */
  async function catchUp() {
    const answer = await call("GET", `/api/games/${gameId}/changes?since=${last}`, { token: tokenFor(gameId) });
    for (const event of answer.body.events) {
      if (stopped) return;
      last = Math.max(last, event.version);
      onEvent({ id: String(event.version), event: event.type, data: event });
    }
  }
  (async () => {
    while (!stopped) {
      let pause = 2000;
      try {
        await once();
      } catch (error) {
        if (stopped) return;
        // The stream was refused (every stream the server may hold is open: 503 too_many_streams, with
        // Retry-After) or cut: the page polls once meanwhile, so that it keeps up while it waits to follow
        // again, and says it is polling; with no answer at all it is offline.
        pause = Math.max(pause, error.pause || 0);
        try {
          await catchUp();
          if (!stopped) onState("polling");
        } catch (failure) {
          if (!stopped) onState("offline");
        }
      }
      if (!stopped) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  })();
  return () => {
    stopped = true;
    if (controller) controller.abort();
  };
}

/** Who the held token is for this game ("owner", "seat:1"), or null (viewer only, or a stale token: that one is
 * forgotten, and another the browser keeps for the game, if any, is tried). */
export async function whoAmI(gameId) {
  for (let tries = 0; tries < 8; tries += 1) {
    const token = tokenFor(gameId);
    if (!token) return null;
    const you = await roleOf(gameId, token);
    if (you === null) {
      forgetToken(gameId);
      continue;
    }
    if (you) keepToken(gameId, token, you);
    return you || null;
  }
  return null;
}
