"""The component catalog as OpenAPI components: the sections of the packaged catalog files (domain/catalog/), as
`domain.catalog` parses them, and as a game's state carries them (docs/engine/catalog.md).

The catalog is data the engine reads, not a record it writes, so its schema is written here section by section;
a unit test validates the catalog of every kind of game (base, Matcha, solo, Tokugawa) against it, so that a
section added to the files and missing here fails.
"""

from __future__ import annotations

from typing import Any

from api.resources.records import Schema, nullable, ref
from domain.catalog import ROW_POSITIONS
from domain.matcha.expansion import EXPANSIONS
from domain.solo.cards import GARDEN_TYPES
from domain.solo.game import ENDS
from domain.vocabulary import Colour, Floor, MatchaColour, Resource

CATALOG = "ComponentCatalog"

STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
BOOLEAN: Schema = {"type": "boolean"}
ICONS: Schema = {"type": "array", "items": ref("Icon")}
COST: Schema = {
    "type": "object",
    "description": "what it costs, resource by resource",
    "properties": {resource.value: {"type": "integer", "minimum": 0} for resource in Resource},
    "additionalProperties": False,
}
MEMBERS = ("courtier", "gardener", "warrior")

PROVENANCE: dict[str, Schema] = {
    "source": {"type": "string", "description": "where the entry's contents come from"},
    "verified": {"type": "boolean", "description": "whether they were checked against the printed component"},
    "expansion": {"type": "string", "enum": list(EXPANSIONS), "description": "the expansion it comes with"},
}
"""What every entry may say about itself."""


def strings(*values: str) -> Schema:
    return {"type": "string", "enum": list(values)}


def entry(description: str, required: dict[str, Schema], optional: dict[str, Schema] | None = None) -> Schema:
    """An object with these members (every one of ``required``), and the provenance members."""
    return {
        "type": "object",
        "description": description,
        "required": list(required),
        "properties": {**required, **(optional or {}), **PROVENANCE},
        "additionalProperties": False,
    }


def listed(name: str) -> Schema:
    return {"type": "array", "items": ref(name)}


def by_number(value: Schema) -> Schema:
    """An object keyed by whole numbers written as text (JSON keys), as ``{"1": 2, "2": 5}``."""
    return {"type": "object", "additionalProperties": value}


def notes(*sections: str) -> dict[str, Schema]:
    """The ``<section>_source`` and ``<section>_verified`` members that sit beside a section."""
    members: dict[str, Schema] = {}
    for section in sections:
        members[f"{section}_source"] = STRING
        members[f"{section}_verified"] = BOOLEAN
    return members


BLOCK = entry(
    "one block of a card: the rows it faces, its background, its cost and what it does (R-C03, R-C04)",
    {
        "rows": {"type": "array", "items": strings(*ROW_POSITIONS)},
        "background": strings("light", "dark"),
        "effects": ICONS,
    },
    {"cost": COST},
)

DIE_COLOURS = [colour.value for colour in (*Colour, *MatchaColour)]

