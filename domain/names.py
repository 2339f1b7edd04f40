"""What the game's things are called: icons, the sources of a list of actions, the piles, where a card goes,
seats and costs, in the words everything a person reads uses.

These words need the vocabulary and the state alone, so they sit low in the engine: the move kinds
(`domain.kinds`) say their sentences with them, and `domain.words` (the questions the prompts ask) and
`domain.describe` (the log) build on them. Places are named as the rulebook and the board name them ("steward
room 2", "starting pair 1"), counted from 1; the engine's ids stay in the data."""

from __future__ import annotations

from domain.state import GameState
from domain.vocabulary import Cost, Icon, IconKind, Resource, parse_icon, space_text

_ACTIONS = {
    IconKind.LANTERN: "the Lantern Reward",
    IconKind.COURTIER: "a Courtier action",
    IconKind.WARRIOR: "a Warrior action",
    IconKind.GARDENER: "a Gardener action",
    IconKind.WELL: "the Well action",
    IconKind.DOMAIN: "a Personal Domain action",
    IconKind.LIGHT: "a light-background action",
    IconKind.GEISHA: "the Geisha action",
    IconKind.LILY: "the rewards of the 3 lily pads",
    IconKind.POND: "the Pond action (3 lily pads, or 3 coins for the Viewing Platform's ceremony token)",
    IconKind.DARK: "a dark-background castle action",
    IconKind.ADVANCE: "a geisha 1 step forward without whisks",
    IconKind.CLIMB: "a courtier 1 floor up without pearl",
    IconKind.TOKEN: "their own ceremony token",
}
_VARIANTS = {
    "curtain:yellow": "the yellow curtain of a Himeji card",
    "curtain:blue": "the blue curtain of a Himeji card, without seals",
    "curtain:both": "both curtains of one Himeji card",
    "curtain:yellows": "both visible yellow curtains in Himeji",
    "yard:blue": "the action of a blue yard tile",
    "yard:yellow": "the rewards of both yellow yard tiles",
}
_GAINS = {
    IconKind.COIN: "coin",
    IconKind.SEAL: "seal",
    IconKind.FOOD: "food",
    IconKind.IRON: "iron",
    IconKind.PEARL: "pearl",
    IconKind.CP: "CP",
    IconKind.ANY: "resource of choice",
    IconKind.WHISK: "whisk",
}


def icon_text(icon: Icon) -> str:
    if icon.kind is IconKind.LIGHT and icon.amount > 1:
        return f"a light-background action on each of {icon.amount} different castle cards"
    if icon.kind in _ACTIONS:
        return _ACTIONS[icon.kind]
    if str(icon) in _VARIANTS:
        return _VARIANTS[str(icon)]
    if icon.kind is IconKind.SLASH:
        shown = _ACTIONS.get(IconKind(icon.colour), icon.colour)
        return f"{shown} or the Geisha action"
    if icon.kind is IconKind.STONE:
        return f"the rewards of {icon.amount} different Stone Gardens"
    if icon.kind is IconKind.TILE:
        return (
            f"the action beside a {icon.colour} die tile"
            if icon.colour != "any"
            else "the action beside a die tile"
        )
    if icon.kind is IconKind.POT:
        return f"Passage of Time +{icon.amount}"
    noun = _GAINS[icon.kind]
    plural = "s" if icon.amount > 1 and icon.kind in (IconKind.COIN, IconKind.SEAL, IconKind.WHISK) else ""
    return f"{icon.amount} {noun}{plural}"


def icons_text(icons: tuple[Icon, ...]) -> str:
    return " + ".join(icon_text(icon) for icon in icons) or "nothing"


_SOURCES = {
    "castle": "{place}, {block}",
    "arrival": "arriving in {place}: {block}",
    "card": "their Action card, {place} row",
    "domain": "their {place} row",
    "outside": "{place}",
    "garden": "the {place} garden",
    "yard": "the tiles of {place}",
    "himeji": "{place}",
    "tile": "a {place} die tile's action: {block}",
}
"""How a menu's title reads in the log: ``castle:steward_2`` and option ``bottom`` become "steward room 2,
bottom block" (the titles themselves stay machine ids: the prompts and the tests use them)."""


def _block(option_id: str) -> str:
    """A card block or other option id in words: ``middle+bottom`` → "middle and bottom block"."""
    try:  # an icon of a bundle ("whisk:2", a second one "whisk:2#2"): what it gives
        return icon_text(parse_icon(option_id.partition("#")[0]))
    except ValueError:
        pass
    if ":" in option_id:  # a block of another room's card: "steward_3:middle"
        room, _, block = option_id.partition(":")
        return f"{space_text(room)}, {_block(block)}"
    parts = option_id.split("+")
    if all(part in ("top", "middle", "bottom") for part in parts):
        return " and ".join(parts) + " block"
    if option_id == "all":
        return "the whole card"
    return option_id.replace("_", " ")


_TITLES = {
    "lantern": "the Lantern Reward",
    "light": "a light-background action",
    "light:2": "light-background actions on different castle cards",
    "dark": "a dark-background castle action",
    "gardens": "the activated gardens",
    "green_row": "the green row",
    "daimyo": "the Daimyo's favour spot",
    "stone": "the Stone Gardens",
    "pond": "the Pond",
    "lily_pads": "the lily pads",
    "slash": "the slash symbol",
    "yellow_curtain": "a yellow curtain",
    "yellow_curtains": "the visible yellow curtains",
    "yard:blue": "a blue yard tile",
    "yard:yellow": "the yellow yard tiles",
    "blue_curtain": "a blue curtain",
    "path_2": "path space 2",
    "tile:any": "a die tile's action",
    "ceremony:own": "their own ceremony token",
    "card:ikebana": "the Ikebana card",
    "card:calligraphy": "the Calligraphy card",
}
"""Menus whose title names no place, in words (checked before ``_SOURCES``)."""


