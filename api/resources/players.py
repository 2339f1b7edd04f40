"""Players across games (docs/api/players.md): the list, a player's record, games and rivals, who sat in a game's
seats, and the writes that link seats to players (one seat, a merge, a split) or remember BG Stats' references.

Private games count only for a request that sends a token of them: ``Game-Tokens: <game id>=<token>, ...`` (at
most 50); any answer without says nothing of a private game. A write that concerns several games (a merge, a
split, a BG Stats file) acts in the games whose owner token it sends the same way, and leaves the others.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from flask import Response, request, url_for
from flask.views import MethodView

from api.resources.context import (
    etag,
    expected_version,
    game_access_and_caller,
    game_log,
    idempotency_key,
    needed,
    reader,
)
from api.resources.errors import ApiError
from api.resources.fastjson import encode, json_response
from api.resources.openapi import IDEMPOTENCY_KEY, Blueprint, errors
from api.resources.player_schemas import (
    BgStatsLinkedSchema,
    BgStatsPlayersFileSchema,
    GamePlayersSchema,
    LinkedSchema,
    LinkSeatSchema,
    MergeSchema,
    PageQuerySchema,
    PlayerGamesSchema,
    PlayerListQuerySchema,
    PlayerListSchema,
    PlayerProfileSchema,
    SplitSchema,
    VersusSchema,
)
from api.resources.write_guard import Admitted, counted
from domain.catalog import load_catalog
from domain.names import icons_text
from replay.game import Game
from replay.history import SHEET_LABELS
from replay.players import links as seats
from replay.players.facts import GameFacts
from replay.players.names import id_of, parse_id
from replay.players.rating import Rating
from replay.services.players import HELD_MOST, Linked, PlayerNotFound

blp = Blueprint(
    "players",
    __name__,
    url_prefix="/api",
    description="Players across games: records, ratings, head to head, and who sat in each seat.",
)

GAME_TOKENS = {
    "in": "header",
    "name": "Game-Tokens",
    "required": False,
    "schema": {"type": "string", "maxLength": 5000},
    "description": f"tokens of private games to count in the answer (at most {HELD_MOST}): "
    "`<game id>=<token>` pairs separated by commas. A write acts in the games whose owner token it sends.",
}
PAIR = re.compile(r"^\s*([0-9a-fA-F-]{32,36})\s*=\s*([A-Za-z0-9_-]{1,200})\s*$")  # tokens are URL-safe base64
PLAYER_ETAG = re.compile(r'^\s*(?:W/)?"([0-9a-f]{16})"\s*$')
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def game_tokens() -> list[tuple[UUID, str]]:
    """The ``Game-Tokens`` the request sent (``400 invalid_request`` for a list that is not one)."""
    header = request.headers.get("Game-Tokens", "").strip()
    if not header:
        return []
    pairs = []
    for part in header.split(","):
        found = PAIR.match(part)
        game = parse_id(found.group(1)) if found else None
        if found is None or game is None:
            raise ApiError(
                "invalid_request",
                "Game-Tokens is a list of <game id>=<token>, separated by commas",
                header="Game-Tokens",
            )
        pairs.append((UUID(game), found.group(2)))
    if len(pairs) > HELD_MOST:
        raise ApiError("invalid_request", f"Game-Tokens names at most {HELD_MOST} games ({len(pairs)} sent)")
    return pairs


def held() -> list[GameFacts]:
    return game_log().players.held(game_tokens())


def player_of(text: str) -> str:
    player = parse_id(text)
    if player is None:
        raise PlayerNotFound(f"no player {text}: a player id is a UUID", player_id=text)
    return player


# --- presenting -------------------------------------------------------------------------------------------


def rating_view(rating: Rating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    return {
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "ordinal": round(rating.ordinal, 3),
        "games": rating.games,
    }


@functools.lru_cache(maxsize=256)
def start_words(card: str) -> str:
    """A starting resource card in words: what it gives (R-S12)."""
    known = load_catalog(expansions=("matcha",)).starting_resources.get(card)  # Matcha's cards too
    return f"{card}: {icons_text(known.gain)}" if known is not None else card


def player_view(found: Mapping[str, Any]) -> dict[str, Any]:
    record = dict(found["record"])
    record["lines"] = [
        {**line, "words": SHEET_LABELS.get(line["line"], line["line"].replace("_", " "))}
        for line in record["lines"]
    ]
    record["starts"] = [{**start, "words": start_words(start["card"])} for start in record["starts"]]
    return {
        "player_id": found["player_id"],
        "name": found["name"],
        "record": record,
        "rating": rating_view(found["rating"]),
        "history": [
            {
                "game_id": point["game_id"],
                "finished_on": _when(point["finished"]),
                **(rating_view(point["rating"]) or {}),
            }
            for point in found["history"]
        ],
        "versus": found["versus"],
        "bgstats": game_log().players.reference(found["name"]) if found["name"] else None,
    }


def _when(micros: int) -> str:
    return (EPOCH + timedelta(microseconds=micros)).isoformat()


def game_row(facts: GameFacts, seat: int) -> dict[str, Any]:
    sat = facts.seats[seat]
    return {
        "game_id": facts.game_id,
        "title": facts.title,
        "played_on": facts.played_on,
        "status": facts.status,
        "mode": facts.mode,
        "private": facts.private,
        "forked": facts.forked,
        "solo": facts.solo,
        "matcha": facts.matcha,
        "counted": facts.counted,
        "seat": seat,
        "players": [each.player for each in facts.seats],
        "score": sat.total,
        "rank": sat.rank,
        "winner": facts.winner,
    }


def player_etag(body: Mapping[str, Any]) -> str:
    """A player answer's entity tag: a digest of it (it changes whenever anything it says does)."""
    return hashlib.sha256(encode(body)).hexdigest()[:16]


