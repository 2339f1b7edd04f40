"""What every move kind shares: the typed value a move is (`Move`: `PlayerMove` or `ChanceMove`), the `kind`
decorator that registers a kind and compiles its JSON form, and the `Table` a move's words are said at.

A move's JSON form is a flat object, ``{"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"}``; its
typed value is a frozen record of its kind, ``AscendMove(0, "gate", "steward_1")``, parsed once (`parse`, which
raises `InvalidMove` for anything malformed) and written back (`Move.as_json`) where the engine meets the
outside. A player's move may carry ``convert``: the seal conversions made just before it (rules 0.3.0, R-R02).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar, cast, get_type_hints

from domain.errors import InvalidMove
from domain.prompts import Frame
from domain.state import GameState
from domain.vocabulary import a

CONVERT = "convert"
"""The optional field of a player's move listing the seal conversions made just before it."""
INT, STR, BOOL, INTS = "int", "str", "bool", "list of int"
"""A field's type as errors and the OpenAPI document name it."""
_TYPES: dict[Any, str] = {int: INT, str: STR, bool: BOOL, tuple[int, ...]: INTS}

KINDS: dict[str, type[Move]] = {}
"""Every move kind by its name, in the order the kinds are defined: filled by `kind`."""


class Table(Protocol):
    """The game a move's words are said at: the state before the move, its pending prompt, and what the words
    need to know of the rules above the kinds (a die space's reference value, an ascent's price...). The move
    kinds sit low in the engine, so that the board's areas build and read their values; `domain.table`, above
    the areas, answers these questions for them."""

    @property
    def state(self) -> GameState: ...

    @property
    def frame(self) -> Frame | None:
        """The prompt the move answers (None once the game is over)."""

    def reference(self, space: str) -> int:
        """The value a die placed on `space` is compared to (R-P02)."""

    def ascent_pearl(self, seat: int, origin: str, to: str) -> int:
        """The pearl a courtier's climb from `origin` to `to` costs (R-CA02), 0 when it is not one."""

    def geisha_whisks(self, origin: str, to: str) -> int:
        """The whisks the pending Geisha action's advance costs (R-M08): 0 for a free step."""

    def advance_whisks(self, seat: int, origin: str, to: str) -> int | None:
        """The whisks of that advance among the seat's advances now, None when it is not one of them."""

    def die_tile_place(self, colour: str) -> str:
        """Where a die tile of `colour` goes, in words (R-S05)."""

    def die_tile_moved(self, colour: str) -> str:
        """Why a die tile of `colour` drawn now goes to another space than the one asked about (R-S05), "" when
        it does not."""

    def redeal(self, card: str) -> str:
        """After the castle's last card: why the castle is dealt again, if it is (R-S03), else ""."""


