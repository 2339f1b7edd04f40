"""The rival's turn (R-SO02, R-SO03, R-SO06): the search for a die, the space or the Well, coins only when
higher, the icons of the last two revealed cards, CP for what it cannot do, and the deck running out."""

from __future__ import annotations

import pytest

import domain
from domain.areas.passage_of_time import turn_order
from domain.errors import NotYourTurn
from domain.solo import rival
from domain.state import Die
from domain.vocabulary import Colour

from .helpers import with_bridge, with_player, with_room
from .solo_helpers import HUMAN, RIVAL, cards, reveal, rival_turn, solo_game, with_solo

# In solo_game("medium") the rival plays first and waits for its first card. The bridges: coral 1 (3) 5,
# black 2 (4) 6, white 1 (3) 6. SO1 = coral left -> steward 1 [gate, cp:1]; SO3 = black left -> steward 2
# [gardener:stone, coin:2]; SO9 = white right -> steward 2 [warrior:5, cp:1].


def test_R_SO03_the_rival_reveals_cards_in_a_line_until_its_die_is_on_the_bridge() -> None:
    state = with_bridge(solo_game("medium"), "coral", left=None, middle=(), right=None)
    state = reveal(state, "SO1")
    assert state.solo is not None and state.solo.line == ("SO1",)
    assert domain.prompt_of(state)["kind"] == "solo_card"  # no coral die: the next card
    assert "SO1" not in {move["card"] for move in domain.legal_moves(state)}
    state = reveal(state, "SO3")
    assert state.solo is not None and state.solo.line == ("SO1", "SO3")
    black = state.board.bridges[1]
    assert (black.left, black.middle, black.right) == (4, (), 6)  # the black 2 left its left end (R-T04)
    assert state.board.rooms[1].dice == (Die(Colour.BLACK, 2, RIVAL),)
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}


def test_R_SO03_C1_a_lone_die_is_present_only_at_its_own_end() -> None:
    state = with_bridge(solo_game("medium"), "coral", left=None, middle=(), right=4)
    state = reveal(state, "SO1")  # coral left: the lone coral 4 lies at the right end
    assert domain.prompt_of(state)["kind"] == "solo_card"
    state = reveal(state, "SO2")  # coral right -> diplomat room 1
    assert state.board.rooms[3].dice == (Die(Colour.CORAL, 4, RIVAL),)


def test_R_SO02_R_SO03_a_higher_die_gains_coins_a_lower_one_costs_nothing() -> None:
    state = reveal(solo_game("medium"), "SO9")  # the white 6 on steward room 2 (value 3)
    assert state.players[RIVAL].coins == 3
    low = reveal(solo_game("medium"), "SO3")  # the black 2 on steward room 2 (value 3): no payment
    assert low.players[RIVAL].coins == 2  # only SO3's own coin icon
    assert low.players[RIVAL].cp == 3


def test_R_SO02_the_rival_ignores_the_colours_of_the_castle_rooms() -> None:
    state = solo_game("medium")
    assert Colour.WHITE not in state.board.rooms[1].tiles  # steward room 2 shows no white tile
    state = reveal(state, "SO9")
    assert state.board.rooms[1].dice == (Die(Colour.WHITE, 6, RIVAL),)


def test_R_SO03_R_SO06_an_occupied_space_sends_the_die_to_the_well() -> None:
    state = with_room(solo_game("medium"), "steward_2", dice=(Die(Colour.CORAL, 3, HUMAN),))
    state = reveal(state, "SO9")
    assert state.board.rooms[1].dice == (Die(Colour.CORAL, 3, HUMAN),)  # never stacked
    assert state.board.well.dice == (Die(Colour.WHITE, 6, RIVAL),)
    assert state.players[RIVAL].coins == 5  # the Well is always 1 (R-P02)
    assert state.players[RIVAL].seals == 0  # and the rival takes nothing from it (R-SO02)


def test_R_SO06_the_player_cannot_place_on_the_rivals_die() -> None:
    state = reveal(solo_game("medium"), "SO9")
    state = domain.apply(state, {"kind": "take_die", "seat": HUMAN, "bridge": "coral", "end": "right"})
    spaces = {move["space"] for move in domain.legal_moves(state) if move["kind"] == "place_die"}
    assert "steward_2" not in spaces and "steward_1" in spaces
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": HUMAN, "space": "steward_2"})
    assert error.value.rule == "R-P05"


def test_R_SO03_the_icons_of_the_last_two_cards_resolve_left_card_first_top_to_bottom() -> None:
    state = with_bridge(solo_game("medium"), "coral", left=None, middle=(), right=None)
    state = reveal(state, "SO1", "SO3")  # SO1 [gate, cp:1] then SO3 [gardener:stone, coin:2]
    rival = state.players[RIVAL]
    assert (rival.courtiers, state.board.gate[RIVAL], rival.cp, rival.coins) == (4, 1, 4, 2)
    assert state.board.gardens[1].gardeners == (RIVAL,)  # SG1, the stone garden scoring least (1 CP)
    assert state.solo is not None
    assert [note.split(" ")[0] for note in state.solo.notes] == [
        "reveals",
        "reveals",
        "resolves",
        "a",
        "+1",
        "a",
        "+2",
    ]
    assert state.solo.notes[3:] == (
        "a courtier to the Gate",
        "+1 CP",
        "a gardener to the coral stone garden (SG1, 1 CP)",
        "+2 coins",
    )