def paged(endpoint: str, total: int, offset: int, limit: int, **args: Any) -> dict[str, str | None]:
    after = offset + limit
    return {
        "next": url_for(endpoint, **args, offset=after, limit=limit) if after < total else None,
        "previous": url_for(endpoint, **args, offset=max(0, offset - limit), limit=limit) if offset else None,
    }


# --- reads ------------------------------------------------------------------------------------------------


@blp.route("/players")
class PlayerList(MethodView):
    @errors(blp, 400, 401, 404, 503)
    @blp.doc(parameters=[GAME_TOKENS])
    @blp.arguments(PlayerListQuerySchema, location="query", error_status_code=400)
    @blp.response(200, PlayerListSchema)
    def get(self, query: Mapping[str, Any]) -> Response:
        """The players: everyone who sat in a public game here (and in the private games whose tokens the
        request sends), most finished games first, or most wins, or highest rating (unrated players last);
        with `search`, those whose name has words that its words start (`chie` finds Chieko)."""
        rows, total = game_log().players.reading.page(
            order=query["order"],
            search=query["search"],
            offset=query["offset"],
            limit=query["limit"],
            held=held(),
        )
        asked = {"order": query["order"], **({"search": query["search"]} if query["search"] else {})}
        return json_response(
            {
                "players": [
                    {
                        "player_id": row.player_id,
                        "name": row.name,
                        "listed": row.listed,
                        "games": row.games,
                        "won": row.won,
                        "rating": rating_view(row.rating),
                    }
                    for row in rows
                ],
                "order": query["order"],
                "limit": query["limit"],
                "offset": query["offset"],
                "total": total,
                **paged(".PlayerList", total, query["offset"], query["limit"], **asked),
            }
        )


def found_player(player: str) -> dict[str, Any]:
    found = game_log().players.reading.player(player, held())
    if found is None:
        raise PlayerNotFound(f"no player {player}", player_id=player)
    return player_view(found)


@blp.route("/players/<string:player_id>")
class OnePlayer(MethodView):
    @errors(blp, 400, 401, 404, 503)
    @blp.doc(parameters=[GAME_TOKENS])
    @blp.response(200, PlayerProfileSchema)
    def get(self, player_id: str) -> Any:
        """A player's record (finished multiplayer games: played, won, mean and best score, each score line's mean
        beside every player's, by player count, with and without Matcha, by starting choice; solo games by
        rival), their rating with its history, and their rivals head to head. The ETag names this answer: a
        merge or a split of this player sends it as If-Match."""
        body = found_player(player_of(player_id))
        return json_response(body, 200, {"ETag": f'"{player_etag(body)}"'})


