"""The Personal Domain (R-D01..R-D03)."""

from __future__ import annotations

import pytest

import domain

from .helpers import answers_of, die, play, standard, with_player


def test_R_D01_each_colour_goes_to_its_row_and_a_row_takes_one_die_per_round() -> None:
    state = with_player(standard(), 0, lantern=())
    rows = {"coral": 0, "black": 1, "white": 2}
    for bridge, row in rows.items():
        after = play(
            state,
            {"kind": "take_die", "seat": 0, "bridge": bridge, "end": "right"},
            {"kind": "place_die", "seat": 0, "space": "domain"},
        )
        placed = after.players[0].domain
        assert placed[row] == die(bridge, 6, 0)
        assert [i for i, d in enumerate(placed) if d is not None] == [row]
        assert after.players[0].coins == 5  # value 6


def test_R_D01_the_row_is_refused_once_it_holds_a_die() -> None:
    state = with_player(standard(), 0, domain=(die("coral", 2), None, None))
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"})
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": 0, "space": "domain"})
    assert error.value.rule == "R-D01"


def test_R_D02_visible_rewards_first_then_the_action_card_block() -> None:
    rewards = standard().catalog.row("courtiers").rewards
    state = with_player(standard(), 0, lantern=(), courtiers=3, coins=5, pearl=0)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "domain"},
    )
    gained = {str(icon) for icons in rewards[:2] for icon in icons}
    assert gained == {"coin:2", "pearl:1"}
    assert (state.players[0].coins, state.players[0].pearl) == (5 + 2, 1)
    prompt = domain.prompt_of(state)
    assert prompt["title"] == "card:courtiers"  # A1: Courtier action, optional
    assert {m["kind"] for m in domain.legal_moves(state)} >= {"choose", "done"}
    state = play(state, {"kind": "choose", "seat": 0, "option": "all"})
    assert domain.prompt_of(state)["kind"] == "courtier"


def test_R_D02_no_member_gone_no_reward() -> None:
    state = with_player(standard(), 0, lantern=(), coins=5)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "domain"},
    )
    assert state.players[0].coins == 5
    assert domain.prompt_of(state)["title"] == "card:warriors"


def test_R_D02_a_steward_action_card_faces_each_row_with_one_block() -> None:
    # S2 as Action card: top (courtiers) = pay 1 seal -> Courtier; middle (gardeners) = PoT +1
    state = with_player(standard(), 0, lantern=(), action_card="S2", gardeners=5)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "black", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "domain"},
    )
    assert state.players[0].pot == 1  # free gain, taken at once


def test_R_D03_the_domain_action_icon_activates_a_row_without_a_die() -> None:
    # yard_1's blue tile is Y1 (Courtier); use Y8 (Personal Domain action) instead
    state = standard(**{"yard_1:blue": "Y8", "yard_1:yellow": "Y2"})
    state = with_player(state, 0, lantern=(), iron=5, warriors=4, coins=5, courtiers=4)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "outside_2"},
        {"kind": "choose", "seat": 0, "option": "warrior"},
        {"kind": "warrior", "seat": 0, "yard": "yard_1"},
    )
    assert domain.prompt_of(state)["title"] == "yard:yard_1"
    state = play(state, {"kind": "choose", "seat": 0, "option": "Y8:blue"})
    assert domain.prompt_of(state)["kind"] == "domain"
    assert {m["row"] for m in answers_of(state, "domain_row")} == {"courtiers", "gardeners", "warriors"}
    coins = state.players[0].coins
    state = play(state, {"kind": "domain_row", "seat": 0, "row": "courtiers"})
    assert state.players[0].coins == coins + 2  # the courtier row's first space; no die, no coins
    assert state.players[0].domain == (None, None, None)


def test_R_D03_the_domain_action_may_activate_a_row_that_already_holds_a_die() -> None:
    """The texts say the icon triggers a row as a die placed there would, and nothing of a row used this round:
    the row is offered, and gives its rewards again (R-D01 limits the dice, not the icon)."""
    state = standard(**{"yard_1:blue": "Y8", "yard_1:yellow": "Y2"})
    state = with_player(state, 0, lantern=(), iron=5, warriors=4, coins=5, courtiers=4)
    state = with_player(state, 0, domain=(die("coral", 2), None, None))
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "outside_2"},
        {"kind": "choose", "seat": 0, "option": "warrior"},
        {"kind": "warrior", "seat": 0, "yard": "yard_1"},
        {"kind": "choose", "seat": 0, "option": "Y8:blue"},
    )
    assert {"kind": "domain_row", "seat": 0, "row": "courtiers"} in answers_of(state, "domain_row")
    coins = state.players[0].coins
    state = play(state, {"kind": "domain_row", "seat": 0, "row": "courtiers"})
    assert state.players[0].coins == coins + 2
    assert state.players[0].domain == (die("coral", 2), None, None)
