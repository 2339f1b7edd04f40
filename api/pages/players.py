"""The players' pages (docs/pages/game-list.md#players): the list of players, a player's page (their record, rating and
rivals, drawn by player.js from the API with the tokens of the private games this browser holds), and who sat in a
game's seats, where the game's owner links a seat to a player (seats.js)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Blueprint, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from api.pages.headers import PAGE_SIZE, page_headers
from api.resources.context import game_log
from replay.errors import GameNotFound
from replay.players import links as seats
from replay.players.names import id_of, parse_id
from replay.players.reading import ORDERS

bp = Blueprint("player_pages", __name__)
bp.after_request(page_headers)

ORDER_WORDS = {"games": "most games", "wins": "most wins", "rating": "highest rating"}


@bp.get("/players")
def players() -> str:
    """Everyone who sat in a public game, most games first (or most wins, or highest rating), with a search by
    name; each links to their page."""
    search = request.args.get("search", "").strip()[:100]
    order = request.args.get("order", "games")
    order = order if order in ORDERS else "games"
    try:
        offset = max(0, min(1_000_000, int(request.args.get("offset", "0"))))
    except ValueError:
        offset = 0
    rows, total = game_log().players.reading.page(
        order=order, search=search or None, offset=offset, limit=PAGE_SIZE, held=()
    )
    return render_template(
        "players.html",
        rows=rows,
        total=total,
        search=search,
        order=order,
        orders=ORDER_WORDS,
        offset=offset,
        more=offset + PAGE_SIZE < total,
        size=PAGE_SIZE,
    )


@bp.get("/players/<string:player_id>")
def player(player_id: str) -> str:
    """A player's page: their record, rating over time, score lines, rivals and games (player.js)."""
    found = parse_id(player_id)
    if found is None:
        abort(404)
    return render_template("player.html", player_id=found)


def _game(game_id: UUID) -> Any:
    try:
        return game_log().get_game(game_id)
    except GameNotFound:
        abort(404)


@bp.get("/games/<uuid:game_id>/players")
def game_players(game_id: UUID) -> str:
    """Who sat in each seat of a game; its owner links a seat to another player here (seats.js)."""
    _game(game_id)
    return render_template("game_players.html", game_id=str(game_id), active="players")


@bp.get("/games/<uuid:game_id>/seats/<int:seat>/player")
def seat_player(game_id: UUID, seat: int) -> Response:
    """The page of the player who sat in a seat (a private game's is opened with the game's token: the player
    page sends it)."""
    game = _game(game_id)
    names = [str(each["name"]) for each in game.setup["players"]]
    if not 0 <= seat < len(names):
        abort(404)
    linked = seats.players_of(game_log().players.links(game_id), names)
    player = id_of(linked.get(seat, names[seat]))
    return redirect(url_for("player_pages.player", player_id=player, game=str(game_id)))
