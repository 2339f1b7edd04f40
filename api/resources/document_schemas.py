"""Components of the OpenAPI document that marshmallow does not describe, written as JSON schemas: a new game's
players and options, a game's setup, score-sheet tallies, an error's details, and the exports (the JSON log, the
BG Stats file and link).

Each holds the names of the module that reads or writes that shape (its constants, never copies), and the unit
tests validate real answers against them.
"""

from __future__ import annotations

from typing import Any

from api.resources.records import Schema, nullable, ref
from domain.matcha.expansion import EXPANSIONS
from domain.scoring import MATCHA_KEYS, PLAYER_KEYS
from domain.solo.game import DIFFICULTIES, SCORING
from domain.state import OPTION_VALUES
from domain.vocabulary import Floor, Mode

INTEGER: Schema = {"type": "integer"}
STRING: Schema = {"type": "string"}
BOOLEAN: Schema = {"type": "boolean"}
COUNT: Schema = {"type": "integer", "minimum": 0}


def _option(values: tuple[Any, ...]) -> Schema:
    if all(isinstance(value, bool) for value in values):
        return {"type": "boolean"}
    return {"type": "string", "enum": list(values)}


SETUP_OPTIONS: Schema = {
    "type": "object",
    "description": "the rules options a game is set up with, each left out at its default "
    "(docs/rules/decisions.md); `rival_scoring` in a solo game only",
    "properties": {
        **{name: {**_option(values), "default": values[0]} for name, values in OPTION_VALUES.items()},
        "rival_scoring": {
            "type": "string",
            "enum": list(SCORING),
            "default": SCORING[0],
            "description": "a solo game: the rival's score is its whole sheet, or its CP only",
        },
    },
    "additionalProperties": False,
}

NEW_PLAYER: Schema = {
    "type": "object",
    "description": "a player: a name, and a colour (the first colour nobody chose, when left out)",
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 40},
        "colour": {"type": "string", "maxLength": 20},
    },
    "additionalProperties": False,
}

NEW_PLAYERS: Schema = {
    "description": "the players in seat order: a count (they are named Player 1, Player 2...), their names, or "
    "{name, colour} objects; a solo game names its one player (the rival takes the second seat)",
    "oneOf": [
        {"type": "integer", "minimum": 1, "maximum": 4, "description": "how many players"},
        {
            "type": "array",
            "description": "the players' names",
            "items": {"type": "string", "minLength": 1, "maxLength": 40},
            "minItems": 1,
            "maxItems": 4,
        },
        {
            "type": "array",
            "description": "each player's name and colour",
            "items": ref("NewPlayer"),
            "minItems": 1,
            "maxItems": 4,
        },
    ],
}

SETUP: Schema = {
    "type": "object",
    "description": "a game's setup as its first event holds it (docs/architecture/events.md)",
    "required": ["players", "mode", "seed", "options", "title", "private"],
    "properties": {
        "players": {"type": "array", "items": ref("Player")},
        "mode": {"type": "string", "enum": [mode.value for mode in Mode]},
        "seed": nullable(INTEGER),
        "options": ref("SetupOptions"),
        "title": STRING,
        "private": BOOLEAN,
        "expansions": {"type": "array", "items": {"type": "string", "enum": list(EXPANSIONS)}},
        "solo": {"type": "string", "enum": list(DIFFICULTIES)},
        "catalog_override": {
            "type": "boolean",
            "description": "present (true): played with a catalog of its own",
        },
    },
    "additionalProperties": False,
}

_TALLY_TYPES: dict[str, Schema] = {
    "name": STRING,
    "courtiers": {
        "type": "object",
        "description": "courtiers by floor",
        "properties": {floor.value: COUNT for floor in Floor},
        "additionalProperties": False,
    },
    "warriors": {
        "type": "object",
        "description": "warriors by yard (yard_1...)",
        "additionalProperties": COUNT,
    },
    "gardeners": {"type": "array", "description": "the garden cards with a gardener (ids)", "items": STRING},
    "geishas": {
        "type": "object",
        "description": "Matcha: geishas by place (entrance, viewing_platform, path_1, path_2, the Tea House rooms)",
        "additionalProperties": COUNT,
    },
    "turn_order": {"type": "integer", "minimum": 1, "description": "1 = first on the final turn order"},
}

TALLIES: Schema = {
    "type": "object",
    "description": "one player's end-of-game tallies (see scoreSheets); missing counts are 0",
    "properties": {key: _TALLY_TYPES.get(key, COUNT) for key in sorted(PLAYER_KEYS | MATCHA_KEYS)},
    "additionalProperties": False,
    "example": {"name": "Aiko", "cp": 41, "coins": 6, "seals": 2, "food": 3, "iron": 7, "pearl": 1},
}

