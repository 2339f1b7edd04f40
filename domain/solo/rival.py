"""The solo rival's turn: the search for a die, the placement, the icons (R-SO02, R-SO03, R-SO05, R-SO06)."""

from __future__ import annotations

from domain.areas.bridges import ends, take
from domain.areas.courtier import LEVEL
from domain.catalog import natural
from domain.chance import Draws
from domain.kinds.base import Move
from domain.kinds.solo import RivalGardenMove, RivalRoomMove, SoloCardMove
from domain.matcha import expansion as matcha
from domain.prompts import DealCard, RevealSoloCard, RivalGarden, RivalIcons, RivalRoom, TakeDie
from domain.solo.cards import TEA_ROOM, TOKUGAWA_KINDS, RivalIcon, RivalIconKind, SoloCard, parse_rival_icon
from domain.solo.game import gain, human_of, impossible, note, solo_of, with_solo
from domain.solo.tokugawa import resolve as resolve_tokugawa
from domain.state import (
    Die,
    GameState,
    matcha_board,
    pop,
    push,
    replace,
    replace_in,
    room_index,
    swap_top,
    with_board,
    with_player,
)
from domain.turn import WELL, reference
from domain.vocabulary import Floor, space_text


def card_text(card: SoloCard) -> str:
    return f"{card.id} ({card.bridge} die, {card.end} end → {space_text(card.space)})"


# --- the search for a die (R-SO03) -


def begin_turn(state: GameState, frame: TakeDie) -> GameState:
    """The rival's turn starts: its notes restart, and it reveals its first solo card."""
    state = with_solo(state, notes=())
    return _next_card(swap_top(state), frame.seat)


def _next_card(state: GameState, rival: int) -> GameState:
    """Push the next reveal; a deck that ran out gets the line's cards back but the last one (decision)."""
    solo = solo_of(state)
    if not solo.deck:
        back = solo.line[:-1]
        state = with_solo(state, deck=tuple(sorted(back, key=natural)), line=solo.line[-1:])
        state = note(state, f"the solo deck is empty: {len(back)} revealed cards are shuffled back")
    return push(state, RevealSoloCard(rival))


def reveal_moves(state: GameState, frame: RevealSoloCard) -> list[Move]:
    return [SoloCardMove(card) for card in sorted(set(solo_of(state).deck), key=natural)]


def reveal_draw(state: GameState, frame: RevealSoloCard, rng: Draws) -> SoloCardMove:
    return SoloCardMove(rng.choice(solo_of(state).deck))


def reveal_play(state: GameState, frame: RevealSoloCard, move: SoloCardMove) -> GameState:
    """Lay the card at the right of the line; take its die if it is there, else reveal the next card."""
    rival = frame.rival
    card = state.catalog.solo_cards[move.card]
    solo = solo_of(state)
    deck = list(solo.deck)
    deck.remove(card.id)
    state = pop(with_solo(state, deck=tuple(deck), line=(*solo.line, card.id)))
    bridges = [i for i, bridge in enumerate(state.board.bridges) if bridge.colour == card.bridge]
    if not bridges or card.end not in ends(state, state.board.bridges[bridges[0]]):
        state = note(state, f"reveals {card_text(card)}: no die at that end")
        return _next_card(state, rival)
    return _place(state, rival, card, bridges[0])


# --- the die and its space (R-SO02, R-SO03, R-SO06) -


def occupied(state: GameState, space: str) -> bool:
    """Whether a die already lies on a space (the Well never counts: it takes any number, R-P06)."""
    if space == WELL:
        return False
    extra = matcha.find_space(state, space)
    if extra is not None:
        return bool(extra[0].dice)
    for item in state.board.outside:
        if item.id == space:
            return bool(item.dice)
    return bool(state.board.rooms[room_index(state, space)].dice)


def _put(state: GameState, space: str, die: Die) -> GameState:
    board = state.board
    if space == WELL:
        return with_board(state, well=replace(board.well, dice=(*board.well.dice, die)))
    if matcha.find_space(state, space) is not None:
        return matcha.put_die(state, space, die)
    for i, item in enumerate(board.outside):
        if item.id == space:
            return with_board(
                state, outside=replace_in(board.outside, i, replace(item, dice=(*item.dice, die)))
            )
    index = room_index(state, space)
    room = board.rooms[index]
    return with_board(state, rooms=replace_in(board.rooms, index, replace(room, dice=(*room.dice, die))))


