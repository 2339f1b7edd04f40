"""The setup layout (domain.layout): read off a board, laid out again through the engine's own checks (R-S03..R-S12,
R-M01, R-SO01), every problem under its field with the rule's number."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import domain
from domain.areas import castle
from domain.catalog import natural
from domain.engine import draw_chance, play
from domain.layout import first_game_layout, lay_out, layout_of, setup_dealt
from domain.state import GameState, replace

NAMES = ["Ana", "Bo", "Cy", "Di"]
SETUPS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (4, {"expansions": ["matcha"]}),
    (2, {"expansions": ["matcha"]}),
    (1, {"solo": "hard"}),
    (1, {"solo": "easy"}),
    (1, {"solo": "medium", "expansions": ["matcha"]}),
    (4, {"options": {"first_game": True}}),
    (3, {"options": {"first_game": True}, "expansions": ["matcha"]}),
]


def dealt(players: int, seed: int, **setup: Any) -> GameState:
    """A seeded game as its setup's draws left it (a solo rival's first turn not yet drawn)."""
    state = domain.new_game(NAMES[:players], seed=seed, draw=False, **setup)
    while not setup_dealt(state):
        state = play(state, draw_chance(state))
    return state


def table(players: int, **setup: Any) -> GameState:
    return domain.new_game(NAMES[:players], mode="table", draw=False, **setup)


def same_board(laid: GameState, seeded: GameState) -> bool:
    """Equal but for what only mode, seed and chance counter say, and the order a castle dealt again (R-S03)
    sorts its decks in (their contents are what counts)."""

    def plain(state: GameState) -> GameState:
        decks = state.board.decks
        decks = replace(
            decks,
            steward=tuple(sorted(decks.steward, key=natural)),
            diplomat=tuple(sorted(decks.diplomat, key=natural)),
        )
        return replace(
            state, mode=seeded.mode, seed=seeded.seed, chance=0, board=replace(state.board, decks=decks)
        )

    return plain(laid) == plain(seeded)


def refusal(state: GameState, layout: Any, **kw: Any) -> domain.InvalidLayout:
    with pytest.raises(domain.InvalidLayout) as error:
        lay_out(state, layout, **kw)
    return error.value


def fields(error: domain.InvalidLayout) -> dict[str, str | None]:
    return {item["field"]: item["rule"] for item in error.details["errors"]}


@pytest.mark.parametrize(("players", "setup"), SETUPS)
@pytest.mark.parametrize("seed", [0, 17, 94, 121])
def test_a_seeded_games_layout_lays_out_a_table_game_with_the_same_board(
    players: int, setup: dict[str, Any], seed: int
) -> None:
    seeded = dealt(players, seed, **setup)
    layout = json.loads(json.dumps(layout_of(seeded)))  # as JSON carries it
    laid = lay_out(table(players, **setup), layout)
    assert same_board(laid.state, seeded)
    assert all(move["seat"] is None for move in laid.chance)
    assert layout_of(laid.state) == layout


@pytest.mark.parametrize("seed", [3, 8])
def test_the_laid_out_game_waits_only_for_the_players_starting_choices(seed: int) -> None:
    laid = lay_out(table(4), layout_of(dealt(4, seed))).state
    assert domain.prompt_of(laid)["kind"] == "choose_start"
    assert {move["kind"] for move in domain.legal_moves(laid)} == {"choose_start"}


def test_an_empty_layout_with_the_rest_drawn_is_the_seeded_game_of_that_seed() -> None:
    for seed in (1, 2, 3):
        drawn = lay_out(domain.new_game(NAMES, mode="table", seed=seed, draw=False), {}, draw_rest=True)
        assert replace(drawn.state, mode=domain.new_game(NAMES, seed=seed).mode) == dealt(4, seed)


def test_R_S07_a_bridges_dice_are_laid_ascending_in_whatever_order_they_are_given() -> None:
    layout = layout_of(dealt(4, 5))
    layout["dice"]["coral"] = list(reversed(layout["dice"]["coral"]))
    laid = lay_out(table(4), layout).state
    coral = laid.board.bridges[0]
    assert [coral.left, *coral.middle, coral.right] == sorted(layout["dice"]["coral"])


def test_every_problem_is_reported_under_its_field_with_its_rule() -> None:
    layout = layout_of(dealt(4, 5))
    wrong = copy.deepcopy(layout)
    wrong["castle"]["steward_2"] = "D4"  # a diplomat card in a steward room
    wrong["daimyo"] = "Dm99"
    wrong["dice"]["white"] = [1, 2, 3, 4, 7]
    wrong["stack"] = [0, 0, 1, 2]
    wrong["offer"][1]["action"] = "SR1"
    error = refusal(table(4), wrong)
    assert fields(error) == {
        "castle.steward_2": "R-S03",
        "daimyo": "R-S04",
        "dice.white": "R-S07",
        "stack": "R-S11",
        "offer.1.action": "R-S12",
    }
    assert error.rule == "R-S03" and error.details["field"] == "castle.steward_2"
    assert "S2" in error.message  # the cards that may lie there are named


def test_R_S02_a_diamond_card_is_refused_at_two_players() -> None:
    layout = layout_of(dealt(2, 5))
    layout["castle"]["steward_1"] = "S1"  # ♦: out of a 2-player game
    assert fields(refusal(table(2), layout)) == {"castle.steward_1": "R-S03"}


def test_R_S05_every_room_shows_two_colours() -> None:
    layout = layout_of(dealt(4, 5))
    layout["die_tiles"]["diplomat_1"] = ["white", "white"]
    error = refusal(table(4), layout)
    assert (error.rule, error.details["field"]) == ("R-S05", "die_tiles.diplomat_1")
    assert list(fields(error)) == ["die_tiles.diplomat_1"]  # the Well's tiles are not blamed for it


def test_R_S05_the_diamond_spaces_hold_one_tile_of_each_colour() -> None:
    layout = layout_of(dealt(4, 5))
    tiles = layout["die_tiles"]
    first = tiles["steward_1"][0]
    other = next(room for room in ("steward_2", "steward_3") if tiles[room][0] != first)
    tiles[other][0] = first
    error = refusal(table(4), layout)
    assert error.rule == "R-S05" and error.details["field"].startswith("die_tiles")


def test_R_S05_a_well_tile_whose_colour_the_castle_took_is_refused() -> None:
    layout = layout_of(dealt(4, 5))
    state = table(4)
    castle_colours = [c for room in layout["die_tiles"].values() for c in room]
    full = next(c for c in ("coral", "black", "white") if castle_colours.count(c) == 5)
    tile = next(t.id for t in state.catalog.die_tiles.values() if t.colour.value == full)
    layout["well"][0] = tile
    error = refusal(state, layout)
    assert fields(error) == {"well.0": "R-S05"}
    assert "took every" in error.message


def test_R_S03_a_castle_the_rules_would_deal_again_is_refused() -> None:
    state = table(4)
    cards = state.catalog.cards
    dark = {
        card: castle.dark_action(cards[card])
        for card in (*state.board.decks.steward, *state.board.decks.diplomat)
    }
    stewards = [c for c in state.board.decks.steward if dark[c] == dark["S2"]]
    diplomats = [c for c in state.board.decks.diplomat if dark[c] == dark["S2"]]
    same = {"steward_1": stewards[0], "steward_2": stewards[1], "steward_3": stewards[2]}
    same |= {"diplomat_1": diplomats[0], "diplomat_2": diplomats[1]}
    layout = layout_of(dealt(4, 5))
    layout["castle"] = same
    error = refusal(state, layout)
    assert error.rule == "R-S03"
    assert set(fields(error)) == {f"castle.{room}" for room in same}


def test_missing_entries_are_reported_unless_the_rest_is_drawn() -> None:
    layout = layout_of(dealt(4, 5))
    del layout["gardens"]
    error = refusal(table(4), layout)
    assert set(fields(error)) == {
        f"gardens.{c}_{t}" for c in ("coral", "black", "white") for t in ("plant", "stone")
    }
    assert error.message.startswith("gardens.coral_plant: missing")
    laid = lay_out(domain.new_game(NAMES, mode="table", seed=9, draw=False), layout, draw_rest=True)
    assert layout_of(laid.state)["castle"] == layout["castle"]
    assert len(layout_of(laid.state)["gardens"]) == 6


def test_drawing_the_rest_needs_a_seed() -> None:
    with pytest.raises(domain.InvalidSetup):
        lay_out(table(4), {}, draw_rest=True)


def test_R_S05_a_castle_given_in_part_is_finished_from_the_seed_around_the_rooms_given() -> None:
    layout = layout_of(dealt(4, 5))
    given = {"steward_2": layout["die_tiles"]["steward_2"], "diplomat_1": layout["die_tiles"]["diplomat_1"]}
    for seed in range(6):
        state = domain.new_game(NAMES, mode="table", seed=seed, draw=False)
        laid = layout_of(lay_out(state, {"die_tiles": given}, draw_rest=True).state)
        assert {room: laid["die_tiles"][room] for room in given} == given
        assert all(len(set(tiles)) >= 2 for tiles in laid["die_tiles"].values())


def test_unknown_sections_and_places_are_refused() -> None:
    layout = layout_of(dealt(2, 5))
    layout["bogus"] = 1
    layout["offer"].append({"resource": "SR1", "action": "A1"})  # 2 players: 3 pairs are dealt
    layout["castle"]["steward_9"] = "S4"
    problems = fields(refusal(table(2), layout))
    assert {"bogus", "offer.3.resource", "castle.steward_9"} <= set(problems)


def test_a_solo_game_has_no_stack_to_lay_out() -> None:
    layout = layout_of(dealt(1, 5, solo="easy"))
    assert "stack" not in layout and len(layout["offer"]) == 1
    layout["stack"] = [0, 1]
    assert "stack" in fields(refusal(table(1, solo="easy"), layout))


def test_the_first_game_option_lays_its_own_castle_and_a_layout_must_agree() -> None:
    state = table(4, options={"first_game": True})
    rest = layout_of(dealt(4, 5, options={"first_game": True}))
    assert rest["castle"] == first_game_layout(state)["castle"]
    lay_out(state, rest)  # the same castle: taken
    rest["castle"]["steward_1"] = "S4" if rest["castle"]["steward_1"] != "S4" else "S7"
    assert "castle.steward_1" in fields(refusal(state, rest))


def test_the_first_game_layout_lays_out_a_table_game_without_the_option() -> None:
    state = domain.new_game(NAMES, mode="table", seed=2, draw=False)
    laid = layout_of(lay_out(state, first_game_layout(state), draw_rest=True).state)
    assert {key: laid[key] for key in ("castle", "die_tiles", "well")} == first_game_layout(state)


def test_setup_dealt_says_when_the_setups_chance_is_over() -> None:
    state = table(2)
    assert not setup_dealt(state)
    assert setup_dealt(dealt(2, 1))
