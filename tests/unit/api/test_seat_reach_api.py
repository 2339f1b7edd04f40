"""A seat token reaches only its own seat's moves, whatever the route (docs/api/tokens.md): every write route
is walked with a seat token aimed at another seat's moves (refused, nothing written) and at its own (written),
and an amendment that would take another seat's moves off the line of play is 403 for a seat token, dry run
or not, while the owner may write it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.api_helpers import Answer, ApiClient

AIKO_AND_BEN = [{"name": "Aiko", "colour": "purple"}, {"name": "Ben", "colour": "green"}]


def recorded(api: ApiClient, seed: int, moves: int) -> tuple[str, str, dict[int, str]]:
    """A seeded game of Aiko and Ben with ``moves`` moves recorded by the owner: (game id, owner token, each
    seat's token)."""
    game_id, owner, _ = api.create(AIKO_AND_BEN, seed=seed)
    tokens = {
        seat: api.post(f"/api/games/{game_id}/seats/{seat}/token", token=owner).body["token"]
        for seat in (0, 1)
    }
    for _ in range(moves):
        listing = api.legal(game_id)
        answers = [move for move in listing.body["moves"] if move.get("kind") != "convert"]
        assert api.play(game_id, answers[0], owner, listing.etag).status == 201
    return game_id, owner, tokens


def line(api: ApiClient, game_id: str) -> list[dict[str, Any]]:
    return list(api.get(f"/api/games/{game_id}/timeline").body["entries"])


def snapshot(api: ApiClient, game_id: str) -> tuple[int, Any, Any]:
    """What a refused write must leave as it was: the version, the line of play, the annotations."""
    return (
        api.game(game_id)["version"],
        line(api, game_id),
        api.get(f"/api/games/{game_id}/annotations").body["annotations"],
    )


def last_of(api: ApiClient, game_id: str, seat: int) -> dict[str, Any]:
    return next(entry for entry in reversed(line(api, game_id)) if entry["seat"] == seat)


# Each write route, sent with seat `seat`'s token at moves (or things) of the other seat: (name, request).
Request = Callable[[ApiClient, str, str, str, int], Answer]


def _move(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    listing = api.legal(game_id).body
    other = next(move for move in listing["moves"] if move.get("seat") is not None)
    return api.post(
        f"/api/games/{game_id}/moves",
        {**other, "seat": 1 - seat_of(api, game_id, token)},
        token=token,
        if_match=version,
    )


def seat_of(api: ApiClient, game_id: str, token: str) -> int:
    you = api.get(f"/api/games/{game_id}/access", token).body["you"]
    return int(str(you).split(":")[1])


def _undo(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    theirs = last_of(api, game_id, 1 - seat_of(api, game_id, token))
    return api.post(
        f"/api/games/{game_id}/undo", {"to_version": theirs["version"] - 1}, token=token, if_match=version
    )


def _redo(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    theirs = last_of(api, game_id, 1 - seat_of(api, game_id, token))
    undone = api.post(
        f"/api/games/{game_id}/undo", {"to_version": theirs["version"] - 1}, token=owner, if_match=version
    )
    assert undone.status == 200, undone.body
    return api.post(f"/api/games/{game_id}/redo", {"count": 1}, token=token, if_match=undone.etag)


def _amend(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    theirs = last_of(api, game_id, 1 - seat_of(api, game_id, token))
    before = api.get(f"/api/games/{game_id}/legal-moves?before={theirs['version']}").body
    other = next(move for move in before["moves"] if move != before["recorded"])
    body = {"version": theirs["version"], "move": other}
    return api.post(f"/api/games/{game_id}/amend", body, token=token, if_match=version)


def _abandon(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    return api.post(f"/api/games/{game_id}/abandon", {"reason": "no"}, token=token, if_match=version)


def _edit_annotation(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    written = api.post(
        f"/api/games/{game_id}/annotations", {"version": 2, "text": "the owner's"}, token=owner
    )
    return api.patch(f"/api/games/{game_id}/annotations/{written.body['id']}", {"text": "x"}, token=token)


def _delete_annotation(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    written = api.post(
        f"/api/games/{game_id}/annotations", {"version": 2, "text": "the owner's"}, token=owner
    )
    return api.delete(f"/api/games/{game_id}/annotations/{written.body['id']}", token=token)


def _issue_token(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    return api.post(f"/api/games/{game_id}/seats/{1 - seat_of(api, game_id, token)}/token", token=token)


def _withdraw_token(api: ApiClient, game_id: str, token: str, owner: str, version: int) -> Answer:
    return api.delete(f"/api/games/{game_id}/seats/{1 - seat_of(api, game_id, token)}/token", token=token)


REFUSED: list[tuple[str, Request]] = [
    ("move", _move),
    ("undo", _undo),
    ("redo", _redo),
    ("amend", _amend),
    ("abandon", _abandon),
    ("edit annotation", _edit_annotation),
    ("delete annotation", _delete_annotation),
    ("issue seat token", _issue_token),
    ("withdraw seat token", _withdraw_token),
]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize(("name", "request_"), REFUSED, ids=[name for name, _ in REFUSED])
def test_a_seat_token_reaching_another_seat_is_403_and_changes_nothing(
    api: ApiClient, seat: int, name: str, request_: Request
) -> None:
    game_id, owner, tokens = recorded(api, seed=21, moves=8)
    version = api.game(game_id)["version"]
    answer = request_(api, game_id, tokens[seat], owner, version)
    after_setup = snapshot(api, game_id) if name != "redo" else None
    assert answer.status == 403, (name, answer.body)
    assert answer.body["error_code"] == "forbidden"
    if after_setup is not None:
        assert snapshot(api, game_id) == after_setup
    assert api.get(f"/api/games/{game_id}/access", tokens[1 - seat]).status == 200  # the other's token works


def test_a_seat_token_writes_its_own_moves_and_comments_on_every_route(api: ApiClient) -> None:
    game_id, _, tokens = recorded(api, seed=21, moves=8)
    listing = api.legal(game_id).body
    seat = listing["prompt"]["seat"]
    mine = next(
        move for move in listing["moves"] if move.get("seat") == seat and move.get("kind") != "convert"
    )
    played = api.play(game_id, mine, tokens[seat], listing["version"])
    assert played.status == 201, played.body
    undone = api.post(f"/api/games/{game_id}/undo", {}, token=tokens[seat], if_match=played.etag)
    assert undone.status == 200, undone.body
    redone = api.post(f"/api/games/{game_id}/redo", {}, token=tokens[seat], if_match=undone.etag)
    assert redone.status == 200, redone.body
    written = api.post(
        f"/api/games/{game_id}/annotations", {"version": 2, "text": "mine"}, token=tokens[seat]
    )
    assert written.status == 201
    path = f"/api/games/{game_id}/annotations/{written.body['id']}"
    assert api.patch(path, {"text": "still mine"}, token=tokens[seat]).status == 200
    assert api.delete(path, token=tokens[seat]).status == 204
    fork = api.post(f"/api/games/{game_id}/forks", {}, token=tokens[seat])
    assert fork.status == 201 and fork.body["game"]["game_id"] != game_id  # a branch of its own


def dropping_amendment(
    api: ApiClient, game_id: str, owner: str
) -> tuple[int, dict[str, Any], int, list[int]]:
    """An amendment of one of Ben's moves that takes Aiko's later moves off the line (found by the owner's dry
    runs): (version, move, version of the game, the dropped moves of Aiko)."""
    version = api.game(game_id)["version"]
    entries = line(api, game_id)
    seats = {entry["version"]: entry["seat"] for entry in entries}
    for entry in entries:
        if entry["seat"] != 1:
            continue
        before = api.get(f"/api/games/{game_id}/legal-moves?before={entry['version']}").body
        for move in before["moves"]:
            if move == before["recorded"]:
                continue
            body = {"version": entry["version"], "move": move, "dry_run": True}
            report = api.post(f"/api/games/{game_id}/amend", body, token=owner, if_match=version)
            if report.status != 200:
                continue
            aikos = [dropped for dropped in report.body["report"]["dropped"] if seats[dropped] == 0]
            if aikos:
                return entry["version"], move, version, aikos
    raise AssertionError("no amendment of Ben's moves drops Aiko's: record more moves")


def test_a_seat_tokens_amendment_that_drops_another_seats_moves_is_403_dry_run_or_not(api: ApiClient) -> None:
    game_id, owner, tokens = recorded(api, seed=21, moves=14)
    version, move, now, aikos = dropping_amendment(api, game_id, owner)
    before = snapshot(api, game_id)
    for dry_run in (True, False):
        body = {"version": version, "move": move, "dry_run": dry_run}
        refused = api.post(f"/api/games/{game_id}/amend", body, token=tokens[1], if_match=now)
        assert refused.error() == (403, "amend_reaches_other_seats"), refused.body
        details = refused.body["details"]
        assert details["seats"] == [0] and details["versions"] == aikos and details["dry_run"] is dry_run
        assert "Aiko's (seat 1) moves off the line of play" in refused.body["detail"]
        assert ("this dry run wrote nothing" in refused.body["detail"]) is dry_run
        assert snapshot(api, game_id) == before
    # the owner writes the same correction
    written = api.post(
        f"/api/games/{game_id}/amend", {"version": version, "move": move}, token=owner, if_match=now
    )
    assert written.status == 200 and set(aikos) <= set(written.body["report"]["dropped"])
