"""One Idempotency-Key, one kind of write (docs/api/idempotency.md): a key first used for one kind of write and
then sent with another is `422 idempotency_key_reused` on every route, and the second write changes nothing.
Every ordered pair of the API's kinds of write is walked."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from api.app import create_app
from api.resources import write_guard
from replay.config import StoreConfig
from tests.api_helpers import Answer, ApiClient, flask_transport


@pytest.fixture
def api() -> ApiClient:
    """The API on a fresh in-memory store, its rate limits far away: this test makes a few thousand writes."""
    limits = {"RATE_LIMIT_PER_ADDRESS": 10**6, "RATE_LIMIT_PER_TOKEN": 10**6, "RATE_LIMIT_PER_SOURCE": 10**6}
    app = create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True, **limits})
    return ApiClient(flask_transport(app.test_client()))


@dataclass
class Table:
    """A game ready for every kind of write: moves recorded, one undone (to redo), a comment written, an
    alternative known for its first move (to amend), and its export (to import)."""

    game_id: str
    owner: str
    annotation: str
    amended: dict[str, Any]
    exported: dict[str, Any]
    move: dict[str, Any]

    def version(self, api: ApiClient) -> int:
        return int(api.game(self.game_id)["version"])


def table(api: ApiClient) -> Table:
    game_id, owner, _ = api.create(2, seed=5)
    for _ in range(3):
        listing = api.legal(game_id)
        assert api.play(game_id, listing.body["moves"][0], owner, listing.etag).status == 201
    undone = api.post(f"/api/games/{game_id}/undo", {}, token=owner, if_match=4)
    assert undone.status == 200
    comment = api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "hm"}, token=owner)
    before = api.get(f"/api/games/{game_id}/legal-moves?before=2").body
    other = next(move for move in before["moves"] if move != before["recorded"])
    exported = api.get(f"/api/games/{game_id}/export").body
    move = api.legal(game_id).body["moves"][0]
    return Table(game_id, owner, comment.body["id"], {"version": 2, "move": other}, exported, move)


def send(
    api: ApiClient, method: str, path: str, body: Any, *, token: str | None, key: str, version: int
) -> Answer:
    headers = {**api.headers(token, version, key)}
    return api.send(method, path, body if body is not None else {}, headers)


Write = Callable[[ApiClient, Table, str], Answer]


def _game(t: Table) -> str:
    return f"/api/games/{t.game_id}"


WRITES: dict[str, Write] = {
    "create": lambda api, t, key: send(
        api, "POST", "/api/games", {"players": 2}, token=None, key=key, version=0
    ),
    "import": lambda api, t, key: send(
        api, "POST", "/api/games/import?new_id=true", t.exported, token=None, key=key, version=0
    ),
    "fork": lambda api, t, key: send(api, "POST", f"{_game(t)}/forks", {}, token=t.owner, key=key, version=0),
    "move": lambda api, t, key: send(
        api, "POST", f"{_game(t)}/moves", t.move, token=t.owner, key=key, version=t.version(api)
    ),
    "undo": lambda api, t, key: send(
        api, "POST", f"{_game(t)}/undo", {}, token=t.owner, key=key, version=t.version(api)
    ),
    "redo": lambda api, t, key: send(
        api, "POST", f"{_game(t)}/redo", {}, token=t.owner, key=key, version=t.version(api)
    ),
    "amend": lambda api, t, key: send(
        api, "POST", f"{_game(t)}/amend", t.amended, token=t.owner, key=key, version=t.version(api)
    ),
    "abandon": lambda api, t, key: send(
        api, "POST", f"{_game(t)}/abandon", {}, token=t.owner, key=key, version=t.version(api)
    ),
    "seat token": lambda api, t, key: send(
        api, "POST", f"{_game(t)}/seats/0/token", None, token=t.owner, key=key, version=0
    ),
    "withdraw token": lambda api, t, key: send(
        api, "DELETE", f"{_game(t)}/seats/1/token", None, token=t.owner, key=key, version=0
    ),
    "annotate": lambda api, t, key: send(
        api,
        "POST",
        f"{_game(t)}/annotations",
        {"version": 2, "text": "again"},
        token=t.owner,
        key=key,
        version=0,
    ),
    "edit annotation": lambda api, t, key: send(
        api,
        "PATCH",
        f"{_game(t)}/annotations/{t.annotation}",
        {"text": "edited"},
        token=t.owner,
        key=key,
        version=0,
    ),
    "delete annotation": lambda api, t, key: send(
        api, "DELETE", f"{_game(t)}/annotations/{t.annotation}", None, token=t.owner, key=key, version=0
    ),
    "score sheet": lambda api, t, key: send(
        api,
        "POST",
        "/api/score-sheets",
        {"players": [{"name": "A"}, {"name": "B"}]},
        token=None,
        key=key,
        version=0,
    ),
}


def state(api: ApiClient, t: Table) -> tuple[Any, ...]:
    """Everything a write could change: the game, its comments, its grants, the list of games."""
    return (
        api.game(t.game_id),
        api.get(f"{_game(t)}/annotations").body,
        api.get(f"{_game(t)}/access", t.owner).body,
        api.get("/api/games?limit=100").body["total"],
    )


def test_a_key_first_used_for_one_kind_of_write_is_refused_with_every_other(api: ApiClient) -> None:
    refused: dict[tuple[str, str], tuple[int, str]] = {}
    for first, write in WRITES.items():
        t = table(api)
        key = f"first-used-for-{first}"
        done = write(api, t, key)
        assert done.status in (200, 201, 204), (first, done.body)
        before = state(api, t)
        for second, other in WRITES.items():
            if second == first:
                continue
            again = other(api, t, key)
            refused[first, second] = again.error()
            if again.error() == (422, "idempotency_key_reused"):
                assert again.body["details"]["sent_with"] != again.body["details"]["first_used_for"]
            assert state(api, t) == before, (first, second)  # a refused write changes nothing
    wrong = {pair: answer for pair, answer in refused.items() if answer != (422, "idempotency_key_reused")}
    assert wrong == {}
    assert len(refused) == len(WRITES) * (len(WRITES) - 1)


@pytest.mark.parametrize("kind", ["move", "annotate", "fork", "create"])
def test_the_same_kind_of_write_with_the_same_key_is_a_retry(api: ApiClient, kind: str) -> None:
    t = table(api)
    first = WRITES[kind](api, t, "again")
    assert first.status in (200, 201)
    if kind == "move":  # a retry names the version the first attempt named
        retry = send(
            api,
            "POST",
            f"{_game(t)}/moves",
            api.legal(t.game_id).body["moves"][0],
            token=t.owner,
            key="again",
            version=5,
        )
        assert retry.error() == (422, "idempotency_key_reused")  # another move: not a retry of the first
        return
    retry = WRITES[kind](api, t, "again")
    assert retry.status == first.status and retry.headers.get("idempotent-replayed") == "true"


def test_every_write_to_a_game_is_counted_by_its_view_and_every_kind_has_words() -> None:
    """A write route to one game is counted by the decorator on its view (which hands the view the game read
    with the count); one without it would be counted by nobody. Every write route names its kind in words."""
    app = create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True})
    writes = [
        (rule, method)
        for rule in app.url_map.iter_rules()
        for method in sorted((rule.methods or set()) & write_guard.WRITE_METHODS)
        if rule.rule.startswith("/api/")
    ]
    assert writes
    for rule, method in writes:
        view = getattr(app.view_functions[rule.endpoint].view_class, method.lower())
        assert getattr(view, "counted_by_guard", False) == ("game_id" in rule.arguments), (rule.rule, method)
        assert f"{rule.endpoint} {method}" in write_guard.WRITE_KINDS, (rule.rule, method)
