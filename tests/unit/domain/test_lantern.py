"""The Lantern Reward (R-L01..R-L03)."""

from __future__ import annotations

import domain

from .helpers import play, standard, with_player

LEFT_TO_WELL = (
    {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"},
    {"kind": "place_die", "seat": 0, "space": "well"},
)


def test_R_L01_every_visible_icon_is_gained() -> None:
    state = with_player(standard(), 0, lantern=("SR3", "DC1", "S4", "D2"), coins=0, pearl=0, cp=0)
    state = play(state, *LEFT_TO_WELL)
    player = state.players[0]
    # SR3 1 pearl, DC1 1 coin, S4 1 coin, D2 1 CP; the Well: 1 seal, T6 1 iron, T11 1 coin
    assert (player.pearl, player.coins, player.cp) == (1, 3, 1)


def test_R_L01_the_player_orders_the_icons_when_order_matters() -> None:
    # seal (DC2) and PoT +1 (A1) at space 5 with no seal: the seal first lets the marker pass the milestone
    state = with_player(standard(), 0, lantern=("SR3", "DC2", "A1"), seals=0, pot=5)
    state = play(state, *LEFT_TO_WELL)
    assert domain.prompt_of(state)["title"] == "lantern"
    state = play(state, {"kind": "rest", "seat": 0})  # default order: seals before influence
    assert domain.prompt_of(state)["kind"] == "milestone"
    state = play(state, {"kind": "milestone", "seat": 0, "pay": True})
    assert (state.players[0].pot, state.players[0].seals) == (6, 0 + 1)  # the Well's seal came after


def test_R_L01_two_copies_of_one_card_are_two_entries_of_the_menu() -> None:
    # A1 is printed twice; should one Lantern Area ever hold both, each copy is gained, under an id of its own
    state = with_player(standard(), 0, lantern=("SR3", "A1", "DC2", "A1"), seals=0, pot=5)
    state = play(state, *LEFT_TO_WELL)
    prompt = domain.prompt_of(state)
    assert prompt["title"] == "lantern"
    assert [option["id"] for option in prompt["options"]] == ["SR3", "A1", "DC2", "A1#2"]


def test_R_L01_rest_takes_the_seal_before_the_influence_whatever_the_cards_order() -> None:
    # the influence card (A1) lies before the seal (DC2): ``rest`` still gains the seal first, so the marker
    # can pay the milestone at 6
    state = with_player(standard(), 0, lantern=("SR3", "A1", "DC2"), seals=0, pot=5)
    state = play(state, *LEFT_TO_WELL)
    state = play(state, {"kind": "rest", "seat": 0})
    assert domain.prompt_of(state)["kind"] == "milestone"


def test_R_L02_replaced_action_cards_join_the_lantern_area() -> None:
    catalog = standard().catalog
    assert [str(i) for i in catalog.cards["A1"].lantern] == ["pot:1"]
    assert [str(i) for i in catalog.cards["S4"].lantern] == ["coin:1"]
    assert [str(i) for i in catalog.cards["D2"].lantern] == ["cp:1"]
    assert [str(i) for i in catalog.cards["SR9"].lantern] == ["food:1"]
    assert [str(i) for i in catalog.cards["DC2"].lantern] == ["seal:1"]


def test_R_L03_lantern_icons_on_cards_trigger_it() -> None:
    # steward_2 = S4: a coral die faces "1 coin + Well" (middle) and "Lantern" (bottom)
    state = with_player(standard(), 0, lantern=("SR3",), pearl=0)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "steward_2"},
    )
    assert state.players[0].pearl == 1


def test_R_L03_a_right_end_die_does_not_trigger_it() -> None:
    state = with_player(standard(), 0, lantern=("SR3",), pearl=0)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "well"},
    )
    assert state.players[0].pearl == 0
