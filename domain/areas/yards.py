"""Training yards and the Warrior action (R-WA01..R-WA04, R-S09, R-F06)."""

from __future__ import annotations

from domain.kinds.actions import DoneMove
from domain.kinds.base import Move
from domain.kinds.warrior import WarriorMove
from domain.prompts import Menu, Option, Seq, WarriorAction
from domain.resources import affordable
from domain.state import GameState, pop, push, replace, replace_in, with_board, with_player
from domain.vocabulary import Resource


def warrior_waiting(state: GameState, frame: WarriorAction) -> bool:
    return state.players[frame.seat].warriors > 0 and any(
        affordable(state, frame.seat, ((Resource.IRON, spec.iron),)) for spec in state.catalog.yards
    )


def warrior_moves(state: GameState, frame: WarriorAction) -> list[Move]:
    seat = frame.seat
    player = state.players[seat]
    moves: list[Move] = []
    if player.warriors > 0:
        moves.extend(WarriorMove(seat, spec.id) for spec in state.catalog.yards if player.iron >= spec.iron)
    moves.append(DoneMove(seat))
    return moves


def warrior_play(state: GameState, frame: WarriorAction, move: WarriorMove | DoneMove) -> GameState:
    state = pop(state)
    if isinstance(move, DoneMove):
        return state
    seat, yard_id = frame.seat, move.yard
    spec = state.catalog.yard(yard_id)
    player = state.players[seat]
    state = with_player(
        state, seat, replace(player, iron=player.iron - spec.iron, warriors=player.warriors - 1)
    )
    yards = state.board.yards
    index = next(i for i, yard in enumerate(yards) if yard.id == yard_id)
    yard = yards[index]
    state = with_board(state, yards=replace_in(yards, index, replace(yard, warriors=(*yard.warriors, seat))))
    tiles = state.catalog.yard_tiles
    options = []
    if yard.blue is not None:
        options.append(Option(f"{yard.blue}:blue", (), tiles[yard.blue].blue))
    if yard.yellow is not None:
        options.append(Option(f"{yard.yellow}:yellow", (), tiles[yard.yellow].yellow))
    if len(options) == 1:
        return push(state, Seq(seat, options[0].icons))
    return push(state, Menu(seat, f"yard:{yard_id}", tuple(options), (), len(options), True))
