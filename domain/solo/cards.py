"""The solo cards and the rival's icons, as catalog data (R-SO01, R-SO03, R-SO05; docs/rules/components.md §1.11,
§1.12).

The printed cards are not published, so the packaged deck is a stand-in flagged ``verified: false`` that a game
may override card by card; a deck that leaves a bridge end unwanted is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from domain.vocabulary import Colour, DieColour, MatchaColour


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
    GEISHA = "geisha"
    """Tokugawa symbols 2-4: a geisha of the rival's supply goes to the Tea Garden entrance (symbol 2, R-TK05),
    path space 1 (symbol 3, R-TK06) or path space 2 (symbol 4, R-TK07), then the symbol's steps follow."""
    LOSE_CP = "lose_cp"
    """Tokugawa: the rival loses N Clan Points, as many as it has at most (R-TK02)."""
    LOSE_COIN = "lose_coin"
    """Tokugawa: the rival loses N coins, or all of them (``lose_coin:all``), as many as it has at most
    (R-TK02)."""
    LOSE_POT = "lose_pot"
    """Tokugawa: the rival's influence marker moves N spaces back, no further than the start (R-TK02, R-TK07)."""
    DISCARD = "discard"
    """Tokugawa: the top card of an Ikebana or Calligraphy deck holding at least 2 cards is discarded; the
    player chooses the deck when both qualify (R-TK03, R-TK06)."""
    ADVANCE = "advance"
    """Tokugawa: the player advances one of the rival's geishas 1 step (R-TK05 (2)); with a place, not the
    geisha the symbol has just sent there. Into the Tea House it goes to the room scoring it the most (R-TK03)."""


AMOUNT_KINDS = frozenset(
    {
        RivalIconKind.ASCENT,
        RivalIconKind.WARRIOR,
        RivalIconKind.CP,
        RivalIconKind.POT,
        RivalIconKind.COIN,
        RivalIconKind.LOSE_CP,
        RivalIconKind.LOSE_COIN,
        RivalIconKind.LOSE_POT,
    }
)
"""Icons written with a number: ``cp:2``."""
GARDEN_TYPES = ("plant", "stone")
"""The garden types a ``gardener:TYPE`` icon may name."""
ENDS = ("left", "right")
GEISHA_PLACES = ("entrance", "path_1", "path_2")
"""Where the Tokugawa symbols 2, 3 and 4 send a geisha of the rival's supply (R-TK05..R-TK07)."""
TOKUGAWA_KINDS = frozenset(
    {
        RivalIconKind.GEISHA,
        RivalIconKind.LOSE_CP,
        RivalIconKind.LOSE_COIN,
        RivalIconKind.LOSE_POT,
        RivalIconKind.DISCARD,
        RivalIconKind.ADVANCE,
    }
)
"""The icons of the Tokugawa clan (R-TK02..R-TK07): only in a catalog with Matcha."""
TEA_ROOM = "tea_room"
"""Symbol 1 as a solo card's space: the left Tea Room space, the right one if the left is taken, else the Well
(R-TK04)."""
ALL = "all"
"""``lose_coin:all``: every coin the rival holds (symbol 3, R-TK06)."""


@dataclass(frozen=True, slots=True)
class RivalIcon:
    """One icon of a solo card: its kind, its number (ascent floors, yard iron, gains) and a garden type."""

    kind: RivalIconKind
    amount: int = 1
    type: str = ""

    def __str__(self) -> str:
        if self.kind in (RivalIconKind.GARDENER, RivalIconKind.GEISHA) or self.type == ALL:
            return f"{self.kind.value}:{self.type}"
        if self.kind is RivalIconKind.ADVANCE:
            return f"advance:{self.type}" if self.type else "advance"
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
    if kind is RivalIconKind.GEISHA or (kind is RivalIconKind.ADVANCE and arg):
        if arg not in GEISHA_PLACES:
            raise ValueError(
                f"rival icon {text!r} names a Tea Garden place among {GEISHA_PLACES} (R-TK05..R-TK07)"
            )
        return RivalIcon(kind, 1, arg)
    if kind is RivalIconKind.LOSE_COIN and arg == ALL:
        return RivalIcon(kind, 0, ALL)
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
    bridge: DieColour
    end: str
    space: str
    icons: tuple[RivalIcon, ...]


def parse_solo_cards(
    entries: Iterable[Any], spaces: Iterable[str], yard_iron: Iterable[int], *, matcha: bool = False
) -> dict[str, SoloCard]:
    """The ``solo_cards`` section of a catalog; `spaces` are the die spaces a card may name, `yard_iron` the
    iron costs a ``warrior:N`` icon may name; the Tokugawa icons and symbol 1 need `matcha` (R-TK01)."""
    known = set(spaces) | ({TEA_ROOM} if matcha else set())
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
            if icon.kind in TOKUGAWA_KINDS and not matcha:
                raise ValueError(f"solo card {card_id}: {icon} is a Tokugawa icon; it needs Matcha (R-TK01)")
        bridge = entry["bridge"]
        colour: DieColour = (
            MatchaColour(bridge) if matcha and bridge == MatchaColour.GREEN else Colour(bridge)
        )
        cards[card_id] = SoloCard(card_id, colour, entry["end"], entry["space"], icons)
    return cards
