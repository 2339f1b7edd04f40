"""A game keeps the rules version it was recorded under (replay/rules.py): a log of rules 0.1.0 whose
seeded castle has a one-colour room (seed 94, before decision C.9 of R-S05) imports, folds, exports and has its
seed drawn again as it was dealt; the same log claiming the current rules is refused; a new game records the
current version and deals seed 94 with two colours in every room; revalidating the old game under the current
rules names the R-S05 tile they would refuse."""

from __future__ import annotations

import json
from typing import Any

import pytest

import domain
from replay import rules
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import InvalidLog
from replay.game import fold


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def castle(state: Any) -> dict[str, tuple[str, ...]]:
    return {room.id: tuple(str(tile) for tile in room.tiles) for room in state.board.rooms}


def old_log(log: GameLog) -> dict[str, Any]:
    """What a build of rules 0.1.0 exported for a new 2-player game of seed 94: its opening as 0.1.0 drew it."""
    game_id = log.create_game({"players": ["Aiko", "Ben"], "seed": 94}).game_id
    document = json.loads(json.dumps(log.export(game_id), default=str))
    fresh = rules.fresh_state(document["setup"], document["catalog"], "0.1.0")
    _, drawn = rules.draw_opening(fresh)
    return {**document, "rules_version": "0.1.0", "opening": drawn}


def test_a_new_game_records_the_current_rules_and_deals_two_colours_in_every_room(log: GameLog) -> None:
    game = log.get(log.create_game({"players": ["Aiko", "Ben"], "seed": 94}).game_id)
    assert game.rules_version == game.state.rules_version == domain.RULES_VERSION
    assert all(len(set(tiles)) >= 2 for tiles in castle(game.state).values())


def test_a_log_of_rules_0_1_0_imports_folds_and_exports_as_it_was_dealt(log: GameLog) -> None:
    document = old_log(log)
    copy = log.import_log(document, keep_id=False).game_id
    game = log.get(copy)
    assert game.rules_version == game.state.rules_version == "0.1.0"
    assert castle(game.state)["diplomat_2"] == ("white", "white")
    assert fold(list(log.events_of(copy))).state == game.state
    again = json.loads(json.dumps(log.export(copy), default=str))
    assert (again["rules_version"], again["opening"]) == ("0.1.0", document["opening"])


def test_the_same_log_claiming_the_current_rules_is_refused(log: GameLog) -> None:
    document = {**old_log(log), "rules_version": domain.RULES_VERSION}
    with pytest.raises(InvalidLog) as error:
        log.import_log(document, keep_id=False)
    [problem] = error.value.problems
    assert problem["position"] == "setup"
    assert "a coral die tile now would leave no way to finish the castle" in problem["message"]


def test_revalidating_a_game_of_rules_0_1_0_names_the_tile_the_current_rules_refuse(log: GameLog) -> None:
    report = log.revalidate(log.import_log(old_log(log), keep_id=False).game_id)
    assert (report["ok"], report["version"], report["error"]["rule"]) == (False, 1, "R-S05")
