"""The game's questions in words: what the pending prompt asks (`prompt_text`), what it alone does not say
(`prompt_help`, R-S03), where a die tile goes and the board's parts an annotation may name. What things are
called (places, piles, icons, seats, costs) is `domain.names`, below the engine.

The words live in the engine alone: the server sends them and the pages show what it sends.
"""

from __future__ import annotations

from domain.areas.castle import die_tile_space
from domain.matcha import tea_garden
from domain.matcha.himeji import declinable
from domain.names import QUESTIONS, pool_text, seat_text, source_text, target_text
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
from domain.vocabulary import Colour, Phase, space_text


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
    if isinstance(seat, int) and state.phase is Phase.END_OF_ROUND:
        # the round is over: its gardens are activated (R-E03); the question says so, not "turn 3" of the round
        who = f"End of round {state.round}, {who}"
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
        if state.phase is Phase.END_OF_ROUND:
            # a round's reroll (R-E04): every bridge's dice for the next round, asked together
            bridges = [f.bridge.value for f in reversed(state.stack) if isinstance(f, RollBridge)]
            named = ", ".join(bridges[:-1]) + f" and {bridges[-1]}" if len(bridges) > 1 else bridges[0]
            bridge = "bridges" if len(bridges) > 1 else "bridge"
            return f"Chance: what did the dice of the {named} {bridge} roll for round {state.round + 1}?"
        return f"Chance: what did the {frame.bridge} dice roll?"
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
    would come back with the rooms empty, as if the page went round in a loop); for a die tile, which colours
    R-S05 would lay on another space than the one asked about (else the question comes back, unexplained)."""
    if not state.stack:
        return ""
    frame = state.stack[-1]
    if KIND[type(frame)] == "die_tile":
        return _moved_on_text(state)
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


def moved_on_text(state: GameState, colour: Colour) -> str:
    """Why a die tile of `colour` drawn now goes to another space than the one asked about (R-S05), "" when it
    does not: "it would leave diplomat room 1 all coral"."""
    asked = die_tile_space(state)
    where = die_tile_space(state, colour)
    if asked is None or where is None or asked == where:
        return ""
    return f"it would leave {space_text(asked[0])} all {colour}"


def _moved_on_text(state: GameState) -> str:
    moved = [
        f"a {colour} tile drawn now {why[3:]}, so R-S05 lays it on {die_tile_text(state, colour)} and asks again"
        f" for this space"
        for colour in Colour
        if (why := moved_on_text(state, colour))
    ]
    said = "; ".join(moved)
    return f"{said[:1].upper()}{said[1:]} (a room shows two colours or more)." if moved else ""
