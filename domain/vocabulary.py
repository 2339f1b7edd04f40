"""The typed vocabulary of the game: colours, resources, floors, phases and the effect icons.

The icons are the rulebooks' symbol keys (FR's list, R-SO05): gain N of something, the Lantern Reward, the
worker actions, the Well and Domain actions, a light-background action and the action beside a die tile of a
colour. The catalog writes an icon as a short string (``"food:2"``, ``"any:3"``, ``"lantern"``,
``"tile:coral"``); `parse_icon` turns it into an `Icon`. Adding a card never needs a new icon kind, only data.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Colour(StrEnum):
    """A die colour; each has its bridge, die tiles and Personal Domain row (R-S07, R-D01)."""

    CORAL = "coral"
    """Coral dice: the courtier row of the Personal Domain."""
    BLACK = "black"
    """Black dice: the gardener row."""
    WHITE = "white"
    """White dice: the warrior row."""


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
    """How chance is resolved (DESIGN §2, "chance is data")."""

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
    """Perform one light-background block of a card in a castle room (COMPONENTS §1.3 tile 7)."""
    TILE = "tile"
    """Perform the block beside a castle die tile of a colour, or of any colour (R-C05)."""


GAINS = frozenset({IconKind.COIN, IconKind.SEAL, IconKind.FOOD, IconKind.IRON, IconKind.PEARL, IconKind.CP})
"""Icons that only add to a counter and never ask anything."""


@dataclass(frozen=True, slots=True)
class Icon:
    """One effect icon: a kind, an amount (for gains) and a colour (for die-tile actions: a colour or
    "any")."""

    kind: IconKind
    amount: int = 1
    colour: str = ""

    def __str__(self) -> str:
        if self.kind is IconKind.TILE:
            return f"tile:{self.colour}"
        if self.kind in GAINS or self.kind in (IconKind.POT, IconKind.ANY):
            return f"{self.kind.value}:{self.amount}"
        return self.kind.value


TILE_COLOURS = frozenset({"coral", "black", "white", "any"})


def parse_icon(text: str) -> Icon:
    """Parse the catalog's notation of one icon; raise ValueError on anything unknown."""
    name, _, arg = text.partition(":")
    try:
        kind = IconKind(name)
    except ValueError:
        raise ValueError(f"unknown icon {text!r}") from None
    if kind is IconKind.TILE:
        if arg not in TILE_COLOURS:
            raise ValueError(f"unknown die-tile colour in {text!r}")
        return Icon(kind, 1, arg)
    if kind in GAINS or kind in (IconKind.POT, IconKind.ANY):
        if not arg.isdigit() or int(arg) < 1:
            raise ValueError(f"icon {text!r} needs a positive amount, as in '{name}:2'")
        return Icon(kind, int(arg))
    if arg:
        raise ValueError(f"icon {text!r} takes no amount")
    return Icon(kind)


Cost = tuple[tuple[Resource, int], ...]
"""What must be paid, as (resource, amount) pairs; every amount must be held (R-R03, R-R04, R-R05)."""
