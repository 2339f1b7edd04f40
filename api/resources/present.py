"""From the game log's values to the plain data the response schemas dump (no HTTP here)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import domain
from api.resources import words
from domain.catalog import Catalog
from domain.prompts import KIND
from domain.vocabulary import Icon
from replay import history
from replay.access import Grant
from replay.annotations import Annotation
from replay.game import Game


def plain(value: Any) -> Any:
    """JSON-ready data from the engine's dictionaries (tuples become lists, keys become text).

    Walked without recursion: a stored game's catalog may be nested hundreds of levels deep (one imported
    before the catalog's schema), and reading it must not run out of stack."""
    if not isinstance(value, Mapping | list | tuple):
        return _scalar(value)
    top: list[Any] = [None]
    # (what to convert, where its conversion goes, under which key, the mark that holds its place there): a
    # key given twice keeps its last value, as a dict made in one go would
    stack: list[tuple[Any, Any, Any, object]] = [(value, top, 0, _PENDING)]
    top[0] = _PENDING
    while stack:
        source, into, key, mark = stack.pop()
        if into[key] is not mark:
            continue  # a later value took this key's place
        if isinstance(source, Mapping):
            out: Any = {}
            for name, item in source.items():
                if isinstance(item, Mapping | list | tuple):
                    out[str(name)] = held = object()
                    stack.append((item, out, str(name), held))
                else:
                    out[str(name)] = _scalar(item)
        else:
            out = [None] * len(source)
            for index, item in enumerate(source):
                if isinstance(item, Mapping | list | tuple):
                    out[index] = held = object()
                    stack.append((item, out, index, held))
                else:
                    out[index] = _scalar(item)
        into[key] = out
    return top[0]


_PENDING = object()


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, datetime):  # ISO 8601 with its T, as every other timestamp (str() puts a space)
        return value.isoformat()
    return str(value)


def board(state: Any) -> dict[str, Any]:
    """The engine's state as JSON for drawing, without the component catalog (the same for a whole game, and
    much larger than the board: ``GET /api/games/{id}/catalog`` serves it once).

    The same data as ``plain(domain.state_to_dict(state))`` less the catalog (a unit test holds them equal),
    made in one pass with an encoder per type: this runs for every answer about a game, recording a move
    included, and was most of that answer's cost."""
    encode = _BOARD_ENCODERS.get(type(state))
    if encode is None:
        encode = _BOARD_ENCODERS.setdefault(type(state), _dataclass_encoder(type(state), skip="catalog"))
    result: dict[str, Any] = encode(state)
    return result


_ENCODERS: dict[type, Callable[[Any], Any]] = {}
_BOARD_ENCODERS: dict[type, Callable[[Any], Any]] = {}


def jsonable(value: Any) -> Any:
    """Any part of an engine state as JSON data, as ``plain(domain.serial.to_json(value))`` gives it."""
    kind = type(value)
    encoder = _ENCODERS.get(kind)
    if encoder is None:
        encoder = _ENCODERS.setdefault(kind, _encoder_for(kind))
    return encoder(value)


def _same(value: Any) -> Any:
    return value


_MISSING = object()
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


MEMO_SIZE = 2048
"""Encodings a record type keeps (see :func:`_dataclass_encoder`); past it, that type's memo starts afresh.
Every memo full took 10.7 MB (tracemalloc, 60 games, 5,463 states encoded)."""


