"""The catalog's schema: the type and bounds of every field a game's own catalog may set (docs/engine/catalog.md).

A catalog that comes from outside (an import's, a position's sent for analysis) is held to it before the rules read
it: whole numbers within the printed game's bounds or a documented maximum, texts and lists of bounded length, and
no deeper or larger than a real catalog. What the rules make of a field (a known icon, a room that exists) is the
parser's business (`domain.catalog`). A field the schema does not name is a note (``source``, ``verified``), kept
as it is within the same bounds. Games already stored are not held to it: they keep reading as recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from domain.errors import InvalidSetup

MAX_DEPTH = 10
"""Levels of nesting (the packaged catalog has 7)."""
MAX_VALUES = 20_000
"""Values in the whole catalog, every text, number, list and object counted (the packaged one, with Matcha and
the solo deck, has 2,527)."""
MAX_TEXT = 1_000
"""Characters of a text or a field's name (the longest packaged, a source note, has 389)."""
MAX_ID = 40
"""Characters of a component's id (the packaged ones have at most 9)."""
MAX_ENTRIES = 60
"""Entries of one section: cards of a deck, tiles, spaces (the printed game's largest, ceremony faces, has 20)."""
MAX_ICONS = 12
"""Symbols in one list of symbols (the printed game's longest has 5)."""
MAX_AMOUNT = 10
"""An amount a symbol gives (``coin:7``) or a cost asks (the printed game's largest: 7 and 4)."""
MAX_POINTS = 20
"""The Clan Points of one thing: a garden, a Passage of Time space, a yard, a path space (printed: at most 15)."""
MAX_REPORTED = 20
"""Problems an error lists (``details.errors``); the count says how many there were."""


class Spec(Protocol):
    """One field's type and bounds: adds a problem for each way ``value`` falls outside them."""

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None: ...


def _problem(problems: list[dict[str, str]], at: str, message: str) -> None:
    problems.append({"field": at, "message": message})


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


@dataclass(frozen=True)
class Whole:
    """A whole number from ``low`` to ``high`` (never a boolean or a fraction)."""

    low: int
    high: int

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or not self.low <= value <= self.high:
            _problem(problems, at, f"a whole number from {self.low} to {self.high}, not {_shown(value)}")


@dataclass(frozen=True)
class Text:
    """A text of 1 to ``most`` characters."""

    most: int = MAX_TEXT

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, str) or not 1 <= len(value) <= self.most:
            _problem(problems, at, f"a text of 1 to {self.most} characters, not {_shown(value)}")


@dataclass(frozen=True)
class Flag:
    """true or false."""

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, bool):
            _problem(problems, at, f"true or false, not {_shown(value)}")


@dataclass(frozen=True)
class Maybe:
    """``inner``, or null."""

    inner: Spec

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if value is not None:
            self.inner.check(value, at, problems)


@dataclass(frozen=True)
class Icons:
    """A list of symbols in the catalog's notation (``food:2``, ``courtier``), each amount at most
    `MAX_AMOUNT` (which symbols exist is the parser's to say)."""

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, list) or len(value) > MAX_ICONS:
            _problem(problems, at, f"a list of at most {MAX_ICONS} symbols, not {_shown(value)}")
            return
        for index, icon in enumerate(value):
            name, _, amount = icon.partition(":") if isinstance(icon, str) else ("", "", "")
            if not name or len(icon) > MAX_ID:
                _problem(problems, f"{at}[{index}]", f"a symbol such as 'food:2', not {_shown(icon)}")
            elif amount.isdecimal() and int(amount) > MAX_AMOUNT:
                _problem(problems, f"{at}[{index}]", f"a symbol's amount is at most {MAX_AMOUNT}: {icon}")


@dataclass(frozen=True)
class Cost:
    """What must be paid: resource names to amounts from 0 to `MAX_AMOUNT`."""

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, Mapping) or len(value) > MAX_ICONS:
            _problem(problems, at, f"a cost such as {{'coin': 3}}, not {_shown(value)}")
            return
        for name, amount in value.items():
            Whole(0, MAX_AMOUNT).check(amount, f"{at}.{name}", problems)


@dataclass(frozen=True)
class ListOf:
    """A list of at most ``most`` items, each ``item``."""

    item: Spec
    most: int = MAX_ENTRIES

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, list) or len(value) > self.most:
            _problem(problems, at, f"a list of at most {self.most} entries, not {_shown(value)}")
            return
        for index, item in enumerate(value):
            self.item.check(item, f"{at}[{index}]", problems)


@dataclass(frozen=True)
class Pair:
    """A list of two: ``first`` and ``second`` (a castle space: room and position)."""

    first: Spec
    second: Spec

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, list) or len(value) != 2:
            _problem(problems, at, f"a pair [a, b], not {_shown(value)}")
            return
        self.first.check(value[0], f"{at}[0]", problems)
        self.second.check(value[1], f"{at}[1]", problems)


