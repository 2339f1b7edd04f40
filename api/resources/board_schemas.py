"""The board as OpenAPI components: the engine's state (`GameState`, every record under it, the prompt stack's
frames) and a prompt's context, generated from the engine's records (`api.resources.records`).

The state is what `domain.serial.state_to_dict` writes and `api.resources.present.board` serves (without its
catalog, served apart); a prompt's context is what `domain.serial.prompt_of` says beside a frame's own fields.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from typing import Any

from api.resources.records import Records, Schema, nullable, ref
from domain import prompts, state
from domain.areas.bridges import ENDS
from domain.catalog import HIMEJI_DECKS
from domain.game import RULES_VERSIONS
from domain.matcha.expansion import EXPANSIONS
from domain.solo.cards import GARDEN_TYPES
from domain.solo.game import DIFFICULTIES, SCORING
from domain.vocabulary import Resource

RENAMED = {state.Player: "Clan", prompts.Option: "MenuEntry", state.Board: "MainBoard"}
"""Records whose own name is another component's (or says too little in a document of many)."""

OVER = "over"
"""The prompt kind once the game is over (no frame is left)."""


def component_name(cls: type) -> str:
    """A record's component name: its own, a frame's with ``Frame`` after it (`DealCard` -> `DealCardFrame`)."""
    if cls in RENAMED:
        return RENAMED[cls]
    return cls.__name__ + ("Frame" if cls in prompts.KIND else "")


def _one_of(values: typing.Iterable[Any]) -> Schema:
    return {"type": "string", "enum": list(values)}


def _options() -> dict[tuple[type, str], Schema]:
    typed: dict[tuple[type, str], Schema] = {}
    for name, values in state.OPTION_VALUES.items():
        typed[(state.Options, name)] = (
            {"type": "boolean"} if all(isinstance(v, bool) for v in values) else _one_of(values)
        )
    return typed


CLOSED: dict[tuple[type, str], Schema] = {
    **_options(),
    (state.GameState, "rules_version"): _one_of(RULES_VERSIONS),
    (state.Rules, "expansions"): {"type": "array", "items": _one_of(EXPANSIONS)},
    (state.Held, "end"): _one_of(ENDS),
    (state.GardenSlot, "type"): _one_of(GARDEN_TYPES),
    (state.HimejiDeck, "id"): _one_of(HIMEJI_DECKS),
    (state.Solo, "difficulty"): _one_of(DIFFICULTIES),
    (state.Solo, "scoring"): _one_of(SCORING),
    (prompts.HimejiCard, "purpose"): _one_of(("path", "both")),
    (prompts.TakeCurtainCard, "deck"): _one_of(HIMEJI_DECKS),
}
"""Strings of the state from a closed set (the domain's constants), typed as enums."""


def _tag(cls: type) -> tuple[str, str] | None:
    kind = prompts.KIND.get(cls)
    return None if kind is None else ("frame", kind)


@functools.cache
def _records() -> Records:
    from api.resources.catalog_schemas import CATALOG

    records = Records(
        component_name,
        overrides={**CLOSED, (state.GameState, "catalog"): ref(CATALOG)},
        tag=_tag,
        localns={"Frame": prompts.Frame},
    )
    records.record(state.GameState)
    catalog = records.components["GameState"]
    # the catalog is served apart (GET /api/games/{id}/catalog): the board the API answers has none
    catalog["required"].remove("catalog")
    catalog["properties"]["catalog"] = {
        "allOf": [ref(CATALOG)],
        "description": "absent from the API's answers (GET /api/games/{id}/catalog serves it once); "
        "POST /api/analyse takes a state with it, or with the catalog beside it",
    }
    records.components["Frame"] = {
        "description": "a pending frame of the prompt stack: what the engine waits for (the last one) and the "
        "automatic steps between, told apart by `frame`",
        **records.of(prompts.Frame),
    }
    _context(records)
    return records


