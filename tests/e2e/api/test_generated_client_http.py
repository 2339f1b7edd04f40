"""The OpenAPI document as an integrator uses it: checked by openapi-spec-validator, then turned into a Python
client by openapi-python-client, and that generated client records a whole game over real HTTP against
`heronlog serve` (create, every move to the end, undo, amend, export as text and as JSON).

Nothing here knows heronlog's JSON: the generated client's models and functions are all it speaks through, so
a document that does not say what the server answers (an undocumented status, a field typed wrong, the text
record declared as JSON) fails here as it would fail an integrator.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from openapi_spec_validator import validate

from tests.e2e.conftest import Served

BIN = Path(sys.executable).parent
PACKAGE = "heronlog_generated_client"


@pytest.fixture
def client_package(sqlite_server: Served, tmp_path: Path) -> Iterator[ModuleType]:
    """The served document, validated, and the client openapi-python-client generates from it, imported."""
    with urllib.request.urlopen(sqlite_server.url + "/api/openapi.json", timeout=10) as answer:
        document = json.loads(answer.read())
    validate(document)  # openapi-spec-validator: raises on any violation of the OpenAPI 3.0 schema
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(document))
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"post_hooks": []}))  # the generated code is imported, not formatted
    generated = subprocess.run(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path",
            str(path),
            "--output-path",
            str(tmp_path / PACKAGE),
            "--meta",
            "none",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    # every operation and answer made it into the client: the generator warns about anything it skipped
    assert "Warning" not in generated.stdout + generated.stderr, generated.stdout + generated.stderr
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def operation(package: ModuleType, tag: str, name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.api.{tag}.{name}")


def model(package: ModuleType, name: str) -> Any:
    return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


def test_a_client_generated_from_the_document_records_a_whole_game(
    client_package: ModuleType, sqlite_server: Served
) -> None:
    package = client_package
    with contextlib.ExitStack() as clients:
        record_a_game(package, sqlite_server.url, clients)


def record_a_game(package: ModuleType, url: str, clients: contextlib.ExitStack) -> None:
    anyone = clients.enter_context(package.Client(base_url=url, raise_on_unexpected_status=True))
    new_game = model(package, "NewGame")(players=["Aiko", "Ben"], seed=7, title="Generated client")
    created = operation(package, "games", "create_game").sync_detailed(client=anyone, body=new_game)
    assert created.status_code == 201, created.content
    game_id = created.parsed.game.game_id
    owner = clients.enter_context(
        package.AuthenticatedClient(
            base_url=url, token=created.parsed.owner_token, raise_on_unexpected_status=True
        )
    )
    play = operation(package, "games", "play_moves")
    listing = created.parsed.legal_moves
    version = created.parsed.game.version
    rng = random.Random(7)
    played = 0
    while not listing.over:
        move = rng.choice(listing.moves)
        answer = play.sync_detailed(
            game_id, client=owner, body=move, if_match=f'"{version}"', idempotency_key=f"move-{played}"
        )
        assert answer.status_code == 201, answer.content
        listing, version = answer.parsed.legal_moves, answer.parsed.game.version
        played += 1
    assert played > 50 and answer.parsed.game.over

    # a stale write is 412, parsed as the problem document the client knows
    stale = play.sync_detailed(game_id, client=owner, body=move, if_match=f'"{version - 1}"')
    assert stale.status_code == 412 and stale.parsed.error_code == "stale_version"

    # undo the last move, then amend the move before it to another legal answer
    undone = operation(package, "games", "undo_moves").sync_detailed(
        game_id, client=owner, body=model(package, "Undo")(), if_match=f'"{version}"'
    )
    assert undone.status_code == 200, undone.content
    version = undone.parsed.game.version
    timeline = operation(package, "games", "get_timeline").sync(game_id, client=owner)
    last = timeline.entries[-1].version
    before = operation(package, "games", "get_legal_moves").sync(game_id, client=owner, before=last)
    recorded = before.recorded.to_dict()
    others = [m for m in before.moves if m.to_dict() != recorded]
    assert others, "the last move of the line had no alternative"
    amended = operation(package, "games", "amend_move").sync_detailed(
        game_id,
        client=owner,
        body=model(package, "Amend")(version=last, move=others[0]),
        if_match=f'"{version}"',
    )
    assert amended.status_code == 200, amended.content
    listing, version = amended.parsed.legal_moves, amended.parsed.game.version
    while not listing.over:  # the corrected line is played to its end
        answer = play.sync_detailed(
            game_id, client=owner, body=rng.choice(listing.moves), if_match=f'"{version}"'
        )
        assert answer.status_code == 201, answer.content
        listing, version = answer.parsed.legal_moves, answer.parsed.game.version

    # exports: the text record as text, the log as JSON (and a 304 for a copy that is still current)
    text = operation(package, "games", "export_game_text").sync_detailed(game_id, client=anyone)
    assert text.status_code == 200 and isinstance(text.parsed, str) and "## Score sheet" in text.parsed
    log = operation(package, "games", "export_game").sync_detailed(game_id, client=anyone)
    assert log.status_code == 200 and log.parsed.format_ == "heronlog.game"
    same = operation(package, "games", "get_game").sync_detailed(
        game_id, client=anyone, if_none_match=f'"{version}"'
    )
    assert same.status_code == 304
    link = operation(package, "games", "export_game").sync_detailed(
        game_id, client=anyone, format_=model(package, "ExportGameFormat")("bgstats-link")
    )
    assert link.status_code == 200 and link.parsed.url.startswith(
        "https://app.bgstatsapp.com/createPlay.html"
    )
