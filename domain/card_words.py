"""Every card and tile of a game's catalog in words, read from its JSON entry (its blocks, gains, favour spots,
curtains, lantern icons, points), and the solo cards' icons (R-SO05, R-TK02..R-TK07): served once with the
catalog (`api.resources.words.catalog_words`) and said by the buttons that reveal a card (`domain.kinds`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

from domain.catalog import Catalog
from domain.names import icon_text
from domain.vocabulary import parse_icon, space_text


def icon_words(text: str) -> str:
    """One icon of the catalog's notation in words ("coin:2" → "2 coins"); a rival's icon too."""
    try:
        return icon_text(parse_icon(text))
    except ValueError:
        return rival_icon_words(text)


def icon_list(icons: Sequence[str] | None) -> str:
    return " + ".join(icon_words(str(icon)) for icon in icons or ()) or "nothing"


def cost_words(cost: Mapping[str, int] | Sequence[Sequence[Any]] | None) -> str:
    """A cost as the catalog ({"seal": 1}) or a prompt ([["seal", 1]]) writes it: "1 seal", "3 coins"."""
    pairs = list(cost.items()) if isinstance(cost, Mapping) else [tuple(pair) for pair in cost or ()]
    return ", ".join(icon_words(f"{name}:{amount}") for name, amount in pairs if amount)


_GEISHA_SYMBOL = {"entrance": 2, "path_1": 3, "path_2": 4}
_GEISHA_STEPS = {
    "entrance": "it loses 3 CP and you advance another of its geishas 1 step",
    "path_1": "a Himeji card is discarded, it loses all its coins and you advance another of its geishas 1 step",
    "path_2": "a Himeji card is discarded and its influence goes 2 spaces back",
}


def rival_icon_words(text: str) -> str:
    """An icon of a solo card (the rival's icons, R-SO05; the Tokugawa's, R-TK02..R-TK07) in words."""
    name, _, arg = str(text).partition(":")
    plural = "" if arg == "1" else "s"
    match name:
        case "gate":
            return "a courtier to the Gate"
        case "ascent":
            return f"the lowest courtier climbs {arg} floor{plural}"
        case "warrior":
            return f"a warrior to the {arg}-iron yard"
        case "gardener":
            return f"a gardener to the {arg} garden scoring least"
        case "cp":
            return f"{arg} CP"
        case "pot":
            return f"Passage of Time +{arg}"
        case "coin":
            return f"{arg} coin{plural}"
        case "geisha":
            symbol = _GEISHA_SYMBOL.get(arg, "?")
            return f"symbol {symbol}: a geisha from its supply to {space_text(arg)}, then {_GEISHA_STEPS.get(arg, '')}"
        case "lose_cp":
            return f"it loses {arg} CP (not below 0)"
        case "lose_coin":
            return "it loses all its coins" if arg == "all" else f"it loses {arg} coin{plural} (not below 0)"
        case "lose_pot":
            return f"its influence goes {arg} space{plural} back"
        case "discard":
            return "the top card of an Ikebana or Calligraphy deck holding 2 cards is discarded"
        case "advance":
            return "you advance one of its geishas 1 step"
    return str(text).replace("_", " ")


def solo_card_words(card: Mapping[str, Any]) -> str:
    icons = ", then ".join(rival_icon_words(str(icon)) for icon in card.get("icons") or ()) or "nothing"
    return (
        f"{card['id']}: the {card.get('bridge')} die at the {card.get('end')} end → "
        f"{space_text(str(card.get('space')))}; {icons}"
    )


FAMILIES = (
    "stewards",
    "diplomats",
    "starting_actions",
    "starting_resources",
    "decrees",
    "gardens",
    "yard_tiles",
    "die_tiles",
    "daimyo",
    "ikebana",
    "calligraphy",
    "lily_pads",
    "ceremony_faces",
    "solo_cards",
)


def card_words(family: str, card: Mapping[str, Any]) -> str:
    """What a card or tile does, in words: its blocks, gains, spots, curtains, lantern icons and points."""
    if family == "solo_cards":
        return solo_card_words(card)
    parts = []
    for block in card.get("blocks") or ():
        price = f"pay {cost_words(block['cost'])}: " if block.get("cost") else ""
        rows = "/".join(block.get("rows") or ())
        parts.append(
            f"{block.get('background')} background ({rows}): {price}{icon_list(block.get('effects'))}"
        )
    if card.get("gain"):
        parts.append(f"gain {icon_list(card['gain'])}")
    if card.get("spots"):
        parts.append("; ".join(f"spot {i + 1}: {icon_list(spot)}" for i, spot in enumerate(card["spots"])))
    if family == "gardens":
        parts.append(f"{card.get('food')} food to enter, {card.get('cp')} CP at the end")
        if card.get("cost"):
            parts.append(f"then pay {cost_words(card['cost'])}")
        parts.append(f"does {icon_list(card.get('effects'))}")
    if family in ("ikebana", "calligraphy"):
        parts.append(f"yellow curtain: {icon_list(card.get('yellow'))}")
        price = f"pay {cost_words(card['blue_cost'])}: " if card.get("blue_cost") else ""
        parts.append(f"blue curtain: {price}{icon_list(card.get('blue'))}")
    else:
        if card.get("blue"):
            parts.append(f"blue side: {icon_list(card['blue'])}")
        if card.get("yellow"):
            parts.append(f"yellow side: {icon_list(card['yellow'])}")
    if family in ("lily_pads", "ceremony_faces"):
        parts.append(("lily pad: " if family == "lily_pads" else "") + icon_list(card.get("effects")))
    if card.get("reward"):
        parts.append(f"{card.get('colour')} die tile, reward {icon_list(card['reward'])}")
    if card.get("lantern"):
        parts.append(f"lantern: {icon_list(card['lantern'])}")
    if card.get("decree"):
        parts.append(f"with decree {card['decree']}")
    return f"{card['id']}: {'; '.join(parts)}"


@functools.lru_cache(maxsize=16)
def _index(raw: str) -> Mapping[str, Mapping[str, Any]]:
    catalog = _json(raw)
    index: dict[str, Mapping[str, Any]] = {}
    for family in FAMILIES:
        for card in catalog.get(family) or ():
            if isinstance(card, Mapping) and "id" in card:
                index[str(card["id"])] = {**card, "family": family}
    return index


def card_of(catalog: Catalog, card_id: str) -> Mapping[str, Any] | None:
    """A card or tile of the catalog by its id, as its JSON entry with its ``family`` (the catalog's section),
    None if there is none. The index is made once per catalog (a game's catalog is the same all game)."""
    return _index(catalog.raw).get(card_id)


@functools.lru_cache(maxsize=16)
def _json(raw: str) -> Mapping[str, Any]:
    data: Mapping[str, Any] = json.loads(raw)
    return data


def catalog_json(catalog: Catalog) -> Mapping[str, Any]:
    """The catalog's JSON, parsed once per catalog and shared: read it, never change it."""
    return _json(catalog.raw)
