"""The end of a round (R-E01..R-E05): new turn order, gardens, preparation; after the last round, the end."""

from __future__ import annotations

from domain.areas.gardens import activation_menus
from domain.areas.passage_of_time import turn_order
from domain.matcha import expansion as matcha
from domain.prompts import BeginRound, ClearDice, EndOfRound, EndTurn, NextRound, RollBridge, TakeDie
from domain.solo import game as solo
from domain.state import Bridge, GameState, pop, push, replace, swap_top
from domain.vocabulary import Phase


def end_of_round_auto(state: GameState, frame: EndOfRound) -> GameState:
    state = replace(pop(state), turn_order=turn_order(state))
    if state.solo is not None:
        state = solo.end_of_round(state)  # the rival's own end of round (R-SO04)
    if state.round >= state.rules.rounds:
        return replace(state, phase=Phase.OVER, stack=())
    rolls = [RollBridge(bridge.colour) for bridge in state.board.bridges]
    menus = [menu for menu in activation_menus(state) if not solo.is_automatic(state, menu.seat)]
    return push(state, NextRound(), *reversed(rolls), ClearDice(), *reversed(menus))


def clear_dice_auto(state: GameState, frame: ClearDice) -> GameState:
    """Gather every die from the spaces, the Domains and the bridges for the reroll (R-E04)."""
    board = state.board
    board = replace(
        board,
        bridges=tuple(Bridge(bridge.colour, None, (), None) for bridge in board.bridges),
        rooms=tuple(replace(room, dice=()) for room in board.rooms),
        outside=tuple(replace(space, dice=()) for space in board.outside),
        well=replace(board.well, dice=()),
    )
    board = matcha.clear_dice(board)
    players = tuple(replace(player, domain=(None,) * len(player.domain)) for player in state.players)
    return replace(pop(state), board=board, players=players)


def next_round_auto(state: GameState, frame: NextRound) -> GameState:
    return swap_top(replace(state, round=state.round + 1), BeginRound())


def begin_round_auto(state: GameState, frame: BeginRound) -> GameState:
    """The first player on the turn-order track takes the round's first turn (R-T01)."""
    first = state.turn_order[0]
    state = replace(state, phase=Phase.TURNS, turn_index=0, board=replace(state.board, offer=()))
    return swap_top(state, EndTurn(first), TakeDie(first))