LAYOUT_PROBLEM: Schema = {
    "type": "object",
    "required": ["field", "rule", "message"],
    "properties": {
        "field": {"type": "string", "description": "the layout's field, as castle.steward_2 or dice.coral"},
        "rule": nullable(STRING),
        "message": STRING,
    },
}

FIELD_MESSAGES: Schema = {
    "description": "a part's messages (`json`: the body is not JSON), or its fields' by name, each a list of "
    "messages or, for a nested field, its own fields' by name or index (not typed deeper: a recursive schema "
    "defeats some generators)",
    "anyOf": [
        {"type": "array", "items": STRING},
        {"type": "object", "additionalProperties": True},
    ],
}

ERROR_DETAILS: Schema = {
    "type": "object",
    "description": "what a client needs to recover; the members depend on the error code (docs/api/errors.md), "
    "those named here have these types, others name what the message speaks of",
    "properties": {
        "current_version": {"type": "integer", "description": "stale_version: the game's version now"},
        "fields": {
            "type": "object",
            "description": "invalid_request: where the request does not fit its schema, by part (json, query, "
            "headers) and field, with the messages",
            "additionalProperties": ref("FieldMessages"),
        },
        "errors": {
            "type": "array",
            "description": "invalid_layout: every problem of the layout",
            "items": LAYOUT_PROBLEM,
        },
        "field": {"type": "string", "description": "invalid_layout: the first problem's field"},
        "problems": {
            "type": "array",
            "description": "invalid_log: every problem of the imported log, with its position",
            "items": {
                "type": "object",
                "required": ["position", "message"],
                "properties": {
                    "position": {
                        "anyOf": [STRING, {"type": "integer"}],
                        "description": "where: an event's index, or a part of the document",
                    },
                    "message": STRING,
                },
                "additionalProperties": True,
            },
        },
        "supported": {"type": "array", "items": STRING, "description": "rules_version_unsupported"},
        "events": {"type": "integer", "description": "import_too_large: the events of the import"},
        "limit": {"type": "integer", "description": "import_too_large, payload_too_large: the limit"},
        "weight": {"type": "integer", "description": "rate_limited import: the writes it weighs"},
    },
    "additionalProperties": True,
}

# --- the exports -----------------------------------------------------------------------------------------------

GAME_LOG_EXPORT: Schema = {
    "type": "object",
    "description": "the full log of a game (format=json): POST /api/games/import takes it back",
    "required": [
        "format",
        "format_version",
        "game_id",
        "rules_version",
        "created_at",
        "setup",
        "catalog",
        "opening",
        "parent",
        "events",
        "annotations",
    ],
    "properties": {
        "format": {"type": "string", "enum": ["heronlog.game"]},
        "format_version": INTEGER,
        "game_id": STRING,
        "rules_version": STRING,
        "created_at": {"type": "string", "format": "date-time"},
        "setup": ref("Setup"),
        "catalog": ref("ComponentCatalog"),
        "opening": {"type": "array", "items": ref("Move")},
        "parent": nullable(ref("Parent")),
        "events": {
            "type": "array",
            "items": ref("ChangeEvent"),
            "description": "every event after the first",
        },
        "annotations": {"type": "array", "items": ref("AnnotationEvent")},
    },
    "additionalProperties": False,
}


def _object(description: str, properties: dict[str, Schema], optional: tuple[str, ...] = ()) -> Schema:
    schema: Schema = {"type": "object", "description": description, "properties": properties}
    required = [name for name in properties if name not in optional]
    if required:  # OpenAPI 3.0: a required list is never empty
        schema["required"] = required
    return {**schema, "additionalProperties": False}