@blp.route("/players/<string:player_id>/games")
class PlayerGames(MethodView):
    @errors(blp, 400, 401, 404, 503)
    @blp.doc(parameters=[GAME_TOKENS])
    @blp.arguments(PageQuerySchema, location="query", error_status_code=400)
    @blp.response(200, PlayerGamesSchema)
    def get(self, query: Mapping[str, Any], player_id: str) -> Any:
        """A player's games, newest first: finished, abandoned and in progress (only finished games that are no
        "what if" branch count in the record)."""
        player = player_of(player_id)
        found = game_log().players.reading.games(
            player, offset=query["offset"], limit=query["limit"], held=held()
        )
        if found is None:
            raise PlayerNotFound(f"no player {player}", player_id=player)
        rows, total = found
        return json_response(
            {
                "player_id": player,
                "games": [game_row(facts, seat) for facts, seat in rows],
                "limit": query["limit"],
                "offset": query["offset"],
                "total": total,
                **paged(".PlayerGames", total, query["offset"], query["limit"], player_id=player),
            }
        )


@blp.route("/players/<string:player_id>/versus/<string:other_id>")
class Versus(MethodView):
    @errors(blp, 400, 401, 404, 503)
    @blp.doc(parameters=[GAME_TOKENS])
    @blp.response(200, VersusSchema)
    def get(self, player_id: str, other_id: str) -> Any:
        """Two players head to head: the finished games they played together, how often each finished ahead
        (ties as the rules rank them, R-F09), and the latest of those games."""
        player, other = player_of(player_id), player_of(other_id)
        found = game_log().players.reading.versus(player, other, held())
        if found is None:
            raise PlayerNotFound(
                f"no players {player} and {other} who played", player_id=player, other_id=other
            )

        def scored(facts: GameFacts) -> dict[str, Any]:
            mine = next(seat for seat in facts.people if id_of(seat.player) == player)
            theirs = next(seat for seat in facts.people if id_of(seat.player) == other)
            return {
                "game_id": facts.game_id,
                "title": facts.title,
                "played_on": facts.played_on,
                "score": mine.total,
                "other_score": theirs.total,
                "rank": mine.rank,
                "other_rank": theirs.rank,
            }

        return json_response({**found, "games": [scored(facts) for facts in found["games"]]})


# --- who sat in a game's seats --------------------------------------------------------------------------


def seats_view(game: Game) -> dict[str, Any]:
    found = game_log().players.links(game.id)
    names = [str(seat["name"]) for seat in game.setup["players"]]
    linked = seats.players_of(found, names)
    return {
        "game_id": str(game.id),
        "version": found.version,
        "seats": [
            {
                "seat": seat,
                "name": name,
                "player_id": id_of(linked.get(seat, name)),
                "player": linked.get(seat, name),
                "linked": seat in linked,
            }
            for seat, name in enumerate(names)
            if not game.setup["players"][seat].get("automatic")
        ],
    }


