"""The solo cards and the rival's icons, as catalog data (R-SO01, R-SO03, R-SO05; COMPONENTS §1.11, §1.12).

The printed solo cards are not published: only their number (9, derived) and how they are used (FR). A card
is therefore a small schema read from FR's procedure, and the packaged deck (``catalog/solo.json``) is a
stand-in flagged ``verified: false`` that a game's setup may override card by card:

- the **bridge side** (the deck lies bridge side up) names the die the rival wants: a bridge colour and an end
  (``"bridge": "white", "end": "left"``);
- the **revealed side** names the space the die goes to (a castle room, an Outside the Walls space or the Well)
  and the rival's action icons, top to bottom (``"icons": ["gate", "cp:1"]``).

The rival's icons are FR's "Icônes du Mode Solo" (R-SO05), written like the player's icons:
``gate`` (a courtier to the Gate), ``ascent:N`` (the lowest courtier climbs N floors), ``warrior:N`` (a warrior
to the yard costing N iron), ``gardener:TYPE`` (a gardener to the cheapest-scoring garden of that type),
``cp:N``, ``pot:N`` (influence) and ``coin:N``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from domain.vocabulary import Colour


class RivalIconKind(StrEnum):
    """One symbol of FR's solo icon key (R-SO05)."""

    GATE = "gate"
    """Courtier to the Gate: a courtier of the rival's supply goes to the Gates of the Castle."""
    ASCENT = "ascent"
    """Courtier ascent: the rival's lowest courtier climbs N floors (1 or 2)."""
    WARRIOR = "warrior"
    """Warrior: a warrior goes to the training yard whose iron cost is N (5, 3 or 1)."""
    GARDENER = "gardener"
    """Gardener: a gardener goes to the garden of the given type that scores the least, among those holding no
    rival gardener yet."""
    CP = "cp"
    """The rival gains N Clan Points."""
    POT = "pot"
    """The rival's influence marker moves N spaces (milestones are never paid: the rival never pays)."""
    COIN = "coin"
    """The rival gains N coins."""


AMOUNT_KINDS = frozenset(
    {RivalIconKind.ASCENT, RivalIconKind.WARRIOR, RivalIconKind.CP, RivalIconKind.POT, RivalIconKind.COIN}
)
"""Icons written with a number: ``cp:2``."""
GARDEN_TYPES = ("plant", "stone")
"""The garden types a ``gardener:TYPE`` icon may name."""
ENDS = ("left", "right")


@dataclass(frozen=True, slots=True)
class RivalIcon:
    """One icon of a solo card: its kind, its number (ascent floors, yard iron, gains) and a garden type."""

    kind: RivalIconKind
    amount: int = 1
    type: str = ""

    def __str__(self) -> str:
        if self.kind is RivalIconKind.GARDENER:
            return f"gardener:{self.type}"
        if self.kind in AMOUNT_KINDS:
            return f"{self.kind.value}:{self.amount}"
        return self.kind.value


def parse_rival_icon(text: str) -> RivalIcon:
    """Parse one rival icon of the catalog's notation; ValueError on anything unknown."""
    if not isinstance(text, str):
        raise ValueError(f"a rival icon is a text such as 'cp:2', not {text!r}")
    name, _, arg = text.partition(":")
    try:
        kind = RivalIconKind(name)
    except ValueError:
        raise ValueError(f"unknown rival icon {text!r} (R-SO05)") from None
    if kind is RivalIconKind.GARDENER:
        if arg not in GARDEN_TYPES:
            raise ValueError(f"a gardener icon names a garden type {GARDEN_TYPES}, as in 'gardener:plant'")
        return RivalIcon(kind, 1, arg)
    if kind in AMOUNT_KINDS:
        if not arg.isdigit() or int(arg) < 1:
            raise ValueError(f"rival icon {text!r} needs a positive number, as in '{name}:2'")
        if kind is RivalIconKind.ASCENT and int(arg) > 2:
            raise ValueError("a courtier ascent climbs 1 or 2 floors (R-SO05)")
        return RivalIcon(kind, int(arg))
    if arg:
        raise ValueError(f"rival icon {text!r} takes no number")
    return RivalIcon(kind)


@dataclass(frozen=True, slots=True)
class SoloCard:
    """A solo card: the die it targets (bridge side) and where the die goes and what the rival does (revealed
    side)."""

    id: str
    bridge: Colour
    end: str
    space: str
    icons: tuple[RivalIcon, ...]


def parse_solo_cards(
    entries: Iterable[Any], spaces: Iterable[str], yard_iron: Iterable[int]
) -> dict[str, SoloCard]:
    """The ``solo_cards`` section of a catalog; `spaces` are the die spaces a card may name, `yard_iron` the
    iron costs a ``warrior:N`` icon may name."""
    known = set(spaces)
    irons = set(yard_iron)
    cards: dict[str, SoloCard] = {}
    for entry in entries:
        if not isinstance(entry, Mapping):
            raise TypeError(f"a solo card is an object, not {entry!r}")
        card_id = entry["id"]
        if card_id in cards:
            raise ValueError("solo_cards: repeated ids")
        if entry["end"] not in ENDS:
            raise ValueError(f"solo card {card_id}: end is left or right")
        if entry["space"] not in known:
            raise ValueError(
                f"solo card {card_id}: unknown space {entry['space']!r} (one of {sorted(known)})"
            )
        if not isinstance(entry["icons"], list):
            raise TypeError(f"solo card {card_id}: icons is a list")
        icons = tuple(parse_rival_icon(item) for item in entry["icons"])
        for icon in icons:
            if icon.kind is RivalIconKind.WARRIOR and icon.amount not in irons:
                raise ValueError(f"solo card {card_id}: no training yard costs {icon.amount} iron")
        cards[card_id] = SoloCard(card_id, Colour(entry["bridge"]), entry["end"], entry["space"], icons)
    return cards
