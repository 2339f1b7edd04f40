"""The games resource: create, list, read, record moves, undo, redo, amend, abandon, fork, export,
import, history (states, timeline, changes, score), seat tokens and the spectators' event stream.

Every view is schema in, schema out; the work is the game log's services' (:mod:`replay.services`), each handed
the game the view read (once per request) and the caller's grant. Every answer about a
game carries its version as the ``ETag`` (a read sent with ``If-None-Match`` naming it is ``304 Not Modified``);
every write names the version it expects (``If-Match`` or ``expected_version``) and is refused with ``412
stale_version`` (RFC 9110's Precondition Failed) when the game has moved on.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from uuid import UUID

from flask import Response, current_app, url_for
from flask.views import MethodView

import domain
from api.resources import present, write_guard
from api.resources.context import (
    bearer_token,
    creation_key,
    etag,
    expected_version,
    game_access_and_caller,
    game_log,
    idempotency_key,
    needed,
    reader,
    writer,
)
from api.resources.errors import ApiError
from api.resources.fastjson import json_response
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
    LayoutChoicesQuerySchema,
    LayoutChoicesSchema,
    LayoutFormQuerySchema,
    LayoutFormSchema,
    LayoutSchema,
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
    TimelineQuerySchema,
    TimelineSchema,
    UndoSchema,
)
from api.resources.write_guard import Admitted, counted, counted_with_append
from api.server.observability import observe
from replay import exports, text
from replay.access import Issued
from replay.application import Played
from replay.corrections import Correction
from replay.game import Game
from replay.index import Key

logger = logging.getLogger("api")
T = TypeVar("T")

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/api/games",
    description="Games: record moves, undo, redo, amend, branch, replay and export.",
)

BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
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
    if game.abandoned is not None:  # nothing is asked, nothing may be played (fork it to play on)
        pending = None
    elif pending is None:
        pending = present.prompt(game.state)
    return listing_at(game, game.state, pending)


def listing_at(game: Game, state: Any, pending: dict[str, Any] | None) -> dict[str, Any]:
    """The prompt ``pending`` and the legal moves of ``state`` (a state of ``game``), with their words: the
    engine's typed moves are listed once, written as JSON for ``moves`` and read as they are for ``choices``."""
    closed = game.abandoned is not None
    typed = [] if closed else domain.legal(state)
    moves = present.plain([move.as_json() for move in typed])
    payments = present.payment_words(state, moves)
    return {
        "game_id": str(game.id),
        "version": game.version,
        "over": bool(domain.is_over(state)),
        "closed": closed,
        "prompt": pending,
        "moves": moves,
        "notes": payments,
        "choices": present.choices(game, state, pending, moves, payments, typed=typed),
    }


REPLAYED = {"Idempotent-Replayed": "true"}
"""The header of an answer to a retry (the same ``Idempotency-Key``): the answer is the first attempt's."""


def created(issued: Issued) -> Response:
    """The answer to a creation: the new game as it was created (a retry's too, whatever was played since)
    and its owner token."""
    log = game_log()
    game = issued.game if issued.game is not None else log.get_game(issued.game_id)
    if issued.version is not None and issued.version != game.version:
        game = log.get_game(issued.game_id, issued.version)
    pending = present.prompt(game.state)
    body = {
        "game": present.game_view(game, pending),
        "owner_token": issued.token,
        "legal_moves": legal_listing(game, pending),
    }
    headers = {
        **etag(game.version),
        "Location": f"/api/games/{game.id}",
        **(REPLAYED if issued.repeated else {}),
    }
    return json_response(body, 201, headers)