def _context(records: Records) -> None:
    """``PromptContext``: every member a prompt's context may have, each frame's fields (but its seat) and what
    `domain.serial.prompt_of` adds."""
    properties: dict[str, Schema] = {}
    seen_in: dict[str, list[str]] = {}
    frames = [cls for cls in prompts.KIND if dataclasses.is_dataclass(cls)]
    for cls in frames:
        component = records.components[component_name(cls)]
        for name, schema in component["properties"].items():
            if name in ("frame", "seat"):
                continue
            seen_in.setdefault(name, []).append(prompts.KIND[cls])
            if name in CONTEXT_ADDED:
                continue
            bare = {key: value for key, value in schema.items() if key != "description"}
            known = properties.get(name)
            if known is None:
                properties[name] = schema
            elif {k: v for k, v in known.items() if k != "description"} != bare:
                # two frames type the field apart (a sequence's icons, the solo rival's symbols): either
                arms = known.get("anyOf", [known])
                properties[name] = {"anyOf": [*arms, bare]}
    for name, schema in CONTEXT_ADDED.items():
        properties[name] = schema
    for name, kinds in seen_in.items():
        if name not in CONTEXT_ADDED and "description" not in properties[name]:
            properties[name] = {**properties[name], "description": f"with {', '.join(kinds)}"}
    records.components["PromptContext"] = {
        "type": "object",
        "description": "what a prompt's kind waits on: the pending frame's own fields (named in the prompt "
        "stack's frames, `GameState.stack`) and what the engine adds for the question; every member is "
        "present with the kinds that have it, absent otherwise",
        "properties": properties,
        "additionalProperties": False,
    }
    records.components["MenuChoice"] = MENU_CHOICE


MENU_CHOICE: Schema = {
    "type": "object",
    "description": "an entry of an `actions` prompt's menu, as a page offers it",
    "required": ["id", "cost", "icons", "text", "used"],
    "properties": {
        "id": {"type": "string", "description": "what `choose` names (its `option`)"},
        "cost": {
            "type": "object",
            "description": "what it costs, resource by resource",
            "properties": {resource.value: {"type": "integer"} for resource in Resource},
            "additionalProperties": False,
        },
        "icons": {"type": "array", "items": {"$ref": "#/components/schemas/Icon"}},
        "text": {"type": "string", "description": "the entry in words, with its price"},
        "used": {"type": "boolean", "description": "taken already (each entry is taken at most once)"},
    },
    "additionalProperties": False,
}

CONTEXT_ADDED: dict[str, Schema] = {
    "die": {"allOf": [ref("Held")], "description": "place_die: the die held"},
    "space": {"type": "integer", "description": "milestone: the Passage of Time space reached"},
    "seals": nullable(
        {"type": "integer", "description": "milestone: the seals that milestone asks (null: none)"}
    ),
    "dice": {"type": "integer", "description": "roll: how many dice a bridge rolls (n + 1, R-S07)"},
    "bridges": {
        "type": "array",
        "items": {"type": "string"},
        "description": "roll at the end of a round: the bridges rolled one after another from here (R-E04)",
    },
    "options": {
        "type": "array",
        "items": ref("MenuChoice"),
        "description": "actions: the menu's entries in order",
    },
    "automatic": {
        "type": "boolean",
        "description": "present (true) in the solo rival's turn: chance reveals its cards, the player answers "
        "the choices made for it (R-SO05)",
    },
    "rival": {"type": "integer", "description": "the solo rival's seat (in its turn, and on its frames)"},
}
"""What `domain.serial.prompt_of` adds to a frame's fields (``options`` replaces the menu's own)."""

PROMPT_KINDS = [*prompts.KIND.values(), OVER]
"""Every prompt kind: a frame's name, or ``over``."""


def board_components() -> dict[str, Schema]:
    """The board's components: ``GameState`` and every record under it, ``Frame``, ``PromptContext``,
    ``MenuChoice``, and ``Icon``."""
    from api.resources.records import icon_schema

    components = dict(_records().components)
    components["Icon"] = icon_schema()
    return components


def icon_refs(node: Any) -> Any:
    """Every icon's schema as a reference to the one ``Icon`` component."""
    from api.resources.records import icon_schema

    icon = icon_schema()
    if node == icon:
        return ref("Icon")
    if isinstance(node, dict):
        return {key: icon_refs(value) for key, value in node.items()}
    if isinstance(node, list):
        return [icon_refs(item) for item in node]
    return node
