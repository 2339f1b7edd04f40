"""The Matcha catalog: every component of the expansion as data, each entry with its source and verified flag
(unknown printed contents flagged unverified), loaded only with the expansion, and overridable per game."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import domain
from domain.catalog import load_catalog, packaged_catalog, packaged_expansion

from .helpers import MATCHA_STANDARD, board, matcha_game

OVERLAY: dict[str, Any] = json.loads(packaged_expansion("matcha"))
FULL: dict[str, Any] = load_catalog(expansions=("matcha",)).to_dict()


def test_every_matcha_component_is_in_the_catalog() -> None:
    """MA's component list: 8 lily pads, 10 ceremony tokens (20 faces), 4 yard tokens, 5 starting cards, 9 castle
    cards, 6 gardens, 8 Ikebana and 8 Calligraphy cards, the board's spaces, the clan board's green row."""
    assert len(OVERLAY["lily_pads"]) == 8
    assert len(OVERLAY["ceremony_tokens"]) == 10 and len(OVERLAY["ceremony_faces"]) == 20
    assert len(OVERLAY["yard_tiles"]) == 4
    assert (
        len(OVERLAY["starting_resources"]) == 3 and sum(a["copies"] for a in OVERLAY["starting_actions"]) == 2
    )
    assert [len(OVERLAY[s]) for s in ("stewards", "diplomats", "daimyo")] == [3, 3, 3]
    assert Counter(g["type"] for g in OVERLAY["gardens"]) == {"plant": 3, "stone": 3}
    assert len(OVERLAY["ikebana"]) == 8 and len(OVERLAY["calligraphy"]) == 8
    matcha = OVERLAY["matcha"]
    assert [s["id"] for s in matcha["tea_room"]["spaces"]] == ["tea_room_left", "tea_room_right"]
    assert [s["value"] for s in matcha["himeji"]["spaces"]] == [3, 5]
    assert len(matcha["green_row"]["rewards"]) == 5
    assert len(FULL["yard_tiles"]) == 12 and len(FULL["daimyo"]) == 12


def test_every_matcha_entry_carries_its_source_and_a_verified_flag() -> None:
    for section, entries in OVERLAY.items():
        if section == "matcha":
            continue
        for entry in entries:
            assert isinstance(entry["source"], str) and entry["source"], (section, entry["id"])
            assert isinstance(entry["verified"], bool), (section, entry["id"])
    for part in ("tea_room", "himeji", "green_row", "geisha_action", "tea_garden", "first_game_yard"):
        value = OVERLAY["matcha"][part]
        assert value["source"] and isinstance(value["verified"], bool), part


def test_what_matcha_leaves_unknown_is_flagged_unverified() -> None:
    """docs/rules/components.md §1.12 item 5: castle cards, gardens, yard tokens, starting cards, curtains,
    lily pads, the values of the Tea Room and Himeji spaces, the green row, which Tea House room scores what;
    and the pairing of the token faces (R-M18)."""
    for section in (
        "stewards",
        "diplomats",
        "daimyo",
        "starting_resources",
        "starting_actions",
        "gardens",
        "yard_tiles",
        "ikebana",
        "calligraphy",
        "lily_pads",
        "ceremony_tokens",
    ):
        assert not any(entry["verified"] for entry in OVERLAY[section]), section
    assert all(face["verified"] for face in OVERLAY["ceremony_faces"])  # R-M18 lists them
    matcha = OVERLAY["matcha"]
    assert not matcha["tea_room"]["verified"] and not matcha["himeji"]["verified"]
    assert not matcha["green_row"]["verified"] and not matcha["tea_garden"]["rooms_verified"]
    assert matcha["geisha_action"]["verified"] and matcha["tea_garden"]["verified"]


def test_the_base_catalog_stays_the_base_files() -> None:
    assert "matcha" not in json.loads(packaged_catalog())
    assert load_catalog().to_dict() == json.loads(packaged_catalog())
    assert load_catalog().matcha is None


def test_a_game_overrides_matcha_values_and_carries_them() -> None:
    override = {
        "matcha": {
            "tea_room": {
                "spaces": [{"id": "tea_room_left", "value": 2}, {"id": "tea_room_right", "value": 4}]
            }
        },
        "lily_pads": [{"id": "LP1", "effects": ["cp:3"], "verified": True, "source": "our box"}],
    }
    state = matcha_game(3, catalog=override, answers=MATCHA_STANDARD, choose=["SR6", "SR9", "SR3"])
    spec = state.catalog.matcha
    assert spec is not None and [s.value for s in spec.tea_room] == [2, 4]
    assert [str(icon) for icon in spec.lily_pads["LP1"]] == ["cp:3"]
    catalog = domain.catalog_of(state)
    assert catalog["lily_pads"][0]["verified"] is True and board(state).pond[0] == "LP1"
    again = domain.new_game(3, mode="table", catalog=catalog, expansions=["matcha"])
    assert again.catalog == domain.new_game(3, mode="table", catalog=override, expansions=["matcha"]).catalog


@pytest.mark.parametrize(
    "override",
    [
        {"lily_pads": [{"id": "LP1", "effects": ["whisk:x"]}]},
        {"ceremony_faces": [{"id": "CT1", "effects": ["tea"]}]},
        {"ceremony_tokens": [{"id": "CM2", "blue": "CT1"}]},
        {"ikebana": [{"id": "IK1", "blue_cost": {"seal": -1}}]},
        {
            "matcha": {
                "himeji": {"spaces": [{"id": "himeji_upper", "value": 3, "curtains": [["origami", "blue"]]}]}
            }
        },
        {"matcha": {"tea_garden": {"tea_house": {"rooms": [{"id": "tea_house_upper", "scores": "geisha"}]}}}},
        {"yard_tiles": [{"id": "Y9", "blue": ["slash:teleport"], "yellow": []}]},
    ],
)
def test_a_malformed_matcha_override_is_refused(override: dict[str, Any]) -> None:
    with pytest.raises(domain.InvalidSetup):
        load_catalog(override, ("matcha",))
