"""The catalog: every printed base component (docs/rules/components.md) as packaged data with source and verified
flags, and per-game overrides that travel with the game."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import domain
from domain.catalog import load_catalog, packaged_catalog

from .helpers import table_game

RAW: dict[str, Any] = json.loads(packaged_catalog())


def test_every_base_component_is_in_the_catalog() -> None:
    assert len(RAW["stewards"]) == 15 and sum(c["diamond"] for c in RAW["stewards"]) == 6
    assert len(RAW["diplomats"]) == 12 and sum(c["diamond"] for c in RAW["diplomats"]) == 3
    assert len(RAW["daimyo"]) == 9 and all(len(c["spots"]) == 3 for c in RAW["daimyo"])
    assert len(RAW["starting_resources"]) == 9
    assert [(a["id"], a["copies"]) for a in RAW["starting_actions"]] == [("A1", 2), ("A2", 2), ("A3", 2)]
    assert len(RAW["decrees"]) == 3
    assert Counter(g["type"] for g in RAW["gardens"]) == {"plant": 5, "stone": 5}
    assert len(RAW["yard_tiles"]) == 8
    assert Counter(t["colour"] for t in RAW["die_tiles"]) == {"coral": 5, "black": 5, "white": 5}
    assert [(y["iron"], y["value"]) for y in RAW["yards"]] == [(5, 2), (3, 1), (1, 1)]
    assert len(RAW["castle"]["rooms"]) == 5 and len(RAW["outside_the_walls"]) == 2
    pot = RAW["passage_of_time"]
    assert pot["milestones"] == {"6": 1, "11": 2, "15": 3} and len(pot["points"]) == 21
    assert [row["colour"] for row in RAW["domain"]["rows"]] == ["coral", "black", "white"]


def test_every_entry_carries_its_source_and_a_verified_flag() -> None:
    for section in (
        "stewards",
        "diplomats",
        "daimyo",
        "starting_resources",
        "starting_actions",
        "decrees",
        "gardens",
        "yard_tiles",
        "die_tiles",
    ):
        for entry in RAW[section]:
            assert isinstance(entry["source"], str) and entry["source"], (section, entry["id"])
            assert isinstance(entry["verified"], bool), (section, entry["id"])
    for section in ("well", "passage_of_time", "first_game"):
        assert RAW[section]["source"] and isinstance(RAW[section]["verified"], bool)
    for prefix, section in (
        ("values", "castle"),
        ("layout", "castle"),
        ("value", "domain"),
        ("rows", "domain"),
    ):
        assert RAW[section][f"{prefix}_source"] and isinstance(RAW[section][f"{prefix}_verified"], bool)


def test_what_is_still_unknown_is_flagged_unverified() -> None:
    assert not any(card["verified"] for card in RAW["daimyo"])
    assert RAW["domain"]["rows_verified"] is False
    assert RAW["castle"]["layout_verified"] is False
    assert RAW["first_game"]["verified"] is False
    assert sum(tile["verified"] for tile in RAW["die_tiles"]) == 2  # the two FR names for the first game


def test_a_game_carries_its_effective_catalog_with_overrides() -> None:
    override = {"daimyo": [{"id": "Dm1", "spots": [["cp:5"], ["cp:4"], ["cp:3"]], "verified": True}]}
    state = domain.new_game(2, seed=1, catalog=override)
    catalog = domain.catalog_of(state)
    dm1 = next(card for card in catalog["daimyo"] if card["id"] == "Dm1")
    assert dm1["spots"] == [["cp:5"], ["cp:4"], ["cp:3"]] and dm1["source"]
    assert len(catalog["daimyo"]) == 9
    assert domain.new_game(2, seed=1, catalog=catalog) == state
    assert domain.new_game(2, seed=1) != state


def test_a_new_card_needs_data_only() -> None:
    garden = {
        "id": "PG6",
        "type": "plant",
        "food": 3,
        "cp": 5,
        "cost": {"coin": 4},
        "effects": ["courtier"],
        "source": "test",
        "verified": False,
    }
    state = table_game(2, catalog={"gardens": [garden]}, answers={"coral_plant": "PG6"})
    assert state.board.gardens[0].card == "PG6"


@pytest.mark.parametrize(
    "override",
    [
        {"gardens": [{"id": "SG1", "effects": ["food:x"]}]},
        {"gardens": [{"id": "SG1", "effects": ["teleport"]}]},
        {"stewards": [{"id": "S1", "blocks": [{"rows": ["left"], "background": "light", "effects": []}]}]},
        {"passage_of_time": {"points": [0, 1]}},
        {"die_tiles": [{"id": "T1", "colour": "green"}]},
        {"domain": {"rows": [{"id": "courtiers", "colour": "black"}]}},
        {"stewards": [{"id": "S1", "diamond": True, "blocks": [], "lantern": ["coin:1"]}, {"id": "D1"}]},
        {"meta": {1, 2}},
        # a room card offers one block per die-tile space of its room (3 on the steward floor, 2 above)
        {"stewards": [{"id": "S1", "blocks": [{"rows": ["top"], "background": "light", "effects": []}] * 2}]},
        {"diplomats": [{"id": "D1", "blocks": [{"rows": ["top"], "background": "dark", "effects": []}] * 3}]},
    ],
)
def test_a_malformed_override_is_refused(override: dict[str, Any]) -> None:
    with pytest.raises(domain.InvalidSetup):
        load_catalog(override)


def test_first_game_layout_refuses_cards_absent_at_two_players() -> None:
    override = {"first_game": {"rooms": {"steward_1": "S1"}}}
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(2, seed=1, options={"first_game": True}, catalog=override)
    assert error.value.rule == "R-S02"


def test_component_ids_sort_by_their_numbers_not_their_digits() -> None:
    from domain.catalog import natural

    ids = ["S10", "CT10", "S2", "CT2", "S1", "L3"]
    assert sorted(ids, key=natural) == ["CT2", "CT10", "L3", "S1", "S2", "S10"]
    assert natural("S10") == ("S", 10, "")
