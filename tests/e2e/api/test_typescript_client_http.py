"""The OpenAPI document as a TypeScript integrator uses it, against `heronlog serve` over real HTTP.

openapi-typescript generates the types from the served document, `tsc --strict` compiles clients/typescript's
recorder with them, and node records a whole seeded game through openapi-fetch (a weak If-Match refused on the
way); what it read off the typed board is compared with the server's own answer. The types it reads the board
through hold no free-form object (`unknown` in TypeScript). Spectral (`spectral:oas`) and Redocly (`recommended`)
lint the same document: no error and no warning may remain (clients/typescript/.spectral.yaml says why the one
rule turned off is). The npm packages are those of clients/typescript/package-lock.json, installed by the test
stack (tools/teststack.py), as the browser is.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import required_env
from tests.e2e.conftest import Served

BOARD = ("GameState", "Prompt", "LegalMoves", "Game", "State", "ComponentCatalog", "Changes", "Score")
"""The components a bot reads the board through (and every component they reach)."""


@pytest.fixture(scope="module")
def folder() -> Path:
    return Path(required_env("HERONLOG_TEST_TYPESCRIPT"))


def served_document(server: Served, into: Path) -> Path:
    with urllib.request.urlopen(server.url + "/api/openapi.json", timeout=10) as answer:
        into.write_bytes(answer.read())
    return into


def run(folder: Path, *command: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, REDOCLY_TELEMETRY="off", REDOCLY_SUPPRESS_UPDATE_NOTICE="true", NO_COLOR="1")
    return subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=timeout, check=False, env=env
    )


def free_form(schemas: Mapping[str, Any], roots: tuple[str, ...]) -> list[str]:
    """Where the schemas reached from ``roots`` leave an object untyped: no members, no typed
    ``additionalProperties`` (a generated client reads it as ``{[key: string]: unknown}``), or a schema of no type."""
    found: list[str] = []
    seen: set[str] = set()

    def walk(node: Any, where: str) -> None:
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                walk(schemas[name], name)
            return
        arms = [arm for key in ("allOf", "oneOf", "anyOf") for arm in node.get(key, [])]
        for index, arm in enumerate(arms):
            walk(arm, f"{where}/{index}")
        extra = node.get("additionalProperties")
        typed = "properties" in node or isinstance(extra, dict) or "enum" in node or arms
        if not typed and node.get("type") in (None, "object"):
            found.append(where)
        if extra is True:
            found.append(f"{where}/additionalProperties")
        for name, member in node.get("properties", {}).items():
            walk(member, f"{where}.{name}")
        if isinstance(extra, dict):
            walk(extra, f"{where}[*]")
        if "items" in node:
            walk(node["items"], f"{where}[]")

    for root in roots:
        walk({"$ref": f"#/components/schemas/{root}"}, root)
    return found


@pytest.fixture
def linters(
    folder: Path, sqlite_server: Served, tmp_path: Path
) -> Iterator[dict[str, subprocess.Popen[str]]]:
    """Spectral and Redocly on the served document, started at once and run beside the client's build."""
    document = served_document(sqlite_server, tmp_path / "linted.json")
    env = dict(os.environ, REDOCLY_TELEMETRY="off", REDOCLY_SUPPRESS_UPDATE_NOTICE="true", NO_COLOR="1")
    commands = {
        "spectral": [
            "node_modules/.bin/spectral", "lint", str(document), "--ruleset", ".spectral.yaml", "--format", "json",
            "--fail-severity", "warn", "--quiet",
        ],
        "redocly": ["node_modules/.bin/redocly", "lint", str(document), "--config", "redocly.yaml", "--format", "json"],
    }  # fmt: skip
    started = {
        name: subprocess.Popen(
            command, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )
        for name, command in commands.items()
    }
    try:
        yield started
    finally:
        for process in started.values():
            if process.poll() is None:
                process.kill()
                process.communicate()


def test_a_typescript_client_records_a_whole_game_and_the_linters_find_nothing(
    folder: Path, sqlite_server: Served, linters: dict[str, subprocess.Popen[str]], tmp_path: Path
) -> None:
    started = time.monotonic()
    document = served_document(sqlite_server, tmp_path / "openapi.json")
    schemas = json.loads(document.read_text())["components"]["schemas"]
    assert not free_form(schemas, BOARD), free_form(schemas, BOARD)

    (folder / "generated").mkdir(exist_ok=True)
    typed = folder / "generated" / "heronlog.d.ts"
    # --default-non-nullable false: a request member with a default may be left out, as the API allows
    generate = ["node_modules/.bin/openapi-typescript", str(document), "--default-non-nullable", "false"]
    generated = run(folder, *generate, "-o", str(typed))
    assert generated.returncode == 0, generated.stdout + generated.stderr
    compiled = run(folder, "node_modules/.bin/tsc", "-p", ".")  # tsconfig.json: strict
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    recorded = run(folder, "node", "build/src/record.js", sqlite_server.url, "11")
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    summary = json.loads(recorded.stdout)

    # what the client read off the typed board is what the server holds
    status, game = sqlite_server.get_json(f"/api/games/{summary['game_id']}")
    assert status == 200 and game["status"] == "finished" and summary["status"] == "finished"
    assert summary["version"] == game["version"] and summary["played"] == game["version"] - 1
    state = game["state"]
    clans = [
        f"{clan['name']}: {clan['coins']} coins, {clan['cp']} cp, {len(clan['lantern'])} lantern, "
        f"{sum(die is not None for die in clan['domain'])} dice"
        for clan in state["players"]
    ]
    assert summary["board"] == {"round": state["round"], "phase": "over", "clans": clans}
    _, score = sqlite_server.get_json(f"/api/games/{summary['game_id']}/score")
    assert summary["ranks"] == [[sheet["player"], sheet["total"], sheet["rank"]] for sheet in score["sheets"]]
    assert {"take_die", "place_die"} <= set(summary["kinds"])
    client_seconds = time.monotonic() - started

    spectral_out, spectral_err = linters["spectral"].communicate(timeout=300)
    findings = json.loads(spectral_out or "[]")
    assert linters["spectral"].returncode == 0 and findings == [], spectral_out + spectral_err
    redocly_out, redocly_err = linters["redocly"].communicate(timeout=300)
    totals = json.loads(redocly_out)["totals"]
    assert linters["redocly"].returncode == 0, redocly_out + redocly_err
    assert (totals["errors"], totals["warnings"]) == (0, 0), redocly_out
    print(
        f"TypeScript client: {client_seconds:.1f} s (types, tsc --strict, a whole game); with the linters: "
        f"{time.monotonic() - started:.1f} s; Spectral 0 findings, Redocly {totals}"
    )