@blp.route("/games/<uuid:game_id>/players")
class GamePlayers(MethodView):
    @errors(blp, 401, 404, 503)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, GamePlayersSchema)
    def get(self, game_id: UUID) -> Any:
        """Who sat in each seat of a game: each seat's player (the seat's own name, unless the game's owner linked
        it to another player). The ETag is the version of the game's links (If-Match of a link)."""
        game, _ = reader(game_id)
        body = seats_view(game)
        return body, 200, etag(body["version"])

    @counted
    @errors(blp, 400, 401, 403, 404, 409, 412, 413, 428, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(LinkSeatSchema, error_status_code=400)
    @blp.response(200, GamePlayersSchema)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Say who sat in a seat (owner only): an existing player (`player_id`) or a name (a new player, or an
        existing one by name; the seat's own name takes a link back). Nothing in the game's log changes: the
        link is an event of its own. If-Match names the links' version (the ETag of GET); one player cannot sit
        in two seats (`409 player_already_seated`)."""
        game, _, grant = game_access_and_caller(game_id, admitted.ahead)
        granted = needed(grant, "linking a seat needs")
        players = game_log().players
        name = body["name"]
        if body["player_id"] is not None:
            name = players.name_of(player_of(body["player_id"]), held())
        players.link(
            game,
            granted,
            {body["seat"]: name},
            expected_version=expected_version(body, players.links(game.id).version),  # a list matched by it
            idempotency_key=idempotency_key(),
        )
        answer = seats_view(game)
        return answer, 200, etag(answer["version"])


# --- merges, splits and BG Stats --------------------------------------------------------------------------


def checked_player_etag(player: str) -> None:
    """The If-Match of a write to a player: the ETag of the player as the request sees them now."""
    header = request.headers.get("If-Match")
    if header is None:
        raise ApiError(
            "precondition_required",
            "a write to a player must send If-Match: the ETag of GET /api/players/{id}",
        )
    if header.strip() == "*":
        return
    found = PLAYER_ETAG.match(header)
    if found is None:
        raise ApiError("invalid_request", "If-Match must be the ETag of GET /api/players/{id}", header=header)
    current = player_etag(found_player(player))
    if found.group(1) != current:
        raise ApiError(
            "stale_version",
            "the player has changed since that answer: reload them and decide again",
            current_etag=current,
        )


def linked_view(done: Linked) -> dict[str, Any]:
    return {
        "games": [{"game_id": game, "version": version} for game, version in done.games.items()],
        "left": done.left,
    }


@blp.route("/players/<string:player_id>/merge")
class Merge(MethodView):
    @errors(blp, 400, 401, 403, 404, 409, 412, 413, 428, 429, 503)
    @blp.doc(parameters=[GAME_TOKENS, IDEMPOTENCY_KEY])
    @blp.arguments(MergeSchema, error_status_code=400)
    @blp.response(200, LinkedSchema)
    def post(self, body: Mapping[str, Any], player_id: str) -> Any:
        """Merge this player into another (the same person under two names, a typo): each of their seats in the
        games whose owner token the request sends (`Game-Tokens`) is linked to the other player. `left` counts
        their public games the request does not own: their owners merge those. If-Match: the player's ETag."""
        player, into = player_of(player_id), player_of(body["into"])
        checked_player_etag(player)
        players = game_log().players
        owned = players.granted(game_tokens())
        name = players.name_of(into, players.held_of(owned))
        return linked_view(players.relink(player, name, owned, idempotency_key=idempotency_key()))


@blp.route("/players/<string:player_id>/split")
class Split(MethodView):
    @errors(blp, 400, 401, 403, 404, 409, 412, 413, 428, 429, 503)
    @blp.doc(parameters=[GAME_TOKENS, IDEMPOTENCY_KEY])
    @blp.arguments(SplitSchema, error_status_code=400)
    @blp.response(200, LinkedSchema)
    def post(self, body: Mapping[str, Any], player_id: str) -> Any:
        """Split a player (two people of one name): the seats given, in games whose owner token the request
        sends, are linked to the player `name` (a new one, or another). If-Match: the player's ETag."""
        player = player_of(player_id)
        checked_player_etag(player)
        players = game_log().players
        only: dict[UUID, set[int]] = {}
        for seat in body["seats"]:
            only.setdefault(seat["game_id"], set()).add(seat["seat"])
        owned = players.granted(game_tokens())
        return linked_view(
            players.relink(player, body["name"], owned, only=only, idempotency_key=idempotency_key())
        )


@blp.route("/players/bgstats")
class BgStats(MethodView):
    @errors(blp, 400, 401, 404, 413, 429, 503)
    @blp.doc(parameters=[GAME_TOKENS, IDEMPOTENCY_KEY])
    @blp.arguments(BgStatsPlayersFileSchema, error_status_code=400)
    @blp.response(200, BgStatsLinkedSchema)
    def post(self, body: Mapping[str, Any]) -> Any:
        """Read a BG Stats export's players and link them by name: each one that is a player of a game whose
        owner token the request sends (matched as names are: case, blanks and lookalike letters aside) is
        known to BG Stats by its uuid from now on, and this heronlog's BG Stats exports name them by it. No
        game is made from the file's plays: heronlog's games are recorded move by move."""
        players = game_log().players
        owned = players.granted(game_tokens())
        named = [(str(player["name"]), str(player["uuid"]).upper()) for player in body["players"]]
        referred = players.refer(named, owned, by="owner")
        by_id = {id_of(name): (name, uuid) for name, uuid in named}
        return {
            "referred": [
                {"player_id": player, "name": by_id[player][0], "uuid": uuid}
                for player, uuid in referred.items()
            ],
            "not_here": [name for name, _ in named if id_of(name) not in referred],
        }
