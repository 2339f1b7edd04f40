"""The games resource (DESIGN §5): create, list, read, record moves, undo, redo, amend, abandon, fork, export,
import, history (states, timeline, changes, score), seat tokens and the spectators' event stream.

Every view is schema in, schema out; the work is :class:`replay.application.GameLog`'s. Every answer about a
game carries its version as the ``ETag``; every write names the version it expects (``If-Match`` or
``expected_version``) and is refused with ``409 stale_version`` when the game has moved on.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar
from uuid import UUID

from flask import Response, current_app, request, url_for
from flask.views import MethodView

import domain
from api.resources import present
from api.resources.context import (
    STREAMS,
    AnswerAlong,
    checked_before_replay,
    etag,
    expected_version,
    game_log,
    idempotency_key,
    may_act_for,
    owner,
    presented_token,
    reader,
    services,
    writer,
)
from api.resources.errors import ApiError
from api.resources.fastjson import json_response
from api.resources.limits import Remembered, StreamSlots
from api.resources.openapi import IDEMPOTENCY_KEY, OPEN_WRITE, READ, WRITE, Blueprint, errors
from api.resources.schemas import (
    AbandonSchema,
    AccessSchema,
    AmendedSchema,
    AmendSchema,
    CatalogSchema,
    ChangesQuerySchema,
    ChangesSchema,
    CreatedGameSchema,
    ExportQuerySchema,
    ForkSchema,
    GameListQuerySchema,
    GameListSchema,
    GameSchema,
    ImportDocumentSchema,
    ImportQuerySchema,
    LegalMovesQuerySchema,
    LegalMovesSchema,
    LocateQuerySchema,
    MoveSubmissionSchema,
    NewGameSchema,
    PlayedSchema,
    RedoSchema,
    ScoreSchema,
    SeatTokenSchema,
    StateQuerySchema,
    StateSchema,
    StreamQuerySchema,
    TimelineQuerySchema,
    TimelineSchema,
    UndoSchema,
)
from api.server.observability import note
from replay.access import Issued
from replay.application import Played
from replay.errors import StaleVersion
from replay.game import MAX_VERSION, Game
from replay.watch import ChangeWatch

logger = logging.getLogger("api")
T = TypeVar("T")

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/api/games",
    description="Games: record moves, undo, redo, amend, branch, replay and export.",
)

BEARER = [{"bearerAuth": []}]
IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": 'the version the write expects, as the ETag gave it ("12"); or send expected_version',
}
ETAG_HEADER = {"ETag": {"description": "the game's version", "schema": {"type": "string"}}}
WRITE_DOC: dict[str, Any] = {"security": BEARER, "parameters": [IF_MATCH, IDEMPOTENCY_KEY]}


# The answers below are built in the exact shape of their response schemas and sent as they are
# (api.resources.fastjson.json_response): a marshmallow dump of them changed nothing and cost a good share of
# each answer's CPU. tests/unit/api/test_present.py holds each of these bodies equal to its schema's dump.


def legal_listing(game: Game, pending: dict[str, Any] | None = None) -> dict[str, Any]:
    """The pending prompt and every legal move (LegalMovesSchema): what GET legal-moves answers, and what every
    write's answer carries for the next move. ``pending`` is the prompt, when the caller has it already."""
    closed = game.abandoned is not None  # nothing is asked, nothing may be played (fork it to play on)
    if closed:
        pending = None
    elif pending is None:
        pending = present.prompt(game.state)
    moves = [] if closed else present.plain(domain.legal_moves(game.state))
    return {
        "game_id": str(game.id),
        "version": game.version,
        "over": bool(domain.is_over(game.state)),
        "closed": closed,
        "prompt": pending,
        "moves": moves,
        "choices": present.choices(game, game.state, pending, moves),
    }


def created(issued: Issued) -> Response:
    game = game_log().get_game(issued.game_id)
    pending = present.prompt(game.state)
    body = {
        "game": present.game_view(game, pending),
        "owner_token": issued.token,
        "legal_moves": legal_listing(game, pending),
    }
    return json_response(body, 201, {**etag(game.version), "Location": f"/api/games/{game.id}"})


