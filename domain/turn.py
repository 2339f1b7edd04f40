"""A turn: take a die, place it and settle coins, Lantern Reward, the space's actions (R-T02, R-P01..R-P07)."""

from __future__ import annotations

from domain.areas.bridges import dice_on_bridges
from domain.areas.castle import room_menu
from domain.areas.lantern import lantern_menu
from domain.areas.outside_walls import outside_menu
from domain.areas.well import well_menu
from domain.errors import IllegalMove, InvalidMove
from domain.kinds.action_spaces import PlaceDieMove
from domain.kinds.base import Move
from domain.matcha import expansion as matcha
from domain.prompts import DomainRow, EndOfRound, EndTurn, Frame, PlaceDie, TakeDie
from domain.state import (
    Die,
    GameState,
    Held,
    Space,
    replace,
    replace_in,
    room_index,
    swap_top,
    with_board,
)
from domain.vocabulary import Colour, Phase, space_text

WELL = "well"
DOMAIN = "domain"


def space_ids(state: GameState) -> list[str]:
    """Every die space of the game, in board order."""
    return [
        *(room.id for room in state.board.rooms),
        *(space.id for space in state.board.outside),
        *(matcha.space_ids(state) if state.board.matcha is not None else ()),
        WELL,
        DOMAIN,
    ]


def dice_per_space(state: GameState) -> int:
    """Dice a shared space may hold (R-P05, decision C.6)."""
    rule = state.options.stacking
    if rule == "never":
        return 1
    if rule == "any_player_count":
        return 2
    return 2 if len(state.players) >= 3 else 1


def _outside(state: GameState, space_id: str) -> tuple[int, Space] | None:
    for i, space in enumerate(state.board.outside):
        if space.id == space_id:
            return i, space
    return None


def reference(state: GameState, space_id: str) -> int:
    """The value a die is compared to: the die on top, or the printed value; the Well is always 1 (R-P02)."""
    catalog = state.catalog
    if space_id == WELL:
        return catalog.well_value
    if space_id == DOMAIN:
        return catalog.domain_value
    found = _outside(state, space_id)
    extra = matcha.find_space(state, space_id)
    if found is not None:
        dice = found[1].dice
        value = next(spec.value for spec in catalog.outside if spec.id == space_id)
    elif extra is not None:
        dice, value = extra[0].dice, extra[1]
    else:
        dice = state.board.rooms[room_index(state, space_id)].dice
        value = catalog.room(space_id).value
    return dice[-1].value if dice else value


def refusal(state: GameState, seat: int, held: Held, space_id: str) -> str | None:
    """The rule that keeps the held die off `space_id` now, or None if it may go there: the decision alone,
    as cheap as it can be, since listing the moves asks it of every space (`place_moves`); `why_not_place` puts
    a refusal in words only when a move is refused."""
    catalog = state.catalog
    if space_id == WELL:
        value = catalog.well_value  # any number of dice, side by side (R-P06)
    elif space_id == DOMAIN:
        row = catalog.row_of_colour(held.colour)
        if row is None or state.players[seat].domain[catalog.rows.index(row)] is not None:
            return "R-D01"
        value = catalog.domain_value
    else:
        found = _outside(state, space_id)
        extra = None if found is not None else matcha.find_space(state, space_id)
        if found is not None:
            dice = found[1].dice
            value = next(spec.value for spec in catalog.outside if spec.id == space_id)
        elif extra is not None:
            dice, value = extra[0].dice, extra[1]
        else:
            if not isinstance(held.colour, Colour):
                return "R-M03"
            room = state.board.rooms[room_index(state, space_id)]
            if held.colour not in room.tiles:
                return "R-C02"
            dice, value = room.dice, catalog.room(space_id).value
        if len(dice) >= dice_per_space(state):
            return "R-P05" if extra is None else "R-M04" if space_id.startswith("tea_room") else "R-M05"
        if dice:
            value = dice[-1].value
    # the reference value, as `reference` gives it (R-P02): a lower die pays the difference (R-P04)
    return "R-P04" if value - held.value > state.players[seat].coins else None