CATALOG_ENTRIES: dict[str, Schema] = {
    "CatalogCard": entry(
        "a castle card (steward or diplomat, R-C03): its blocks and its lantern side, ♦ removed at 2 players",
        {"id": STRING, "diamond": BOOLEAN, "blocks": listed("CatalogBlock"), "lantern": ICONS},
    ),
    "CatalogBlock": BLOCK,
    "CatalogDaimyo": entry(
        "a Daimyo card: the icons of each favour spot (R-CA04)",
        {"id": STRING, "spots": {"type": "array", "items": ICONS}},
    ),
    "CatalogStartingResource": entry(
        "a Starting Resource card: what it gives, its Decree card if any, its lantern side (R-S12)",
        {"id": STRING, "gain": ICONS, "decree": nullable(STRING), "lantern": ICONS},
    ),
    "CatalogStartingAction": entry(
        "a Starting Action card (R-S12), and how many copies of it the box holds",
        {"id": STRING, "blocks": listed("CatalogBlock"), "lantern": ICONS},
        {"copies": {"type": "integer", "minimum": 1}},
    ),
    "CatalogDecree": entry("a Decree card: its lantern side (R-S12)", {"id": STRING, "lantern": ICONS}),
    "CatalogGarden": entry(
        "a garden card: food to place a gardener, CP at the end, its action and that action's cost (R-GA01)",
        {
            "id": STRING,
            "type": strings(*GARDEN_TYPES),
            "food": INTEGER,
            "cp": INTEGER,
            "effects": ICONS,
        },
        {"cost": COST},
    ),
    "CatalogYardTile": entry(
        "a yard tile: its blue face (an action) and yellow face (a reward) (R-S09, R-WA04)",
        {"id": STRING, "blue": ICONS, "yellow": ICONS},
    ),
    "CatalogDieTile": entry(
        "a die tile: its die colour and its reward side (R-S05, R-W02)",
        {"id": STRING, "colour": strings(*(colour.value for colour in Colour)), "reward": ICONS},
    ),
    "CatalogRoom": entry(
        "a castle room: its floor, printed die value and die-tile spaces (R-C01, R-P02)",
        {
            "id": STRING,
            "floor": strings(Floor.STEWARD.value, Floor.DIPLOMAT.value),
            "value": INTEGER,
            "tiles": INTEGER,
        },
    ),
    "CatalogOutsideSpace": entry(
        "an Outside the Walls space: value 5, its worker actions (R-O01, R-O02)",
        {"id": STRING, "value": INTEGER, "actions": ICONS},
    ),
    "CatalogYard": entry(
        "a training yard: iron to enter, a warrior's points at the end, the tile faces it holds (R-WA02)",
        {
            "id": STRING,
            "iron": INTEGER,
            "value": INTEGER,
            "faces": {"type": "array", "items": strings("blue", "yellow")},
        },
    ),
    "CatalogDomainRow": entry(
        "a Personal Domain row: its members, die colour, the Action card block it faces, its rewards (R-D01)",
        {
            "id": STRING,
            "member": strings(*MEMBERS),
            "colour": strings(*(colour.value for colour in Colour)),
            "position": strings(*ROW_POSITIONS),
            "rewards": {"type": "array", "items": ICONS},
        },
    ),
    "CatalogSoloCard": entry(
        "a solo card (R-SO03): the die the rival wants (bridge and end) and, revealed, the space and the solo "
        "symbols (the solo key's own notation, `gate`, `geisha:entrance`...)",
        {
            "id": STRING,
            "bridge": strings(*DIE_COLOURS),
            "end": strings(*ENDS),
            "space": STRING,
            "icons": {"type": "array", "items": STRING},
        },
    ),
    "CatalogCurtains": entry(
        "an Ikebana or Calligraphy card: its yellow curtain (a reward), its blue curtain (an action) and that "
        "curtain's seal cost, its lantern side, ♦ removed at 2 players (R-M05, R-M11, R-M12)",
        {"id": STRING, "diamond": BOOLEAN, "yellow": ICONS, "blue": ICONS, "lantern": ICONS},
        {"blue_cost": COST},
    ),
    "CatalogLilyPad": entry("a lily pad: its reward (R-M01)", {"id": STRING, "effects": ICONS}),
    "CatalogCeremonyFace": entry(
        "a ceremony token's face (CT1-CT20) and its effect (R-M18)",
        {"id": STRING, "effects": ICONS, "text": STRING},
    ),
    "CatalogCeremonyToken": entry(
        "a ceremony token: its blue face and yellow face (R-M18)",
        {"id": STRING, "blue": STRING, "yellow": STRING},
    ),
    "CatalogMatcha": entry(
        "the Matcha board and clan board's numbers (R-M01..R-M19)",
        {
            "name": STRING,
            "tea_room": entry(
                "the Tea Room's 2 spaces and the action they give (R-M04)",
                {"spaces": {"type": "array", "items": ref("CatalogSpace")}, "effects": ICONS},
            ),
            "himeji": entry(
                "the Himeji Principality's 2 spaces, each facing curtains (R-M05)",
                {"spaces": {"type": "array", "items": ref("CatalogSpace")}},
            ),
            "green_row": entry(
                "the clan board's green (geisha) row and its ceremony token's price (R-M14)",
                {
                    "id": STRING,
                    "member": strings("geisha"),
                    "colour": strings(*(colour.value for colour in MatchaColour)),
                    "rewards": {"type": "array", "items": ICONS},
                    "token_cost": COST,
                },
            ),
            "geisha_action": entry(
                "the Geisha action: Part A's price, Part B's whisks by steps (R-M07, R-M08)",
                {"entrance_cost": COST, "whisks_per_steps": by_number(INTEGER)},
            ),
            "tea_garden": entry(
                "the Tea Garden: points of each place, capacities, the Pond (R-M07..R-M13, R-F08)",
                {
                    "entrance_points": INTEGER,
                    "path": {
                        "type": "array",
                        "items": entry("a path space and its points", {"id": STRING, "points": INTEGER}),
                    },
                    "platform": entry(
                        "the Viewing Platform", {"id": STRING, "points": INTEGER, "per_clan": INTEGER}
                    ),
                    "pond_cost": COST,
                    "pond_spaces": INTEGER,
                    "tea_house": entry(
                        "the Tea House: its rooms and what each scores",
                        {
                            "per_clan_per_room": INTEGER,
                            "points_per_member": INTEGER,
                            "rooms": {
                                "type": "array",
                                "items": entry(
                                    "a Tea House room", {"id": STRING, "scores": strings(*MEMBERS)}
                                ),
                            },
                        },
                    ),
                },
                notes("rooms"),
            ),
        },
        {
            "sources": STRING,
            "whisk_track": entry("the whisk track's top (R-M15)", {"max": INTEGER}),
            "seal_conversion": entry("the seals a whisk costs (R-M15)", {"whisk": INTEGER}),
            "first_game_yard": entry(
                "the yard tile a first game lays (R-M01)", {"target": STRING, "tile": STRING}
            ),
        },
    ),
    "CatalogSpace": entry(
        "a Matcha die space: its value and, in Himeji, the curtains it faces as (deck, side) pairs",
        {"id": STRING, "value": INTEGER},
        {
            "curtains": {
                "type": "array",
                "items": {"type": "array", "items": STRING, "minItems": 2, "maxItems": 2},
            }
        },
    ),
}