def _place(state: GameState, rival: int, card: SoloCard, bridge_at: int) -> GameState:
    """Take the card's die and move it to the card's space, or the Well if a die is there; coins only when
    the die is higher (R-SO02, R-SO03); no colour restriction in the castle (R-SO02)."""
    value, bridge = take(state.board.bridges[bridge_at], card.end)
    state = with_board(state, bridges=replace_in(state.board.bridges, bridge_at, bridge))
    if card.space == TEA_ROOM:
        # Symbol 1 (R-TK04): the left Tea Room space, the right one only if the left is taken, else the Well.
        free = [item.id for item in matcha_board(state).tea_room if not item.dice]
        space = free[0] if free else WELL
    else:
        space = WELL if occupied(state, card.space) else card.space
    coins = max(0, value - reference(state, space))
    state = _put(state, space, Die(card.bridge, value, rival))
    state = gain(state, rival, coins=coins)
    where = space_text(space)
    if card.space == TEA_ROOM:
        if space != matcha_board(state).tea_room[0].id:
            where += " (both Tea Room spaces are taken)" if space == WELL else " (the left one is taken)"
    elif space != card.space:
        where += f" ({space_text(card.space)} is taken)"
    gained = f", gaining {coins} coin{'s' * (coins > 1)}" if coins else ""
    state = note(
        state, f"reveals {card_text(card)}: takes the {card.bridge} {value} and places it on {where}{gained}"
    )
    line = solo_of(state).line[-2:]
    icons = tuple(str(icon) for card_id in line for icon in state.catalog.solo_cards[card_id].icons)
    state = note(state, f"resolves {' and '.join(line)}")
    return push(state, RivalIcons(rival, icons))


# --- the icons (R-SO03, R-SO05) -


def icons_auto(state: GameState, frame: RivalIcons) -> GameState:
    """Resolve the next icon; the rest wait below any prompt it raises."""
    if not frame.icons:
        return pop(state)
    first, rest = frame.icons[0], frame.icons[1:]
    state = swap_top(state, *((RivalIcons(frame.rival, rest),) if rest else ()))
    return resolve(state, frame.rival, parse_rival_icon(first))


def resolve(state: GameState, rival: int, icon: RivalIcon) -> GameState:
    """One rival icon (R-SO05; the Tokugawa icons, R-TK02..R-TK07, are `domain.solo.tokugawa`'s)."""
    player = state.players[rival]
    kind = icon.kind
    if kind in TOKUGAWA_KINDS:
        return resolve_tokugawa(state, rival, icon)
    if kind is RivalIconKind.CP:
        return note(gain(state, rival, cp=icon.amount), f"+{icon.amount} CP")
    if kind is RivalIconKind.COIN:
        return note(gain(state, rival, coins=icon.amount), f"+{icon.amount} coin{'s' * (icon.amount > 1)}")
    if kind is RivalIconKind.POT:
        return influence(state, rival, icon.amount)
    if kind is RivalIconKind.GATE:
        if not player.courtiers:
            return impossible(state, rival, "send a courtier to the Gate (none left)")
        state = with_player(state, rival, replace(player, courtiers=player.courtiers - 1))
        state = with_board(state, gate=replace_in(state.board.gate, rival, state.board.gate[rival] + 1))
        return note(state, "a courtier to the Gate")
    if kind is RivalIconKind.WARRIOR:
        return warrior(state, rival, icon.amount)
    if kind is RivalIconKind.GARDENER:
        return gardener(state, rival, icon.type)
    return ascent(state, rival, icon.amount)


END_OF_TRACK_FREE = frozenset({"0.1.0", "0.2.0", "0.3.0", "0.4.0"})
"""Rules versions under which influence the rival's marker cannot take for the end of the track gives nothing.
From 0.5.0 such an icon is an action not carried out (R-SO03): CP equal to the round's number, once
(docs/rules/decisions.md, the rival's influence at the track's end)."""