def _dataclass_encoder(kind: type, skip: str | None = None) -> Callable[[Any], dict[str, Any]]:
    """A record's fields in order, its frame kind first; a field marked ``omit_default`` (domain.state) is
    left out while it holds its default, as the engine's own serialiser does.

    The engine's records are frozen and hold only tuples (domain.state), and a move replaces only the records
    on its way from the state down to what it changed: the next state shares every other record with the one
    before, object for object. So each encoder remembers its last ``MEMO_SIZE`` encodings by the record's
    identity (holding the record, so that its id cannot be reused) and encodes a record once: the board of an
    answer is made of the records the move replaced and the encodings of the others (a third of the time of
    encoding it all, measured over a whole game), and a state served twice costs one look-up. What this returns
    is therefore shared between answers: callers encode it to JSON and never change it."""
    fields = [
        (field.name, field.default if field.metadata.get("omit_default") else _MISSING)
        for field in dataclasses.fields(kind)
        if field.name != skip
    ]
    frame = KIND.get(kind)

    encoders = _ENCODERS
    # Most fields hold a number, a text or None: written as they are, without a call to jsonable (the board
    # is encoded for every answer about a game).
    plain_types = _PLAIN_TYPES
    memo: dict[int, tuple[Any, dict[str, Any]]] = {}

    def encode(value: Any) -> dict[str, Any]:
        known = memo.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        data: dict[str, Any] = {} if frame is None else {"frame": frame}
        for name, default in fields:
            item = getattr(value, name)
            if default is _MISSING or item != default:
                kind = type(item)
                if kind in plain_types:
                    data[name] = item
                else:
                    encoder = encoders.get(kind)
                    data[name] = encoder(item) if encoder is not None else jsonable(item)
        if len(memo) >= MEMO_SIZE:
            memo.clear()  # a bound, not a policy: the records of games still being played come back at once
        memo[id(value)] = (value, data)
        return data

    return encode


def _sequence_encoder(value: Any) -> list[Any]:
    plain_types = _PLAIN_TYPES
    return [item if type(item) in plain_types else jsonable(item) for item in value]


def _encoder_for(kind: type) -> Callable[[Any], Any]:
    if kind in _PLAIN_TYPES:
        return _same
    if issubclass(kind, enum.Enum):
        return lambda value: jsonable(value.value)
    if issubclass(kind, Icon):
        return str
    if issubclass(kind, Catalog):
        return lambda value: plain(value.to_dict())
    if dataclasses.is_dataclass(kind):
        return _dataclass_encoder(kind)
    if issubclass(kind, list | tuple):
        return _sequence_encoder
    if issubclass(kind, Mapping):
        return lambda value: {str(key): jsonable(item) for key, item in value.items()}
    if issubclass(kind, str | int | float):
        return _same
    return str


def names(game: Game) -> list[str]:
    return [seat["name"] for seat in game.setup["players"]]


def coordinates(state: Any) -> dict[str, Any]:
    coords = domain.coordinates(state)
    return {
        "round": int(coords.round),
        "turn": int(coords.turn),
        "seat": None if coords.seat is None else int(coords.seat),
        "phase": str(getattr(coords.phase, "value", coords.phase)),
    }


def prompt(state: Any) -> dict[str, Any]:
    """The pending prompt as ``{kind, seat, text, help, context}``: ``text`` is the question in words
    (`domain.prompt_text`), ``help`` what the question alone does not say ("" mostly: `domain.prompt_help`, a
    castle dealt again); whatever else the engine says about it (the pool a card is revealed from, the space
    being refilled...) is the context."""
    pending = plain(domain.prompt_of(state))
    context = pending.get("context")
    if not isinstance(context, dict):
        context = {key: value for key, value in pending.items() if key not in ("kind", "seat", "context")}
    return {
        "kind": str(pending.get("kind")),
        "seat": pending.get("seat"),
        "text": domain.prompt_text(state),
        "help": domain.prompt_help(state),
        "hint": words.hint({"kind": pending.get("kind"), "context": context}, state.catalog),
        "context": context,
    }


def payment_words(state: Any, moves: Sequence[Mapping[str, Any]]) -> list[str]:
    """Beside each legal move (in the listing's order), what its own words would not say: how a move listed with
    the seal conversions it needs is paid ("pay 2 coins + 1 seal", rules 0.3.0), "" for the others."""
    return [domain.payment_text(state, dict(move)) if "convert" in move else "" for move in moves]


def choices(
    game: Game,
    state: Any,
    pending: dict[str, Any] | None,
    moves: list[Any],
    payments: Sequence[str] | None = None,
    *,
    typed: Sequence[domain.Move] | None = None,
) -> list[dict[str, Any]]:
    """Each legal move as the pages offer it, in the order of ``moves`` (api.resources.words.choices): its
    words (with how it is paid when it includes seal conversions: ``payments``, see :func:`payment_words`), its
    group, the board part it acts on and its icons. ``typed``: the same moves as the engine listed them, when
    the caller has them (not parsed again)."""
    if not moves or pending is None:
        return []
    return words.choices(
        state,
        typed if typed is not None else moves,
        payments=payments if payments is not None else payment_words(state, moves),
    )


