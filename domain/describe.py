"""One readable line per move, for the game log (`describe(state, move)`, with the state before the move)."""

from __future__ import annotations

from typing import Any

from domain.prompts import KIND, DealCard, Menu
from domain.resources import cost_text
from domain.state import GameState, bridge_index
from domain.turn import reference
from domain.vocabulary import Icon, IconKind

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


def space_text(space: str) -> str:
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


_SOURCES = {
    "castle": "{place}, {block}",
    "arrival": "arriving in {place}: {block}",
    "card": "their Action card, {place} row",
    "domain": "their {place} row",
    "outside": "{place}",
    "garden": "the {place} garden",
    "yard": "{place}",
    "himeji": "{place}",
    "tile": "a {place} die tile's action: {block}",
}
"""How a menu's title reads in the log: ``castle:steward_2`` and option ``bottom`` become "steward room 2,
bottom block" (the titles themselves stay machine ids: the prompts and the tests use them)."""


def _block(option_id: str) -> str:
    """A card block or other option id in words: ``middle+bottom`` → "middle and bottom block"."""
    if ":" in option_id:  # a block of another room's card: "steward_3:middle"
        room, _, block = option_id.partition(":")
        return f"{space_text(room)}, {_block(block)}"
    parts = option_id.split("+")
    if all(part in ("top", "middle", "bottom") for part in parts):
        return " and ".join(parts) + " block"
    if option_id == "all":
        return "the whole card"
    return option_id.replace("_", " ")


def source_text(title: str, option_id: str | None = None) -> str:
    """Where a chosen option comes from, in words (see ``_SOURCES``); unknown titles fall back to plain text.
    Without an option, the menu itself ("steward room 2")."""
    kind, _, place = title.partition(":")
    pattern = _SOURCES.get(kind) if place else None
    if pattern is None:
        plain = title.replace("_", " ")
        return plain if option_id is None else f"{plain}: {_block(option_id)}"
    words = place.replace("_", " ") if kind in ("card", "domain", "garden", "tile") else space_text(place)
    if option_id is None:
        return pattern.split(",")[0].split(":")[0].format(place=words)
    return pattern.format(place=words, block=_block(option_id))


def _coins(delta: int) -> str:
    if delta > 0:
        return f", gaining {delta} coin{'s' * (delta > 1)}"
    if delta < 0:
        return f", paying {-delta} coin{'s' * (delta < -1)}"
    return ""


def describe(state: GameState, move: dict[str, Any]) -> str:
    """One line for the log; `state` is the state before the move. In a solo game the line ends with what the
    rival did because of the move, if anything (its turn, its end of round: ``solo.notes``)."""
    text = _describe(state, move)
    if state.solo is None:
        return text
    done = rival_notes(state, move)
    if not done:
        return text
    rival = state.players[state.solo.rival].name
    if move.get("kind") == "solo_card":
        return f"{rival} (automatic) " + "; ".join(done)
    return f"{text}; then {rival} (automatic): " + "; ".join(done)


def rival_notes(state: GameState, move: dict[str, Any]) -> tuple[str, ...]:
    """What the solo rival did because of `move` (and the automatic steps after it, up to the next prompt)."""
    # Imported here: the engine imports the rival's module, which imports this one for its words.
    from domain.engine import apply

    assert state.solo is not None
    after = apply(state, move, check=False, draw=False).solo
    if after is None:
        return ()
    added = after.noted - state.solo.noted
    return after.notes[len(after.notes) - added :] if added > 0 else ()