def played(result: Played, status: int = 200) -> tuple[dict[str, Any], int, dict[str, str]]:
    pending = present.prompt(result.game.state)
    body = {
        "versions": list(result.versions),
        "game": present.game_view(result.game, pending),
        "legal_moves": legal_listing(result.game, pending),
    }
    return body, status, {**etag(result.game.version), **(REPLAYED if result.repeated else {})}


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
        """List public games, newest first; with `search`, those whose title or players have words that its
        words start (`chie` finds Chieko).

        Page with the `next` and `previous` links: they name the last and first game of the page (a cursor,
        `after` and `before`), so a game created while you page shows up on the first page, and none is
        listed twice. `offset` pages from the top too. A search whose words start too many words is cut
        short: `complete` false, the newest matches among the newest 10,000 games."""
        limit, offset = query["limit"], query["offset"]
        after = Key.parse(query["after"]) if query["after"] else None
        before = Key.parse(query["before"]) if query["before"] else None
        page = game_log().queries.page_of_games(
            search=query["search"], limit=limit, offset=offset, after=after, before=before
        )
        asked = {name: value for name, value in query.items() if value is not None and name != "offset"}
        asked.pop("after", None)
        asked.pop("before", None)
        return {
            "games": [summary.to_dict() for summary in page.summaries],
            "limit": limit,
            "offset": offset,
            "total": page.total,
            "complete": page.complete,
            # The next pages' addresses, as the client asked for this one, from this page's last (first) game.
            "next": url_for(".Games", **asked, after=page.older.text()) if page.older else None,
            "previous": url_for(".Games", **asked, before=page.newer.text()) if page.newer else None,
            # the shards that did not answer (a cluster node down): their games are missing from this page
            "unavailable": list(page.unavailable),
        }

    @errors(blp, *OPEN_WRITE, 422)
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(NewGameSchema, error_status_code=400)
    @blp.response(201, CreatedGameSchema, headers=ETAG_HEADER)
    def post(self, setup: Mapping[str, Any]) -> Any:
        """Start a game. The answer holds the owner token, shown this once: keep it to record moves.

        Players' names are their own: two that look the same (ignoring case, the blanks around them,
        invisible characters, and letters of other alphabets drawn like Latin ones) are `400 invalid_setup`
        (messages name players, and "Ann's turn, not Ann's" says nothing); so are their colours (the board
        tells players apart by colour), and a player given none takes one nobody chose. Names, colours and the
        title are one line of plain text: a control character, a bidirectional override or a lone surrogate
        is `400`.

        A table game may be laid out at once: `layout` gives the table's setup (the shape GET layout answers),
        every entry checked by the rules (`422 invalid_layout` lists each problem by field, with its rule), and
        `draw_rest` draws what it leaves out from the seed. The game then waits for the starting choices."""
        asked = {name: value for name, value in setup.items() if name not in ("layout", "draw_rest")}
        laid = (
            {"layout": setup["layout"], "draw_rest": setup["draw_rest"]}
            if setup.get("layout") is not None
            else {}
        )
        return created(game_log().creation.create_game(asked, idempotency_key=creation_key(), **laid))


@blp.route("/layout-form")
class LayoutForm(MethodView):
    @errors(blp, 400, 503)
    @blp.arguments(LayoutFormQuerySchema, location="query", error_status_code=400)
    @blp.response(200, LayoutFormSchema)
    def get(self, query: Mapping[str, Any]) -> Any:
        """The table setup's form for a game of this kind: every field of its layout, in order, with words.

        Each card field names its pool; each pool lists the cards or tiles that may go there, with what is
        printed on them (for finding a card by reading it). The new-game page draws its one-screen table setup
        from this and posts the layout with `POST /api/games` (`mode: table`)."""
        return game_log().queries.layout_form(_setup_of(query))


def _setup_of(query: Mapping[str, Any]) -> dict[str, Any]:
    """The setup a layout form's query describes: players, expansions, solo difficulty, first-game option."""
    setup: dict[str, Any] = {"players": query["players"], "expansions": query["expansions"]}
    if query["solo"]:
        setup["solo"] = query["solo"]
    if query["first_game"]:
        setup["options"] = {"first_game": True}
    return setup


@blp.route("/layout-choices")
class LayoutChoices(MethodView):
    @errors(blp, 400, 422, 503)
    @blp.arguments(LayoutChoicesQuerySchema, location="query", error_status_code=400)
    @blp.response(200, LayoutChoicesSchema)
    def get(self, query: Mapping[str, Any]) -> Any:
        """What each field of a table setup may still take, beside what the other fields hold.

        `layout` is the layout entered so far (JSON text). Each card field lists the cards or tiles left for
        it (none laid elsewhere, no fifth castle card that deals the castle again, at the Well only a colour
        the castle leaves); each room lists, space by space, the die-tile colours that can still be there,
        the likeliest first. The new-game page's pickers offer these; `POST /api/games` judges the layout."""
        try:
            layout = json.loads(query["layout"])
        except (ValueError, RecursionError) as error:
            raise ApiError("invalid_request", f"layout is not JSON text: {error}", field="layout") from None
        if _depth(layout) > LAYOUT_DEPTH:
            raise ApiError(
                "invalid_request", f"a layout nests {LAYOUT_DEPTH} levels deep at most", field="layout"
            )
        return game_log().queries.layout_choices(_setup_of(query), layout)


