"""The game's words for things and questions: what the board's places, piles, icons and seats are called, the
question the pending prompt asks (`prompt_text`), and what it alone does not say (`prompt_help`, R-S03).

The words live in the engine alone: the server sends them and the pages show what it sends.
"""

from __future__ import annotations

from domain.areas.castle import die_tile_space
from domain.matcha import tea_garden
from domain.matcha.himeji import declinable
from domain.prompts import (
    KIND,
    AnyRes,
    CheckCastle,
    DealCard,
    GeishaAction,
    HimejiCard,
    Menu,
    PlaceDie,
    RevealSoloCard,
    RivalDiscard,
    RivalGarden,
    RivalGeisha,
    RivalRoom,
    RollBridge,
)
from domain.state import GameState
from domain.vocabulary import Colour, Icon, IconKind, Phase, parse_icon, space_text

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


def die_tile_text(state: GameState, colour: Colour | None = None) -> str:
    """The castle space a die tile goes to (R-S05): "the castle's ♦ space in steward room 1" or "the castle's
    space 4, in diplomat room 1" (spaces 1 to 10, as printed); with no colour, the next space in order (a tile
    that would leave its room one colour goes on to the next one)."""
    where = die_tile_space(state, colour)
    if where is None:
        return "the castle"
    catalog = state.catalog
    room = space_text(where[0])
    if where in catalog.diamond_spaces:
        return f"the castle's ♦ space in {room}"
    if where in catalog.numbered_spaces:
        return f"the castle's space {catalog.numbered_spaces.index(where) + 1}, in {room}"
    return f"the castle's {room}"


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


_WHOLE_PARTS = {"passage_of_time": "the Passage of Time", "daimyo": "the Daimyo", "well": "the Well"}
"""Parts of the board that are one thing (a target names them with an empty id), in words."""


def board_parts(state: GameState) -> dict[str, tuple[str, ...]]:
    """Every part of this game's board an annotation may point at (`replay.annotations.TARGET_KINDS`), kind by
    kind, with the ids `part_text` names and the replay page outlines: read from the board itself (its rooms,
    bridges, gardens, yards, Outside the Walls, the players' domains; Matcha's board when it is in play), so a
    base game has no ``tea_room``. The parts that are one thing (the Well...) take the empty id."""
    board = state.board
    parts: dict[str, tuple[str, ...]] = {kind: ("",) for kind in _WHOLE_PARTS}
    parts["room"] = tuple(room.id for room in board.rooms)
    parts["bridge"] = tuple(str(bridge.colour) for bridge in board.bridges)
    parts["garden"] = tuple(slot.id for slot in board.gardens)
    parts["yard"] = tuple(yard.id for yard in board.yards)
    parts["outside"] = tuple(space.id for space in board.outside)
    parts["domain"] = tuple(str(seat) for seat, player in enumerate(state.players) if not player.automatic)
    matcha = board.matcha
    if matcha is not None:
        houses = tuple(room.id for room in matcha.tea_house)
        parts["tea_room"] = tuple(item.id for item in matcha.tea_room)
        parts["himeji"] = tuple(item.id for item in matcha.himeji)
        parts["tea_garden"] = tuple(place for place in tea_garden.places(state) if place not in houses)
        parts["tea_house"] = houses
    return parts


def part_text(state: GameState, kind: str, part: str) -> str:
    """A part of the board an annotation points at (`replay.annotations.TARGET_KINDS`), in the words the
    replay page gives it: ``room steward_1`` → "steward room 1", ``garden coral_plant`` → "the coral plant
    garden", ``yard yard_2`` → "training yard 2", ``domain 1`` → "Ben's domain (seat 2)". A part this board
    does not have is named as it is kept ("garden g9"); `board_parts` lists the parts it has."""
    if kind in _WHOLE_PARTS:
        return _WHOLE_PARTS[kind]
    if kind == "bridge" and any(bridge.colour == part for bridge in state.board.bridges):
        return f"the {part} bridge"
    if kind == "garden":
        slot = next((slot for slot in state.board.gardens if slot.id == part), None)
        return f"the {slot.bridge} {slot.type} garden" if slot else f"garden {part}"
    if kind == "domain":
        seat = int(part) if part.isascii() and part.isdigit() else None
        return seat_text(state, seat, "'s domain") if seat is not None else f"domain {part}"
    if kind == "yard":
        return f"training {space_text(part)}"
    if kind in ("room", "outside", "tea_room", "himeji", "tea_garden", "tea_house"):
        return space_text(part)
    return f"{kind.replace('_', ' ')} {part}".strip()


