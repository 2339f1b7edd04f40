"""The Courtier action: Audience and Ascent, and the Daimyo's favour spots (R-CA01..R-CA04, R-L03)."""

from __future__ import annotations

from typing import Any

from domain.areas.lantern import lantern_menu
from domain.kinds.actions import DoneMove
from domain.kinds.base import Move
from domain.kinds.courtier import AscendMove, AudienceMove, DaimyoSpotMove, audience_cost
from domain.prompts import Arrive, CourtierAction, DaimyoSpot, Frame, Menu, Option
from domain.resources import affordable, can_pay, pay
from domain.state import (
    GameState,
    pop,
    push,
    replace,
    replace_in,
    room_index,
    swap_top,
    with_board,
    with_player,
)
from domain.vocabulary import Floor, Resource

LEVEL = {Floor.GATE: 0, Floor.STEWARD: 1, Floor.DIPLOMAT: 2, Floor.DAIMYO: 3}


def locations(state: GameState, seat: int) -> list[tuple[str, Floor]]:
    """Where the seat has courtiers that can still climb: the Gate and castle rooms (not the Daimyo)."""
    board = state.board
    found: list[tuple[str, Floor]] = []
    if board.gate[seat]:
        found.append(("gate", Floor.GATE))
    for room in board.rooms:
        if seat in room.courtiers:
            found.append((room.id, state.catalog.room(room.id).floor))
    return found


def destinations(state: GameState, floor: Floor, floors: int) -> list[str]:
    """Places `floors` floors above `floor` (R-CA02): any room of that floor, or the Daimyo."""
    target = LEVEL[floor] + floors
    if target == 3:
        return ["daimyo"]
    wanted = Floor.STEWARD if target == 1 else Floor.DIPLOMAT
    return [spec.id for spec in state.catalog.rooms if spec.floor is wanted] if target < 3 else []


def ascents(state: GameState, seat: int) -> list[tuple[str, str, int]]:
    """(from, to, pearl) for every ascent the seat's courtiers could make, affordable or not."""
    result: list[tuple[str, str, int]] = []
    for where, floor in locations(state, seat):
        for floors, pearl in state.catalog.ascent_pearl.items():
            result.extend((where, to, pearl) for to in destinations(state, floor, floors))
    return result


def courtier_waiting(state: GameState, frame: CourtierAction) -> bool:
    """Ask only if some part could still be done, counting seal conversions (R-R02)."""
    seat = frame.seat
    audience = audience_cost(state)
    if not frame.audience_done and state.players[seat].courtiers > 0 and affordable(state, seat, audience):
        return True
    if not frame.ascent_done:
        return any(affordable(state, seat, ((Resource.PEARL, p),)) for _, _, p in ascents(state, seat))
    return False


def courtier_moves(state: GameState, frame: CourtierAction) -> list[Move]:
    seat = frame.seat
    player = state.players[seat]
    moves: list[Move] = []
    if not frame.audience_done and player.courtiers > 0 and can_pay(player, audience_cost(state)):
        moves.append(AudienceMove(seat))
    if not frame.ascent_done:
        moves.extend(
            AscendMove(seat, where, to) for where, to, pearl in ascents(state, seat) if player.pearl >= pearl
        )
    moves.append(DoneMove(seat))
    return moves


def courtier_play(
    state: GameState, frame: CourtierAction, move: AudienceMove | AscendMove | DoneMove
) -> GameState:
    seat = frame.seat
    if isinstance(move, DoneMove):
        return pop(state)
    player = state.players[seat]
    if isinstance(move, AudienceMove):
        paid = pay(player, audience_cost(state))
        state = with_player(state, seat, replace(paid, courtiers=player.courtiers - 1))
        state = with_board(state, gate=replace_in(state.board.gate, seat, state.board.gate[seat] + 1))
        return _continue(state, replace(frame, audience_done=True))
    return ascend(state, frame, move.origin, move.to)


