"""The bridges: dice laid ascending from the lantern end, taken only from an end (R-S07, R-T03..R-T05, C.1)."""

from __future__ import annotations

import itertools
from typing import Any

from domain.chance import Draws
from domain.kinds.base import Move
from domain.kinds.bridges import RollMove, TakeDieMove
from domain.prompts import PlaceDie, RollBridge, TakeDie
from domain.state import Bridge, GameState, Held, bridge_index, pop, replace, replace_in, with_board

ENDS = ("left", "right")


def lay(colour: Any, dice: list[int] | tuple[int, ...]) -> Bridge:
    """Lay rolled dice ascending from the lantern (left) end (R-S07, R-E04)."""
    ordered = sorted(dice)
    if not ordered:
        return Bridge(colour, None, (), None)
    if len(ordered) == 1:
        return Bridge(colour, ordered[0], (), None)
    return Bridge(colour, ordered[0], tuple(ordered[1:-1]), ordered[-1])


def ends(state: GameState, bridge: Bridge) -> list[str]:
    """The ends a die can be taken from now (R-T03, C.1)."""
    found = [end for end, value in zip(ENDS, (bridge.left, bridge.right), strict=True) if value is not None]
    if len(found) == 1 and not bridge.middle and state.options.bridge_ends == "lone_die_both_ends":
        return list(ENDS)
    return found


def take(bridge: Bridge, end: str) -> tuple[int, Bridge]:
    """Remove the die at `end`; the nearest middle die slides into the freed end (R-T04)."""
    middle = bridge.middle
    if end == "left":
        if bridge.left is None:  # a lone die at the right end, taken as the left one (lone_die_both_ends)
            assert bridge.right is not None
            return bridge.right, replace(bridge, right=None)
        return bridge.left, replace(bridge, left=middle[0] if middle else None, middle=middle[1:])
    if bridge.right is None:  # a lone die at the left end, taken as the right one (lone_die_both_ends)
        assert bridge.left is not None
        return bridge.left, replace(bridge, left=None)
    return bridge.right, replace(bridge, right=middle[-1] if middle else None, middle=middle[:-1])


def take_moves(state: GameState, frame: TakeDie) -> list[Move]:
    return [
        TakeDieMove(frame.seat, bridge.colour.value, end)
        for bridge in state.board.bridges
        for end in ends(state, bridge)
    ]


def take_play(state: GameState, frame: TakeDie, move: TakeDieMove) -> GameState:
    """Take the die into the hand; placing it is the next prompt (R-T02)."""
    index = bridge_index(state, move.bridge)
    bridge = state.board.bridges[index]
    value, bridge = take(bridge, move.end)
    return replace(
        state,
        board=replace(state.board, bridges=replace_in(state.board.bridges, index, bridge)),
        held=Held(bridge.colour, value, move.end),
        stack=(*state.stack[:-1], PlaceDie(frame.seat)),
    )


def dice_on_bridges(state: GameState) -> int:
    return sum(bridge.count() for bridge in state.board.bridges)


# --- rolling (R-S07, R-E04) -


def dice_per_colour(state: GameState) -> int:
    """n + 1 dice per colour; the solo game uses the 2-player setup (R-S01, R-S07)."""
    return max(len(state.players), 2) + 1


def roll_moves(state: GameState, frame: RollBridge) -> list[Move]:
    """Every sorted multiset of the bridge's dice (252 for 5 dice)."""
    return [
        RollMove(frame.bridge.value, dice)
        for dice in itertools.combinations_with_replacement(range(1, 7), dice_per_colour(state))
    ]


def roll_draw(state: GameState, frame: RollBridge, rng: Draws) -> RollMove:
    dice = sorted(rng.randint(1, 6) for _ in range(dice_per_colour(state)))
    return RollMove(frame.bridge.value, tuple(dice))


def roll_play(state: GameState, frame: RollBridge, move: RollMove) -> GameState:
    index = bridge_index(state, frame.bridge)
    state = with_board(state, bridges=replace_in(state.board.bridges, index, lay(frame.bridge, move.dice)))
    return pop(state)


def roll_is_valid(state: GameState, frame: RollBridge, move: RollMove) -> bool:
    dice = move.dice
    return (
        move.bridge == frame.bridge.value
        and len(dice) == dice_per_colour(state)
        and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)
        and list(dice) == sorted(dice)
    )