LAYOUT_DEPTH = 4
"""How deep a layout nests: ``{"offer": [{"resource": "SR1"}]}`` is 3 levels, a yard's faces too."""


def _depth(value: Any) -> int:
    """How deeply JSON data nests (without recursion: a hostile text may nest a thousand levels)."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        deepest = max(deepest, depth)
        if deepest > LAYOUT_DEPTH:
            break
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        level.extend((child, depth + 1) for child in children)
    return deepest


@blp.route("/import")
class Import(MethodView):
    @errors(blp, *OPEN_WRITE, 422)
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(ImportQuerySchema, location="query", error_status_code=400)
    @blp.arguments(ImportDocumentSchema, error_status_code=400)
    @blp.response(201, CreatedGameSchema, headers=ETAG_HEADER)
    def post(self, query: Mapping[str, Any], document: Mapping[str, Any]) -> Any:
        """Import an exported game.

        Every event is checked against the rules, and against what the API would have taken from a client
        (who acted, texts, keys, dates, the catalog, the parent); `422 invalid_log` lists every problem with
        its position and nothing is written. An export of more than `IMPORT_MAX_EVENTS` events is
        `413 import_too_large`; an import counts as one write per `IMPORT_EVENTS_PER_WRITE` of its events in
        the rate limit of its address, and against the game it was exported from (`RATE_LIMIT_PER_SOURCE`);
        a large one while the server refolds another is `503 too_many_imports`. The game keeps its id unless
        it is taken here (or `new_id` is set); the answer holds the new owner token."""
        events = exports.check_size(document, int(current_app.config["IMPORT_MAX_EVENTS"]))
        write_guard.weigh(write_guard.import_weight(events))
        source = exports.source_game(document)
        if source is not None:
            write_guard.count_source(source)
        with write_guard.heavy_import(events):
            issued = game_log().exchange.import_log(
                dict(document),
                keep_id=not query["new_id"],
                idempotency_key=creation_key(),
                max_events=int(current_app.config["IMPORT_MAX_EVENTS"]),
                token=bearer_token(),
            )
        return created(issued)


# --- one game ---------------------------------------------------------------------------------------------


@blp.route("/<uuid:game_id>")
class OneGame(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, GameSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID) -> Any:
        """The game as it stands: players, coordinates, the pending prompt and the board.

        `state` is the board as the rules engine holds it (typed in full: `GameState`), without the component
        catalog, which `catalog` serves once. The ETag is the game's version: send it as `If-None-Match` to be
        answered `304` while nothing changed, or as `If-Match` with a write."""
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
        game, state = game_log().queries.before_move(game.id, version, game)
        body = {
            **listing_at(game, state, present.prompt(state)),
            "before": version,
            "recorded": present.plain(game.records[version].move),
            "state": present.board(state),
        }
        return body, 200, etag(game.version)


@blp.route("/<uuid:game_id>/moves")
class Moves(MethodView):
    @counted_with_append
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(MoveSubmissionSchema, error_status_code=400)
    @blp.response(201, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Record a move, or a batch of moves applied all or nothing.

        The body is an object from `legal-moves`, as-is, or `{"moves": [...]}`. A seat token records moves
        of its own seat only; the owner records any (chance moves too). An illegal move is `422` with the
        rule it breaks, and nothing is written."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        batch = "moves" in body
        moves = list(body["moves"]) if batch else [{k: v for k, v in body.items() if k != "expected_version"}]
        for index, move in enumerate(moves):
            if not isinstance(move.get("kind"), str):
                raise ApiError("invalid_move", "every move needs a kind", batch_index=index)
        version = expected_version(body, game.version)
        result = judged(
            lambda: game_log().recording.play(
                game_id,
                moves if batch else moves[0],
                expected_version=version,
                grant=grant,
                idempotency_key=idempotency_key(),
                known=game,
            )
        )
        observe(moves=0 if result.repeated else len(result.versions))
        return json_response(*played(result, 201))


@blp.route("/<uuid:game_id>/undo")
class Undo(MethodView):
    @counted
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(UndoSchema, error_status_code=400)
    @blp.response(200, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Undo the last move, or every move after `to_version`.

        Nothing is deleted: the undone moves stay in the log and can be redone until a new move is played.
        A seat token undoes its own moves only."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        result = game_log().history.undo(
            game_id,
            to_version=body["to_version"],
            expected_version=expected_version(body, game.version),
            grant=grant,
            idempotency_key=idempotency_key(),
            known=game,
        )
        return json_response(*played(result))


@blp.route("/<uuid:game_id>/redo")
class Redo(MethodView):
    @counted
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(RedoSchema, error_status_code=400)
    @blp.response(200, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Redo the next `count` undone moves, exactly as they were recorded.

        Only moves undone since the last new move can be redone (a new move clears them: `redoable` says how
        many are left); none is `409 nothing_to_redo`. The answer is a move's: the game and its legal moves."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        result = game_log().history.redo(
            game_id,
            count=body["count"],
            expected_version=expected_version(body, game.version),
            grant=grant,
            idempotency_key=idempotency_key(),
            known=game,
        )
        return json_response(*played(result))


@blp.route("/<uuid:game_id>/amend")
class Amend(MethodView):
    @counted
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(AmendSchema, error_status_code=400)
    @blp.response(200, AmendedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Correct a move recorded earlier (or a laid-out setup) and re-apply every later move.

        The correction is one of `move` or `moves` (replace it), `insert` (moves forgotten before it), `remove`
        (it never happened), `swap_seats` (two seats' moves swapped from it on) or, at version 1 of a table game
        laid out at creation, `layout` (the setup's entries as they lay). Each later move is played again in
        order on the corrected line. The report names the first later move that no longer fits
        (`first_misfit`: its line `index`, its words, why, the moves legal there, and `suggestions`, best
        first, each a resolution to send as it is with how many later moves it keeps): give it a resolution
        and dry-run again, misfit by misfit, then write the whole correction in one request. The first misfit
        without a resolution leaves the line of play with every move after it (they stay in the log). A
        resolution that names no later move, or a move that still fits, or that is never reached, is `422`
        (`resolution_not_later`, `resolution_not_needed`, `resolution_unused`); two for one index,
        `422 resolution_repeated`; a move the rules refuse, `422` (a resolution's with
        `details.resolution_index`).

        A seat token corrects its own seat's moves only, and may not take another seat's moves off the line
        nor say them anew: such a correction, dry run or not, is `403 amend_reaches_other_seats`; swapping
        seats is the owner's (`403 forbidden`). `dry_run` reports without writing. One move replaced by the
        move already recorded is `422 amend_unchanged`. A plain `undo` right after a correction takes it back
        (and `redo` writes it again). In a table game a die taken is the die the table saw taken: a take
        whose end now holds another die no longer fits, unless that die lies at the other end."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        correction = _correction(body)
        resolutions = [_resolution(entry, number) for number, entry in enumerate(body["resolutions"])]
        version = expected_version(body, game.version)
        result, report = judged(
            lambda: game_log().history.correct(
                game_id,
                correction,
                expected_version=version,
                grant=grant,
                dry_run=body["dry_run"],
                resolutions=resolutions,
                idempotency_key=idempotency_key(),
                known=game,
            )
        )
        answer, status, headers = played(result)
        return (
            {**answer, "report": amend_report(game, report), "dry_run": body["dry_run"]},
            status,
            headers,
        )


def _correction(body: Mapping[str, Any]) -> Correction:
    """The correction a request asks for (AmendSchema has checked it gives one kind); every move of it needs
    a kind, as a move sent alone does."""
    version = body["version"]
    if "layout" in body:
        return Correction(version, "setup", layout=dict(body["layout"]))
    if "swap_seats" in body:
        one, other = body["swap_seats"]
        return Correction(version, "swap_seats", seats=(one, other))
    if "remove" in body:
        return Correction(version, "remove")
    kind = "insert" if "insert" in body else "replace"
    moves = [body["move"]] if "move" in body else list(body["insert" if kind == "insert" else "moves"])
    for move in moves:
        if not isinstance(move.get("kind"), str):
            raise ApiError("invalid_move", "every move of a correction needs a kind")
    return Correction(version, kind, tuple(dict(move) for move in moves))


def _resolution(entry: Mapping[str, Any], number: int) -> dict[str, Any]:
    """A resolution as the game log takes it; every move of it needs a kind (as a move sent alone does)."""
    if "swap_seats" in entry:
        return {"index": entry["index"], "swap_seats": list(entry["swap_seats"])}
    moves = [dict(entry["move"])] if "move" in entry else [dict(move) for move in entry["moves"]]
    for move in moves:
        if not isinstance(move.get("kind"), str):
            raise ApiError("invalid_move", "every move of a resolution needs a kind", resolution=number)
    return {"index": entry["index"], "moves": moves, "keep_recorded": entry["keep_recorded"]}


def amend_report(game: Game, report: Any) -> dict[str, Any]:
    """The amendment's report as AmendReportSchema has it: the first misfit with the question asked there,
    the legal moves there in words with their board targets (``choices``), and the board then, for drawing
    the moves that may resolve it."""
    body: dict[str, Any] = present.plain(report.to_dict())
    if report.first_misfit is not None and report.misfit_state is not None:
        state = report.misfit_state
        pending = present.prompt(state)
        misfit = body["first_misfit"]
        body["first_misfit"] = {
            **misfit,
            "prompt": pending,
            "choices": present.choices(game, state, pending, misfit["legal_moves"]),
            "state": present.board(state),
        }
    return body


@blp.route("/<uuid:game_id>/abandon")
class Abandon(MethodView):
    @counted
    @errors(blp, *WRITE)
    @blp.doc(**WRITE_DOC)
    @blp.arguments(AbandonSchema, error_status_code=400)
    @blp.response(200, PlayedSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Abandon the game (owner only).

        An abandoned game can still be read, replayed, forked and exported, not played on: its legal moves
        say `closed: true`, with no prompt and no moves. A game that is over has its result and is not
        abandoned: `409 game_closed` with `details.over`."""
        game, _, grant = game_access_and_caller(game_id, admitted.ahead)
        result = game_log().history.abandon(
            game_id,
            expected_version=expected_version(body, game.version),
            reason=body["reason"],
            idempotency_key=idempotency_key(),
            known=game,
            grant=needed(grant, "abandoning a game needs"),
        )
        return json_response(*played(result))