def source_text(title: str, option_id: str | None = None) -> str:
    """Where a chosen option comes from, in words (see ``_TITLES`` and ``_SOURCES``); unknown titles fall back
    to plain text. Without an option, the menu itself ("steward room 2")."""
    kind, _, place = title.partition(":")
    if title in _TITLES:
        pattern = None
    elif kind == "ceremony":  # a Tea House room's or the Viewing Platform's token (R-M13, R-M16)
        pattern, title = None, f"the ceremony token of {space_text(place)}"
    elif kind == "tea_room":
        pattern, title = None, space_text(place)
    else:
        pattern = _SOURCES.get(kind) if place else None
    if pattern is None:
        plain = _TITLES.get(title, title.replace("_", " "))
        return plain if option_id is None else f"{plain}: {_block(option_id)}"
    words = place.replace("_", " ") if kind in ("card", "domain", "garden", "tile") else space_text(place)
    if option_id is None:
        return pattern.split(",")[0].split(":")[0].format(place=words)
    return pattern.format(place=words, block=_block(option_id))


_POOLS = {
    "steward": "steward card",
    "diplomat": "diplomat card",
    "daimyo": "Daimyo card",
    "plant": "plant garden card",
    "stone": "stone garden card",
    "yard_tiles": "yard tile",
    "starting_resources": "Starting Resource card",
    "starting_actions": "Starting Action card",
    "ceremony": "ceremony token",
    "lily_pads": "lily pad",
    "ikebana": "Ikebana card",
    "calligraphy": "Calligraphy card",
}
"""What each pile holds, in the rulebooks' words (the piles are `DealCard.pool`)."""


def pool_text(pool: str) -> str:
    """A pile's cards or tiles in words: ``yard_tiles`` → "yard tile"."""
    return _POOLS.get(pool, pool.replace("_", " "))


def target_text(state: GameState, target: str) -> str:
    """Where a revealed card or tile goes (`DealCard.target`), in words, counted from 1 as the board is:
    ``offer_0:resource`` → "starting pair 1", ``yard_1:blue`` → "the blue tile space of yard 1 (5 iron)",
    ``coral_plant`` → "the coral plant garden", ``himeji:ikebana`` → "the Ikebana deck in Himeji"."""
    place, _, part = target.partition(":")
    if place.startswith("offer_") and place[6:].isdigit():  # the setup's starting pairs, 0 first (R-S12)
        return f"starting pair {int(place[6:]) + 1}"
    if place == "himeji":
        return f"the {part.capitalize()} deck in Himeji"
    if part in ("blue", "yellow"):  # a yard's tile space, the colour printed on it (R-S09)
        iron = next((spec.iron for spec in state.catalog.yards if spec.id == place), None)
        return f"the {part} tile space of {space_text(place)}" + (f" ({iron} iron)" if iron else "")
    if any(slot.id == place for slot in state.board.gardens):
        return f"the {place.replace('_', ' ')} garden"
    if place.startswith("pond_"):
        return f"lily pad space {place[5:]} of the pond"
    return space_text(place)


def player_text(state: GameState, seat: int) -> str:
    """The name of the player in `seat` (an index from 0), or "seat N" counted from 1 for a seat the game
    does not have."""
    return state.players[seat].name if 0 <= seat < len(state.players) else f"seat {seat + 1}"


def seat_text(state: GameState, seat: int, owned: str = "") -> str:
    """A seat as people count it, the one spelling of every message that names a seat: the player's name and
    the seat counted from 1, "Ben (seat 2)" for the index 1. `owned` follows the name: "Ben's turn (seat 2)"
    with ``"'s turn"``, "Ben's (seat 2)" with ``"'s"``. A seat the game does not have is "seat N" alone."""
    if not 0 <= seat < len(state.players):
        return f"{player_text(state, seat)}{owned}"
    return f"{player_text(state, seat)}{owned} (seat {seat + 1})"


def cost_text(cost: Cost) -> str:
    """A cost in words: "3 coins", "1 seal"."""
    plural = {Resource.COIN: "coins", Resource.SEAL: "seals"}
    return ", ".join(
        f"{amount} {plural[resource] if amount > 1 and resource in plural else resource.value}"
        for resource, amount in cost
    )


QUESTIONS = {
    "choose_start": "choose a starting pair",
    "take_die": "take a die from the end of a bridge",
    "milestone": "pay seals to pass the milestone?",
    "courtier": "Courtier action",
    "warrior": "Warrior action, choose a yard",
    "gardener": "Gardener action, choose a garden",
    "domain": "Personal Domain action, choose a row",
    "daimyo_spot": "choose a favour spot of the Daimyo",
    "climb": "a courtier 1 floor up, without pearl",
    "well_tile": "which die tile was laid at the Well?",
    "stack_order": "the influence stack, top first",
    "choose_start_cards": "choose 1 starting resource card, 1 starting action card and 1 ceremony token",
}
"""Prompts whose question needs nothing but who answers it."""
