"""What each field of a table setup may still take (domain.setup_choices): one physical card or tile in one place
(the Starting Action cards' copies, a yard tile or ceremony token whichever face is up), no castle that would be
dealt again (R-S03), the Well's colours and every die-tile space's colours as R-S05 leaves them, likeliest first."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

import domain
from domain.areas import castle
from domain.errors import InvalidLayout
from domain.layout import lay_out, layout_of
from domain.setup_choices import setup_choices
from domain.state import GameState

NAMES = ["Ana", "Bo", "Cy", "Di"]


def table(players: int, **setup: Any) -> GameState:
    return domain.new_game(NAMES[:players], mode="table", seed=5, draw=False, **setup)


def full_layout(state: GameState, seed: int) -> dict[str, Any]:
    """A whole layout the rules take: a seeded deal of the same game."""
    seeded = domain.new_game(
        [p.name for p in state.players] if state.solo is None else [state.players[1 - state.solo.rival].name],
        mode="table",
        seed=seed,
        draw=False,
        expansions=["matcha"] if state.board.matcha else None,
        solo=state.solo.difficulty if state.solo else None,
    )
    return layout_of(lay_out(seeded, {}, draw_rest=True).state)


def test_a_card_laid_in_one_field_is_offered_in_no_other() -> None:
    state = table(3)
    choices = setup_choices(state, {"castle": {"steward_1": "S4"}, "gardens": {"coral_plant": "PG2"}})
    fields = choices["fields"]
    assert "S4" in fields["castle.steward_1"]  # its own field keeps it
    assert "S4" not in fields["castle.steward_2"] and "S4" not in fields["castle.steward_3"]
    assert "PG2" not in fields["gardens.black_plant"] and "PG2" in fields["gardens.coral_plant"]
    assert "S4" in setup_choices(state, {})["fields"]["castle.steward_2"]


def test_a_starting_action_card_is_offered_until_its_copies_are_all_dealt() -> None:
    state = table(4)
    copies = state.catalog.starting_actions["A1"]
    assert copies == 2
    one = setup_choices(state, {"offer": [{"action": "A1"}]})["fields"]
    assert "A1" in one["offer.1.action"]  # R-S12: the second copy is still in the deck
    two = setup_choices(state, {"offer": [{"action": "A1"}, {"action": "A1"}]})["fields"]
    assert "A1" not in two["offer.2.action"] and "A1" in two["offer.1.action"]


def test_a_yard_tile_is_one_tile_whichever_face_is_up() -> None:
    state = table(3)
    fields = setup_choices(state, {"yards": {"yard_1": {"blue": "Y3"}}})["fields"]
    assert "Y3" not in fields["yards.yard_1.yellow"] and "Y3" not in fields["yards.yard_3.yellow"]
    assert "Y3" not in fields["yards.yard_2.blue"]


def test_a_ceremony_tokens_faces_are_one_token() -> None:
    state = table(2, expansions=["matcha"])
    spec = state.catalog.matcha
    assert spec is not None
    token, (blue, yellow) = next(iter(spec.tokens.items()))
    fields = setup_choices(state, {"matcha": {"platform": blue}})["fields"]
    assert yellow not in fields["matcha.tea_house.tea_house_upper"], token
    assert blue not in fields["offer.0.token"]


def test_no_fifth_castle_card_that_would_have_the_castle_dealt_again_r_s03() -> None:
    state = table(4)
    cards = state.catalog.cards
    courtier = [
        card
        for card in state.catalog.stewards
        if castle.dark_action(cards[card]) == castle.dark_action(cards["S1"])
    ]
    diplomats = [
        card
        for card in state.catalog.diplomats
        if castle.dark_action(cards[card]) == castle.dark_action(cards["S1"])
    ]
    assert len(courtier) >= 3 and len(diplomats) >= 2, "the catalog has a castle of one dark action"
    four = {
        "steward_1": courtier[0],
        "steward_2": courtier[1],
        "steward_3": courtier[2],
        "diplomat_1": diplomats[0],
    }
    offered = setup_choices(state, {"castle": four})["fields"]["castle.diplomat_2"]
    assert diplomats[1] not in offered
    other = next(card for card in state.catalog.diplomats if card not in diplomats)
    assert other in offered
    three = {key: value for key, value in four.items() if key != "steward_3"}
    assert diplomats[1] in setup_choices(state, {"castle": three})["fields"]["castle.diplomat_2"]


def test_the_well_offers_the_colours_the_castle_leaves_r_s05() -> None:
    state = table(3)
    laid = full_layout(state, 41)
    left = Counter(state.board.decks.die_tiles)
    left.subtract(colour for room in laid["die_tiles"].values() for colour in room)
    colours = {colour for colour, count in left.items() if count > 0}
    fields = setup_choices(state, {"die_tiles": laid["die_tiles"]})["fields"]
    offered = {state.catalog.die_tiles[tile].colour.value for tile in fields["well.0"]}
    assert offered == colours
    assert setup_choices(state, {})["fields"]["well.0"] == sorted(
        state.catalog.die_tiles, key=domain.catalog.natural
    )


def test_the_diamond_spaces_take_one_colour_each_r_s05() -> None:
    state = table(3)
    (room_a, pos_a), (room_b, pos_b), (room_c, pos_c) = state.catalog.diamond_spaces
    layout = {"die_tiles": {room_a: [None] * 3, room_b: [None] * 3}}
    layout["die_tiles"][room_a][pos_a] = "coral"
    layout["die_tiles"][room_b][pos_b] = "black"
    tiles = setup_choices(state, layout)["tiles"]
    assert tiles[room_c][pos_c] == ["white"]  # the one colour left: the rules answer it
    assert "coral" not in tiles[room_b][pos_b]


def test_a_rooms_last_space_never_makes_it_one_colour_and_a_colour_laid_out_is_offered_no_more() -> None:
    state = table(3)
    tiles = setup_choices(state, {"die_tiles": {"diplomat_1": ["black", None]}})["tiles"]
    assert tiles["diplomat_1"][1] == ["coral", "white"]
    five = {
        "steward_1": [None, "coral", "coral"],
        "steward_2": [None, "coral", "black"],
        "diplomat_1": ["coral", "black"],
    }
    tiles = setup_choices(state, {"die_tiles": five})["tiles"]
    assert "coral" not in tiles["diplomat_2"][0] and "coral" not in tiles["steward_3"][1]


def test_the_likeliest_colour_comes_first() -> None:
    state = table(3)
    two_coral = {"steward_1": [None, "coral", "black"], "diplomat_1": ["coral", "white"]}
    tiles = setup_choices(state, {"die_tiles": two_coral})["tiles"]
    # the bag holds 3 coral, 4 black and 4 white for the other spaces: coral last
    assert tiles["diplomat_2"][0] == ["black", "white", "coral"]


@pytest.mark.parametrize(
    ("players", "setup", "seed"),
    [(3, {}, 101), (4, {}, 102), (2, {"expansions": ["matcha"]}, 103), (1, {"solo": "easy"}, 104)],
)
def test_every_entry_of_a_layout_the_rules_take_is_among_its_fields_choices(
    players: int, setup: dict[str, Any], seed: int
) -> None:
    state = table(players, **setup)
    laid = full_layout(state, seed)
    choices = setup_choices(state, laid)
    for field, offered in choices["fields"].items():
        value: Any = laid
        for key in field.split("."):
            value = value[int(key)] if isinstance(value, list) else value[key]
        assert value in offered, field
    for room, spaces in choices["tiles"].items():
        for position, colours in enumerate(spaces):
            assert laid["die_tiles"][room][position] in colours, (room, position)


def test_a_castle_built_from_the_colours_offered_is_taken_by_the_rules() -> None:
    """Soundness: each space filled with the last colour it is offered (the least likely), space after space,
    gives die tiles that lay_out accepts."""
    state = table(3)
    tiles: dict[str, list[str | None]] = {room.id: [None] * len(room.tiles) for room in state.board.rooms}
    for room, position in (*state.catalog.diamond_spaces, *state.catalog.numbered_spaces):
        offered = setup_choices(state, {"die_tiles": tiles})["tiles"][room][position]
        assert offered, (room, position)
        tiles[room][position] = offered[-1]
    laid = lay_out(state, {"die_tiles": tiles}, draw_rest=True).state
    assert layout_of(laid)["die_tiles"] == tiles


def test_a_layout_that_is_no_json_object_is_refused() -> None:
    with pytest.raises(InvalidLayout):
        setup_choices(table(2), ["castle"])  # type: ignore[arg-type]
    left = setup_choices(table(2), copy.deepcopy({"castle": {"steward_1": "S99"}}))["fields"]
    assert "S2" in left["castle.steward_2"]  # an id no card has is left out, not an error here
