"""The Tokugawa symbols 2-4 and the losses (R-TK02, R-TK05, R-TK06, R-TK07): a geisha from the rival's supply,
then the symbol's numbered steps in MA's order."""

from __future__ import annotations

import pytest

import domain
from domain.state import GameState

from .helpers import (
    HUMAN,
    RIVAL,
    answers_of,
    board,
    notes,
    resolve_icons,
    tokugawa_game,
    with_matcha,
    with_player,
    with_rival,
)


def start() -> GameState:
    """The standard game at the player's first turn (easy: the player plays first)."""
    return tokugawa_game("easy")


def test_R_TK05_symbol_2_sends_a_geisha_to_the_entrance_and_the_rival_loses_3_cp() -> None:
    state = with_rival(start(), cp=7)
    state = resolve_icons(state, "geisha:entrance")
    rival = state.players[RIVAL]
    assert board(state).entrance == (RIVAL,) and rival.geishas == 4
    # (1) 3 CP lost; (2) no other rival geisha can advance: a Geisha action it cannot perform, +1 CP (round 1)
    assert rival.cp == 7 - 3 + 1
    assert notes(state)[-3:] == (
        "symbol 2: a geisha from its supply to the Tea Garden entrance",
        "loses 3 CP",
        "cannot advance another geisha 1 step (none can): +1 CP",
    )


def test_R_TK05_the_player_advances_another_rival_geisha_not_the_one_just_sent() -> None:
    state = with_matcha(with_rival(start(), geishas=4), entrance=(RIVAL,))
    state = resolve_icons(state, "geisha:entrance")
    assert board(state).entrance == (RIVAL, RIVAL)
    prompt = domain.prompt_of(state)
    assert (prompt["kind"], prompt["seat"], prompt["sent"]) == ("rival_geisha", HUMAN, "entrance")
    moves = answers_of(state, "rival_geisha")
    assert {(m["from"], m["to"]) for m in moves} == {("entrance", "viewing_platform"), ("entrance", "path_1")}
    state = domain.apply(
        state, {"kind": "rival_geisha", "seat": HUMAN, "from": "entrance", "to": "viewing_platform"}
    )
    assert board(state).entrance == (RIVAL,) and board(state).platform == (RIVAL,)
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}


def test_R_TK05_the_geisha_just_sent_cannot_be_the_one_advanced() -> None:
    state = with_matcha(with_rival(start(), geishas=4), path=((), (RIVAL,)))
    state = resolve_icons(state, "geisha:entrance")
    # the only other geisha is on path space 2: into the Tea House, the rooms tie at 0 CP, the player chooses
    moves = answers_of(state, "rival_geisha")
    assert {m["from"] for m in moves} == {"path_2"}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "rival_geisha", "seat": HUMAN, "from": "entrance", "to": "path_1"})
    assert error.value.rule == "R-TK05"


def test_R_TK05_to_the_viewing_platform_only_if_the_rival_has_none_there() -> None:
    state = with_matcha(with_rival(start(), geishas=3), entrance=(RIVAL,), platform=(RIVAL,))
    state = resolve_icons(state, "geisha:entrance")
    # one way left (entrance -> path space 1): done without asking, then path space 1 discards a Himeji card
    assert board(state).path[0] == (RIVAL,) and board(state).platform == (RIVAL,)
    assert domain.prompt_of(state)["kind"] == "rival_discard"


def test_R_TK06_symbol_3_bypasses_the_entrance_discards_then_loses_all_coins_then_advances() -> None:
    state = with_matcha(with_rival(start(), coins=9, geishas=4), entrance=(RIVAL,))
    state = resolve_icons(state, "geisha:path_1")
    assert board(state).path[0] == (RIVAL,) and board(state).entrance == (RIVAL,)
    assert domain.prompt_of(state)["kind"] == "rival_discard"  # both decks hold 2 cards or more: you choose
    assert state.players[RIVAL].coins == 9  # the discard comes first (MA's order)
    state = domain.apply(state, {"kind": "rival_discard", "seat": HUMAN, "deck": "calligraphy"})
    # table mode: the recorder reveals Calligraphy's next card
    assert domain.prompt_of(state)["kind"] == "reveal" and domain.prompt_of(state)["pool"] == "calligraphy"
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "calligraphy", "card": "CA4"})
    assert state.players[RIVAL].coins == 0  # (1) all its coins
    assert domain.prompt_of(state)["kind"] == "rival_geisha"  # (2) the other geisha, at the entrance
    assert {(m["from"], m["to"]) for m in answers_of(state, "rival_geisha")} == {
        ("entrance", "viewing_platform"),
        ("entrance", "path_1"),
    }