@dataclass(frozen=True)
class MapOf:
    """An object of at most ``most`` fields, each ``value``; with ``numbered``, its names are whole numbers from
    ``numbered.low`` to ``numbered.high`` written as text (``"11"``)."""

    value: Spec
    most: int = MAX_ENTRIES
    numbered: Whole | None = None

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, Mapping) or len(value) > self.most:
            _problem(problems, at, f"an object of at most {self.most} fields, not {_shown(value)}")
            return
        for name, item in value.items():
            if self.numbered is not None and not (
                name.isdecimal() and len(name) < 5 and self.numbered.low <= int(name) <= self.numbered.high
            ):
                _problem(
                    problems, f"{at}.{name}", f"a number from {self.numbered.low} to {self.numbered.high}"
                )
                continue
            self.value.check(item, f"{at}.{name}", problems)


@dataclass(frozen=True)
class Obj:
    """An object whose named fields are each their spec; its other fields are notes."""

    fields: Mapping[str, Spec]

    def check(self, value: Any, at: str, problems: list[dict[str, str]]) -> None:
        if not isinstance(value, Mapping):
            _problem(problems, at or "catalog", f"an object, not {_shown(value)}")
            return
        for name, spec in self.fields.items():
            if name in value:
                spec.check(value[name], f"{at}.{name}" if at else name, problems)


ID = Text(MAX_ID)
WORD = Text(20)
"""A word of the catalog's vocabulary: a colour, a floor, a row's position, a face."""
ICONS = Icons()
COST = Cost()
DIE = Whole(1, 6)
"""A space's printed die value (R-P02)."""
RESOURCE = Whole(0, 7)
"""As many of a resource as a player may hold (R-R03)."""
POINTS = Whole(0, MAX_POINTS)
SPACE = Pair(ID, Whole(0, 2))
"""A die-tile space: a room and a position in it."""

_BLOCK = Obj({"rows": ListOf(WORD, 3), "background": WORD, "cost": COST, "effects": ICONS})
_CARD: dict[str, Spec] = {"id": ID, "lantern": ICONS, "diamond": Flag(), "expansion": WORD}
_ROOM_CARD = Obj({**_CARD, "blocks": ListOf(_BLOCK, 3)})
_CURTAINS = Obj({**_CARD, "yellow": ICONS, "blue": ICONS, "blue_cost": COST})

_MATCHA = Obj(
    {
        "tea_room": Obj({"spaces": ListOf(Obj({"id": ID, "value": DIE}), 4), "effects": ICONS}),
        "himeji": Obj(
            {"spaces": ListOf(Obj({"id": ID, "value": DIE, "curtains": ListOf(Pair(WORD, WORD), 4)}), 4)}
        ),
        "green_row": Obj({"id": ID, "colour": WORD, "rewards": ListOf(ICONS, 10), "token_cost": COST}),
        "geisha_action": Obj(
            {"entrance_cost": COST, "whisks_per_steps": MapOf(RESOURCE, 4, numbered=Whole(1, 4))}
        ),
        "whisk_track": Obj({"max": Whole(1, 7)}),
        "tea_garden": Obj(
            {
                "entrance_points": POINTS,
                "path": ListOf(Obj({"id": ID, "points": POINTS}), 6),
                "platform": Obj({"id": ID, "points": POINTS, "per_clan": Whole(1, 5)}),
                "pond_cost": COST,
                "pond_spaces": Whole(1, 8),
                "tea_house": Obj(
                    {
                        "per_clan_per_room": Whole(1, 5),
                        "points_per_member": POINTS,
                        "rooms": ListOf(Obj({"id": ID, "scores": WORD}), 6),
                    }
                ),
            }
        ),
        "first_game_yard": Obj({"target": ID, "tile": ID}),
    }
)

