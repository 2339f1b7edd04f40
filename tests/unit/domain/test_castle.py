"""Castle rooms (R-C01..R-C05): floors, colours, blocks facing tiles, block costs, die-tile icons."""

from __future__ import annotations

import pytest

import domain

from .helpers import STANDARD_LIGHT_BLOCKS, answers_of, play, standard, with_player


def place(state: domain.GameState, bridge: str, end: str, space: str) -> domain.GameState:
    return play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": bridge, "end": end},
        {"kind": "place_die", "seat": 0, "space": space},
    )


def test_R_C01_dice_go_to_the_five_rooms_of_floors_one_and_two_never_the_daimyo() -> None:
    state = play(standard(), {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"})
    rooms = {m["space"] for m in answers_of(state, "place_die")} - {
        "outside_1",
        "outside_2",
        "well",
        "domain",
    }
    assert rooms == {"steward_1", "steward_2", "diplomat_1", "diplomat_2"}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": 0, "space": "daimyo"})
    assert error.value.rule == "R-C01"


def test_R_C01_printed_values_steward_3_diplomat_4() -> None:
    state = with_player(standard(), 0, lantern=())
    assert place(state, "coral", "right", "steward_1").players[0].coins == 5 + 3
    assert place(state, "coral", "right", "diplomat_1").players[0].coins == 5 + 2


def test_R_C02_a_room_without_a_tile_of_the_die_colour_refuses_it() -> None:
    state = play(standard(), {"kind": "take_die", "seat": 0, "bridge": "black", "end": "right"})
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": 0, "space": "diplomat_2"})  # white + coral tiles
    assert error.value.rule == "R-C02"


def test_R_C03_each_matching_tile_gives_the_block_it_faces() -> None:
    # steward_3 = S7, tiles white/black/white: a white die faces "PoT +1" (top) and "2 food" (bottom)
    state = place(with_player(standard(), 0, lantern=()), "white", "right", "steward_3")
    assert (state.players[0].pot, state.players[0].food) == (1, 2)
    # a black die faces only the middle block (pay 1 seal -> Gardener; with food to pay a garden: 0.3.0 offers
    # nothing that would do nothing)
    state = place(with_player(standard(), 0, lantern=(), food=5), "black", "right", "steward_3")
    assert [m["option"] for m in answers_of(state, "choose")] == ["middle"]


def test_R_C04_a_steward_dark_block_costs_one_seal() -> None:
    state = place(with_player(standard(), 0, lantern=(), seals=1, food=5), "black", "right", "steward_3")
    state = play(state, {"kind": "choose", "seat": 0, "option": "middle"})
    assert state.players[0].seals == 0
    assert domain.prompt_of(state)["kind"] == "gardener"
    broke = place(with_player(standard(), 0, lantern=(), seals=0, coins=9), "black", "right", "steward_3")
    # no seal and none to convert: the only block cannot be paid, so nothing is asked
    assert domain.prompt_of(broke)["seat"] == 1


def test_R_C04_a_diplomat_dark_block_is_free() -> None:
    state = place(with_player(standard(), 0, lantern=(), seals=0), "coral", "right", "diplomat_1")
    assert answers_of(state, "choose") == [{"kind": "choose", "seat": 0, "option": "top"}]
    state = play(state, {"kind": "choose", "seat": 0, "option": "top"})
    assert domain.prompt_of(state)["kind"] == "courtier"


def test_R_C04_an_unpaid_block_is_refused_with_its_rule() -> None:
    state = with_player(standard(steward_2="S12"), 0, seals=0, lantern=())
    state = place(state, "coral", "right", "steward_2")
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "choose", "seat": 0, "option": "bottom"})
    assert error.value.rule == "R-C04"


def test_R_C05_a_die_tile_icon_performs_a_block_beside_a_tile_of_its_colour() -> None:
    # yard_2 carries Y6: "1 action beside a black die tile"
    # iron and food to spare: each block's action could be done (0.3.0 offers nothing that would do nothing)
    state = place(
        with_player(standard(), 0, lantern=(), iron=4, food=5, seals=1), "white", "right", "outside_2"
    )
    state = play(state, {"kind": "choose", "seat": 0, "option": "warrior"})
    state = play(state, {"kind": "warrior", "seat": 0, "yard": "yard_2"})
    prompt = domain.prompt_of(state)
    assert prompt["title"] == "tile:black"
    assert {m["option"] for m in answers_of(state, "choose")} == {
        "steward_1:bottom",
        "steward_2:top",
        "steward_3:middle",
        "diplomat_1:middle+bottom",
    }
    state = play(state, {"kind": "choose", "seat": 0, "option": "diplomat_1:middle+bottom"})
    assert state.players[0].pot == 2


def test_R_C05_the_light_background_icon_offers_every_light_block_in_the_castle() -> None:
    from domain.areas.castle import light_menu

    menu = light_menu(standard(), 0)
    assert [option.id for option in menu.options] == STANDARD_LIGHT_BLOCKS
    assert menu.picks == 1 and not menu.mandatory