def test_R_TK07_symbol_4_goes_to_path_space_2_discards_and_moves_influence_2_back() -> None:
    state = with_rival(start(), pot=5)
    state = resolve_icons(state, "geisha:path_2")
    assert board(state).path == ((), (RIVAL,))
    state = domain.apply(state, {"kind": "rival_discard", "seat": HUMAN, "deck": "ikebana"})
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "ikebana", "card": "IK3"})
    assert state.players[RIVAL].pot == 3 and notes(state)[-1] == "influence -2 (Passage of Time 3)"
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}  # no advance after symbol 4


def test_R_TK07_landing_on_the_players_space_the_rivals_marker_goes_on_top() -> None:
    state = start()
    state = with_player(with_rival(state, pot=4, pot_stamp=1), pot=2, pot_stamp=state.board.stamp)
    state = resolve_icons(state, "lose_pot:2")
    rival, player = state.players[RIVAL], state.players[HUMAN]
    assert rival.pot == player.pot == 2 and rival.pot_stamp > player.pot_stamp
    assert notes(state)[-1] == "influence -2 (Passage of Time 2, on top of Ana's marker)"
    from domain.areas.passage_of_time import turn_order

    assert turn_order(state)[0] == RIVAL  # on top of the stack: first in the next turn order (R-E02)


@pytest.mark.parametrize(
    ("pot", "after", "note"),
    [
        (1, 0, "influence -1 (Passage of Time 0, on top of Ana's marker)"),
        (0, 0, "influence -2: the marker is at the start of the track"),
    ],
)
def test_R_TK02_R_TK07_influence_is_lost_only_down_to_the_start(pot: int, after: int, note: str) -> None:
    state = resolve_icons(with_rival(start(), pot=pot), "lose_pot:2")
    assert state.players[RIVAL].pot == after and notes(state)[-1] == note


@pytest.mark.parametrize(
    ("icon", "field", "held", "left", "note"),
    [
        ("lose_cp:3", "cp", 5, 2, "loses 3 CP"),
        ("lose_cp:3", "cp", 2, 0, "loses 2 CP (all it had)"),
        ("lose_cp:3", "cp", 0, 0, "loses 3 CP: it has none"),
        ("lose_coin:2", "coins", 1, 0, "loses 1 coin (all it had)"),
        ("lose_coin:all", "coins", 13, 0, "loses 13 coins"),
        ("lose_coin:all", "coins", 0, 0, "loses all its coins: it has none"),
    ],
)
def test_R_TK02_the_rival_loses_as_much_as_it_can_and_nothing_if_it_has_nothing(
    icon: str, field: str, held: int, left: int, note: str
) -> None:
    state = resolve_icons(with_rival(start(), **{field: held}), icon)
    assert getattr(state.players[RIVAL], field) == left and notes(state)[-1] == note


def test_R_TK02_R_TK05_symbol_2_with_an_empty_supply_gives_cp_and_still_loses_3_cp() -> None:
    """R-TK03: a Geisha action the rival cannot perform gives CP equal to the round; the symbol's steps follow."""
    state = with_rival(start(), geishas=0, cp=10)
    state = domain.state.replace(state, round=2)
    state = resolve_icons(state, "geisha:entrance")
    # +2 (no geisha to send) -3 (the loss) +2 (no geisha to advance)
    assert state.players[RIVAL].cp == 11 and board(state).entrance == ()
    assert notes(state)[-3].startswith(
        "cannot send a geisha to the Tea Garden entrance (symbol 2: none left)"
    )


def test_R_TK06_R_TK03_symbol_3_with_an_empty_supply_discards_nothing() -> None:
    state = with_rival(start(), geishas=0, coins=4)
    state = resolve_icons(state, "geisha:path_1")
    assert board(state).decks[0].top == "IK1" and board(state).decks[1].top == "CA1"
    assert state.players[RIVAL].coins == 0
