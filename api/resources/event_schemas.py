"""A game's events as OpenAPI components (``GET /api/games/{id}/changes``, the event stream, the JSON export),
generated from the event records (`replay.events`) as `replay.exports.event_to_dict` writes them: ``type`` (the
record's name), ``version``, ``at`` and ``data`` (the record's own fields)."""

from __future__ import annotations

import functools

from api.resources.records import Records, Schema, nullable, ref
from replay import events

MOVES: Schema = {"type": "array", "items": ref("Move")}

REWRITTEN: Schema = {
    "type": "object",
    "description": "kept move's version → the move said anew in its place (another seat, the bridge's other end)",
    "additionalProperties": ref("Move"),
}

PAYLOADS: dict[tuple[type, str], Schema] = {
    (events.GameCreated, "setup"): ref("Setup"),
    (events.GameCreated, "catalog"): ref("ComponentCatalog"),
    (events.GameCreated, "opening"): {**MOVES, "description": "the setup's chance outcomes (seeded games)"},
    (events.GameCreated, "parent"): nullable(ref("Parent")),
    (events.MovePlayed, "move"): ref("Move"),
    (events.MovePlayed, "chance"): {**MOVES, "description": "the chance outcomes drawn after it"},
    (events.MoveResolved, "move"): ref("Move"),
    (events.MoveResolved, "chance"): MOVES,
    (events.MoveAmended, "move"): ref("Move"),
    (events.MoveAmended, "chance"): MOVES,
    (events.MoveAmended, "redrawn"): {
        "type": "object",
        "description": "kept move's version → the chance outcomes drawn again after it",
        "additionalProperties": MOVES,
    },
    (events.MoveAmended, "resolutions"): {"type": "array", "items": ref("ResolutionRecord")},
    (events.MoveAmended, "rewritten"): REWRITTEN,
    (events.LineCorrected, "correction"): {"type": "string", "enum": list(events.CORRECTIONS)},
    (events.LineCorrected, "opening"): nullable({**MOVES, "description": "the setup's chance outcomes anew"}),
    (events.LineCorrected, "redrawn"): {
        "type": "object",
        "description": "kept move's version → the chance outcomes drawn again after it",
        "additionalProperties": MOVES,
    },
    (events.LineCorrected, "rewritten"): REWRITTEN,
    (events.LineCorrected, "resolutions"): {"type": "array", "items": ref("ResolutionRecord")},
    (events.AnnotationAdded, "target"): nullable(ref("Target")),
    (events.AnnotationEdited, "target"): nullable(ref("Target")),
}
"""The payload fields typed ``dict[str, Any]`` in the records: what they hold."""

HEADER = frozenset({"originator_id", "originator_version", "timestamp"})

RESOLUTION_RECORD: Schema = {
    "type": "object",
    "description": "a misfit an amendment resolved: its place in the line, its version, the moves really played "
    "in its place, and whether the recorded move stays after them",
    "required": ["index", "version", "moves", "kept"],
    "properties": {
        "index": {"type": "integer"},
        "version": {"type": "integer"},
        "moves": MOVES,
        "kept": {"type": "boolean"},
    },
    "additionalProperties": False,
}


def _data_name(cls: type) -> str:
    return cls.__name__ + "Data"


@functools.cache
def event_components() -> dict[str, Schema]:
    """``ChangeEvent`` (a game stream's event, told apart by ``type``), ``AnnotationEvent`` (an annotation
    stream's, in the JSON export), one component per event type and one per payload."""
    records = Records(
        _data_name,
        overrides=PAYLOADS,
        skip={cls: HEADER for cls in (*events.GAME_EVENTS, *events.ANNOTATION_EVENTS)},
    )
    components: dict[str, Schema] = {"ResolutionRecord": RESOLUTION_RECORD}
    for union, members in (
        ("ChangeEvent", events.GAME_EVENTS),
        ("AnnotationEvent", events.ANNOTATION_EVENTS),
    ):
        mapping: dict[str, str] = {}
        for cls in members:
            name = cls.__name__
            components[name] = {
                "type": "object",
                "description": records.components.get(_data_name(cls), {}).get("description")
                or " ".join((cls.__doc__ or name).split("\n\n")[0].split()),
                "required": ["type", "version", "at", "data"],
                "properties": {
                    "type": {"type": "string", "enum": [name]},
                    "version": {"type": "integer", "description": "its version in its stream"},
                    "at": {"type": "string", "format": "date-time", "description": "when it was decided"},
                    "data": ref(records.record(cls)),
                },
                "additionalProperties": False,
            }
            mapping[name] = ref(name)["$ref"]
        components[union] = {
            "description": f"an event of a game's {'annotations' if union == 'AnnotationEvent' else 'stream'}, "
            "told apart by `type`",
            "oneOf": [{"$ref": target} for target in mapping.values()],
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }
    for name, schema in records.components.items():
        schema.pop("description", None)  # said once, on the event itself
        components[name] = schema
    return components
