/**
 * Records a whole seeded game over heronlog's HTTP API, from the types openapi-typescript generates out of the
 * served OpenAPI document (generated/heronlog.d.ts) and openapi-fetch: what a bot written in TypeScript does.
 * It reads the board through its types (no `unknown` on the way), checks If-Match's strong comparison, and
 * prints a summary as JSON for tests/e2e/api/test_typescript_client_http.py to compare with the server's view.
 *
 * Usage: node build/src/record.js <base URL> <seed>
 */
import createClient from "openapi-fetch";
import type { components, paths } from "../generated/heronlog.js";

type Schemas = components["schemas"];
type GameState = Schemas["GameState"];
type Clan = Schemas["Clan"];
type Move = Schemas["Move"];
type Prompt = Schemas["Prompt"];
type LegalMoves = Schemas["LegalMoves"];

const [baseUrl, seedText] = process.argv.slice(2);
if (baseUrl === undefined || seedText === undefined) {
  throw new Error("usage: record.js <base URL> <seed>");
}
const seed = Number(seedText);

/** A small seeded generator (mulberry32): the same seed picks the same moves. */
function generator(start: number): () => number {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function wanted<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

/** What a bot reads off the board: every clan's resources and where the game stands. */
function board(state: GameState): { round: number; phase: GameState["phase"]; clans: string[] } {
  const clans = state.players.map((clan: Clan) => {
    const dice = clan.domain.filter((die) => die !== null).length;
    return `${clan.name}: ${clan.coins} coins, ${clan.cp} cp, ${clan.lantern.length} lantern, ${dice} dice`;
  });
  return { round: state.round, phase: state.phase, clans };
}

function waitsFor(prompt: Prompt | null): string {
  if (prompt === null) {
    return "closed";
  }
  const seat = prompt.seat === null ? "chance" : `seat ${prompt.seat}`;
  return `${prompt.kind} (${seat})`;
}

const client = createClient<paths>({ baseUrl });
const created = wanted(
  await client.POST("/api/games", {
    body: { players: ["Aiko", "Ben"], seed, title: "TypeScript" },
  }),
  "createGame",
);
const gameId = created.game.game_id;
const auth = { Authorization: `Bearer ${created.owner_token}` };
const random = generator(seed);

// If-Match compares strongly: a weak tag of the current version writes nothing (412 weak_etag)
const first: Move | undefined = created.legal_moves.moves[0];
if (first === undefined) {
  throw new Error("a new game offers no move");
}
const weak = await client.POST("/api/games/{game_id}/moves", {
  params: { path: { game_id: gameId }, header: { "If-Match": `W/"${created.game.version}"` } },
  body: first,
  headers: auth,
});
if (weak.response.status !== 412 || weak.error?.error_code !== "weak_etag") {
  throw new Error(`a weak If-Match was answered ${weak.response.status}`);
}

let listing: LegalMoves = created.legal_moves;
const kinds = new Set<string>();
let played = 0;
while (!listing.over) {
  const move = listing.moves[Math.floor(random() * listing.moves.length)];
  if (move === undefined) {
    throw new Error(`no legal move while the game waits for ${waitsFor(listing.prompt)}`);
  }
  kinds.add(move.kind);
  const answer = wanted(
    await client.POST("/api/games/{game_id}/moves", {
      params: { path: { game_id: gameId }, header: { "If-Match": `"${listing.version}"` } },
      body: move,
      headers: auth,
    }),
    `playMoves (${move.kind})`,
  );
  listing = answer.legal_moves;
  played += 1;
}

const game = wanted(await client.GET("/api/games/{game_id}", { params: { path: { game_id: gameId } } }), "getGame");
const score = wanted(
  await client.GET("/api/games/{game_id}/score", { params: { path: { game_id: gameId } } }),
  "getScore",
);
const past = wanted(
  await client.GET("/api/games/{game_id}/states/{version}", { params: { path: { game_id: gameId, version: 2 } } }),
  "getState",
);
console.log(
  JSON.stringify({
    game_id: gameId,
    version: game.version,
    status: game.status,
    played,
    kinds: [...kinds].sort(),
    board: board(game.state),
    second_version_round: past.state.round,
    ranks: score.sheets.map((sheet) => [sheet.player, sheet.total, sheet.rank]),
  }),
);
