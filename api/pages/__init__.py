"""The web pages (docs/pages/index.md): the game list, the new-game form, the recording and replay screens, and the
stand-alone score sheet.

Server-rendered templates and small ES modules that speak to the JSON API like any other client, so the pages hold
no rule and take every word from the API.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Blueprint, abort, make_response, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from api.pages.headers import PAGE_SIZE, page_headers
from api.resources import errors
from api.resources.context import game_log
from replay.annotations import GLYPHS
from replay.decisions import COLOURS
from replay.errors import GameNotFound
from replay.index import Key
from replay.players.facts import GameFacts
from replay.players.names import parse_id
from replay.services.players import PlayerNotFound

bp = Blueprint("pages", __name__)

bp.after_request(page_headers)


def _cursor(name: str) -> Key | None:
    """A page's cursor from the query string; None (the first page) for one that is not a cursor."""
    try:
        return Key.parse(request.args.get(name, ""))
    except ValueError:
        return None


@bp.get("/")
def home() -> str:
    """The list of public games, newest first, with a search box (by the words of titles and player names).
    "Older" and "Newer" page by cursor, so that games recorded meanwhile never shift a page."""
    player = parse_id(request.args.get("player", ""))
    if player is not None:
        return _games_of(player)
    search = request.args.get("search", "").strip()[:100]
    after, before = _cursor("after"), _cursor("before")
    page = game_log().page_of_games(
        search=search or None, limit=PAGE_SIZE, after=after, before=None if after else before
    )
    return render_template(
        "home.html",
        games=[summary.to_dict() for summary in page.summaries],
        search=search,
        total=page.total,
        complete=page.complete,
        older=page.older.text() if page.older else None,
        newer=page.newer.text() if page.newer else None,
    )


def _games_of(player: str) -> str:
    """The list filtered by a player: their public games, newest first (paged from the top)."""
    try:
        offset = max(0, min(1_000_000, int(request.args.get("offset", "0"))))
    except ValueError:
        offset = 0
    players = game_log().players
    found = players.reading.games(player, offset=offset, limit=PAGE_SIZE, held=())
    rows, total = found or ([], 0)
    try:
        name = players.name_of(player)
    except PlayerNotFound:
        name = None
    return render_template(
        "home.html",
        games=[_listed(facts) for facts, _ in rows],
        search="",
        total=total,
        complete=True,
        player={
            "player_id": player,
            "name": name,
            "offset": offset,
            "size": PAGE_SIZE,
            "more": offset + PAGE_SIZE < total,
        },
        older=None,
        newer=None,
    )


def _listed(facts: GameFacts) -> dict[str, Any]:
    """A game of a player's as the list of games shows a game."""
    return {
        "game_id": facts.game_id,
        "title": facts.title,
        "players": [seat.player for seat in facts.seats],
        "mode": facts.mode,
        "parent": {"forked": True} if facts.forked else None,
        "created_on": facts.played_on,
        "status": facts.status,
        "round": None,  # the list of games shows it; a player's facts are kept as status changes
        "winner": facts.winner,
    }


@bp.get("/games/new")
def new_game() -> str:
    """The new-game form: seats, mode, options; then the owner token and the seats' links to share."""
    return render_template("new_game.html", colours=COLOURS)


def _game_page(template: str, game_id: UUID, **extra: Any) -> str:
    # Only the existence of the game is checked here; whether the visitor may read it (a private game needs a
    # token) is the API's answer to the page's first request.
    try:
        game_log().get_game(game_id)
    except GameNotFound:
        abort(404)
    return render_template(template, game_id=str(game_id), glyphs=GLYPHS, **extra)


@bp.get("/games/<uuid:game_id>")
def record(game_id: UUID) -> str:
    """The recording screen: the board, the pending prompt's legal moves as buttons, undo and redo."""
    return _game_page("record.html", game_id)


@bp.get("/games/<uuid:game_id>/replay")
def replay(game_id: UUID) -> str:
    """The replay screen: step through the game, annotations, the score timeline and "what if" forks."""
    return _game_page("replay.html", game_id)


@bp.get("/score-sheet")
def score_sheet() -> str:
    """The rulebook's scorer for a game that was not recorded: tallies in, points line by line out."""
    return render_template("score_sheet.html")


@bp.app_errorhandler(404)
def not_found(error: HTTPException) -> Any:
    """A page that does not exist is a page; an API path keeps the API's JSON error envelope."""
    if request.path.startswith(("/api/", "/static/", "/healthz")):
        return errors.from_http_exception(error)
    # A path no route matched is no request of this blueprint: its after_request never runs for it, so the
    # not-found page gets the pages' headers here.
    return page_headers(make_response(render_template("not_found.html", home=url_for("pages.home")), 404))
