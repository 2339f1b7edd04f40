"""What an annotation may point at: every part of Matcha's board is a target, with the ids the engine's state
gives it, and a kind outside TARGET_KINDS is still refused."""

from __future__ import annotations

import pytest

import domain
from domain.matcha import tea_garden
from replay.annotations import check_content
from replay.errors import InvalidAnnotation


def matcha_targets() -> list[dict[str, str]]:
    """One target per part of a Matcha game's board, the ids read from its state."""
    state = domain.new_game(["A", "B"], seed=7, expansions=["matcha"])
    matcha = state.board.matcha
    assert matcha is not None
    rooms = [room.id for room in matcha.tea_house]
    garden = [place for place in tea_garden.places(state) if place not in rooms]
    return [
        *({"kind": "tea_room", "id": item.id} for item in matcha.tea_room),
        *({"kind": "himeji", "id": item.id} for item in matcha.himeji),
        *({"kind": "tea_garden", "id": place} for place in garden),
        *({"kind": "tea_house", "id": room} for room in rooms),
    ]


def test_the_matcha_board_has_the_parts_the_targets_name() -> None:
    ids = {(target["kind"], target["id"]) for target in matcha_targets()}
    assert ("tea_garden", "viewing_platform") in ids and ("tea_garden", "entrance") in ids
    assert {("tea_garden", "path_1"), ("tea_garden", "path_2")} <= ids
    assert ("tea_house", "tea_house_upper") in ids and ("himeji", "himeji_lower") in ids
    assert ("tea_room", "tea_room_left") in ids


@pytest.mark.parametrize("target", matcha_targets(), ids=lambda target: f"{target['kind']}:{target['id']}")
def test_an_annotation_may_point_at_each_part_of_the_matcha_board(target: dict[str, str]) -> None:
    assert check_content("look here", None, target) == ("look here", None, target)


def test_the_green_bridge_is_a_bridge_target() -> None:
    state = domain.new_game(["A", "B"], seed=7, expansions=["matcha"])
    assert "green" in [bridge.colour for bridge in state.board.bridges]
    assert check_content("x", None, {"kind": "bridge", "id": "green"})[2] == {"kind": "bridge", "id": "green"}


@pytest.mark.parametrize("kind", ["tea_ceremony", "castle", "", None])
def test_a_kind_outside_the_list_is_refused(kind: str | None) -> None:
    with pytest.raises(InvalidAnnotation, match="tea_house"):
        check_content("look here", None, {"kind": kind, "id": "viewing_platform"})
