"""Every kind of correction over HTTP, each one request (`POST /api/games/{id}/amend`): the setup of a game laid
out at creation, a move inserted or removed, two seats swapped (the owner's), moves in place of one; the
report's suggestions sent back as they are; undo right after a correction; and the refusals."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.api_helpers import ApiClient

NAMES = ["Aiko", "Ben"]


def laid_out_game(api: ApiClient, moves: int = 40) -> tuple[str, str, dict[str, Any]]:
    """A table game laid out at creation (the layout a seeded game of seed 23 deals), and ``moves`` random moves
    recorded on it: its id, owner token and layout."""
    seeded, _, _ = api.create(NAMES, seed=23)
    layout = api.get(f"/api/games/{seeded}/layout").body["layout"]
    answer = api.post("/api/games", {"players": NAMES, "mode": "table", "layout": layout})
    assert answer.status == 201, answer.body
    game_id, token = answer.body["game"]["game_id"], answer.body["owner_token"]
    api.play_random(game_id, token, random.Random(23), limit=moves)
    return game_id, token, layout


def amend(api: ApiClient, game_id: str, token: str, body: dict[str, Any], version: int | None = None) -> Any:
    if version is None:
        version = api.get(f"/api/games/{game_id}").etag
    return api.post(f"/api/games/{game_id}/amend", body, token=token, if_match=version)


def follow_first(api: ApiClient, game_id: str, token: str, body: dict[str, Any]) -> Any:
    """Dry-run the correction, send each misfit's first suggestion back as it is, then write it."""
    answers: dict[int, Any] = {}
    for _ in range(100):
        dry = amend(api, game_id, token, {**body, "resolutions": list(answers.values()), "dry_run": True})
        assert dry.status == 200, dry.body
        misfit = dry.body["report"]["first_misfit"]
        if misfit is None or not misfit["suggestions"]:
            break
        answers[misfit["index"]] = misfit["suggestions"][0]["resolution"]
    return amend(api, game_id, token, {**body, "resolutions": list(answers.values())})


def test_a_castle_card_of_a_game_laid_out_at_creation_is_corrected_and_undo_right_after_restores_it(
    api: ApiClient,
) -> None:
    game_id, token, layout = laid_out_game(api)
    before = api.get(f"/api/games/{game_id}")
    cards = layout["castle"]
    # the cards of steward rooms 1 and 2 were entered the wrong way round
    given = {"castle": {"steward_1": cards["steward_2"], "steward_2": cards["steward_1"]}}
    written = follow_first(api, game_id, token, {"version": 1, "layout": given})
    assert written.status == 200, written.body
    report = written.body["report"]
    assert (report["version"], report["correction"]) == (1, "setup")
    corrected = api.get(f"/api/games/{game_id}/layout").body["layout"]
    assert corrected["castle"] == {**cards, **given["castle"]}
    assert {key: value for key, value in corrected.items() if key != "castle"} == {
        key: value for key, value in layout.items() if key != "castle"
    }
    undone = api.post(f"/api/games/{game_id}/undo", {}, token=token, if_match=written.etag)
    assert undone.status == 200, undone.body
    after_undo = api.get(f"/api/games/{game_id}")
    assert after_undo.body["state"] == before.body["state"]
    assert api.get(f"/api/games/{game_id}/layout").body["layout"] == layout
    redone = api.post(f"/api/games/{game_id}/redo", {}, token=token, if_match=undone.etag)
    assert redone.status == 200, redone.body
    assert api.get(f"/api/games/{game_id}/layout").body["layout"]["castle"] == corrected["castle"]


def test_a_forgotten_move_is_inserted_and_then_removed_as_never_happened(api: ApiClient) -> None:
    game_id, token, _ = api.create(NAMES, seed=5)
    api.play_random(game_id, token, random.Random(5), limit=60)
    timeline = api.get(f"/api/games/{game_id}/timeline").body["entries"]
    for entry in timeline:
        listing = api.get(f"/api/games/{game_id}/legal-moves?before={entry['version']}").body
        converts = [move for move in listing["moves"] if move["kind"] == "convert"]
        if converts and entry["seat"] == converts[0]["seat"]:
            break
    else:  # pragma: no cover - the game has such a move
        raise AssertionError("no conversion to forget")
    inserted = follow_first(api, game_id, token, {"version": entry["version"], "insert": [converts[0]]})
    assert inserted.status == 200, inserted.body
    assert inserted.body["report"]["correction"] == "insert"
    after = {e["index"]: e for e in api.get(f"/api/games/{game_id}/timeline").body["entries"]}
    added = after[entry["index"]]
    assert added["kind"] == "convert" and added["correction"] == "added"
    assert after[entry["index"] + 1]["version"] == entry["version"]  # the move it came before stays
    removed = follow_first(api, game_id, token, {"version": added["version"], "remove": True})
    assert removed.status == 200, removed.body
    assert removed.body["report"]["correction"] == "remove"
    text = api.get(f"/api/games/{game_id}/export?format=text").body
    assert "[removed in a correction:" in text