def why_not_place(state: GameState, seat: int, held: Held, space_id: str) -> IllegalMove | None:
    """Why the held die cannot go on `space_id` now (the rule and its words), or None if it can."""
    rule = refusal(state, seat, held, space_id)
    if rule is None:
        return None
    where = {"space": space_id, "colour": held.colour.value, "value": held.value}
    player = state.players[seat]
    if rule == "R-D01":
        row = state.catalog.row_of_colour(held.colour)
        if row is None:
            return IllegalMove(f"no Personal Domain row takes a {held.colour} die", rule=rule, details=where)
        return IllegalMove(
            f"the {row.id} row of your Domain already holds a die this round", rule=rule, details=where
        )
    if rule == "R-M03":
        return IllegalMove(
            f"green dice never go to a castle room: {space_text(space_id)} has no green die tile",
            rule=rule,
            details=where,
        )
    if rule == "R-C02":
        return IllegalMove(f"{space_text(space_id)} has no {held.colour} die tile", rule=rule, details=where)
    if rule == "R-P04":
        cost = reference(state, space_id) - held.value
        return IllegalMove(
            f"placing a {held.value} on {space_text(space_id)} costs {cost} coins and you hold {player.coins}",
            rule=rule,
            details={**where, "cost": cost, "coins": player.coins},
        )
    text = (
        "dice are never stacked at 1-2 players"
        if dice_per_space(state) == 1
        else "at most two dice may be stacked on a space"
    )
    return IllegalMove(f"{space_text(space_id)} is full: {text}", rule=rule, details=where)


def check_space_name(state: GameState, space_id: str) -> None:
    if space_id == "daimyo":
        raise IllegalMove(
            "no die may be placed on the Daimyo floor", rule="R-C01", details={"space": space_id}
        )
    if space_id not in space_ids(state):
        raise InvalidMove(
            f"unknown space {space_id!r}", details={"space": space_id, "spaces": space_ids(state)}
        )


def place_moves(state: GameState, frame: PlaceDie) -> list[Move]:
    held = state.held
    assert held is not None
    return [
        PlaceDieMove(frame.seat, space)
        for space in space_ids(state)
        if refusal(state, frame.seat, held, space) is None
    ]


def place_play(state: GameState, frame: PlaceDie, move: PlaceDieMove) -> GameState:
    """Place, settle coins (R-P03), then the Lantern Reward for a left-end die (R-T05), then the actions."""
    seat, space_id = frame.seat, move.space
    held = state.held
    assert held is not None
    player = state.players[seat]
    player = replace(player, coins=player.coins + held.value - reference(state, space_id))
    die = Die(held.colour, held.value, seat)
    board = state.board
    actions: Frame
    if space_id == WELL:
        state = with_board(state, well=replace(board.well, dice=(*board.well.dice, die)))
        actions = well_menu(state, seat)
    elif space_id == DOMAIN:
        row = state.catalog.row_of_colour(held.colour)
        assert row is not None
        player = replace(player, domain=replace_in(player.domain, state.catalog.rows.index(row), die))
        actions = DomainRow(seat, row.id)
    else:
        found = _outside(state, space_id)
        if found is not None:
            index, space = found
            state = with_board(
                state, outside=replace_in(board.outside, index, replace(space, dice=(*space.dice, die)))
            )
            actions = outside_menu(state, seat, space_id)
        elif matcha.find_space(state, space_id) is not None:
            state, actions = matcha.place(state, seat, space_id, die)
        else:
            index = room_index(state, space_id)
            room = board.rooms[index]
            state = with_board(
                state, rooms=replace_in(board.rooms, index, replace(room, dice=(*room.dice, die)))
            )
            assert isinstance(held.colour, Colour)  # why_not_place keeps green dice out (R-M03)
            actions = room_menu(state, seat, space_id, held.colour)
    state = replace(state, players=replace_in(state.players, seat, player), held=None)
    if held.end == "left":
        return swap_top(state, actions, lantern_menu(state, seat))
    return swap_top(state, actions)


def end_turn_auto(state: GameState, frame: EndTurn) -> GameState:
    """Next player, or the end of the round once the bridges hold the round-end count of dice (R-E01)."""
    turn_index = state.turn_index + 1
    stack = state.stack[:-1]
    if dice_on_bridges(state) <= state.rules.dice_left_at_round_end:
        return replace(state, turn_index=turn_index, phase=Phase.END_OF_ROUND, stack=(*stack, EndOfRound()))
    seat = state.turn_order[turn_index % len(state.players)]
    return replace(state, turn_index=turn_index, stack=(*stack, EndTurn(seat), TakeDie(seat)))
