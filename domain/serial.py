"""States as JSON: `state_to_dict` and `state_from_dict`, and the pending prompt (`prompt_of`).

``state_from_dict(json.loads(json.dumps(state_to_dict(s)))) == s`` holds for every state; fields added after the
base game are left out while at their default, so older dictionaries load.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, Union

from domain.areas.bridges import dice_per_colour
from domain.catalog import Catalog, catalog_from_dict
from domain.errors import InvalidSetup
from domain.names import cost_text, icons_text
from domain.prompts import FRAME_TYPES, KIND, Frame, Menu, PlaceDie, Pot, RollBridge
from domain.state import GameState
from domain.vocabulary import Icon, Phase, parse_icon


@functools.cache
def _omitted(cls: type) -> dict[str, Any]:
    """The fields of a record left out of its JSON while they hold their default (`domain.state.OPTIONAL`)."""
    return {
        field.name: field.default for field in dataclasses.fields(cls) if field.metadata.get("omit_default")
    }


def to_json(value: Any) -> Any:
    """Any part of a state as JSON data."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Icon):
        return str(value)
    if isinstance(value, Catalog):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        omitted = _omitted(type(value))
        data = {
            field.name: to_json(getattr(value, field.name))
            for field in dataclasses.fields(value)
            if field.name not in omitted or getattr(value, field.name) != omitted[field.name]
        }
        if type(value) in KIND:
            return {"frame": KIND[type(value)], **data}
        return data
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    return value


def state_to_dict(state: GameState, *, catalog: bool = True) -> dict[str, Any]:
    """The whole state as JSON data; without its ``catalog`` key when ``catalog`` is false, for a caller that
    keeps the catalog apart (the game log's snapshots): the catalog never changes during a game, and turning
    it into JSON data again was most of the work."""
    if catalog:
        data: dict[str, Any] = to_json(state)
        return data
    # to_json's record case, less the catalog field (a GameState is no frame: no kind key).
    omitted = _omitted(GameState)
    return {
        field.name: to_json(getattr(state, field.name))
        for field in dataclasses.fields(state)
        if field.name != "catalog"
        and (field.name not in omitted or getattr(state, field.name) != omitted[field.name])
    }


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, localns={"Frame": Frame})


Converter = Callable[[Any], Any]
"""Rebuilds one value of a given type from its JSON data."""

_CONVERTERS: dict[Any, Converter] = {}
_BUILDING: dict[Any, Converter] = {}
_BUILD_LOCK = threading.RLock()


def from_json(tp: Any, value: Any) -> Any:
    """Rebuild a value of type `tp` from JSON data."""
    return _converter(tp)(value)


def _converter(tp: Any) -> Converter:
    """The converter of type `tp`, made once per type: reading a state asks the same few dozen types over and
    over, and working out each value's type from its annotation (``typing.get_origin`` per value) was most of
    the cost of reading a game back."""
    found = _CONVERTERS.get(tp)
    if found is not None:
        return found
    with _BUILD_LOCK:  # made by one thread, published whole
        found = _CONVERTERS.get(tp) or _BUILDING.get(tp)
        if found is not None:
            return found
        outermost = not _BUILDING
        # A type met again while its own converter is being made (a frame holding frames) is looked up when
        # called, by then published.
        _BUILDING[tp] = _published(tp)
        try:
            found = _BUILDING[tp] = _make(tp)
            if outermost:
                _CONVERTERS.update(_BUILDING)
        finally:
            if outermost:
                _BUILDING.clear()
    return found


def _published(tp: Any) -> Converter:
    def convert(value: Any) -> Any:
        return _CONVERTERS[tp](value)

    return convert


def _make(tp: Any) -> Converter:
    """A converter of `tp`, by the kind of type it is."""
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        return _union(typing.get_args(tp))
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _converter(args[0])
            return lambda value: tuple([item(part) for part in value])
        items = [_converter(arg) for arg in args]
        return lambda value: tuple([item(part) for item, part in zip(items, value, strict=True)])
    if tp is Any:
        return _same
    if tp is Icon:
        return parse_icon
    if tp is Catalog:
        return catalog_from_dict
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _record(tp)
    if tp in (int, str, bool):
        return functools.partial(_checked, tp)
    return _same