def test_swapping_seats_is_the_owners_correction(api: ApiClient) -> None:
    game_id, token, _ = laid_out_game(api, moves=20)
    seat = api.post(f"/api/games/{game_id}/seats/0/token", {}, token=token)
    assert seat.status in (200, 201), seat.body
    for dry_run in (True, False):
        refused = amend(
            api, game_id, seat.body["token"], {"version": 1, "swap_seats": [0, 1], "dry_run": dry_run}
        )
        assert refused.error() == (403, "forbidden")
    swapped = amend(api, game_id, token, {"version": 1, "swap_seats": [0, 1]})
    assert swapped.status == 200, swapped.body
    report = swapped.body["report"]
    assert report["correction"] == "swap_seats" and report["all_fit"]
    assert sorted(report["rewritten"]) == sorted(v for v in report["kept"] if v in report["rewritten"])


def test_a_request_gives_one_kind_of_correction(api: ApiClient) -> None:
    game_id, token, _ = api.create(NAMES, seed=5)
    api.play_random(game_id, token, random.Random(5), limit=10)
    version = api.get(f"/api/games/{game_id}/timeline").body["entries"][3]["version"]
    for body in ({"version": version}, {"version": version, "remove": True, "swap_seats": [0, 1]}):
        assert amend(api, game_id, token, {**body, "dry_run": True}).error() == (400, "invalid_request")
    refused = amend(api, game_id, token, {"version": version, "swap_seats": [0, 7], "dry_run": True})
    assert refused.error() == (422, "invalid_correction")


def test_the_setup_of_a_game_not_laid_out_is_corrected_at_its_moves(api: ApiClient) -> None:
    game_id, token, _ = api.create(NAMES, mode="table")
    refused = amend(api, game_id, token, {"version": 1, "layout": {"stack": [1, 0]}, "dry_run": True})
    assert refused.error() == (422, "invalid_correction")
    assert "move by move" in refused.body["detail"]


def test_a_layout_the_rules_refuse_names_its_field(api: ApiClient) -> None:
    game_id, token, _ = laid_out_game(api, moves=5)
    refused = amend(api, game_id, token, {"version": 1, "layout": {"castle": {"steward_1": "D1"}}})
    assert refused.error() == (422, "invalid_layout")
    assert refused.body["details"]["field"] == "castle.steward_1"


def test_a_misfits_suggestions_are_resolutions_to_send_as_they_are(api: ApiClient) -> None:
    game_id, token, layout = laid_out_game(api)
    order = list(reversed(layout["stack"]))  # the turn order entered the wrong way round
    dry = amend(api, game_id, token, {"version": 1, "layout": {"stack": order}, "dry_run": True})
    misfit = dry.body["report"]["first_misfit"]
    assert misfit["error"]["code"] == "not_your_turn"
    first = misfit["suggestions"][0]
    assert first["kind"] == "swap_seats" and first["resolution"] == {
        "index": misfit["index"],
        "swap_seats": [1, 0],
    }
    assert first["keeps"] > 0 and isinstance(first["capped"], bool) and first["words"]
    keeps = [one["keeps"] for one in misfit["suggestions"]]
    assert keeps == sorted(keeps, reverse=True)
    written = amend(
        api, game_id, token, {"version": 1, "layout": {"stack": order}, "resolutions": [first["resolution"]]}
    )
    assert written.status == 200 and written.body["report"]["all_fit"], written.body


@pytest.mark.parametrize("kind", ["move", "moves"])
def test_a_stale_correction_is_412_and_writes_nothing(api: ApiClient, kind: str) -> None:
    game_id, token, _ = api.create(NAMES, seed=5)
    api.play_random(game_id, token, random.Random(5), limit=10)
    entry = api.get(f"/api/games/{game_id}/timeline").body["entries"][5]
    other = next(
        move
        for move in api.get(f"/api/games/{game_id}/legal-moves?before={entry['version']}").body["moves"]
        if move["kind"] != "convert"
    )
    version = api.get(f"/api/games/{game_id}").etag
    body = {"version": entry["version"], kind: other if kind == "move" else [other]}
    assert amend(api, game_id, token, body, version=version - 1).error() == (412, "stale_version")
    assert api.get(f"/api/games/{game_id}").etag == version