@blp.route("/<uuid:game_id>/forks")
class Forks(MethodView):
    @counted
    @errors(blp, 400, 401, 404, 413, 422, 429, 503)
    @blp.doc(security=[*BEARER, {}], parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(ForkSchema, error_status_code=400)
    @blp.response(201, CreatedGameSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Branch the game at a version ("what if") into a new game linked to it.

        Whoever may read a game may fork it, and owns the branch: the answer holds its owner token. The branch
        is titled ``title``, or by default "<the game's title> — what if (from move N)" ("from the start"
        at version 1). A fork counts as a creation of the address that asks for it, whatever token it sends,
        and against the game forked (`RATE_LIMIT_PER_SOURCE` a window)."""
        game, _ = reader(game_id, admitted.ahead)
        write_guard.count_source(game_id)
        version = body["version"] if body["version"] is not None else game.version
        issued = game_log().creation.fork(
            game_id, version, title=body.get("title"), idempotency_key=creation_key(), known=game
        )
        return created(issued)


# --- history ----------------------------------------------------------------------------------------------


PAST_STATE_MAX_AGE = 86400
"""Seconds a past state may be reused without asking (a day: a release that folds games otherwise, an engine
fix, reaches cached copies by the next day)."""


def state_payload(
    game: Game, version: int, *, current_line: bool = False
) -> tuple[dict[str, Any], int, dict[str, str]]:
    queries = game_log().queries
    state = (
        queries.state_on_line(game.id, version, game)
        if current_line
        else queries.state_at(game.id, version, game)
    )
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

        It never changes: it is cacheable (`Cache-Control: public, max-age=86400, immutable`; `private` for a
        private game) under an ETag of its own (`"state-<version>"`), and leaves out `current_version`. With
        `current_line=1`: right after the move at `version` as the line of play stands now (the replay of an
        amended game: the moves kept after an amendment follow the new move), which an amendment changes: its
        ETag is the game's version."""
        game, _ = reader(game_id)
        if query["current_line"]:
            return state_payload(game, version, current_line=True)
        body, status, _ = state_payload(game, version)
        # After event `version` the game's log is fixed: the answer never changes, so it is cached as immutable
        # under a validator of its own (not the game's version, which moves), without `current_version`.
        del body["current_version"]
        scope = "private" if game.setup.get("private") else "public"
        return (
            body,
            status,
            {
                "ETag": f'"state-{version}"',
                "Cache-Control": f"{scope}, max-age={PAST_STATE_MAX_AGE}, immutable",
            },
        )


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
        first = game_log().queries.locate(game_id, query["round"], query["turn"], query["seat"], game)
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
        entries = game_log().queries.timeline(game_id, include_undone=query["include_undone"], known=game)
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
        """Every event after version `since`, for clients that poll.

        Each event is typed by its `type` (`MovePlayed`, `MovesUndone`, `MoveAmended`...), its `data` the event
        as stored (docs/architecture/events.md). `version` is the game's; the stream (`streamGame`) pushes the
        same events as they happen."""
        game, _ = reader(game_id)
        events = game_log().queries.changes_since(game_id, query["since"])
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
        """The live score sheet: each player's points line by line.

        While the game goes on it says what each player would score if it ended now; once the game is over it
        is the final sheet, ties broken as the rules say (R-F09)."""
        game, _ = reader(game_id)
        body = {
            "game_id": str(game.id),
            "version": game.version,
            "over": bool(domain.is_over(game.state)),
            "sheets": present.sheets(game.state, present.names(game)),
        }
        return body, 200, etag(game.version)


@blp.route("/<uuid:game_id>/layout")
class GameLayout(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, LayoutSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID) -> Any:
        """The game's setup layout: what chance dealt while it was set up, as one object.

        Castle cards by room, the Daimyo card, die tiles by room, the Well tiles, gardens, yard tiles, the first
        roll of each bridge, the stack (turn order) and the starting pairs (with Matcha its parts). Given back to
        `POST /api/games` (`mode: table`, `layout`), it lays out the same board. `complete` is false while a
        table game's setup is still being entered."""
        game, _ = reader(game_id)
        found = game_log().queries.layout(game_id, game)
        body = {
            "game_id": str(game.id),
            "version": found.version,
            "complete": found.complete,
            "layout": present.plain(found.layout),
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


EXPORT_FORMATS: dict[str, tuple[str, str, str]] = {
    # format: (media type, file name suffix, disposition)
    "json": ("application/json", ".json", "inline"),
    "text": ("text/plain", ".txt", "inline"),
    "bgstats": ("application/json", ".bgsplay", "attachment"),
    "bgstats-link": ("application/json", "-bgstats-link.json", "inline"),
    "bgg": ("text/xml", "-bgg.xml", "attachment"),
}
"""Each export format's media type, file name and whether a browser offers it as a download."""


def exported(game_id: UUID, chosen: str, query: Mapping[str, Any] | None = None) -> Response:
    """The game exported in one format (:data:`EXPORT_FORMATS`), in that format's media type; a BG Stats file
    for the player of seat ``query["me"]``, played at ``query["location"]`` (each optional)."""
    query = query or {}
    game, _ = reader(game_id)
    exchange = game_log().exchange
    media, suffix, disposition = EXPORT_FORMATS[chosen]
    if chosen == "text":
        body = exchange.export_text(game_id, game)
    elif chosen == "bgg":
        body = exchange.export_bgg(game_id, game)
    else:
        data = (
            exchange.export(game_id)
            if chosen == "json"
            else exchange.export_bgstats(
                game_id,
                game,
                me=query.get("me"),
                location=text.checked(query["location"], "the location", max_length=100)
                if query.get("location")
                else None,
            )
            if chosen == "bgstats"
            else exchange.export_bgstats_link(game_id, game)
        )
        body = json.dumps(data, ensure_ascii=False, default=str)
    name = f"heronlog-{game_id}{suffix}"
    headers = {**etag(game.version), "Content-Disposition": f'{disposition}; filename="{name}"'}
    return Response(body, mimetype=media, headers=headers)


@blp.route("/<uuid:game_id>/export")
class Export(MethodView):
    @errors(blp, 400, 409, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.arguments(ExportQuerySchema, location="query", error_status_code=400)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Response:
        """Export the game.

        `json`: every event and annotation (`POST /api/games/import` takes it back); `bgstats`: the result as a
        BG Stats play file (a `.bgsplay` download: BG Stats imports it; an unfinished game is marked as left
        out of the statistics, with no winner; `me` names the importer's seat, `location` the place, each left
        out of the file when not given); `bgstats-link`: BG Stats' create-play link of a finished game
        and the play it carries (`409 game_unfinished` for a game in progress or abandoned). `text` (a
        readable record, `text/plain`) and `bgg` (a BoardGameGeek play record, `text/xml`; an
        unfinished game is an incomplete play) are answered here too, and have operations of their own
        (`export/text`, `export/bgg`), so that a generated client reads each in its own media type."""
        return exported(game_id, query["format"], query)


@blp.route("/<uuid:game_id>/export/text")
class ExportText(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    def get(self, game_id: UUID) -> Response:
        """The game as a readable record (text/plain).

        Round and turn headings, one line per move, the annotations and the score sheet: the same as
        `export?format=text`, in its own media type so that a generated client reads it as text."""
        return exported(game_id, "text")


@blp.route("/<uuid:game_id>/export/bgg")
class ExportBgg(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    def get(self, game_id: UUID) -> Response:
        """The game's result as a BoardGameGeek play record (text/xml).

        The shape of BGG's XML API `plays`: date, length, incomplete, the game, and each player's start position,
        score, win and new. BGG imports no file: this is a record for archives and scripts that read BGG's
        format; the route to a BGG play log is BG Stats (`export?format=bgstats`), which syncs plays to BGG
        (docs/api/exports.md). An unfinished game is an incomplete play without a winner (the same as
        `export?format=bgg`)."""
        return exported(game_id, "bgg")


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


# Signed: a negative seat reaches the view and is told which seats there are (400 invalid_seat), rather than
# matching no route at all (404).
@blp.route("/<uuid:game_id>/seats/<int(signed=True):seat>/token", parameters=SEAT_PARAMETERS)
class SeatToken(MethodView):
    @counted
    @errors(blp, 400, 401, 403, 404, 409, 422, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.response(201, SeatTokenSchema)
    def post(self, game_id: UUID, seat: int, admitted: Admitted) -> Any:
        """Issue a token for a seat (owner only).

        The token is shown this once; any earlier token of that seat stops working. A seat token records,
        undoes, redoes and amends the moves of its seat, and annotates. A seat the game does not have, or the
        solo rival's, is `400 invalid_seat`. A retry with the same `Idempotency-Key` answers the same token
        while it still works; once it has been replaced (a later request) or withdrawn (`DELETE`), the retry
        is `409 token_superseded` and changes nothing: ask again with a new key."""
        game, access, grant = game_access_and_caller(game_id, admitted.ahead)
        granted = needed(grant, "issuing a seat's token needs")
        assert access is not None  # a token was sent
        issued = game_log().tokens.issue_seat_token(
            game_id,
            seat,
            by=granted.actor,
            idempotency_key=creation_key(),
            known=(game, access),
            grant=granted,
        )
        body = {"game_id": str(game_id), "seat": seat, "actor": issued.grant.actor, "token": issued.token}
        return body, 201, REPLAYED if issued.repeated else {}

    @counted
    @errors(blp, 400, 401, 403, 404, 422, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.response(204)
    def delete(self, game_id: UUID, seat: int, admitted: Admitted) -> None:
        """Withdraw the seat's token (owner only).

        Nothing to withdraw is still `204`; a seat the game does not have is `400 invalid_seat`."""
        game, _, grant = game_access_and_caller(game_id, admitted.ahead)
        granted = needed(grant, "withdrawing a seat's token needs")
        game_log().tokens.revoke_seat(game_id, seat, by=granted.actor, known=game, grant=granted)


@blp.route("/<uuid:game_id>/access")
class AccessList(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=BEARER)
    @blp.response(200, AccessSchema)
    def get(self, game_id: UUID) -> Any:
        """Who holds a token (never the tokens).

        The owner's token sees every grant (the owner's and each seat's, with when and by whom it was given);
        a seat's token sees its own. `you` says whom the token sent acts as."""
        _, access, caller = game_access_and_caller(game_id)
        grant = needed(caller, "reading who holds this game's tokens needs")
        assert access is not None  # read with the token
        grants = access.grants.values()
        visible = [g for g in grants if grant.role == "owner" or g.id == grant.id]
        return {"game_id": str(game_id), "you": grant.actor, "grants": [g.to_dict() for g in visible]}
