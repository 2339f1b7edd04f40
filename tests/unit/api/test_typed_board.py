"""The board a typed client reads: every answer about real games (seeded games of every mode, played to the end)
validates against the OpenAPI document's schemas, which type the state, the prompts' context, the catalog and the
events in full. The schemas are generated from the engine's records (api/resources/board_schemas.py), so a field
the serialiser adds, drops or retypes fails here."""

from __future__ import annotations

import copy
import itertools
import random
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api_helpers import ApiClient
from tests.openapi_schemas import DocumentSchemas, problems

MODES: dict[str, dict[str, Any]] = {
    "base, 2 players": {"players": ["Aiko", "Ben"]},
    "base, 4 players": {"players": 4, "options": {"stacking": "never", "tie_break": "shared"}},
    "Matcha, 3 players": {"players": 3, "expansions": ["matcha"]},
    "solo": {"players": ["Aiko"], "solo": "hard", "options": {"rival_scoring": "cp_only"}},
    "Tokugawa (solo with Matcha)": {"players": ["Aiko"], "solo": "medium", "expansions": ["matcha"]},
}


@pytest.fixture(scope="module")
def schemas() -> DocumentSchemas:
    from api.app import create_app
    from replay.config import StoreConfig

    app = create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True})
    return DocumentSchemas(app.test_client().get("/api/openapi.json").get_json())


def valid(schemas: DocumentSchemas, method: str, path: str, status: int, body: Any) -> None:
    found = problems(schemas.answer(method, path, status), body)
    assert not found, f"{method.upper()} {path} ({status}) does not fit the document:\n" + "\n".join(found)


@pytest.mark.parametrize("mode", list(MODES))
def test_every_answer_about_a_whole_game_of_every_mode_fits_the_typed_document(
    mode: str, api: ApiClient, schemas: DocumentSchemas
) -> None:
    created = api.post("/api/games", {**MODES[mode], "seed": 11})
    valid(schemas, "post", "/api/games", 201, created.body)
    game_id, token = created.body["game"]["game_id"], created.body["owner_token"]
    games = f"/api/games/{game_id}"
    rng = random.Random(5)
    listing = created.body["legal_moves"]
    kinds = set()
    prompt = schemas.component("Prompt")
    for played in itertools.count():
        # every prompt of the game (its context); every tenth answer whole (the board, the legal moves)
        assert not problems(prompt, listing["prompt"]), listing["prompt"]
        kinds.add(listing["prompt"]["kind"])
        if listing["over"]:
            break
        answer = api.play(game_id, rng.choice(listing["moves"]), token, listing["version"])
        assert answer.status == 201, answer.body
        if played % 10 == 0 or answer.body["game"]["over"]:
            valid(schemas, "post", "/api/games/{game_id}/moves", 201, answer.body)
        listing = answer.body["legal_moves"]
    assert kinds >= {"take_die", "place_die", "actions", "over"}
    for path, template in [
        (games, "/api/games/{game_id}"),
        (f"{games}/legal-moves", "/api/games/{game_id}/legal-moves"),
        (f"{games}/legal-moves?before=9", "/api/games/{game_id}/legal-moves"),
        (f"{games}/states/5", "/api/games/{game_id}/states/{version}"),
        (f"{games}/changes?since=0", "/api/games/{game_id}/changes"),
        (f"{games}/catalog", "/api/games/{game_id}/catalog"),
        (f"{games}/layout", "/api/games/{game_id}/layout"),
        (f"{games}/score", "/api/games/{game_id}/score"),
        (f"{games}/timeline", "/api/games/{game_id}/timeline"),
        (f"{games}/export", "/api/games/{game_id}/export"),
        (f"{games}/export?format=bgstats&me=0&location=Club", "/api/games/{game_id}/export"),
        (f"{games}/export?format=bgstats-link", "/api/games/{game_id}/export"),
    ]:
        answer = api.get(path, token)
        assert answer.status == 200, (path, answer.body)
        valid(schemas, "get", template, 200, answer.body)


def test_a_table_game_laid_out_and_amended_fits_the_typed_document(
    api: ApiClient, client: FlaskClient, schemas: DocumentSchemas
) -> None:
    """A table game (chance entered as moves, a layout), an amendment's report with its misfit, an abandoned
    game: the answers the seeded games above do not give."""
    form = api.get("/api/games/layout-form?players=2&expansions=matcha")
    valid(schemas, "get", "/api/games/layout-form", 200, form.body)
    game_id, token, _ = api.create(["Aiko", "Ben"], seed=3)
    rng = random.Random(2)
    for _ in range(25):
        listing = api.legal(game_id).body
        api.play(game_id, rng.choice(listing["moves"]), token, listing["version"])
    version = api.legal(game_id).etag
    before = api.get(f"/api/games/{game_id}/legal-moves?before=12").body
    other = next(move for move in before["moves"] if move != before["recorded"])
    report = api.post(
        f"/api/games/{game_id}/amend",
        {"version": 12, "move": other, "dry_run": True},
        token=token,
        if_match=version,
    )
    assert report.status == 200, report.body
    valid(schemas, "post", "/api/games/{game_id}/amend", 200, report.body)
    assert report.body["report"]["first_misfit"] is not None or report.body["report"]["all_fit"]
    stale = api.post(f"/api/games/{game_id}/undo", {}, token=token, if_match=version - 1)
    assert stale.status == 412
    assert not problems(schemas.component("Error"), stale.body)
    assert isinstance(stale.body["details"]["current_version"], int)
    abandoned = api.post(f"/api/games/{game_id}/abandon", {"reason": "rain"}, token=token, if_match=version)
    assert abandoned.status == 200, abandoned.body
    valid(schemas, "get", "/api/games/{game_id}", 200, api.game(game_id))
    table, _, _ = api.create(2, mode="table")
    valid(schemas, "get", "/api/games/{game_id}/legal-moves", 200, api.legal(table).body)


def test_the_check_refuses_a_board_the_engine_does_not_write(
    api: ApiClient, schemas: DocumentSchemas
) -> None:
    """The test above can fail: a member the records do not have, a frame of no known kind, a value retyped."""
    _, _, game = api.create(2, seed=1)
    board = schemas.component("GameState")
    assert not problems(board, game["state"])
    for change in (
        lambda state: state["board"]["rooms"][0].update(painted=True),
        lambda state: state["stack"].append({"frame": "nap", "seat": 0}),
        lambda state: state["players"][0].update(coins="7"),
        lambda state: state.pop("turn_order"),
        lambda state: state["options"].update(stacking="always"),
    ):
        changed = copy.deepcopy(game["state"])
        change(changed)
        assert problems(board, changed)
