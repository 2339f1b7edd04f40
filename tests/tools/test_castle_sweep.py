"""tools/castle_sweep.py on a sample of seeds: no seeded castle has a one-colour room (R-S05, decision C.9), the
sweep sees the ones rules 0.1.0 dealt, and it deals each castle exactly as `domain.new_game` does. The full
sweep (seeds 0-9,999 at 2, 3 and 4 players, about 25 s) is the tool's own run."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import domain

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = range(500)


@pytest.fixture(scope="module")
def sweep() -> ModuleType:
    """The tool, loaded from its file (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("castle_sweep", ROOT / "tools" / "castle_sweep.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["castle_sweep"] = module
    spec.loader.exec_module(module)
    return module


def test_no_castle_of_the_sample_has_a_one_colour_room(sweep: ModuleType) -> None:
    """R-S05: every room holds two die-tile colours or more, at 2, 3 and 4 players."""
    assert list(sweep.one_colour_rooms(SAMPLE)) == []


def test_the_sweep_sees_the_one_colour_rooms_rules_0_1_0_dealt(sweep: ModuleType) -> None:
    found = {
        (players, seed, room)
        for players, seed, room, _ in sweep.one_colour_rooms(SAMPLE, rules_version="0.1.0")
    }
    assert found == {(players, seed, "diplomat_2") for players in (2, 3, 4) for seed in (94, 440)}
    assert sweep.main(["--seeds", "100", "--players", "2", "--rules-version", "0.1.0"]) == 1
    assert sweep.main(["--seeds", "100", "--players", "2"]) == 0


@pytest.mark.parametrize(("players", "seed"), [(2, 94), (3, 7), (4, 440), (4, 2)])
def test_the_sweep_deals_each_castle_as_a_new_game_does(sweep: ModuleType, players: int, seed: int) -> None:
    state = domain.new_game(players, seed=seed)
    whole = tuple((room.id, tuple(tile.value for tile in room.tiles)) for room in state.board.rooms)
    assert sweep.castle(players, seed) == whole