def _describe(state: GameState, move: dict[str, Any]) -> str:
    kind = move.get("kind")
    seat = move.get("seat")
    who = state.players[seat].name if isinstance(seat, int) and 0 <= seat < len(state.players) else "Chance"
    frame = state.stack[-1] if state.stack else None
    if kind == "take_die":
        bridge = state.board.bridges[bridge_index(state, move["bridge"])]
        value = bridge.left if move["end"] == "left" else bridge.right
        if value is None:
            value = bridge.right if move["end"] == "left" else bridge.left
        lantern = " (lantern end)" if move["end"] == "left" else ""
        return f"{who} takes the {move['bridge']} {value} from the {move['end']} end{lantern}"
    if kind == "place_die":
        held = state.held
        if held is None:
            return f"{who} places a die on {space_text(move['space'])}"
        delta = held.value - reference(state, move["space"])
        return f"{who} places the {held.colour} {held.value} on {space_text(move['space'])}{_coins(delta)}"
    if kind == "choose" and isinstance(frame, Menu):
        option = next((o for o in frame.options if o.id == move["option"]), None)
        if option is None:
            return f"{who} chooses {move['option']}"
        cost = f"pays {cost_text(option.cost)} for " if option.cost else "takes "
        return f"{who} {cost}{icons_text(option.icons)} ({source_text(frame.title, option.id)})"
    if kind == "rest" and isinstance(frame, Menu):
        return f"{who} takes the rest of {source_text(frame.title)} in the usual order"
    if kind == "done":
        title = (
            source_text(frame.title)
            if isinstance(frame, Menu)
            else KIND[type(frame)]
            if frame
            else "the prompt"
        )
        return f"{who} declines the rest ({title})"
    if kind == "audience":
        return f"{who} sends a courtier to the Gate for 2 coins"
    if kind == "ascend":
        return f"{who}'s courtier climbs from {space_text(move['from'])} to {space_text(move['to'])}"
    if kind == "warrior":
        spec = state.catalog.yard(move["yard"])
        return f"{who} sends a warrior to {move['yard'].replace('_', ' ')} for {spec.iron} iron"
    if kind == "gardener":
        slot = next(s for s in state.board.gardens if s.id == move["garden"])
        food = state.catalog.gardens[slot.card].food if slot.card else 0
        garden = move["garden"].replace("_", " ")
        return f"{who} sends a gardener to the {garden} garden ({slot.card}) for {food} food"
    if kind == "domain_row":
        return f"{who} activates the {move['row']} row of their Domain"
    if kind == "resources":
        gained = ", ".join(f"{move[r]} {r}" for r in ("food", "iron", "pearl") if move[r])
        return f"{who} gains {gained or 'nothing'}"
    if kind == "milestone":
        space = state.players[seat].pot + 1 if isinstance(seat, int) else 0
        if move["pay"]:
            seals = state.catalog.milestones.get(space, 0)
            return f"{who} pays {seals} seals to pass the milestone of space {space}"
        return f"{who} stops before the milestone of space {space}"
    if kind == "daimyo_spot":
        card = state.board.daimyo.card
        icons = state.catalog.daimyo[card][move["spot"]] if card else ()
        return f"{who}'s courtier takes favour spot {move['spot'] + 1} of the Daimyo ({icons_text(icons)})"
    if kind == "choose_start":
        pair = next((p for p in state.board.offer if p.resource == move["resource"]), None)
        action = pair.action if pair else "?"
        token = f" with ceremony token {pair.token}" if pair and pair.token else ""
        return f"{who} chooses the starting pair {move['resource']} + {action}{token}"
    if kind == "send_geisha":
        return f"{who} sends a geisha to the Tea Garden entrance for 2 coins"
    if kind == "advance_geisha":
        return f"{who}'s geisha goes from {space_text(move['from'])} to {space_text(move['to'])}"
    if kind == "himeji_card":
        return f"{who} chooses the {move['deck'].capitalize()} card"
    if kind == "convert":
        price = 1 if move["to"] == "coin" else 2
        return f"{who} converts {price} seal{'s' * (price > 1)} into 1 {move['to']}"
    if kind == "reveal":
        target = frame.target if isinstance(frame, DealCard) else "?"
        return f"Chance: {move['card']} is revealed from the {move['pool']} pile for {target}"
    if kind == "die_tile":
        return f"Chance: a {move['colour']} die tile is drawn for the castle"
    if kind == "well_tile":
        tile = state.catalog.die_tiles.get(move["tile"])
        reward = icons_text(tile.reward) if tile else "?"
        return f"Chance: die tile {move['tile']} ({reward}) is laid at the Well"
    if kind == "roll":
        return f"Chance: the {move['bridge']} dice roll {', '.join(map(str, move['dice']))}"
    if kind == "stack_order":
        names = ", ".join(state.players[s].name for s in move["order"] if 0 <= s < len(state.players))
        return f"Chance: the influence stack, top first (turn order): {names}"
    if kind == "solo_card":
        return f"Chance: the solo card {move['card']} is revealed"
    if kind == "rival_garden":
        return f"{who} chooses the {move['garden'].replace('_', ' ')} garden for the rival's gardener (a tie)"
    if kind == "rival_room":
        return f"{who} chooses {space_text(move['room'])} for the rival's courtier"
    if kind == "choose_start_cards":
        return (
            f"{who} chooses the starting cards {move['resource']} + {move['action']} "
            f"and ceremony token {move['token']}"
        )
    if kind == "rival_geisha":
        return f"{who} advances a geisha of the rival from {space_text(move['from'])} to {space_text(move['to'])}"
    if kind == "rival_discard":
        return f"{who} chooses the {move['deck'].capitalize()} deck to discard from, for the rival's geisha"
    return f"{who}: {kind}"
