"""Moves: small flat JSON dictionaries, each with a ``kind`` and a ``seat`` (None for chance moves).

`SHAPES` lists the fields of every kind. `normalize` checks a move's shape and raises `InvalidMove` for
anything malformed (unknown kind, missing or unexpected field, wrong type); whether the move is legal now is
the engine's business. Examples (one per kind):

    {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}
    {"kind": "place_die", "seat": 0, "space": "steward_2"}       # steward_1..3, diplomat_1..2, outside_1..2,
                                                                  # well, domain
    {"kind": "choose", "seat": 0, "option": "top"}                # an entry of an actions menu
    {"kind": "rest", "seat": 0}                                   # the rest of a mandatory menu, default
                                                                  # order
    {"kind": "done", "seat": 0}                                   # decline what is left of an optional
                                                                  # action
    {"kind": "audience", "seat": 0}
    {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"}
    {"kind": "warrior", "seat": 0, "yard": "yard_2"}
    {"kind": "gardener", "seat": 0, "garden": "coral_plant"}
    {"kind": "domain_row", "seat": 0, "row": "courtiers"}
    {"kind": "resources", "seat": 0, "food": 1, "iron": 0, "pearl": 1}
    {"kind": "milestone", "seat": 0, "pay": True}
    {"kind": "daimyo_spot", "seat": 0, "spot": 2}
    {"kind": "choose_start", "seat": 0, "resource": "SR3"}
    {"kind": "convert", "seat": 0, "to": "coin"}                  # a free move: coin, food, iron or pearl
                                                                  # (or whisk, with Matcha)
    {"kind": "send_geisha", "seat": 0}                            # Matcha: Geisha action, Part A
    {"kind": "advance_geisha", "seat": 0, "from": "entrance", "to": "path_1"}   # Part B (also a free step)
    {"kind": "himeji_card", "seat": 0, "deck": "ikebana"}         # Matcha: the Ikebana or Calligraphy card
    {"kind": "reveal", "seat": None, "pool": "steward", "card": "S4"}
    {"kind": "die_tile", "seat": None, "colour": "coral"}
    {"kind": "well_tile", "seat": None, "tile": "T1"}
    {"kind": "roll", "seat": None, "bridge": "coral", "dice": [1, 2, 2, 5, 6]}
    {"kind": "stack_order", "seat": None, "order": [2, 0, 1]}
    {"kind": "solo_card", "seat": None, "card": "SO4"}            # the solo card the rival revealed
    {"kind": "rival_garden", "seat": 0, "garden": "white_plant"}  # a tie among gardens, for the rival
    {"kind": "rival_room", "seat": 0, "room": "steward_2"}        # the room the rival's courtier reaches
    {"kind": "choose_start_cards", "seat": 0, "resource": "SR3", "action": "A2", "token": "CT5"}  # Tokugawa
    {"kind": "rival_geisha", "seat": 0, "from": "entrance", "to": "path_1"}  # advance a Tokugawa geisha
    {"kind": "rival_discard", "seat": 0, "deck": "calligraphy"}   # the deck a Tokugawa geisha discards from

A player's move may carry ``"convert"``: the seal conversions made just before it, in order, as a list of what
each one buys (``{"kind": "place_die", "seat": 0, "space": "well", "convert": ["coin"]}``). Rules 0.3.0 list such
a move when the conversions are what makes it affordable (`domain.engine.legal_moves`, R-R02, decision C.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import InvalidMove
from domain.vocabulary import a

INT, STR, BOOL, INTS = "int", "str", "bool", "list of int"

SHAPES: dict[str, dict[str, str]] = {
    "take_die": {"bridge": STR, "end": STR},
    "place_die": {"space": STR},
    "choose": {"option": STR},
    "rest": {},
    "done": {},
    "audience": {},
    "ascend": {"from": STR, "to": STR},
    "warrior": {"yard": STR},
    "gardener": {"garden": STR},
    "domain_row": {"row": STR},
    "resources": {"food": INT, "iron": INT, "pearl": INT},
    "milestone": {"pay": BOOL},
    "daimyo_spot": {"spot": INT},
    "send_geisha": {},
    "advance_geisha": {"from": STR, "to": STR},
    "himeji_card": {"deck": STR},
    "choose_start": {"resource": STR},
    "convert": {"to": STR},
    "reveal": {"pool": STR, "card": STR},
    "die_tile": {"colour": STR},
    "well_tile": {"tile": STR},
    "roll": {"bridge": STR, "dice": INTS},
    "stack_order": {"order": INTS},
    "solo_card": {"card": STR},
    "rival_garden": {"garden": STR},
    "rival_room": {"room": STR},
    "choose_start_cards": {"resource": STR, "action": STR, "token": STR},
    "rival_geisha": {"from": STR, "to": STR},
    "rival_discard": {"deck": STR},
}
"""The fields of every move kind, besides ``kind`` and ``seat``."""

CHANCE_KINDS = frozenset({"reveal", "die_tile", "well_tile", "roll", "stack_order", "solo_card"})
"""Kinds answering chance prompts: their seat is None."""
CONVERT = "convert"
"""The optional field of a player's move listing the seal conversions made just before it (not on a chance move,
nor on a conversion itself)."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(value: Any, kind: str) -> bool:
    if kind == INT:
        return _is_int(value)
    if kind == STR:
        return isinstance(value, str)
    if kind == BOOL:
        return isinstance(value, bool)
    return isinstance(value, list | tuple) and all(_is_int(item) for item in value)


def normalize(move: Any) -> dict[str, Any]:
    """A plain dict copy of a well-formed move (lists for list fields), or InvalidMove."""
    if not isinstance(move, Mapping):
        raise InvalidMove(
            "a move is a JSON object with a kind and a seat", details={"move": repr(move)[:200]}
        )
    kind = move.get("kind")
    if not isinstance(kind, str) or kind not in SHAPES:
        raise InvalidMove(f"unknown move kind {kind!r}", details={"kinds": sorted(SHAPES)})
    fields = SHAPES[kind]
    expected = {"kind", "seat", *fields}
    optional = {CONVERT} if kind not in CHANCE_KINDS and kind != "convert" else set()
    missing = sorted(expected - set(move))
    extra = sorted(str(key) for key in set(move) - expected - optional)
    if missing or extra:
        raise InvalidMove(
            f"{a(kind)} move has the fields {sorted(expected)}",
            details={"missing": missing, "unexpected": extra},
        )
    seat = move["seat"]
    if kind in CHANCE_KINDS:
        if seat is not None:
            raise InvalidMove(f"{a(kind)} move answers chance: its seat is null", details={"seat": seat})
    elif not _is_int(seat) or seat < 0:
        raise InvalidMove("seat is a seat index (0, 1, ...)", details={"seat": repr(seat)})
    result: dict[str, Any] = {"kind": kind, "seat": seat}
    for name, typ in fields.items():
        value = move[name]
        if not _typed(value, typ):
            raise InvalidMove(
                f"{kind}.{name} must be a {typ}", details={"field": name, "value": repr(value)[:100]}
            )
        result[name] = list(value) if typ == INTS else value
    if CONVERT in move and kind not in CHANCE_KINDS and kind != "convert":
        conversions = move[CONVERT]
        if not isinstance(conversions, list | tuple) or not all(isinstance(to, str) for to in conversions):
            raise InvalidMove(
                f"{kind}.convert is a list of what each seal conversion buys (coin, food, iron, pearl, whisk)",
                details={"field": CONVERT, "value": repr(conversions)[:100]},
            )
        if conversions:  # an empty list converts nothing: the move is the plain one
            result[CONVERT] = list(conversions)
    return result