def _continue(state: GameState, frame: CourtierAction, *above: Any) -> GameState:
    """Keep the action open for its other part (unless both are done), with `above` resolved first."""
    below = () if frame.audience_done and frame.ascent_done else (frame,)
    return swap_top(state, *below, *above)


def ascend(state: GameState, frame: CourtierAction, origin: str, to: str) -> GameState:
    """Climb (R-CA01 B, R-CA02); arrival in a room (R-CA03) or at the Daimyo (R-CA04) follows."""
    seat = frame.seat
    start = Floor.GATE if origin == "gate" else state.catalog.room(origin).floor
    end = 3 if to == "daimyo" else LEVEL[state.catalog.room(to).floor]
    pearl = state.catalog.ascent_pearl[end - LEVEL[start]]
    player = state.players[seat]
    state = with_player(state, seat, replace(player, pearl=player.pearl - pearl))
    state, arrival = move_courtier(state, seat, origin, to)
    return _continue(state, replace(frame, ascent_done=True), *arrival)


def move_courtier(state: GameState, seat: int, origin: str, to: str) -> tuple[GameState, tuple[Frame, ...]]:
    """Move one of the seat's courtiers from `origin` (the Gate or a room) up to `to` (a room or the Daimyo),
    paying nothing; returns the state and the frames of its arrival, the last one first to resolve: the
    Daimyo's Lantern Reward then favour spot (R-CA04), or the room's card (R-CA03)."""
    board = state.board
    if origin == "gate":
        state = with_board(state, gate=replace_in(board.gate, seat, board.gate[seat] - 1))
    else:
        index = room_index(state, origin)
        room = board.rooms[index]
        courtiers = list(room.courtiers)
        courtiers.remove(seat)
        state = with_board(
            state, rooms=replace_in(board.rooms, index, replace(room, courtiers=tuple(courtiers)))
        )
    board = state.board
    if to == "daimyo":
        daimyo = board.daimyo
        state = with_board(state, daimyo=replace(daimyo, extra=tuple(sorted((*daimyo.extra, seat)))))
        # R-CA04: the Lantern Reward first, then the favour spot.
        return state, (DaimyoSpot(seat), lantern_menu(state, seat))
    index = room_index(state, to)
    room = board.rooms[index]
    room = replace(room, courtiers=tuple(sorted((*room.courtiers, seat))))
    state = with_board(state, rooms=replace_in(board.rooms, index, room))
    return state, (Arrive(seat, to),)


# --- the Daimyo's favour spots (R-CA04) -


def free_spots(state: GameState) -> list[int]:
    return [i for i, holder in enumerate(state.board.daimyo.spots) if holder is None]


def spot_waiting(state: GameState, frame: DaimyoSpot) -> bool:
    return len(free_spots(state)) > 1


def spot_auto(state: GameState, frame: DaimyoSpot) -> GameState:
    spots = free_spots(state)
    if not spots:  # R-CA04: no free spot, the courtier stays in the room with no bonus
        return pop(state)
    return take_spot(state, frame.seat, spots[0])


def spot_moves(state: GameState, frame: DaimyoSpot) -> list[Move]:
    return [DaimyoSpotMove(frame.seat, spot) for spot in free_spots(state)]


def spot_play(state: GameState, frame: DaimyoSpot, move: DaimyoSpotMove) -> GameState:
    return take_spot(state, frame.seat, move.spot)


def take_spot(state: GameState, seat: int, spot: int) -> GameState:
    """Move the arrived courtier onto a favour spot and gain it (R-CA04)."""
    state = pop(state)
    daimyo = state.board.daimyo
    extra = list(daimyo.extra)
    extra.remove(seat)
    state = with_board(
        state, daimyo=replace(daimyo, spots=replace_in(daimyo.spots, spot, seat), extra=tuple(extra))
    )
    assert daimyo.card is not None
    icons = state.catalog.daimyo[daimyo.card][spot]
    return push(state, Menu(seat, "daimyo", (Option(f"spot_{spot + 1}", (), icons),), (), 1, True))