class Move:
    """A move of any kind: a frozen record of its kind's fields, told apart by its class (`kind` names it)."""

    __slots__ = ()
    kind: ClassVar[str]
    """The kind's name, the JSON form's ``kind``."""
    chance: ClassVar[bool] = False
    """Whether the move answers a chance prompt (its seat is None)."""
    convertible: ClassVar[bool] = False
    """Whether the move may carry the seal conversions made just before it (``convert``)."""
    acting: ClassVar[bool] = True
    """Whether the move does something (False: declining, converting seals), for players that prefer acting."""
    says_all: ClassVar[bool] = False
    """Whether its log sentence says everything it changed (nothing is added about what it did)."""
    pays_milestone: ClassVar[bool] = False
    """Whether the move is the payment at a milestone itself (its words say the seals, R-PT02)."""
    rival_plays: ClassVar[bool] = False
    """Whether the move is the solo rival's card revealed: its log line is what the rival did (R-SO03)."""
    heading: ClassVar[str] = "Choices"
    """The heading its button goes under, unless `group` says otherwise."""
    shape: ClassVar[dict[str, str]]
    """Its fields in the JSON form (besides kind and seat), with their types: filled by `kind`."""
    json_names: ClassVar[dict[str, str]]
    """Each field's name in the JSON form, by its name in the record: filled by `kind`."""
    seat: int | None
    convert: tuple[str, ...]

    def as_json(self) -> dict[str, Any]:
        """The move's JSON form (compiled for each kind by `kind`)."""
        raise NotImplementedError

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        """The typed move of a well-formed JSON form of this kind, else InvalidMove (see `parse`)."""
        return _checked(cls, data)

    @classmethod
    def form(cls, seat: int | None = None, **fields: Any) -> dict[str, Any]:
        """The JSON form of a move of this kind made of values not checked yet (a table layout's entries), each
        field named as the record names it; `parse` checks it as it checks any move."""
        return {
            "kind": cls.kind,
            "seat": seat,
            **{cls.json_names[name]: value for name, value in fields.items()},
        }

    @classmethod
    def trusted(cls, data: Mapping[str, Any]) -> Move:
        """The typed move of a JSON form known to be well formed (a recorded move): compiled by `kind`."""
        raise NotImplementedError

    def reseated(self, seats: Mapping[int, int]) -> Move:
        """The same move by the seat that really made it: ``seats`` says who really played what was recorded for
        each seat it names (a correction swapping two seats' moves, docs/api/amend.md)."""
        if self.seat is None or self.seat not in seats:
            return self
        changed: Move = dataclasses.replace(self, seat=seats[self.seat])  # type: ignore[type-var]
        return changed

    def converting(self, conversions: tuple[str, ...]) -> Move:
        """The same move with these seal conversions made just before it (a player's move only)."""
        changed: Move = dataclasses.replace(self, convert=conversions)  # type: ignore[type-var]
        return changed

    def who(self, state: GameState) -> str:
        """Who makes the move: the player's name, or "Chance"."""
        seat = self.seat
        return (
            state.players[seat].name if isinstance(seat, int) and 0 <= seat < len(state.players) else "Chance"
        )

    def said(self, table: Table) -> str:
        """The move's sentence in the game's log."""
        return f"{self.who(table.state)}: {self.kind}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        """What the move's own words already say it changed, counter by counter (the Player's fields: coins,
        food...; ``listed`` when its words name some of its gains), and whether they say every gain."""
        return {}, False

    def words(self, table: Table) -> str:
        """The move as its button says it: what it takes, where it goes and what it costs or gains."""
        return self.kind.replace("_", " ")

    def group(self) -> str:
        """The heading the move's button goes under."""
        return self.heading

    def target(self, table: Table) -> str | None:
        """The board part the move acts on (``kind:id``, `api.resources.words` tells the ids), None where the
        board has no place for it."""
        return None

    def icons(self, table: Table) -> list[str]:
        """The icons its button shows (in the catalog's icon notation)."""
        return []


@dataclass(frozen=True, slots=True)
class PlayerMove(Move):
    """A move a player makes: their seat (from 0) and, when allowed, the seal conversions made just before."""

    convertible: ClassVar[bool] = True
    seat: int
    convert: tuple[str, ...] = field(default=(), kw_only=True)


@dataclass(frozen=True, slots=True)
class ChanceMove(Move):
    """An outcome of chance (a card revealed, dice rolled): no seat."""

    chance: ClassVar[bool] = True
    seat: None = field(default=None, kw_only=True)
    convert: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)


M = TypeVar("M", bound=type[Move])


def json_name(spec: dataclasses.Field[Any]) -> str:
    """A field's name in the JSON form: its own, or the one it is given (``from`` is a Python keyword)."""
    return str(spec.metadata.get("json", spec.name))


FROM: Mapping[str, str] = {"json": "from"}
"""The metadata of a field named ``from`` in the JSON form (a Python keyword): ``origin: str =
field(metadata=FROM)``."""


def kind(name: str) -> Callable[[M], M]:
    """Register a move kind under `name` (a frozen dataclass with slots, subclass of `PlayerMove` or
    `ChanceMove`) and compile what the engine runs for every move: its constructor, its JSON form and the two
    ways back from it (checked, and trusted for recorded moves). Compiled once per kind, as `domain.state`
    compiles its records' ``replace``: the engine builds several moves for each one it applies."""

    def register(cls: M) -> M:
        assert name not in KINDS, f"move kind {name!r} is defined twice"
        cls.kind = name
        hints = get_type_hints(cls)
        own = [spec for spec in dataclasses.fields(cast(Any, cls)) if spec.name not in ("seat", "convert")]
        cls.shape = {json_name(spec): _TYPES[hints[spec.name]] for spec in own}
        cls.json_names = {spec.name: json_name(spec) for spec in own}
        _compile(cls, own)
        KINDS[name] = cls
        return cls

    return register