CATALOG_SCHEMA: Schema = entry(
    "the components a game is played with: every printed card, tile, space and track as data, fixed when the "
    "game was created (docs/engine/catalog.md); sections of Matcha and of the solo deck only in such games",
    {
        "meta": entry(
            "the catalog's name and version",
            {"name": STRING, "catalog_version": INTEGER},
            {"sources": STRING},
        ),
        "castle": entry(
            "the castle's rooms and where its die-tile spaces lie (R-C01, R-S05)",
            {
                "rooms": listed("CatalogRoom"),
                "diamond_spaces": {"type": "array", "items": ref("CatalogTileSpace")},
                "numbered_spaces": {"type": "array", "items": ref("CatalogTileSpace")},
            },
            notes("values", "layout"),
        ),
        "outside_the_walls": listed("CatalogOutsideSpace"),
        "well": entry(
            "the Well: its value, its reward, its die tiles (R-W01, R-W02)",
            {"value": INTEGER, "effects": ICONS, "tiles": INTEGER},
        ),
        "yards": listed("CatalogYard"),
        "passage_of_time": entry(
            "the Passage of Time: its last space, the milestones' seal costs, each space's points (R-PT02)",
            {
                "last_space": INTEGER,
                "milestones": by_number(INTEGER),
                "points": {"type": "array", "items": INTEGER},
            },
        ),
        "domain": entry(
            "the Personal Domain: its die value and rows (R-D01)",
            {"value": INTEGER, "rows": listed("CatalogDomainRow")},
            notes("value", "rows"),
        ),
        "stewards": listed("CatalogCard"),
        "diplomats": listed("CatalogCard"),
        "daimyo": listed("CatalogDaimyo"),
        "starting_resources": listed("CatalogStartingResource"),
        "starting_actions": listed("CatalogStartingAction"),
        "decrees": listed("CatalogDecree"),
        "gardens": listed("CatalogGarden"),
        "yard_tiles": listed("CatalogYardTile"),
        "die_tiles": listed("CatalogDieTile"),
        "first_game": entry(
            "the first game's castle: each room's card and die tiles, the Well's tiles (FR steps 2 and 4)",
            {
                "rooms": {"type": "object", "additionalProperties": STRING},
                "die_tiles": {"type": "object", "additionalProperties": {"type": "array", "items": STRING}},
                "well_tiles": {"type": "array", "items": STRING},
            },
        ),
    },
    {
        **notes("outside_the_walls", "yards", "solo_cards", "tokugawa_cards"),
        "courtier": entry(
            "the Courtier action's prices: the Audience, the Ascent by floors (R-CA01)",
            {"audience_cost": COST, "ascent_pearl": by_number(INTEGER)},
        ),
        "seal_conversions": entry(
            "what a seal converts to, and the seals each costs (R-R02)", {"prices": by_number(INTEGER)}
        ),
        "solo_cards": listed("CatalogSoloCard"),
        "matcha": ref("CatalogMatcha"),
        "ikebana": listed("CatalogCurtains"),
        "calligraphy": listed("CatalogCurtains"),
        "lily_pads": listed("CatalogLilyPad"),
        "ceremony_faces": listed("CatalogCeremonyFace"),
        "ceremony_tokens": listed("CatalogCeremonyToken"),
    },
)

TILE_SPACE: Schema = {
    "type": "array",
    "description": "a die-tile space of the castle: [room id, position in the room from 0]",
    "items": {"anyOf": [STRING, INTEGER]},
    "minItems": 2,
    "maxItems": 2,
}


def _untold(name: str) -> Schema:
    """A catalog entry as the layout form gives it: without its printed text (the form's words say it)."""
    schema = CATALOG_ENTRIES[name]
    if "text" not in schema["required"]:
        return ref(name)
    return {**schema, "required": [member for member in schema["required"] if member != "text"]}


LAYOUT_FORM_CATALOG: Schema = {
    "type": "object",
    "description": "the catalog's lists of components by family (`stewards`, `gardens`, `die_tiles`...), each "
    "entry as the catalog has it: those the layout form's pools draw from",
    "properties": {
        family: {"type": "array", "items": _untold(schema["items"]["$ref"].rsplit("/", 1)[-1])}
        for family, schema in CATALOG_SCHEMA["properties"].items()
        if schema.get("type") == "array" and "$ref" in schema.get("items", {})
    },
    "additionalProperties": False,
}


def catalog_components() -> dict[str, Any]:
    """``Catalog`` and the components of its sections."""
    return {
        CATALOG: CATALOG_SCHEMA,
        "CatalogTileSpace": TILE_SPACE,
        "LayoutFormCatalog": LAYOUT_FORM_CATALOG,
        **CATALOG_ENTRIES,
    }
