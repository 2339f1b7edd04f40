"""The typed vocabulary of the game: colours, resources, floors, phases and the effect icons, with a docstring per
member.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

OPTIONAL = {"omit_default": True}
"""Field metadata of the state's and the prompts' records: the field is left out of `state_to_dict` while it
holds its default, and a dictionary without it reads as the default. Fields added after the base game (the solo
rival, the Matcha expansion) use it, so that a base multiplayer game's state JSON, and every state recorded
before them, stay exactly as they were. (It lives here, below both `domain.state` and `domain.prompts`, so that
the prompts never import the state.)"""


class Colour(StrEnum):
    """A die colour; each has its bridge, die tiles and Personal Domain row (R-S07, R-D01)."""

    CORAL = "coral"
    """Coral dice: the courtier row of the Personal Domain."""
    BLACK = "black"
    """Black dice: the gardener row."""
    WHITE = "white"
    """White dice: the warrior row."""


class MatchaColour(StrEnum):
    """The Matcha expansion's die colour. Green dice have their bridge and the geisha row of the clan board, but
    no die tiles: they never go to a castle room (R-S07, R-D01, R-M03). Kept apart from `Colour`, which is the
    castle's three colours (die tiles, gardens under the bridges, the Action card's rows)."""

    GREEN = "green"
    """Green dice: the green bridge and the geisha row (Matcha)."""


DieColour = Colour | MatchaColour
"""Any die colour: the castle's three, and green in a Matcha game."""


class Resource(StrEnum):
    """What a player holds and may gain or pay (R-R01..R-R06)."""

    COIN = "coin"
    """Coins: unlimited, never negative (R-R04)."""
    SEAL = "seal"
    """Daimyo seals: 0 to 5, excess lost (R-R01)."""
    FOOD = "food"
    """Food track, 0 to 7 (R-R03)."""
    IRON = "iron"
    """Iron track, 0 to 7 (R-R03)."""
    PEARL = "pearl"
    """Mother-of-pearl track, 0 to 7 (R-R03)."""
    WHISK = "whisk"
    """Whisks (Matcha): a track 0 to 7, gained only from whisk icons and seal conversions (R-M15)."""


FIELD = {
    Resource.COIN: "coins",
    Resource.SEAL: "seals",
    Resource.FOOD: "food",
    Resource.IRON: "iron",
    Resource.PEARL: "pearl",
    Resource.WHISK: "whisks",
}
"""The Player field holding each resource."""


class Floor(StrEnum):
    """Where a courtier can stand (R-CA02) and what it scores at the end (R-F05)."""

    GATE = "gate"
    """The Gates of the Castle: 1 CP."""
    STEWARD = "steward"
    """A room of the Stewards' floor (first floor): 3 CP."""
    DIPLOMAT = "diplomat"
    """A room of the Diplomats' floor (second floor): 6 CP."""
    DAIMYO = "daimyo"
    """The Daimyo's quarters (third floor): 10 CP."""


class Phase(StrEnum):
    """The part of the game a state is in (`domain.coordinates`)."""

    SETUP = "setup"
    """The setup deals and the choice of starting pairs (R-S01..R-S12)."""
    TURNS = "turns"
    """Players take their turns (R-T01)."""
    END_OF_ROUND = "end_of_round"
    """Turn order, garden activation and the next round's preparation (R-E01..R-E04)."""
    OVER = "over"
    """The game has ended and is scored (R-E05, R-F01..R-F09)."""


class Mode(StrEnum):
    """How chance is resolved (docs/engine/chance.md)."""

    SEEDED = "seeded"
    """The engine draws every chance outcome from a generator seeded with (seed, chance counter)."""
    TABLE = "table"
    """A physical game: the recorder enters what was rolled and revealed as chance moves."""


class IconKind(StrEnum):
    """One symbol of the rulebooks' keys; a card's effect is a sequence of icons."""

    COIN = "coin"
    """Gain N coins."""
    SEAL = "seal"
    """Gain N Daimyo seals (capped at 5, R-R01)."""
    FOOD = "food"
    """Gain N food (capped at 7, R-R03)."""
    IRON = "iron"
    """Gain N iron (capped at 7)."""
    PEARL = "pearl"
    """Gain N mother-of-pearl (capped at 7)."""
    CP = "cp"
    """Gain N Clan Points (a red fan, R-R06)."""
    POT = "pot"
    """Move N spaces on the Passage of Time (R-PT01, R-PT02)."""
    ANY = "any"
    """Gain N resources of your choice among food, iron and pearl (R-R07)."""
    LANTERN = "lantern"
    """Gain your Lantern Reward (R-L01)."""
    COURTIER = "courtier"
    """Perform a Courtier action (R-CA01)."""
    WARRIOR = "warrior"
    """Perform a Warrior action (R-WA01)."""
    GARDENER = "gardener"
    """Perform a Gardener action (R-GA01)."""
    WELL = "well"
    """Perform the Well action without a die: 1 seal and both Well tiles (R-W02)."""
    DOMAIN = "domain"
    """Activate one Personal Domain row as if a die were placed there (R-D03)."""
    LIGHT = "light"
    """Perform one light-background block of a card in a castle room (docs/rules/components.md §1.3, tile 7)."""
    TILE = "tile"
    """Perform the block beside a castle die tile of a colour, or of any colour (R-C05)."""
    # --- the Matcha expansion (R-M17, R-M18) -
    WHISK = "whisk"
    """Gain N whisks (capped at the whisk track's top, 7 unless the catalog sets it lower; Matcha, R-M15)."""
    GEISHA = "geisha"
    """Perform the Geisha action (R-M06)."""
    SLASH = "slash"
    """The slash symbol: the action shown (``slash:courtier``) or the Geisha action (R-M17)."""
    LILY = "lily"
    """Gain the rewards of the 3 lily pads in the pond, never the token instead (R-M17)."""
    POND = "pond"
    """The Pond action: the 3 lily pads, or 3 coins for the Viewing Platform's ceremony token (R-M10, R-M16)."""
    DARK = "dark"
    """Perform the dark-background block of any card in a castle room (R-M17, token CT5)."""
    CURTAIN = "curtain"
    """Himeji curtains (R-M17): ``curtain:yellow`` the yellow curtain of one card, ``curtain:blue`` the blue
    curtain of one card without seals, ``curtain:both`` both curtains of one card (the two-card symbol),
    ``curtain:yellows`` both visible yellow curtains (token CT20)."""
    YARD = "yard"
    """Training Yard tiles (tokens CT7, CT8): ``yard:blue`` the action of one blue tile, ``yard:yellow`` the
    rewards of both yellow tiles."""
    STONE = "stone"
    """The rewards of N different Stone Garden cards, with or without a gardener there (token CT2)."""
    ADVANCE = "advance"
    """Advance one of your geishas 1 step without whisks (token CT13)."""
    CLIMB = "climb"
    """Move a courtier at the Gate or in the castle 1 floor up without pearl (token CT15, R-CA05)."""
    TOKEN = "token"
    """Perform your own ceremony token, the one on your clan board (R-M14)."""