def _same(value: Any) -> Any:
    return value


def _checked(tp: type, value: Any) -> Any:
    if not isinstance(value, tp):
        raise TypeError(f"expected {tp.__name__}, got {value!r}")
    return value


def _union(args: tuple[Any, ...]) -> Converter:
    """A value of one of ``args``: None when it may be; a frame by its ``frame`` key; a die colour by which
    enum has it (the castle's three, or green: DieColour); else the first type."""
    optional = type(None) in args
    candidates = [arg for arg in args if arg is not type(None)]
    enums: list[type[Enum]] = []
    if len(candidates) > 1 and all(isinstance(c, type) and issubclass(c, Enum) for c in candidates):
        enums = candidates
    first = None if enums else _converter(candidates[0])

    def convert(value: Any) -> Any:
        if value is None and optional:
            return None
        if isinstance(value, dict) and "frame" in value:
            return _converter(FRAME_TYPES[value["frame"]])(value)
        if first is not None:
            return first(value)
        for enum in enums:
            if value in {member.value for member in enum}:
                return enum(value)
        raise ValueError(f"{value!r} is none of {[c.__name__ for c in enums]}")

    return convert


def _record(tp: type) -> Converter:
    """A record from its JSON object: each field by its type's converter, a field left out at its default when
    it may be (`_omitted`)."""
    hints = _hints(tp)
    omitted = _omitted(tp)
    fields = [
        (field.name, _converter(hints[field.name]), field.name in omitted, omitted.get(field.name))
        for field in dataclasses.fields(tp)
    ]

    def convert(value: Any) -> Any:
        return tp(
            **{
                name: field_of(value[name]) if not optional or name in value else default
                for name, field_of, optional, default in fields
            }
        )

    return convert


def state_from_dict(data: dict[str, Any]) -> GameState:
    """A state from `state_to_dict`'s output (InvalidSetup if it is not one)."""
    try:
        state: GameState = from_json(GameState, data)
    except InvalidSetup:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise InvalidSetup(f"not a heronlog game state: {type(error).__name__}: {error}") from None
    return state


def _rolled_next(state: GameState) -> list[str]:
    """The colours of the roll prompts at the top of the stack, the pending one first."""
    colours = []
    for frame in reversed(state.stack):
        if not isinstance(frame, RollBridge):
            break
        colours.append(frame.bridge.value)
    return colours


def prompt_of(state: GameState) -> dict[str, Any]:
    """The pending prompt as JSON: its kind, the seat it waits on (None for chance) and its context."""
    if not state.stack:
        return {"kind": "over", "seat": None}
    frame = state.stack[-1]
    data = to_json(frame)
    data["kind"] = data.pop("frame")
    data.setdefault("seat", None)
    if isinstance(frame, PlaceDie) and state.held is not None:
        data["die"] = to_json(state.held)
    elif isinstance(frame, Pot):
        player = state.players[frame.seat]
        data["space"] = player.pot + 1
        data["seals"] = state.catalog.milestones.get(player.pot + 1)
    elif isinstance(frame, RollBridge):
        data["dice"] = dice_per_colour(state)
        if state.phase is Phase.END_OF_ROUND:
            # a round's reroll (R-E04): the bridges rolled one after another from here, so that a page can ask for
            # them on one form and record them as one batch (the setup's rolls come with the table's layout)
            data["bridges"] = _rolled_next(state)
    elif isinstance(frame, Menu):
        data["options"] = [
            {
                "id": option.id,
                "cost": {resource.value: amount for resource, amount in option.cost},
                "icons": [str(icon) for icon in option.icons],
                "text": (f"pay {cost_text(option.cost)}: " if option.cost else "") + icons_text(option.icons),
                "used": option.id in frame.used,
            }
            for option in frame.options
        ]
    if state.solo is not None:
        rival = state.solo.rival
        if state.phase is Phase.TURNS and state.turn_order[state.turn_index % len(state.players)] == rival:
            # The rival's turn: chance reveals its cards, the player answers the choices made for it (R-SO05).
            data["automatic"] = True
            data["rival"] = rival
    return {"kind": data.pop("kind"), "seat": data.pop("seat"), **data}