def _compile(cls: type[Move], own: list[dataclasses.Field[Any]]) -> None:
    """Write the kind's constructor, comparison and hash, `Move.as_json`, `Move.from_json` and `Move.trusted` as
    plain code for its own fields, and put them in the place of the generic ones (the comparison stops at the
    first field that differs, the dataclass's builds two tuples first). The constructor stores each field through its
    slot (a frozen dataclass's goes through ``object.__setattr__``, at twice the cost); ``from_json`` takes a
    well-formed move straight and leaves anything else to `_checked`, which says what is wrong."""
    names = [spec.name for spec in own]
    jsons = {spec.name: json_name(spec) for spec in own}
    types = {spec.name: cls.shape[json_name(spec)] for spec in own}
    player = not cls.chance
    namespace: dict[str, Any] = {
        "_tuple": tuple,
        "_list": list,
        "_cls": cls,
        "_new": object.__new__,
        "_checked": _checked,
        "_sequences": (list, tuple),
        "_exact": frozenset({"kind", "seat", *jsons.values()}),
        "_converting": frozenset({"kind", "seat", CONVERT, *jsons.values()}),
    }
    for slot in ("seat", "convert", *names):
        owner = next(c for c in cls.__mro__ if slot in c.__dict__)
        namespace[f"_set_{slot}"] = owner.__dict__[slot].__set__

    def stored(name: str) -> str:
        return f"_tuple(data[{jsons[name]!r}])" if types[name] == INTS else f"data[{jsons[name]!r}]"

    params = ", ".join(["self", *(["seat"] if player else []), *names])
    code = [f"def __init__({params}, *, {'convert=()' if player else 'seat=None'}):"]
    code += [f"    _set_{slot}(self, {slot})" for slot in ("seat", *names)]
    code.append(f"    _set_convert(self, {'convert' if player else '()'})")

    pairs = ", ".join(
        f"{jsons[n]!r}: _list(self.{n})" if types[n] == INTS else f"{jsons[n]!r}: self.{n}" for n in names
    )
    code += ["def as_json(self):", f"    data = {{'kind': {cls.kind!r}, 'seat': self.seat, {pairs}}}"]
    if cls.convertible:
        code += ["    if self.convert:", f"        data[{CONVERT!r}] = _list(self.convert)"]
    code.append("    return data")

    code += ["def trusted(cls, data):", "    move = _new(_cls)"]
    code += [f"    _set_{n}(move, {stored(n)})" for n in names]
    code.append("    _set_seat(move, data['seat'])" if player else "    _set_seat(move, None)")
    made = f"_tuple(data.get({CONVERT!r}) or ())" if cls.convertible else "()"
    code += [f"    _set_convert(move, {made})", "    return move"]

    wrong = {
        INT: "type({v}) is not int",
        STR: "type({v}) is not str",
        BOOL: "type({v}) is not bool",
        INTS: "type({v}) not in _sequences or any(type(x) is not int for x in {v})",
    }
    keys = "data.keys() != _exact" + (" and data.keys() != _converting" if cls.convertible else "")
    seat = "type(data['seat']) is not int or data['seat'] < 0" if player else "data['seat'] is not None"
    checks = [keys, seat, *(wrong[types[n]].format(v=f"data[{jsons[n]!r}]") for n in names)]
    if cls.convertible:
        checks.append(
            f"({CONVERT!r} in data and (type(data[{CONVERT!r}]) not in _sequences"
            f" or any(type(x) is not str for x in data[{CONVERT!r}])))"
        )
    code += ["def from_json(cls, data):"]
    code += [f"    if {check}:\n        return _checked(_cls, data)" for check in checks]
    code.append("    return trusted(cls, data)")

    compared = [*names, "seat", *(["convert"] if player else [])]  # own fields first: they tell moves apart
    same = " and ".join(f"self.{name} == other.{name}" for name in compared)
    code += [
        "def __eq__(self, other):",
        "    if other.__class__ is not self.__class__:",
        "        return NotImplemented",
        f"    return {same}",
        "def __hash__(self):",
        f"    return hash(({', '.join(f'self.{name}' for name in compared)},))",
    ]

    exec("\n".join(code), namespace)
    # the compiled functions take the place of the generic ones (type: ignore: mypy forbids assigning methods)
    cls.__init__ = namespace["__init__"]  # type: ignore[method-assign]
    cls.__eq__ = namespace["__eq__"]  # type: ignore[method-assign]
    cls.__hash__ = namespace["__hash__"]  # type: ignore[method-assign]
    cls.as_json = namespace["as_json"]  # type: ignore[method-assign]
    cls.trusted = classmethod(namespace["trusted"])  # type: ignore[method-assign, assignment]
    cls.from_json = classmethod(namespace["from_json"])  # type: ignore[method-assign, assignment]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(value: Any, typ: str) -> bool:
    if typ == INT:
        return _is_int(value)
    if typ == STR:
        return isinstance(value, str)
    if typ == BOOL:
        return isinstance(value, bool)
    return isinstance(value, list | tuple) and all(_is_int(item) for item in value)