GAINS = frozenset(
    {IconKind.COIN, IconKind.SEAL, IconKind.FOOD, IconKind.IRON, IconKind.PEARL, IconKind.CP, IconKind.WHISK}
)
"""Icons that only add to a counter and never ask anything."""

COUNTED = GAINS | {IconKind.POT, IconKind.ANY, IconKind.STONE}
"""Icons written with an amount (``"food:2"``); LIGHT takes one optionally (``"light:2"``: on 2 different
cards, token CT6)."""

VARIANTS: dict[IconKind, frozenset[str]] = {
    IconKind.TILE: frozenset({"coral", "black", "white", "any"}),
    IconKind.SLASH: frozenset(
        {"courtier", "warrior", "gardener", "well", "domain", "light", "lantern", "dark"}
    ),
    IconKind.CURTAIN: frozenset({"yellow", "blue", "both", "yellows"}),
    IconKind.YARD: frozenset({"blue", "yellow"}),
}
"""Icons written with a variant (``"tile:coral"``, ``"slash:warrior"``) and the variants each takes."""


@dataclass(frozen=True, slots=True)
class Icon:
    """One effect icon: a kind, an amount (for gains) and a variant in ``colour`` (the colour of a die-tile
    action, or "any"; the action of a slash; the curtain or yard tile face: see `VARIANTS`)."""

    kind: IconKind
    amount: int = 1
    colour: str = ""

    def __str__(self) -> str:
        if self.kind in VARIANTS:
            return f"{self.kind.value}:{self.colour}"
        if self.kind in COUNTED or (self.kind is IconKind.LIGHT and self.amount > 1):
            return f"{self.kind.value}:{self.amount}"
        return self.kind.value


TILE_COLOURS = VARIANTS[IconKind.TILE]


def parse_icon(text: str) -> Icon:
    """Parse the catalog's notation of one icon; raise ValueError on anything unknown."""
    name, _, arg = text.partition(":")
    try:
        kind = IconKind(name)
    except ValueError:
        raise ValueError(f"unknown icon {text!r}") from None
    if kind in VARIANTS:
        if arg not in VARIANTS[kind]:
            what = "die-tile colour" if kind is IconKind.TILE else f"{name} variant"
            raise ValueError(f"unknown {what} in {text!r}")
        return Icon(kind, 1, arg)
    if kind in COUNTED or (kind is IconKind.LIGHT and arg):
        if not arg.isdigit() or int(arg) < 1:
            raise ValueError(f"icon {text!r} needs a positive amount, as in '{name}:2'")
        return Icon(kind, int(arg))
    if arg:
        raise ValueError(f"icon {text!r} takes no amount")
    return Icon(kind)


Cost = tuple[tuple[Resource, int], ...]
"""What must be paid, as (resource, amount) pairs; every amount must be held (R-R03, R-R04, R-R05)."""


def a(noun: str) -> str:
    """``noun`` with its indefinite article, as the words are said: "an audience move", "a roll move"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def space_text(space: str) -> str:
    """A space of the board in words, as the rulebook names it ("steward room 2", "the Well")."""
    if space == "well":
        return "the Well"
    if space == "domain":
        return "their Personal Domain"
    if space == "daimyo":
        return "the Daimyo's quarters"
    if space == "gate":
        return "the Gate"
    if space in _MATCHA_SPACES:
        return _MATCHA_SPACES[space]
    kind, _, number = space.partition("_")
    return {"steward": "steward room", "diplomat": "diplomat room", "outside": "Outside the Walls"}.get(
        kind, kind
    ) + (f" {number}" if number else "")


_MATCHA_SPACES = {
    "tea_room": "the Tea Room (symbol 1)",
    "tea_room_left": "the left Tea Room space",
    "tea_room_right": "the right Tea Room space",
    "himeji_upper": "the upper Himeji space",
    "himeji_lower": "the lower Himeji space",
    "entrance": "the Tea Garden entrance",
    "viewing_platform": "the Viewing Platform",
    "path_1": "path space 1",
    "path_2": "path space 2",
    "tea_house_upper": "the upper Tea House room",
    "tea_house_middle": "the middle Tea House room",
    "tea_house_lower": "the lower Tea House room",
}
"""Matcha's places in words (R-M04, R-M05, R-M09, R-M13); other names fall back to their ids."""