def test_R_SO03_the_line_keeps_the_previous_turns_card_until_the_reshuffle() -> None:
    state = with_solo(
        solo_game("medium"), line=("SO5",), deck=tuple(f"SO{i}" for i in range(1, 10) if i != 5)
    )
    state = reveal(state, "SO3")  # resolves SO5 [warrior:1, pot:1], then SO3 [gardener:stone, coin:2]
    assert state.board.yards[2].warriors == (RIVAL,)
    assert state.players[RIVAL].pot == 2 and state.players[RIVAL].coins == 2
    assert state.solo is not None and state.solo.line == ("SO5", "SO3")


def test_R_SO03_a_card_alone_in_the_line_resolves_alone() -> None:
    state = reveal(solo_game("medium"), "SO9")  # [warrior:5, cp:1]
    assert state.board.yards[0].warriors == (RIVAL,)
    assert state.players[RIVAL].cp == 4 and state.players[RIVAL].warriors == 4


@pytest.mark.parametrize("round_", [1, 2, 3])
def test_R_SO03_each_action_the_rival_cannot_perform_gives_cp_equal_to_the_round(round_: int) -> None:
    state = with_player(solo_game("medium"), RIVAL, courtiers=0, warriors=0, cp=10)
    state = rival_turn(state, 0, round_)
    state = with_solo(state, line=("SO7",))  # [gate, pot:1]
    state = reveal(state, "SO9")  # [warrior:5, cp:1]
    # the Gate and the warrior are impossible: 2 x round, plus SO9's 1 CP
    assert state.players[RIVAL].cp == 10 + 2 * round_ + 1
    assert state.solo is not None
    assert f"cannot send a courtier to the Gate (none left): +{round_} CP" in state.solo.notes


def test_R_SO03_an_empty_deck_gets_the_line_back_but_its_last_card() -> None:
    line = ("SO1", "SO2", "SO3", "SO4", "SO5", "SO6", "SO7", "SO8", "SO9")
    state = rival_turn(with_solo(solo_game("easy"), deck=(), line=line), 1)
    assert state.solo is not None
    assert state.solo.line == ("SO9",) and state.solo.deck == line[:-1]
    assert sorted(move["card"] for move in domain.legal_moves(state)) == list(line[:-1])
    assert "the solo deck is empty: 8 revealed cards are shuffled back" in state.solo.notes


def test_R_SO03_the_deck_also_runs_out_during_a_search() -> None:
    state = with_bridge(solo_game("medium"), "coral", left=None, middle=(), right=None)
    state = with_solo(state, deck=("SO1", "SO2"), line=("SO5",))
    state = reveal(state, "SO1", "SO2")  # both want a coral die: the deck is empty, SO5 and SO1 go back
    assert state.solo is not None
    assert state.solo.deck == ("SO1", "SO5") and state.solo.line == ("SO2",)
    state = reveal(state, "SO5")  # white left -> steward 3
    assert state.board.rooms[2].dice == (Die(Colour.WHITE, 1, RIVAL),)


def test_R_SO03_seeded_mode_plays_the_rivals_turn_inside_apply() -> None:
    state = domain.new_game(["Ana"], solo="easy", seed=11)
    assert domain.prompt_of(state)["seat"] == HUMAN
    legal = domain.legal_moves(state)
    take = next(move for move in legal if move["kind"] == "take_die")
    step = domain.step(state, take)
    place = next(move for move in domain.legal_moves(step.state) if move["kind"] == "place_die")
    step = domain.step(step.state, {**place, "space": "well"})
    while (
        domain.prompt_of(step.state)["seat"] == HUMAN and domain.prompt_of(step.state)["kind"] != "take_die"
    ):
        move = next(m for m in domain.legal_moves(step.state) if m["kind"] in ("done", "rest", "choose"))
        step = domain.step(step.state, move)
    kinds = [move["kind"] for move in step.chance]
    assert "solo_card" in kinds
    assert step.state.solo is not None and step.state.solo.line


def test_R_SO03_the_engine_never_waits_on_the_rival() -> None:
    state = solo_game("medium")
    with pytest.raises(NotYourTurn):
        domain.apply(state, {"kind": "take_die", "seat": RIVAL, "bridge": "coral", "end": "left"})
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "solo_card", "seat": None, "card": "SO99"})


def test_R_SO03_a_solo_card_answers_only_the_rivals_search() -> None:
    state = solo_game("easy")
    with pytest.raises(domain.DomainError):
        domain.apply(state, {"kind": "solo_card", "seat": None, "card": "SO1"})


def test_R_SO02_the_rival_resolves_nothing_of_its_space() -> None:
    # steward room 1 holds S2 whose blocks would give seals, PoT or iron; the rival takes none of it
    state = solo_game("medium", catalog=cards(SO1={"icons": []}))
    state = reveal(state, "SO1")
    rival = state.players[RIVAL]
    assert (rival.seals, rival.iron, rival.pot, rival.cp) == (0, 0, 1, 3)
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}


def test_R_SO05_R_PT03_a_rival_marker_at_the_end_of_the_track_keeps_its_height() -> None:
    # the human's marker lies on top at space 20: influence that cannot move the rival leaves it underneath
    state = with_player(solo_game(), RIVAL, pot=20, pot_stamp=1)
    state = with_player(state, HUMAN, pot=20, pot_stamp=2)
    after = rival.influence(state, RIVAL, 2)
    assert (after.players[RIVAL].pot, after.players[RIVAL].pot_stamp) == (20, 1)
    assert turn_order(after)[0] == HUMAN