SCHEMA = Obj(
    {
        "meta": Obj({"catalog_version": Whole(0, 1_000_000)}),
        "stewards": ListOf(_ROOM_CARD),
        "diplomats": ListOf(_ROOM_CARD),
        "starting_actions": ListOf(Obj({**_CARD, "blocks": ListOf(_BLOCK, 3), "copies": Whole(1, 4)})),
        "starting_resources": ListOf(Obj({**_CARD, "gain": ICONS, "decree": Maybe(ID)})),
        "decrees": ListOf(Obj(_CARD)),
        "daimyo": ListOf(Obj({"id": ID, "spots": ListOf(ICONS, 6), "expansion": WORD})),
        "gardens": ListOf(
            Obj(
                {
                    "id": ID,
                    "type": WORD,
                    "food": RESOURCE,
                    "cp": POINTS,
                    "cost": COST,
                    "effects": ICONS,
                    "expansion": WORD,
                }
            )
        ),
        "yard_tiles": ListOf(Obj({"id": ID, "blue": ICONS, "yellow": ICONS, "expansion": WORD})),
        "die_tiles": ListOf(Obj({"id": ID, "colour": WORD, "reward": ICONS})),
        "castle": Obj(
            {
                "rooms": ListOf(Obj({"id": ID, "floor": WORD, "value": DIE, "tiles": Whole(1, 3)}), 10),
                "diamond_spaces": ListOf(SPACE, 30),
                "numbered_spaces": ListOf(SPACE, 30),
            }
        ),
        "outside_the_walls": ListOf(Obj({"id": ID, "value": DIE, "actions": ICONS}), 6),
        "well": Obj({"value": DIE, "effects": ICONS, "tiles": Whole(0, 10)}),
        "yards": ListOf(Obj({"id": ID, "iron": RESOURCE, "value": POINTS, "faces": ListOf(WORD, 2)}), 6),
        "passage_of_time": Obj(
            {
                "last_space": Whole(1, 40),
                "milestones": MapOf(Whole(0, MAX_AMOUNT), 41, numbered=Whole(0, 40)),
                "points": ListOf(POINTS, 41),
            }
        ),
        "domain": Obj(
            {
                "value": DIE,
                "rows": ListOf(
                    Obj(
                        {
                            "id": ID,
                            "member": WORD,
                            "colour": WORD,
                            "position": WORD,
                            "rewards": ListOf(ICONS, 10),
                        }
                    ),
                    4,
                ),
            }
        ),
        "first_game": Obj(
            {"rooms": MapOf(ID, 10), "die_tiles": MapOf(ListOf(WORD, 3), 10), "well_tiles": ListOf(ID, 10)}
        ),
        "solo_cards": ListOf(Obj({"id": ID, "bridge": WORD, "end": WORD, "space": ID, "icons": ICONS})),
        "matcha": _MATCHA,
        "lily_pads": ListOf(Obj({"id": ID, "effects": ICONS})),
        "ceremony_faces": ListOf(Obj({"id": ID, "effects": ICONS, "text": Text()})),
        "ceremony_tokens": ListOf(Obj({"id": ID, "blue": ID, "yellow": ID})),
        "ikebana": ListOf(_CURTAINS),
        "calligraphy": ListOf(_CURTAINS),
    }
)
"""Every field the rules read, with its type and bounds (an override names some of them; the parser says which
are required)."""


Where = tuple[Any, ...] | None
"""A place in the data as a chain of (the place above, the name or index there): made in one step per value,
spelt out only for a problem."""


def _spelt(where: Where) -> str:
    names: list[str] = []
    while where is not None:
        where, name = where
        names.append(f"[{name}]" if isinstance(name, int) else f".{name}")
    return "catalog" + "".join(reversed(names))


def bounds_problem(data: Any) -> str | None:
    """Why ``data`` is deeper, larger or wordier than any catalog (`MAX_DEPTH`, `MAX_VALUES`, `MAX_TEXT`), or
    None. Walked without recursion, so that however deep it is, the walk is not."""
    stack: list[tuple[Any, int, Where]] = [(data, 1, None)]
    values = 0
    while stack:
        value, depth, where = stack.pop()
        values += 1
        if depth > MAX_DEPTH:
            return f"the catalog is nested more than {MAX_DEPTH} levels deep (at {_spelt(where)})"
        if isinstance(value, str) and len(value) > MAX_TEXT:
            return f"{_spelt(where)}: a text of at most {MAX_TEXT:,} characters ({len(value):,} sent)"
        if isinstance(value, Mapping | list | tuple):
            values += len(value)
            if values > MAX_VALUES:
                return f"the catalog holds more than {MAX_VALUES:,} values"
        if isinstance(value, Mapping):
            for name, item in value.items():
                if not isinstance(name, str) or len(name) > MAX_TEXT:
                    return f"{_spelt(where)}: a field's name is a text of at most {MAX_TEXT:,} characters"
                stack.append((item, depth + 1, (where, name)))
        elif isinstance(value, list | tuple):
            stack.extend((item, depth + 1, (where, index)) for index, item in enumerate(value))
    return None


def check_catalog(data: Any) -> None:
    """Raise `InvalidSetup` when ``data`` (a whole catalog, or an override of some of its fields) does not fit
    the schema, listing each field that does not (``details.errors``: field and message, at most
    `MAX_REPORTED` of them; ``details.count``: how many). Costs one pass over the data."""
    beyond = bounds_problem(data)
    if beyond is not None:
        raise InvalidSetup(
            f"the catalog does not fit its schema: {beyond}",
            details={"errors": [{"field": "catalog", "message": beyond}], "count": 1},
        )
    problems: list[dict[str, str]] = []
    SCHEMA.check(data, "", problems)
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more: see details.errors)" if len(problems) > 1 else ""
        raise InvalidSetup(
            f"the catalog does not fit its schema: {first['field']}: {first['message']}{more}",
            details={"errors": problems[:MAX_REPORTED], "count": len(problems)},
        )