def influence(state: GameState, rival: int, steps: int) -> GameState:
    """The rival's marker moves straight on: it never pays a milestone (R-SO02, R-SO05); it stops at the end
    of the track and lies on top of any marker where it stops (R-PT03). Steps lost at the end make the icon an
    action not carried out in full (R-SO03, rules 0.5.0)."""
    player = state.players[rival]
    to = min(player.pot + steps, state.catalog.pot_last)
    if to != player.pot:
        stamp = state.board.stamp + 1
        state = with_board(state, stamp=stamp)
        state = with_player(state, rival, replace(player, pot=to, pot_stamp=stamp))
        state = note(state, f"influence +{steps} (Passage of Time {to})")
    elif state.rules_version in END_OF_TRACK_FREE:
        return note(state, f"influence +{steps}: the marker is at the end of the track")
    lost = player.pot + steps - to
    if not lost or state.rules_version in END_OF_TRACK_FREE:
        return state
    return impossible(
        state, rival, f"take {lost} step{'s' * (lost > 1)} of influence +{steps} past the track's end"
    )


def warrior(state: GameState, rival: int, iron: int) -> GameState:
    """A warrior to the yard matching the cost shown; the yard's tiles are not resolved (R-SO02)."""
    player = state.players[rival]
    yards = state.board.yards
    found = [i for i, yard in enumerate(yards) if state.catalog.yard(yard.id).iron == iron]
    if not player.warriors or not found:
        return impossible(state, rival, f"send a warrior to the {iron}-iron yard (none left)")
    yard = yards[found[0]]
    state = with_player(state, rival, replace(player, warriors=player.warriors - 1))
    state = with_board(
        state, yards=replace_in(yards, found[0], replace(yard, warriors=(*yard.warriors, rival)))
    )
    return note(state, f"a warrior to {space_text(yard.id)} ({iron} iron)")


def garden_choices(state: GameState, rival: int, kind: str) -> list[str]:
    """The gardens of a type holding no rival gardener that score the least (R-SO05)."""
    gardens = state.catalog.gardens
    slots = [
        slot
        for slot in state.board.gardens
        if slot.card is not None and slot.type == kind and rival not in slot.gardeners
    ]
    if not slots:
        return []
    least = min(gardens[slot.card].cp for slot in slots if slot.card is not None)
    return [slot.id for slot in slots if slot.card is not None and gardens[slot.card].cp == least]


def gardener(state: GameState, rival: int, kind: str) -> GameState:
    """A gardener to the cheapest-scoring garden of the type; a tie is the player's choice (R-SO05)."""
    choices = garden_choices(state, rival, kind)
    if not state.players[rival].gardeners or not choices:
        return impossible(state, rival, f"send a gardener to a {kind} garden (none left)")
    if len(choices) > 1:
        return push(state, RivalGarden(human_of(state), rival, tuple(choices)))
    return place_gardener(state, rival, choices[0])


def place_gardener(state: GameState, rival: int, garden: str) -> GameState:
    """The gardener goes on the card, paying no food and performing nothing (R-SO02)."""
    player = state.players[rival]
    slots = state.board.gardens
    index = next(i for i, slot in enumerate(slots) if slot.id == garden)
    slot = slots[index]
    state = with_player(state, rival, replace(player, gardeners=player.gardeners - 1))
    state = with_board(
        state, gardens=replace_in(slots, index, replace(slot, gardeners=(*slot.gardeners, rival)))
    )
    cp = state.catalog.gardens[slot.card].cp if slot.card else 0
    return note(state, f"a gardener to the {garden.replace('_', ' ')} garden ({slot.card}, {cp} CP)")


def garden_moves(state: GameState, frame: RivalGarden) -> list[Move]:
    return [RivalGardenMove(frame.seat, garden) for garden in frame.gardens]


def garden_play(state: GameState, frame: RivalGarden, move: RivalGardenMove) -> GameState:
    return place_gardener(pop(state), frame.rival, move.garden)


# --- the courtier ascent (R-SO05) -


