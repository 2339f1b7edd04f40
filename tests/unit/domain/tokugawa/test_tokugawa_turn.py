"""The Tokugawa rival's turn (R-TK04, R-SO02, R-SO03 with Matcha): symbol 1 in the Tea Room, the green dice,
4 turns a round, and the prompts of its turn marked automatic."""

from __future__ import annotations

from collections import Counter

import domain
from domain.state import Die, GameState, Space
from domain.vocabulary import MatchaColour

from .helpers import HUMAN, RIVAL, board, notes, reveal, tokugawa_game, with_matcha


def tea_room_dice(state: GameState) -> list[tuple[int, ...]]:
    return [tuple(die.value for die in space.dice) for space in board(state).tea_room]


def occupy(state: GameState, *spaces: str) -> GameState:
    taken = tuple(
        Space(space.id, (Die(MatchaColour.GREEN, 3, HUMAN),)) if space.id in spaces else space
        for space in board(state).tea_room
    )
    return with_matcha(state, tea_room=taken)


def test_R_TK04_symbol_1_places_the_die_on_the_left_tea_room_space() -> None:
    state = reveal(tokugawa_game("medium"), "TK1")  # the green 2 at the left end
    assert tea_room_dice(state) == [(2,), ()]
    assert state.players[RIVAL].coins == 1  # 2 against the printed 1 (R-SO03)
    assert "places it on the left Tea Room space, gaining 1 coin" in notes(state)[0]


def test_R_TK04_symbol_1_uses_the_right_space_only_when_the_left_is_taken() -> None:
    state = reveal(occupy(tokugawa_game("medium"), "tea_room_left"), "TK2")  # the green 6 at the right end
    assert tea_room_dice(state) == [(3,), (6,)]
    assert state.players[RIVAL].coins == 3  # 6 against the printed 3
    assert "the right Tea Room space (the left one is taken)" in notes(state)[0]


def test_R_TK04_symbol_1_sends_the_die_to_the_well_when_both_spaces_are_taken() -> None:
    state = reveal(occupy(tokugawa_game("medium"), "tea_room_left", "tea_room_right"), "TK3")
    assert tea_room_dice(state) == [(3,), (3,)]
    assert [die.value for die in state.board.well.dice] == [6] and state.players[RIVAL].coins == 5
    assert "the Well (both Tea Room spaces are taken)" in notes(state)[0]


def test_R_TK04_R_SO02_a_die_in_the_tea_room_gives_the_rival_no_geisha_action() -> None:
    state = reveal(tokugawa_game("medium"), "TK1")
    rival = state.players[RIVAL]
    # one geisha from the symbol (to the entrance), none from the Tea Room's Geisha action, and nothing paid
    assert rival.geishas == 4 and board(state).entrance == (RIVAL,)
    assert rival.whisks == 0 and domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}


def test_R_TK04_R_SO03_a_tokugawa_card_whose_green_end_is_empty_is_passed_over() -> None:
    state = tokugawa_game("medium")
    bridges = tuple(
        bridge if bridge.colour != "green" else type(bridge)(bridge.colour, None, (), 6)
        for bridge in state.board.bridges
    )
    state = domain.state.replace(state, board=domain.state.replace(state.board, bridges=bridges))
    state = reveal(state, "TK1")
    assert domain.prompt_of(state)["kind"] == "solo_card" and "no die at that end" in notes(state)[-1]
    state = reveal(state, "SO1")
    assert state.solo is not None and state.solo.line == ("TK1", "SO1")
    # the last two revealed cards resolve: TK1's geisha symbol, then SO1's icons
    assert board(state).entrance == (RIVAL,) and state.board.gate[RIVAL] == 1


def test_R_TK04_R_M02_the_rival_and_the_player_place_4_dice_in_the_last_round() -> None:
    state = domain.new_game(["Ana"], solo="hard", seed=21, expansions=["matcha"])
    while not domain.is_over(state):
        state = domain.apply(state, domain.legal_moves(state)[-1])
    matcha = board(state)
    dice = [d for space in (*matcha.tea_room, *matcha.himeji) for d in space.dice]
    dice += [d for room in state.board.rooms for d in room.dice] + list(state.board.well.dice)
    dice += [d for space in state.board.outside for d in space.dice]
    dice += [d for player in state.players for d in player.domain if d is not None]
    assert Counter(d.seat for d in dice) == {HUMAN: 4, RIVAL: 4}
    assert sum(bridge.count() for bridge in state.board.bridges) == 4  # R-M02: the round ends at 4 dice left


def test_R_TK03_the_players_choices_in_the_rivals_turn_are_marked_automatic() -> None:
    state = tokugawa_game("medium")
    state = reveal(state, "TK3")  # a geisha to path space 2: the player chooses the deck to discard from
    prompt = domain.prompt_of(state)
    assert prompt == {"kind": "rival_discard", "seat": HUMAN, "rival": RIVAL, "automatic": True}