def _checked(cls: type[Move], move: Mapping[str, Any]) -> Move:
    """The typed move of a JSON form whose kind is `cls`'s, or InvalidMove for a missing, unexpected or
    mistyped field (whether it is legal now is the engine's business)."""
    name, shape = cls.kind, cls.shape
    expected = {"kind", "seat", *shape}
    optional = {CONVERT} if cls.convertible else set()
    missing = sorted(expected - set(move))
    extra = sorted(str(key) for key in set(move) - expected - optional)
    if missing or extra:
        raise InvalidMove(
            f"{a(name)} move has the fields {sorted(expected)}",
            details={"missing": missing, "unexpected": extra},
        )
    seat = move["seat"]
    if cls.chance:
        if seat is not None:
            raise InvalidMove(f"{a(name)} move answers chance: its seat is null", details={"seat": seat})
    elif not _is_int(seat) or seat < 0:
        raise InvalidMove("seat is a seat index (0, 1, ...)", details={"seat": repr(seat)})
    for field_name, typ in shape.items():
        value = move[field_name]
        if not _typed(value, typ):
            raise InvalidMove(
                f"{name}.{field_name} must be a {typ}",
                details={"field": field_name, "value": repr(value)[:100]},
            )
    if CONVERT in move and cls.convertible:
        conversions = move[CONVERT]
        if not isinstance(conversions, list | tuple) or not all(isinstance(to, str) for to in conversions):
            raise InvalidMove(
                f"{name}.convert is a list of what each seal conversion buys (coin, food, iron, pearl, whisk)",
                details={"field": CONVERT, "value": repr(conversions)[:100]},
            )
    return cls.trusted(move)


def parse(move: Any) -> Move:
    """The typed value of a move's JSON form, or InvalidMove for anything malformed: not an object, an unknown
    kind, a missing, unexpected or mistyped field (whether it is legal now is the engine's business)."""
    if not isinstance(move, Mapping):
        raise InvalidMove(
            "a move is a JSON object with a kind and a seat", details={"move": repr(move)[:200]}
        )
    name = move.get("kind")
    cls = KINDS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise InvalidMove(f"unknown move kind {name!r}", details={"kinds": sorted(KINDS)})
    return cls.from_json(move)


def reseated(move: Mapping[str, Any], seats: Mapping[int, int]) -> dict[str, Any]:
    """A move's JSON form as made by the seat that really made it (`Move.reseated`): ``move`` itself when that
    changes nothing."""
    typed = parse(move)
    changed = typed.reseated(seats)
    return dict(move) if changed == typed else changed.as_json()


def capital(text: str) -> str:
    """The text with its first letter a capital (a button's words begin with one)."""
    return text[:1].upper() + text[1:]