def lowest_courtier(state: GameState, rival: int) -> tuple[str, int] | None:
    """Where the rival's lowest courtier below the Daimyo stands, and its floor level (0 = the Gate); among
    rooms of one floor, the first in board order (which room it leaves changes nothing)."""
    if state.board.gate[rival]:
        return "gate", 0
    found = [
        (LEVEL[state.catalog.room(room.id).floor], i, room.id)
        for i, room in enumerate(state.board.rooms)
        if rival in room.courtiers
    ]
    if not found:
        return None
    level, _, room_id = min(found)
    return room_id, level


def _leave(state: GameState, rival: int, origin: str) -> GameState:
    board = state.board
    if origin == "gate":
        return with_board(state, gate=replace_in(board.gate, rival, board.gate[rival] - 1))
    index = room_index(state, origin)
    room = board.rooms[index]
    courtiers = list(room.courtiers)
    courtiers.remove(rival)
    return with_board(state, rooms=replace_in(board.rooms, index, replace(room, courtiers=tuple(courtiers))))


def ascent(state: GameState, rival: int, floors: int) -> GameState:
    """The lowest courtier climbs 1 or 2 floors, no further than the Daimyo: on floor 1 or 2 the player
    chooses the room, whose card is discarded and replaced; at the Daimyo it takes the leftmost free favour
    spot, and gains nothing there (R-SO02, R-SO05)."""
    found = lowest_courtier(state, rival)
    if found is None:
        return impossible(state, rival, "climb: no courtier at the Gate or in the castle")
    origin, level = found
    target = min(level + floors, LEVEL[Floor.DAIMYO])
    if target == LEVEL[Floor.DAIMYO]:
        state = _leave(state, rival, origin)
        daimyo = state.board.daimyo
        free = [i for i, holder in enumerate(daimyo.spots) if holder is None]
        if free:
            daimyo = replace(daimyo, spots=replace_in(daimyo.spots, free[0], rival))
            where = f"favour spot {free[0] + 1}"
        else:
            daimyo = replace(daimyo, extra=tuple(sorted((*daimyo.extra, rival))))
            where = "no free favour spot"
        state = with_board(state, daimyo=daimyo)
        return note(state, f"a courtier climbs from {space_text(origin)} to the Daimyo ({where})")
    floor = Floor.STEWARD if target == LEVEL[Floor.STEWARD] else Floor.DIPLOMAT
    rooms = [spec.id for spec in state.catalog.rooms if spec.floor is floor]
    if len(rooms) > 1 and _refill_deck(state, floor):
        return push(state, RivalRoom(human_of(state), rival, origin, floor.value))
    return arrive(state, rival, origin, rooms[0])


def _refill_deck(state: GameState, floor: Floor) -> tuple[str, ...]:
    decks = state.board.decks
    return decks.steward if floor is Floor.STEWARD else decks.diplomat


def arrive(state: GameState, rival: int, origin: str, room_id: str) -> GameState:
    """The courtier enters the room; its card is discarded (out of the game) and the room refilled from its
    deck; with an empty deck the card stays (decision, as R-CA03 keeps it for a player)."""
    state = _leave(state, rival, origin)
    index = room_index(state, room_id)
    room = state.board.rooms[index]
    card = room.card
    floor = state.catalog.room(room_id).floor
    discard = card is not None and bool(_refill_deck(state, floor))
    room = replace(room, courtiers=tuple(sorted((*room.courtiers, rival))), card=None if discard else card)
    state = with_board(state, rooms=replace_in(state.board.rooms, index, room))
    text = f"a courtier climbs from {space_text(origin)} to {space_text(room_id)}"
    if not discard:
        return note(state, text)
    state = note(state, f"{text}, whose card {card} is discarded")
    return push(state, DealCard(floor.value, room_id))


def room_moves(state: GameState, frame: RivalRoom) -> list[Move]:
    return [
        RivalRoomMove(frame.seat, spec.id) for spec in state.catalog.rooms if spec.floor.value == frame.floor
    ]


def room_play(state: GameState, frame: RivalRoom, move: RivalRoomMove) -> GameState:
    return arrive(pop(state), frame.rival, frame.origin, move.room)