def played(result: Played, status: int = 200) -> tuple[dict[str, Any], int, dict[str, str]]:
    pending = present.prompt(result.game.state)
    body = {
        "versions": list(result.versions),
        "repeated": result.repeated,
        "game": present.game_view(result.game, pending),
        "legal_moves": legal_listing(result.game, pending),
    }
    return body, status, etag(result.game.version)


def current(game: Game, version: int) -> None:
    """Refuse a stale write before judging it (the log checks again when it writes)."""
    if version != game.version:
        raise StaleVersion(version, game.version)


def judged(
    call: Callable[[], T],
    code: str = "invalid_move",
    message: str = "the rules engine could not read this move",
) -> T:
    """Run a call that hands client-made data (moves, tallies) to the rules engine. The engine answers bad
    input with its own errors; anything else it raises on such input is still the input's fault (logged, for
    the engine's authors), never a 500."""
    try:
        return call()
    except (TypeError, KeyError, ValueError, IndexError, AttributeError) as error:
        logger.exception("the rules engine failed on client input")
        raise ApiError(code, message, reason=str(error)) from error


# --- the collection ---------------------------------------------------------------------------------------


@blp.route("")
class Games(MethodView):
    @errors(blp, 400, 503)
    @blp.arguments(GameListQuerySchema, location="query", error_status_code=400)
    @blp.response(200, GameListSchema)
    def get(self, query: Mapping[str, Any]) -> dict[str, Any]:
        """List public games, newest first (optionally those whose title or players contain `search`)."""
        limit, offset = query["limit"], query["offset"]
        games, total = game_log().page_of_games(search=query["search"], limit=limit, offset=offset)
        following = None
        if offset + limit < total:  # the next page's address, as the client asked for this one
            asked = {name: value for name, value in query.items() if value is not None}
            following = url_for(".Games", **{**asked, "offset": offset + limit})
        return {
            "games": [summary.to_dict() for summary in games],
            "limit": limit,
            "offset": offset,
            "total": total,
            "next": following,
        }

    @errors(blp, *OPEN_WRITE)
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(NewGameSchema, error_status_code=400)
    @blp.response(201, CreatedGameSchema, headers=ETAG_HEADER)
    def post(self, setup: Mapping[str, Any]) -> Any:
        """Start a game. The answer holds the owner token, shown this once: keep it to record moves.

        Players' names are their own: two that are the same, ignoring case and the blanks around them, are
        `400 invalid_setup` (messages name players, and "Ann's turn, not Ann's" says nothing); so are their
        colours (the board tells players apart by colour), and a player given none takes one nobody chose."""
        _distinct_seats(setup["players"])
        issued = services().gate.create_game(dict(setup))
        return created(issued)


@blp.route("/import")
class Import(MethodView):
    @errors(blp, *OPEN_WRITE, 422)
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(ImportQuerySchema, location="query", error_status_code=400)
    @blp.arguments(ImportDocumentSchema, error_status_code=400)
    @blp.response(201, CreatedGameSchema, headers=ETAG_HEADER)
    def post(self, query: Mapping[str, Any], document: Mapping[str, Any]) -> Any:
        """Import an exported game.

        Every event is checked against the rules; `422 invalid_log` lists every problem with its position
        and nothing is written. The game keeps its id unless it is taken here (or `new_id` is set); the
        answer holds the new owner token."""
        issued = services().gate.import_log(dict(document), keep_id=not query["new_id"])
        return created(issued)


def _distinct_seats(players: Any) -> None:
    """Refuse two players of one name, or of one colour (each compared ignoring case and surrounding blanks),
    as a list of names or of {name, colour} gives them; anything else is left to the rules engine's setup
    checks."""
    if not isinstance(players, list):
        return
    for field, what in (("name", "named"), ("colour", "playing")):
        seen: set[str] = set()
        for player in players:
            value = player.get(field) if isinstance(player, dict) else player if field == "name" else None
            if not isinstance(value, str) or not value.strip():
                continue
            key = value.strip().casefold()
            if key in seen:
                raise ApiError(
                    "invalid_setup",
                    f"two players are {what} {value.strip()!r}: each player needs a {field} of their own "
                    f"({field}s are compared ignoring case and the blanks around them)",
                    **{field: value.strip()},
                )
            seen.add(key)


