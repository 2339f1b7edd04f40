"""The Passage of Time: influence moves, milestones, stacks of markers and the turn order (R-PT, R-E02)."""

from __future__ import annotations

from domain.kinds.base import Move
from domain.kinds.passage_of_time import MilestoneMove
from domain.prompts import Pot
from domain.state import GameState, Player, pop, replace, swap_top, with_board, with_player


def _next_cost(state: GameState, player: Player) -> int | None:
    if player.pot >= state.catalog.pot_last:
        return None
    return state.catalog.milestones.get(player.pot + 1)


def _moved(state: GameState, seat: int, player: Player, to: int) -> GameState:
    """Put the marker on `to` with a fresh stamp: it lies on top of any marker already there (R-PT03)."""
    stamp = state.board.stamp + 1
    state = with_board(state, stamp=stamp)
    return with_player(state, seat, replace(player, pot=to, pot_stamp=stamp))


def pot_waiting(state: GameState, frame: Pot) -> bool:
    """A prompt only at a milestone the player can pay and may decline (C.3)."""
    player = state.players[frame.seat]
    cost = _next_cost(state, player)
    return cost is not None and player.seals >= cost and state.options.milestones == "may_decline"


def pot_auto(state: GameState, frame: Pot) -> GameState:
    """Advance until the steps run out, the track ends, an unpaid milestone stops the marker, or a choice."""
    seat, steps = frame.seat, frame.steps
    player = state.players[seat]
    start, position, seals = player.pot, player.pot, player.seals
    last, milestones = state.catalog.pot_last, state.catalog.milestones
    must_pay = state.options.milestones == "must_pay"
    while steps > 0 and position < last:
        cost = milestones.get(position + 1)
        if cost is not None:
            if seals < cost:
                steps = 0  # R-PT02: unpaid, the marker stops before the milestone; the rest is lost
                break
            if not must_pay:
                break  # C.3: the player chooses (pot_waiting now holds)
            seals -= cost
        position += 1
        steps -= 1
    if position >= last:
        steps = 0
    player = replace(player, seals=seals)
    state = _moved(state, seat, player, position) if position != start else with_player(state, seat, player)
    return swap_top(state, Pot(seat, steps)) if steps > 0 else pop(state)


def pot_moves(state: GameState, frame: Pot) -> list[Move]:
    return [MilestoneMove(frame.seat, True), MilestoneMove(frame.seat, False)]


def pot_play(state: GameState, frame: Pot, move: MilestoneMove) -> GameState:
    """Pay the milestone and go on, or stop before it and lose the remaining steps (R-PT02, C.3)."""
    if not move.pay:
        return pop(state)
    player = state.players[frame.seat]
    cost = state.catalog.milestones[player.pot + 1]
    state = _moved(state, frame.seat, replace(player, seals=player.seals - cost), player.pot + 1)
    steps = frame.steps - 1
    return swap_top(state, Pot(frame.seat, steps)) if steps > 0 else pop(state)


def turn_order(state: GameState) -> tuple[int, ...]:
    """Seats by Passage of Time position, furthest first; on one space the marker on top first (R-E02)."""
    players = state.players
    return tuple(sorted(range(len(players)), key=lambda seat: (-players[seat].pot, -players[seat].pot_stamp)))


def milestone_reachable(state: GameState, seat: int, steps: int) -> bool:
    """Whether `steps` of influence from the seat's marker could reach a milestone (so seals matter)."""
    position = state.players[seat].pot
    return any(position < space <= position + steps for space in state.catalog.milestones)