BG_STATS: dict[str, Schema] = {
    "BGStatsExportFile": _object(
        "a BG Stats play file (format=bgstats): the shape of BG Stats' own export, integer ids; its importer "
        "matches the game and people by their uuids",
        {
            "about": STRING,
            "games": {"type": "array", "items": ref("BGStatsGame")},
            "players": {"type": "array", "items": ref("BGStatsExportPlayer")},
            "locations": {
                "type": "array",
                "items": ref("BGStatsLocation"),
                "description": "the place named by ?location=, or none",
            },
            "plays": {"type": "array", "items": ref("BGStatsPlay")},
            "userInfo": _object(
                "whose file it is: meRefId is the player of the seat named by ?me=, left out without it",
                {"meRefId": INTEGER},
                optional=("meRefId",),
            ),
        },
    ),
    "BGStatsGame": _object(
        "a game of the file: The White Castle, and Matcha when played with it",
        {
            "id": INTEGER,
            "uuid": STRING,
            "name": STRING,
            "bggName": STRING,
            "bggId": INTEGER,
            "bggYear": INTEGER,
            "highestWins": BOOLEAN,
            "noPoints": BOOLEAN,
            "cooperative": BOOLEAN,
            "usesTeams": BOOLEAN,
            "isBaseGame": INTEGER,
            "isExpansion": INTEGER,
            "modificationDate": STRING,
        },
    ),
    "BGStatsExportPlayer": _object(
        "a person (or the solo rival, metaData isNpc 1)",
        {
            "id": INTEGER,
            "uuid": STRING,
            "name": STRING,
            "isAnonymous": BOOLEAN,
            "bggUsername": STRING,
            "metaData": {"type": "string", "description": 'JSON text: {"isNpc": 0 or 1}'},
            "modificationDate": STRING,
        },
    ),
    "BGStatsLocation": _object(
        "where the game was played",
        {"id": INTEGER, "uuid": STRING, "name": STRING, "modificationDate": STRING},
    ),
    "BGStatsPlay": _object(
        "the play: its dates, length, scores and whether it counts (ignored: not finished)",
        {
            "uuid": STRING,
            "playDate": STRING,
            "entryDate": STRING,
            "modificationDate": STRING,
            "durationMin": INTEGER,
            "ignored": BOOLEAN,
            "manualWinner": BOOLEAN,
            "usesTeams": BOOLEAN,
            "rounds": INTEGER,
            "board": STRING,
            "comments": STRING,
            "locationRefId": {"type": "integer", "description": "present with ?location="},
            "gameRefId": INTEGER,
            "importPlayId": INTEGER,
            "bggId": INTEGER,
            "scoringSetting": INTEGER,
            "rating": INTEGER,
            "playerScores": {"type": "array", "items": ref("BGStatsScore")},
            "expansionPlays": {
                "type": "array",
                "items": _object("an expansion played", {"gameRefId": INTEGER, "bggId": INTEGER}),
            },
        },
        optional=("locationRefId",),
    ),
    "BGStatsScore": _object(
        "a seat's score in the play",
        {
            "playerRefId": INTEGER,
            "score": {"type": "string", "description": "the total, as text (as BG Stats writes it)"},
            "winner": BOOLEAN,
            "rank": INTEGER,
            "seatOrder": INTEGER,
            "startPlayer": BOOLEAN,
            "newPlayer": BOOLEAN,
            "role": STRING,
        },
    ),
    "BGStatsLink": _object(
        "BG Stats' create-play link of a finished game (format=bgstats-link), and its play",
        {
            "url": {"type": "string", "description": "https://app.bgstatsapp.com/createPlay.html?data=..."},
            "app_url": {"type": "string", "description": "the same link in the app's own scheme, bgstats://"},
            "play": ref("BGStatsLinkPlay"),
        },
    ),
    "BGStatsLinkPlay": _object(
        "the play the create-play link carries",
        {
            "sourceName": STRING,
            "sourcePlayId": STRING,
            "playDate": STRING,
            "durationMin": INTEGER,
            "board": STRING,
            "comments": STRING,
            "game": _object(
                "the game",
                {
                    "name": STRING,
                    "sourceGameId": STRING,
                    "bggId": INTEGER,
                    "highestWins": BOOLEAN,
                    "noPoints": BOOLEAN,
                },
            ),
            "players": {
                "type": "array",
                "items": _object(
                    "a person's result (the solo rival is left out)",
                    {
                        "name": STRING,
                        "sourcePlayerId": STRING,
                        "score": INTEGER,
                        "rank": INTEGER,
                        "winner": BOOLEAN,
                        "startPlayer": BOOLEAN,
                        "role": STRING,
                    },
                ),
            },
        },
    ),
}


def document_components() -> dict[str, Schema]:
    """Every component of this module, by name."""
    return {
        "SetupOptions": SETUP_OPTIONS,
        "NewPlayer": NEW_PLAYER,
        "NewPlayers": NEW_PLAYERS,
        "Setup": SETUP,
        "Tallies": TALLIES,
        "ErrorDetails": ERROR_DETAILS,
        "FieldMessages": FIELD_MESSAGES,
        "GameLogExport": GAME_LOG_EXPORT,
        **BG_STATS,
    }