# --- one game ---------------------------------------------------------------------------------------------


@blp.route("/<uuid:game_id>")
class OneGame(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, GameSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID) -> Any:
        """The game as it stands: players, coordinates, the pending prompt and the board."""
        game, _ = reader(game_id)
        return json_response(present.game_view(game), 200, etag(game.version))


@blp.route("/<uuid:game_id>/legal-moves")
class LegalMoves(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.arguments(LegalMovesQuerySchema, location="query", error_status_code=400)
    @blp.response(200, LegalMovesSchema, headers=ETAG_HEADER)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Any:
        """The pending prompt and every legal answer to it.

        Post any of the listed moves as-is to `moves`. Chance moves (seat null) are listed in table mode,
        where the recorder enters the dice and cards of the physical game. With `before=V`: the prompt and
        the legal moves just before the move at version V of the line of play, with that move (`recorded`)
        and the board then (`state`): the alternatives `amend` accepts for it (`404 unknown_version` when V
        is not a move of the line)."""
        game, _ = reader(game_id)
        if query["before"] is None:
            return json_response(legal_listing(game), 200, etag(game.version))
        version = query["before"]
        game, state = game_log().before_move(game.id, version)
        pending = present.prompt(state)
        moves = [] if game.abandoned else present.plain(domain.legal_moves(state))
        body = {
            "game_id": str(game.id),
            "version": game.version,
            "over": bool(domain.is_over(state)),
            "closed": game.abandoned is not None,
            "prompt": pending,
            "moves": moves,
            "choices": present.choices(game, state, pending, moves),
            "before": version,
            "recorded": present.plain(game.records[version].move),
            "state": present.board(state),
        }
        return body, 200, etag(game.version)


@blp.route("/<uuid:game_id>/moves")
class Moves(MethodView):
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(MoveSubmissionSchema, error_status_code=400)
    @blp.response(201, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID) -> Any:
        """Record a move, or a batch of moves applied all or nothing.

        The body is an object from `legal-moves`, as-is, or `{"moves": [...]}`. A seat token records moves
        of its own seat only; the owner records any (chance moves too). An illegal move is `422` with the
        rule it breaks, and nothing is written."""
        game, grant = writer(game_id)
        batch = "moves" in body
        moves = list(body["moves"]) if batch else [{k: v for k, v in body.items() if k != "expected_version"}]
        for index, move in enumerate(moves):
            if not isinstance(move.get("kind"), str):
                raise ApiError("invalid_move", "every move needs a kind", batch_index=index)
        may_act_for(game, grant, [move.get("seat") for move in moves], "record")
        version = expected_version(body, game)
        key = idempotency_key()
        kept = AnswerAlong(lambda result: json_response(*played(result, 201)))
        result = judged(
            lambda: game_log().play(
                game_id,
                moves if batch else moves[0],
                expected_version=version,
                actor=grant.actor,
                idempotency_key=key,
                known=game,
                along=kept.along,
            )
        )
        note(moves=0 if result.repeated else len(result.versions))
        return kept.answer(result)


@blp.route("/<uuid:game_id>/undo")
class Undo(MethodView):
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(UndoSchema, error_status_code=400)
    @blp.response(200, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID) -> Any:
        """Undo the last move, or every move after `to_version`.

        Nothing is deleted: the undone moves stay in the log and can be redone until a new move is played.
        A seat token undoes its own moves only."""
        game, grant = writer(game_id)
        version = expected_version(body, game)
        current(game, version)
        to_version = body["to_version"]
        if to_version is None:
            undone = list(game.line[-1:])
        elif to_version == 1:
            undone = list(game.line)
        elif to_version in game.line:
            undone = list(game.line[game.line.index(to_version) + 1 :])
        else:
            undone = []
        may_act_for(game, grant, [game.records[v].seat for v in undone], "undo")
        return json_response(
            *played(
                game_log().undo(game_id, to_version=to_version, expected_version=version, actor=grant.actor)
            )
        )


@blp.route("/<uuid:game_id>/redo")
class Redo(MethodView):
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(RedoSchema, error_status_code=400)
    @blp.response(200, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID) -> Any:
        """Redo the next `count` undone moves, exactly as they were recorded."""
        game, grant = writer(game_id)
        version = expected_version(body, game)
        current(game, version)
        may_act_for(game, grant, [game.records[v].seat for v in game.redo[: body["count"]]], "redo")
        return json_response(
            *played(
                game_log().redo(game_id, count=body["count"], expected_version=version, actor=grant.actor)
            )
        )


@blp.route("/<uuid:game_id>/amend")
class Amend(MethodView):
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(AmendSchema, error_status_code=400)
    @blp.response(200, AmendedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID) -> Any:
        """Replace a move recorded earlier and re-apply every later move.

        The report names the first later move that no longer fits: it and the moves after it leave the line
        of play (they stay in the log). `dry_run` reports without writing. The move already recorded at
        `version` is refused, dry run or not (`422 amend_unchanged`: it would correct nothing). The new move
        takes the version of this write (the answer's `versions`): `version` no longer names a move of the
        line of play; the kept later moves keep theirs, and are described anew as they play on the new line."""
        game, grant = writer(game_id)
        version = expected_version(body, game)
        current(game, version)
        move = dict(body["move"])
        if not isinstance(move.get("kind"), str):
            raise ApiError("invalid_move", "the move needs a kind")
        record = game.records.get(body["version"])
        may_act_for(game, grant, [move.get("seat"), record.seat if record else None], "amend")
        result, report = judged(
            lambda: game_log().amend(
                game_id,
                body["version"],
                move,
                expected_version=version,
                actor=grant.actor,
                dry_run=body["dry_run"],
            )
        )
        answer, status, headers = played(result)
        return (
            {**answer, "report": present.plain(report.to_dict()), "dry_run": body["dry_run"]},
            status,
            headers,
        )


@blp.route("/<uuid:game_id>/abandon")
class Abandon(MethodView):
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(AbandonSchema, error_status_code=400)
    @blp.response(200, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID) -> Any:
        """Abandon the game (owner only).

        An abandoned game can still be read, replayed, forked and exported, not played on: its legal moves
        say `closed: true`, with no prompt and no moves. A game that is over has its result and is not
        abandoned: `409 game_closed` with `details.over`."""
        game, grant = owner(game_id)
        version = expected_version(body, game)
        result = game_log().abandon(
            game_id, expected_version=version, actor=grant.actor, reason=body["reason"]
        )
        return json_response(*played(result))


@blp.route("/<uuid:game_id>/forks")
class Forks(MethodView):
    @errors(blp, 400, 401, 404, 413, 429, 503)
    @blp.doc(security=[*BEARER, {}], parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(ForkSchema, error_status_code=400)
    @blp.response(201, CreatedGameSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID) -> Any:
        """Branch the game at a version ("what if") into a new game linked to it.

        Whoever may read a game may fork it, and owns the branch: the answer holds its owner token. The branch
        is titled ``title``, or by default "<the game's title> — what if (from move N)" ("from the start"
        at version 1)."""
        game, _ = reader(game_id)
        version = body["version"] if body["version"] is not None else game.version
        return created(services().gate.fork(game_id, version, body.get("title")))


# --- history ----------------------------------------------------------------------------------------------


def state_payload(
    game: Game, version: int, *, current_line: bool = False
) -> tuple[dict[str, Any], int, dict[str, str]]:
    log = game_log()
    state = log.state_on_line(game.id, version) if current_line else log.state_at(game.id, version)
    body = {
        "game_id": str(game.id),
        "version": version,
        "current_version": game.version,
        "over": bool(domain.is_over(state)),
        "coordinates": present.coordinates(state),
        "prompt": present.prompt(state),
        "score": present.sheets(state, present.names(game)),
        "state": present.board(state),
    }
    return body, 200, etag(game.version)


# Signed: a negative version reaches the view and is 404 unknown_version, as 0 is, not a route that is not there.
@blp.route("/<uuid:game_id>/states/<int(signed=True):version>")
class StateAt(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.arguments(StateQuerySchema, location="query", error_status_code=400)
    @blp.response(200, StateSchema, headers=ETAG_HEADER)
    def get(self, query: Mapping[str, Any], game_id: UUID, version: int) -> Any:
        """The game as it stood right after event `version` (what the players saw then).

        With `current_line=1`: right after the move at `version` as the line of play stands now (the replay
        of an amended game: the moves kept after an amendment follow the new move)."""
        game, _ = reader(game_id)
        return state_payload(game, version, current_line=query["current_line"])


@blp.route("/<uuid:game_id>/states")
class StateByTurn(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.arguments(LocateQuerySchema, location="query", error_status_code=400)
    @blp.response(200, StateSchema, headers=ETAG_HEADER)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Any:
        """The game as it stood when a turn began, addressed by round and turn.

        The state just before the first move of `turn` of `round` (of `seat`, if given), on the line of play
        as it stands now; `version` in the answer says which version that was."""
        game, _ = reader(game_id)
        first = game_log().locate(game_id, query["round"], query["turn"], query["seat"])
        position = game.line.index(first)
        if position == 0:
            return state_payload(game, 1)  # the game as it was set up
        # The turn is found on today's line, so its state is read there too: after an amendment the event
        # before it may hold the state from before the amendment.
        return state_payload(game, game.line[position - 1], current_line=True)


@blp.route("/<uuid:game_id>/timeline")
class Timeline(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.arguments(TimelineQuerySchema, location="query", error_status_code=400)
    @blp.response(200, TimelineSchema, headers=ETAG_HEADER)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Any:
        """The timeline of the game's moves.

        Each effective move with round, turn, player, a one-line description and the score totals after
        it; `include_undone=1` adds the undone and replaced moves, marked `undone`."""
        game, _ = reader(game_id)
        entries = game_log().timeline(game_id, include_undone=query["include_undone"])
        body = {
            "game_id": str(game.id),
            "version": game.version,
            "entries": [present.plain(entry.to_dict()) for entry in entries],
        }
        return body, 200, etag(game.version)


@blp.route("/<uuid:game_id>/changes")
class Changes(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.arguments(ChangesQuerySchema, location="query", error_status_code=400)
    @blp.response(200, ChangesSchema, headers=ETAG_HEADER)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Any:
        """Every event after version `since`, for clients that poll (the stream pushes the same events)."""
        game, _ = reader(game_id)
        events = game_log().changes_since(game_id, query["since"])
        version = max([game.version, *(event["version"] for event in events)])
        body = {
            "game_id": str(game.id),
            "since": query["since"],
            "version": version,
            "events": present.plain(events),
        }
        return body, 200, etag(version)


@blp.route("/<uuid:game_id>/score")
class Score(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, ScoreSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID) -> Any:
        """The live score sheet: each player's points line by line (final once the game is over)."""
        game, _ = reader(game_id)
        body = {
            "game_id": str(game.id),
            "version": game.version,
            "over": bool(domain.is_over(game.state)),
            "sheets": present.sheets(game.state, present.names(game)),
        }
        return body, 200, etag(game.version)


@blp.route("/<uuid:game_id>/catalog")
class GameCatalog(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, CatalogSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID) -> Any:
        """The component catalog the game is played with.

        Every card, tile, board space and track with its effects, as stored in the game's first event: it
        never changes for a game, so a client fetches it once to draw the board."""
        game, _ = reader(game_id)
        body = {
            "game_id": str(game.id),
            "rules_version": game.rules_version,
            "catalog": present.plain(game.catalog),
            "words": present.catalog_words(game),
        }
        return body, 200, etag(game.version)


EXPORT_RESPONSES = {
    200: {
        "description": "json: the full log (importable); text: a readable record; bgstats: a BG Stats play",
        "headers": ETAG_HEADER,
        "content": {
            "application/json": {"schema": {"type": "object"}},
            "text/plain": {"schema": {"type": "string"}},
        },
    }
}


@blp.route("/<uuid:game_id>/export")
class Export(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(security=[*BEARER, {}], responses=EXPORT_RESPONSES)
    @blp.arguments(ExportQuerySchema, location="query", error_status_code=400)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Response:
        """Export the game.

        `json`: every event and annotation (`POST /api/games/import` takes it back); `text`: a readable
        record with the score sheet; `bgstats`: the result as a BG Stats play."""
        game, _ = reader(game_id)
        log = game_log()
        headers = etag(game.version)
        if query["format"] == "text":
            return Response(log.export_text(game_id), mimetype="text/plain", headers=headers)
        data = log.export(game_id) if query["format"] == "json" else log.export_bgstats(game_id)
        text = json.dumps(data, ensure_ascii=False, default=str)
        name = f"heronlog-{game_id}{'-bgstats' if query['format'] == 'bgstats' else ''}.json"
        return Response(
            text,
            mimetype="application/json",
            headers={**headers, "Content-Disposition": f'inline; filename="{name}"'},
        )


# --- access -----------------------------------------------------------------------------------------------


SEAT_PARAMETERS = [
    {"in": "path", "name": "game_id"},
    {
        "in": "path",
        "name": "seat",
        "description": "the seat's index, from 0 as in every `seat` field of the API (1 is the game's second "
        "player); messages name seats as people count them, from 1: 'Ben (seat 2)'. A seat the game does not "
        "have (a negative one too) is 400 invalid_seat",
    },
]


def _token_still_works(remembered: Remembered, game_id: UUID, seat: int) -> None:
    """A retried issuance (same Idempotency-Key) answers its first answer again only while the token in it
    still works: one replaced or withdrawn since is refused, never handed back as if it were fine (a client
    that lost the first answer would keep a dead token). Nothing is written; no token is in the refusal."""
    token = json.loads(remembered.body).get("token")
    if not isinstance(token, str):
        return
    game, access = services().gate.game_and_access(game_id)
    if access.match(token) is not None:
        return
    since = "replaced by a newer one" if access.seat_grants(seat) else "withdrawn (DELETE)"
    raise ApiError(
        "token_superseded",
        f"the token this Idempotency-Key issued for {domain.seat_text(game.state, seat)} has since been "
        f"{since} and no longer works: ask for a new token with a new Idempotency-Key",
        seat=seat,
    )


# Signed: a negative seat reaches the view and is told which seats there are (400 invalid_seat), rather than
# matching no route at all (404).
@blp.route("/<uuid:game_id>/seats/<int(signed=True):seat>/token", parameters=SEAT_PARAMETERS)
class SeatToken(MethodView):
    @checked_before_replay(_token_still_works)
    @errors(blp, 400, 401, 403, 404, 409, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.response(201, SeatTokenSchema)
    def post(self, game_id: UUID, seat: int) -> Any:
        """Issue a token for a seat (owner only).

        The token is shown this once; any earlier token of that seat stops working. A seat token records,
        undoes, redoes and amends the moves of its seat, and annotates. A seat the game does not have, or the
        solo rival's, is `400 invalid_seat`. A retry with the same `Idempotency-Key` answers the same token
        while it still works; once it has been replaced (a later request) or withdrawn (`DELETE`), the retry
        is `409 token_superseded` and changes nothing: ask again with a new key."""
        _, grant = owner(game_id)
        issued = services().gate.issue_seat_token(game_id, seat, by=grant.actor)
        body = {"game_id": str(game_id), "seat": seat, "actor": issued.grant.actor, "token": issued.token}
        return body, 201

    @errors(blp, 400, 401, 403, 404, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.response(204)
    def delete(self, game_id: UUID, seat: int) -> None:
        """Withdraw the seat's token (owner only).

        Nothing to withdraw is still `204`; a seat the game does not have is `400 invalid_seat`."""
        _, grant = owner(game_id)
        services().gate.revoke_seat(game_id, seat, by=grant.actor)


@blp.route("/<uuid:game_id>/access")
class AccessList(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=BEARER)
    @blp.response(200, AccessSchema)
    def get(self, game_id: UUID) -> Any:
        """Who holds a token (never the tokens): every grant for the owner, one's own for a seat."""
        _, grant = writer(game_id, "reading who holds this game's tokens needs")
        grants = services().gate.access(game_id).grants.values()
        visible = [g for g in grants if grant.role == "owner" or g.id == grant.id]
        return {"game_id": str(game_id), "you": grant.actor, "grants": [g.to_dict() for g in visible]}


# --- the spectators' stream -------------------------------------------------------------------------------

# Each server-sent event as a client's parser reads it (the schema of text/event-stream describes one event,
# as schemathesis checks it): the fields a block of the stream may set.
SSE_EVENT = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "the game version after this event"},
        "event": {"type": "string", "description": "the event type: MovePlayed, MovesUndone..."},
        "data": {"type": "string", "description": "the event as JSON"},
        "retry": {"type": "integer", "description": "milliseconds to wait before reconnecting"},
    },
}

STREAM_RESPONSES = {
    200: {
        "description": "server-sent events: `id` is the game version, `event` the event type, `data` the event",
        "content": {"text/event-stream": {"schema": SSE_EVENT}},
    }
}


def _resume_point(query: Mapping[str, Any], game: Game) -> int:
    header = request.headers.get("Last-Event-ID")
    if header is not None:
        try:
            resume = max(0, int(header.strip()))
        except ValueError:
            resume = MAX_VERSION + 1
        if resume > MAX_VERSION:
            raise ApiError(
                "invalid_request",
                f"Last-Event-ID must be a game version, a whole number from 0 to {MAX_VERSION}",
                header=header[:40],
            )
        return resume
    after = query["after"]
    return game.version if after is None else int(after)


@blp.route("/<uuid:game_id>/stream")
class Stream(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(
        security=[*BEARER, {}],
        responses=STREAM_RESPONSES,
        parameters=[
            {
                "in": "header",
                "name": "Last-Event-ID",
                "required": False,
                "schema": {"type": "string"},
                "description": "resume after this version (browsers send it when they reconnect)",
            }
        ],
    )
    @blp.arguments(StreamQuerySchema, location="query", error_status_code=400)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Response:
        """Server-sent events of each new event of the game, for spectators.

        `id` is the game version, `event` the event type, `data` the event as JSON. Resumable with
        `Last-Event-ID` (or `after`); a heartbeat comment keeps proxies from closing it; the server ends it
        after `timeout` seconds (capped) and the browser reconnects."""
        game, grant = reader(game_id)
        after = _resume_point(query, game)
        config = current_app.config
        still_reads = _still_reads(game, grant is not None)
        cap = float(config["STREAM_MAX_SECONDS"])
        lifetime = min(cap, query["timeout"] if query["timeout"] is not None else cap)
        events = _event_stream(
            game_log().changes_since,
            game_id,
            after,
            lifetime=lifetime,
            heartbeat=float(config["STREAM_HEARTBEAT_SECONDS"]),
            poll=float(config["STREAM_POLL_SECONDS"]),
            watch=game_log().watch_for(game_id),
            departed=_departure_check(request.environ),
            allowed=still_reads,
        )
        slots: StreamSlots = current_app.extensions[STREAMS]
        if not slots.take():
            raise ApiError(
                "too_many_streams",
                "this server holds as many event streams open as it may: try again shortly",
                headers={"Retry-After": "5"},
                open=slots.limit,
            )
        response = Response(
            events,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", **etag(game.version)},
        )
        response.call_on_close(slots.give_back)  # the server closes every answer, started or not
        return response


def _still_reads(game: Game, with_token: bool) -> Callable[[], bool]:
    """Whether the stream's client may still read the game. A public game: always. A private game's stream
    was opened with a token that may be withdrawn or replaced while it is open: it then ends, at its next
    event or heartbeat, rather than serve the game's events until its timeout (its reconnection is 401)."""
    token = presented_token() if with_token else None
    if not game.setup.get("private") or token is None:
        return lambda: True
    gate, game_id = services().gate, game.id
    return lambda: gate.authenticate(game_id, token) is not None


def _event_stream(
    changes_since: Callable[[UUID, int], list[dict[str, Any]]],
    game_id: UUID,
    after: int,
    *,
    lifetime: float,
    heartbeat: float,
    poll: float,
    watch: ChangeWatch | None = None,
    departed: Callable[[], bool] = lambda: False,
    allowed: Callable[[], bool] = lambda: True,
) -> Iterator[str]:
    """The stream's lines. With a ``watch`` (Redis) the stream sleeps until its game changes (or the next
    heartbeat); without one, or while the watch cannot start, it looks every ``poll`` seconds. While it
    waits it asks ``departed`` whether the client has gone, and ends if so. Before it sends events or a
    heartbeat it asks ``allowed`` whether its client may still read the game (a private game's token may
    have been withdrawn since), and ends if not."""
    started = time.monotonic()
    deadline = started + lifetime
    next_beat = started + heartbeat
    yield f"retry: 2000\n: game {game_id} after version {after}\n\n"
    while True:
        mark = _mark(watch)  # before the read: a change committed after the read is above it
        try:
            changes = changes_since(game_id, after)
            if (changes or time.monotonic() >= next_beat) and not allowed():
                return  # its token no longer works: nothing more is sent, and a reconnection is refused
        except Exception:  # the store went away mid-stream: end it, the client reconnects and resumes
            logger.warning("stream of game %s ended: the store did not answer", game_id, exc_info=True)
            return
        for event in changes:
            after = int(event["version"])
            data = json.dumps(present.plain(event), ensure_ascii=False)
            yield f"id: {after}\nevent: {event['type']}\ndata: {data}\n\n"
        now = time.monotonic()
        if now >= deadline:
            return
        if now >= next_beat:
            yield ": heartbeat\n\n"
            next_beat = now + heartbeat
        if watch is None or mark is None:
            time.sleep(max(0.0, min(poll, deadline - now)))
            if departed():
                return
        elif not _wait_for_change(watch, game_id, mark, min(deadline, next_beat), departed):
            return


DEPARTURE_CHECK_SECONDS = 1.0
"""How often a stream waiting on the watch looks whether its client has gone. Each open stream holds one of
the server's threads: a closed tab must give its thread back within about this long, not at the next
heartbeat (the first write that fails), or a few closed tabs would hold every thread for 15 s."""


def _wait_for_change(
    watch: ChangeWatch, game_id: UUID, mark: int, until: float, departed: Callable[[], bool]
) -> bool:
    """Sleep until the game changes after ``mark``, ``until`` comes or the watch stops (the caller then reads
    the game again); False when the client left meanwhile."""
    while True:
        now = time.monotonic()
        if now >= until:
            return True
        if watch.wait(game_id, mark, min(until - now, DEPARTURE_CHECK_SECONDS)) or not watch.following:
            return True
        if departed():
            return False


def _departure_check(environ: Mapping[str, Any]) -> Callable[[], bool]:
    """Whether this request's client has closed its connection: a look at the socket, where the server
    hands it to the application (gunicorn's ``gunicorn.socket``, werkzeug's ``werkzeug.socket``), that reads
    nothing. A spectator sends nothing after its request, so an end of file means it has gone."""
    sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if not isinstance(sock, socket.socket):
        return lambda: False

    def departed() -> bool:
        try:
            return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except (BlockingIOError, InterruptedError):  # still connected, nothing sent
            return False
        except ValueError:  # a TLS socket takes no flags: it cannot tell; the heartbeat's write will
            return False
        except OSError:  # reset, or already closed
            return True

    return departed


def _mark(watch: ChangeWatch | None) -> int | None:
    """The watch's mark, or None (poll this time) when there is no watch or it could not start."""
    if watch is None:
        return None
    try:
        return watch.mark()
    except Exception:  # the store did not answer; the read that follows says whether the stream goes on
        logger.debug("the change watch could not start", exc_info=True)
        return None