def prompt_text(state: GameState) -> str:
    """The question the pending prompt asks, with who answers it: "Ben: take a die from the end of a bridge",
    "Chance: which steward card was revealed for steward room 2?"."""
    if not state.stack:
        return "The game is over"
    frame = state.stack[-1]
    kind = KIND[type(frame)]
    seat = getattr(frame, "seat", None)
    players = state.players
    who = players[seat].name if isinstance(seat, int) and 0 <= seat < len(players) else "Chance"
    rival = getattr(frame, "rival", None)
    rival_name = players[rival].name if isinstance(rival, int) and 0 <= rival < len(players) else "the rival"
    question = QUESTIONS.get(kind)
    if question is not None:
        return f"{who}: {question}"
    if isinstance(frame, PlaceDie):
        held = state.held
        return f"{who}: place the {held.colour} {held.value}" if held else f"{who}: place the die"
    if isinstance(frame, Menu):
        return f"{who}: {'gain' if frame.mandatory else 'actions of'} {source_text(frame.title)}"
    if isinstance(frame, AnyRes):
        return f"{who}: choose {frame.amount} resource{'s' * (frame.amount > 1)}"
    if isinstance(frame, GeishaAction):
        return f"{who}: advance a geisha 1 step, free" if frame.free_step else f"{who}: Geisha action"
    if isinstance(frame, HimejiCard):
        if frame.purpose == "path":
            decline = ", or decline it" if declinable(state, frame) else ""
            return f"{who}: take the Ikebana or the Calligraphy card (its yellow curtain){decline}"
        return f"{who}: both curtains of which Himeji card?"
    if isinstance(frame, DealCard):
        return f"Chance: which {pool_text(frame.pool)} was revealed for {target_text(state, frame.target)}?"
    if kind == "die_tile":
        return f"Chance: which colour of die tile was drawn for {die_tile_text(state)}?"
    if isinstance(frame, RollBridge):
        # a round's reroll (R-E04): the dice of the next round
        later = f" for round {state.round + 1}" if state.phase is Phase.END_OF_ROUND else ""
        return f"Chance: what did the {frame.bridge} dice roll{later}?"
    if isinstance(frame, RevealSoloCard):
        return f"Chance: which solo card did {rival_name} reveal?"
    if isinstance(frame, RivalGarden):
        return f"{who}: choose the garden for {rival_name}'s gardener (a tie)"
    if isinstance(frame, RivalRoom):
        return f"{who}: choose the {frame.floor} room for {rival_name}'s courtier"
    if isinstance(frame, RivalGeisha):
        return f"{who}: advance one of {rival_name}'s geishas 1 step"
    if isinstance(frame, RivalDiscard):
        return f"{who}: discard the top card of which deck, for {rival_name}'s geisha?"
    return f"{who}: {kind.replace('_', ' ')}"


def prompt_help(state: GameState) -> str:
    """What the pending prompt's question does not say and whoever answers it needs to know, "" when nothing:
    while the castle is dealt again (R-S03), that it is, and why (else the same question about steward room 1
    would come back with the rooms empty, as if the page went round in a loop)."""
    if not state.stack:
        return ""
    frame = state.stack[-1]
    if not isinstance(frame, DealCard) or frame.pool not in ("steward", "diplomat"):
        return ""
    check = next((f for f in reversed(state.stack) if isinstance(f, CheckCastle)), None)
    if check is None or not check.redeals:
        return ""
    times = "" if check.redeals == 1 else f" (deal {check.redeals + 1})"
    return (
        f"The castle is dealt again{times} (R-S03): every castle card revealed showed the same dark-background "
        "action, so they all went back into their decks, shuffled. Shuffle them back at the table too, then "
        "reveal a new card for each room, as at the start."
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
