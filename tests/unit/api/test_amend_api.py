"""Corrections with resolutions over HTTP: `POST /api/games/{id}/amend` with `resolutions`, the dry
run's report of the first misfit (its index, words, rule, the moves legal there and the board), the refusals
with their stable codes, and a write that is one write, with If-Match and Idempotency-Key as every write."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api_helpers import ApiClient
from tests.unit.replay.amend_support import (
    MOVE_14_RECORDED,
    MOVE_14_RESOLVED,
    SCENARIO_RULES,
    SEEDED_CORRECTION,
    SEEDED_RESOLUTIONS,
    seeded_scenario_export,
)

BEN_TOOK_THE_WELL = SEEDED_RESOLUTIONS[0]["move"]


@pytest.fixture
def scenario(api: ApiClient) -> tuple[str, str, int]:
    """The correction scenario, a finished seeded game recorded under rules 0.2.0, imported over HTTP: the game's
    id, its owner token and its version."""
    answer = api.post("/api/games/import?new_id=1", seeded_scenario_export())
    assert answer.status == 201 and answer.body["game"]["status"] == "finished"
    assert answer.body["game"]["rules_version"] == SCENARIO_RULES
    return answer.body["game"]["game_id"], answer.body["owner_token"], answer.etag


def amend(api: ApiClient, game_id: str, token: str, version: int, **body: Any) -> Any:
    """Correct move 10 of the scenario (version 11: the game's first event is version 1) as it really was."""
    key = body.pop("key", None)
    sent = {"version": 11, "move": SEEDED_CORRECTION, **body}
    return api.post(f"/api/games/{game_id}/amend", sent, token=token, if_match=version, key=key)


def test_a_dry_run_reports_the_first_misfit_with_what_it_takes_to_resolve_it(
    api: ApiClient, scenario: tuple[str, str, int]
) -> None:
    game_id, token, version = scenario
    answer = amend(api, game_id, token, version, dry_run=True)
    assert answer.status == 200 and answer.etag == version and answer.body["dry_run"] is True
    report = answer.body["report"]
    assert (report["all_fit"], report["over"], report["resolved"]) == (False, False, [])
    assert (len(report["kept"]), len(report["dropped"])) == (3, 53)
    misfit = report["first_misfit"]
    assert misfit["index"] == 14 and misfit["version"] == 15
    assert misfit["move"] == {"kind": "place_die", "seat": 1, "space": "steward_1"}
    assert misfit["recorded_words"] == MOVE_14_RECORDED
    assert misfit["reason"] == "steward room 1 is full: dice are never stacked at 1-2 players"
    assert misfit["rule"] == "R-P05" and misfit["error"]["code"] == "illegal_move"
    assert (misfit["seat"], misfit["player"], misfit["after_resolution"]) == (1, "Ben", False)
    assert BEN_TOOK_THE_WELL in misfit["legal_moves"]
    assert all(move["kind"] in ("place_die", "convert") for move in misfit["legal_moves"])
    assert misfit["prompt"]["kind"] == "place_die" and misfit["prompt"]["text"]
    assert misfit["state"]["players"][1]["name"] == "Ben" and "catalog" not in misfit["state"]
    # each legal move there as a page offers it, in the same order: the Well is where Ben's die really went
    choices = misfit["choices"]
    assert len(choices) == len(misfit["legal_moves"]) and all(choice["words"] for choice in choices)
    well = choices[misfit["legal_moves"].index(BEN_TOOK_THE_WELL)]
    assert well["target"] == "well:" and well["words"].startswith("The Well")
    assert "room:steward_1" not in [choice["target"] for choice in choices]  # full: not a place to go


def test_resolutions_found_by_dry_runs_are_written_in_one_request(
    api: ApiClient, scenario: tuple[str, str, int]
) -> None:
    game_id, token, version = scenario
    dry = amend(api, game_id, token, version, dry_run=True, resolutions=SEEDED_RESOLUTIONS)
    report = dry.body["report"]
    assert report["all_fit"] and report["over"] and report["first_misfit"] is None
    assert len(report["kept"]) == 55 and report["dropped"] == []
    assert report["resolved"] == [
        {
            "index": 14,
            "version": 15,
            "recorded_words": MOVE_14_RECORDED,
            "words": [MOVE_14_RESOLVED],
            "kept": False,
        }
    ]
    assert api.game(game_id)["version"] == version  # a dry run writes nothing

    written = amend(api, game_id, token, version, resolutions=SEEDED_RESOLUTIONS)
    assert written.status == 200 and written.body["dry_run"] is False
    assert written.body["versions"] == [version + 1, version + 2] and written.etag == version + 2
    assert written.body["report"] == report
    assert written.body["game"]["status"] == "finished" and written.body["game"]["moves"] == 66
    entries = {e["index"]: e for e in api.get(f"/api/games/{game_id}/timeline").body["entries"]}
    assert (entries[10]["correction"], entries[10]["version"], entries[10]["amends"]) == (
        "amended",
        version + 2,
        11,
    )
    assert (entries[14]["correction"], entries[14]["version"], entries[14]["amends"]) == (
        "resolved",
        version + 1,
        15,
    )
    assert entries[14]["description"] == MOVE_14_RESOLVED
    assert entries[14]["replaced"] == MOVE_14_RECORDED
    assert entries[14]["stands_for"] == [15] and entries[15]["correction"] is None


@pytest.mark.parametrize(
    ("resolutions", "status", "code"),
    [
        ([{"index": 9, "move": BEN_TOOK_THE_WELL}], 422, "resolution_not_later"),
        ([{"index": 99, "move": BEN_TOOK_THE_WELL}], 422, "resolution_not_later"),
        ([*SEEDED_RESOLUTIONS, *SEEDED_RESOLUTIONS], 422, "resolution_repeated"),
        ([{"index": 13, "move": BEN_TOOK_THE_WELL}], 422, "resolution_not_needed"),
        ([{"index": 20, "moves": []}], 422, "resolution_unused"),
        (
            [{"index": 14, "move": {"kind": "place_die", "seat": 1, "space": "steward_1"}}],
            422,
            "illegal_move",
        ),
        ([{"index": 14, "move": {"seat": 1}}], 400, "invalid_move"),
        ([{"index": 14}], 400, "invalid_request"),
        ([{"index": 14, "move": BEN_TOOK_THE_WELL, "moves": []}], 400, "invalid_request"),
        ([{"index": 0, "moves": []}], 400, "invalid_request"),
        ([{"index": "14", "moves": []}], 400, "invalid_request"),
        ([{"index": 14, "moves": [], "keep_recorded": "yes"}], 400, "invalid_request"),
        ({"index": 14, "moves": []}, 400, "invalid_request"),
    ],
    ids=[
        "an earlier move",
        "beyond the line",
        "one index twice",
        "a move that still fits",
        "after a misfit left without one",
        "a move the rules refuse",
        "a move without a kind",
        "no move",
        "move and moves",
        "index 0",
        "an index as text",
        "keep_recorded not a boolean",
        "not a list",
    ],
)
def test_a_resolution_that_does_not_fit_is_refused_with_its_code_and_nothing_is_written(
    api: ApiClient, scenario: tuple[str, str, int], resolutions: Any, status: int, code: str
) -> None:
    game_id, token, version = scenario
    for dry_run in (True, False):
        refused = amend(api, game_id, token, version, dry_run=dry_run, resolutions=resolutions)
        assert refused.error() == (status, code), refused.body
        assert refused.body["detail"]
    assert api.game(game_id)["version"] == version
    if code == "illegal_move":
        assert refused.body["rule"] == "R-P05" and refused.body["details"]["resolution_index"] == 14
    if code == "resolution_unused":
        assert refused.body["details"] == {"indexes": [20], "first_misfit": 14}


def test_a_correction_with_resolutions_is_a_write_as_any_other_stale_and_retried(
    api: ApiClient, scenario: tuple[str, str, int]
) -> None:
    game_id, token, version = scenario
    stale = amend(api, game_id, token, version - 1, resolutions=SEEDED_RESOLUTIONS)
    assert stale.error() == (412, "stale_version") and stale.body["details"]["current_version"] == version
    first = amend(api, game_id, token, version, resolutions=SEEDED_RESOLUTIONS, key="fix-move-10")
    again = amend(api, game_id, token, version, resolutions=SEEDED_RESOLUTIONS, key="fix-move-10")
    assert first.status == again.status == 200 and again.body == first.body
    assert again.headers["idempotent-replayed"] == "true"
    assert api.game(game_id)["version"] == version + 2  # written once
    other = amend(api, game_id, token, version, resolutions=[], key="fix-move-10")
    assert other.error() == (422, "idempotency_key_reused")


def test_a_seat_token_resolves_only_its_own_seats_moves(
    api: ApiClient, scenario: tuple[str, str, int]
) -> None:
    game_id, owner, version = scenario
    ann = api.post(f"/api/games/{game_id}/seats/0/token", token=owner).body["token"]
    ben = api.post(f"/api/games/{game_id}/seats/1/token", token=owner).body["token"]
    # moves 10 and 14 are Ben's: Ann's token may not correct them, Ben's may
    assert amend(api, game_id, ann, version, dry_run=True, resolutions=SEEDED_RESOLUTIONS).error() == (
        403,
        "forbidden",
    )
    assert amend(api, game_id, ben, version, dry_run=True, resolutions=SEEDED_RESOLUTIONS).status == 200
    # nor may Ben's token play Ann's moves in a resolution
    ann_move = {"index": 14, "moves": [{"kind": "done", "seat": 0}]}
    refused = amend(api, game_id, ben, version, dry_run=True, resolutions=[ann_move])
    assert refused.error() == (403, "forbidden") and refused.body["details"]["seats"] == [0]