def catalog_words(game: Game) -> dict[str, Any]:
    """A game's words, served once with its catalog (api.resources.words.catalog_words)."""
    said = words.catalog_words(plain(game.catalog), board(game.state), names(game))
    # the parts an annotation may point at, named as the timeline names them (domain.part_text)
    annotated = [(kind, part) for kind, ids in domain.board_parts(game.state).items() for part in ids]
    for kind, part in annotated:
        said["parts"][f"{kind}:{part}"] = domain.part_text(game.state, kind, part)
    said["annotations"] = [f"{kind}:{part}" for kind, part in annotated]
    said["part_icons"] = {key: words.part_icon(key) for key in said["annotations"]}
    return said


def sheets(state: Any, players: Sequence[str]) -> list[dict[str, Any]]:
    return sheets_from(domain.score(state), players)


def sheets_from(scored: Sequence[Any], players: Sequence[str]) -> list[dict[str, Any]]:
    out = []
    for seat, sheet in enumerate(scored):
        data = plain(sheet.to_dict())
        name = players[seat] if seat < len(players) else data.get("name", f"Player {seat + 1}")
        # each line in the score pad's words (history.score_lines), with the icons of what it counts
        fields = [key for key in data if key not in history.SHEET_FIELDS]
        matcha = "geishas" in data
        out.append(
            {
                "seat": seat,
                "player": str(name),
                "lines": [
                    {"label": label, "points": points, "icons": words.sheet_icons(key, matcha)}
                    for key, (label, points) in zip(fields, history.score_lines(data), strict=True)
                ],
                "total": data["total"],
                "rank": data["rank"],
            }
        )
    return out


def game_view(game: Game, pending: dict[str, Any] | None = None) -> dict[str, Any]:
    """The game as GameSchema has it. ``pending`` is its :func:`prompt` when the caller already has it (an
    answer that carries the legal moves too shows the prompt twice, and working it out is not free)."""
    setup = game.setup
    view = {
        "game_id": str(game.id),
        "title": setup["title"],
        "players": [player_view(seat) for seat in setup["players"]],
        "mode": setup["mode"],
        "seed": setup.get("seed"),
        "options": plain(setup.get("options") or {}),
        "expansions": list(setup.get("expansions") or []),
        "private": bool(setup.get("private")),
        "parent": plain(game.parent) if game.parent else None,
        "rules_version": game.rules_version,
        "catalog_override": bool(setup.get("catalog_override")),
        "created_on": game.created_on.isoformat(),
        "modified_on": game.modified_on.isoformat(),
        "version": game.version,
        "status": game.status,
        "over": bool(domain.is_over(game.state)),
        "moves": len(game.line),
        "can_undo": bool(game.line) and game.abandoned is None,
        "redoable": len(game.redo) if game.abandoned is None else 0,
        "coordinates": coordinates(game.state),
        "prompt": prompt(game.state) if pending is None else pending,
        "abandoned": plain(game.abandoned.to_dict()) if game.abandoned else None,
        "state": board(game.state),
    }
    if setup.get("solo"):
        view["solo"] = setup["solo"]
    return view


def player_view(seat: Mapping[str, Any]) -> dict[str, Any]:
    """A seat as the API lists it: name and colour, and ``automatic`` for the seat the engine plays."""
    view = {"name": seat["name"], "colour": seat["colour"]}
    return {**view, "automatic": True} if seat.get("automatic") else view


def author_name(game: Game, author: str) -> str:
    """A readable name for an actor: the seat's player, or the owner."""
    if author.startswith("seat:"):
        try:
            return str(names(game)[int(author.split(":", 1)[1])])
        except (ValueError, IndexError):
            return author
    return author


def annotation_view(game: Game, annotation: Annotation, grant: Grant | None) -> dict[str, Any]:
    """An annotation as the API shows it, with its author's name and whether the token that asked may change it
    (``yours``: the owner's token, or the very token that wrote it; a seat's later holder may not)."""
    data = annotation.to_dict()
    data["author_name"] = author_name(game, annotation.author)
    data["yours"] = grant is not None and annotation.changeable_by(grant.role, grant.id)
    view: dict[str, Any] = plain(data)
    return view
