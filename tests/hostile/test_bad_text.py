"""Text that breaks things. A lone surrogate (``"\\ud800"``) in any name, title, colour,
annotation, reason or imported field answered 500, and the log line then carried the whole event (a private
game's names and annotations); an integer of over 4,300 digits anywhere in a body answered 500; control
characters went into names and the text export raw; names that look the same were two players.

Now every one is ``400`` (``invalid_request`` for what is not JSON text, the field's own code for a text a
game may not hold), nothing is stored, the logs carry codes and ids only, and the text export escapes what it
must never write raw (:mod:`replay.text`)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

from replay import annotations as notes
from replay.events import GameAbandoned
from tests.api_helpers import ApiClient
from tests.hostile.conftest import AppMaker, client_from, played_export, raw

LONE = "\ud800"
BIG = "1" * 4301  # one digit more than Python converts by default
ROOT = Path(__file__).resolve().parents[2]


def targets(api: ApiClient) -> tuple[str, str, str, dict[str, Any]]:
    """A game with a comment, as every text field's request needs: (game id, owner token, comment id, export)."""
    game_id, token, document = played_export(api, moves=2)
    note_id = api.get(f"/api/games/{game_id}/annotations").body["annotations"][0]["id"]
    return game_id, token, note_id, document


def every_text_field(
    game_id: str, note_id: str, document: dict[str, Any], bad: str
) -> list[tuple[str, str, Any]]:
    """(method, path, body) of a request for each text a client sends, ``bad`` put into it."""
    g = f"/api/games/{game_id}"
    forged = json.loads(json.dumps(document))
    forged["setup"]["players"][0]["name"] = f"Ann{bad}"
    return [
        ("POST", "/api/games", {"players": [f"Ann{bad}", "Ben"]}),
        ("POST", "/api/games", {"players": ["Ann", "Ben"], "title": f"Friday{bad}"}),
        ("POST", "/api/games", {"players": [{"name": "Ann", "colour": f"red{bad}"}, "Ben"]}),
        ("POST", f"{g}/annotations", {"version": 1, "text": f"look{bad}"}),
        ("POST", f"{g}/annotations", {"version": 1, "text": "look", "target": {"kind": "bridge", "id": bad}}),
        ("PATCH", f"{g}/annotations/{note_id}", {"text": f"edited{bad}"}),
        ("POST", f"{g}/abandon", {"reason": f"closed{bad}", "expected_version": 3}),
        ("POST", f"{g}/forks", {"title": f"what if{bad}"}),
        ("POST", "/api/games/import?new_id=1", forged),
        ("POST", "/api/score-sheets", {"players": [{"name": f"Ann{bad}", "cp": 3}]}),
        ("POST", f"{g}/moves", {"kind": f"take{bad}", "seat": 0, "expected_version": 3}),
        ("POST", "/api/games", {"players": 2, f"key{bad}": 1}),
    ]


def nothing_changed(api: ApiClient, game_id: str, token: str, games: int) -> None:
    assert api.get("/api/games").body["total"] == games
    assert api.game(game_id)["version"] == 3 and api.game(game_id)["status"] == "in progress"
    assert [note["text"] for note in api.get(f"/api/games/{game_id}/annotations").body["annotations"]] == [
        "well played"
    ]


def test_a_lone_surrogate_in_any_text_is_400_and_nothing_is_stored(
    make_app: AppMaker, log_lines: Any
) -> None:
    api = client_from(make_app())
    game_id, token, note_id, document = targets(api)
    games = api.get("/api/games").body["total"]
    for method, path, body in every_text_field(game_id, note_id, document, LONE):
        answer = api.send(method, path, body, api.headers(token))
        assert answer.error() == (400, "invalid_request"), (path, body, answer.body)
        assert "surrogate" in answer.body["detail"], answer.body
    nothing_changed(api, game_id, token, games)
    assert '"status": 500' not in log_lines.getvalue() and "Traceback" not in log_lines.getvalue()


def test_an_integer_of_more_than_4300_digits_anywhere_is_400(make_app: AppMaker) -> None:
    api = client_from(make_app())
    game_id, token, note_id, _ = targets(api)
    games = api.get("/api/games").body["total"]
    g = f"/api/games/{game_id}"
    for method, path, body in [
        ("POST", "/api/games", f'{{"players": 2, "seed": {BIG}}}'),
        ("POST", "/api/games", f'{{"players": 2, "options": {{"x": {BIG}}}}}'),
        ("POST", f"{g}/moves", f'{{"kind": "take_die", "seat": {BIG}, "expected_version": 3}}'),
        ("POST", f"{g}/annotations", f'{{"version": {BIG}, "text": "x"}}'),
        ("PATCH", f"{g}/annotations/{note_id}", f'{{"text": "x", "glyph": {BIG}}}'),
        ("POST", "/api/games/import", f'{{"format": "heronlog.game", "format_version": {BIG}}}'),
        ("POST", "/api/score-sheets", f'{{"players": [{{"name": "A", "cp": {BIG}}}]}}'),
        ("POST", "/api/games", '{"players": 2, "seed": NaN}'),
        ("POST", "/api/games", f"[{BIG}]"),
    ]:
        answer = raw(api, method, path, body, Authorization=f"Bearer {token}")
        assert answer.error() == (400, "invalid_request"), (path, body[:60], answer.body)
    nothing_changed(api, game_id, token, games)


def test_the_logs_of_a_private_game_carry_codes_and_ids_never_its_names_or_comments(
    sqlite_app: Flask, log_lines: Any
) -> None:
    api = client_from(sqlite_app)
    made = api.post("/api/games", {"players": ["Zanzibar", "Quixote"], "private": True, "seed": 2})
    game_id, token = made.body["game"]["game_id"], made.body["owner_token"]
    for body in (
        {"version": 1, "text": f"Zanzibar hides the pearl{LONE}"},
        {"version": 1, "text": "Zanzibar's plan", "glyph": {"x": "Quixote"}},
        {"version": 10**40, "text": "Zanzibar"},
    ):
        answer = api.post(f"/api/games/{game_id}/annotations", body, token=token)
        assert answer.status == 400, answer.body
    written = log_lines.getvalue()
    assert "Zanzibar" not in written and "Quixote" not in written and "pearl" not in written
    assert "invalid_request" in written or not written  # codes, when the request log is on


@pytest.mark.parametrize(
    ("char", "name"),
    [
        ("\x1b", "ESC"),
        ("\x07", "BEL"),
        ("\r", "CR"),
        ("\n", "LF"),
        ("\x00", "NUL"),
        ("\x7f", "DEL"),
        ("\x85", "NEL (C1)"),
        ("\u202e", "RIGHT-TO-LEFT OVERRIDE"),
        ("\u2066", "LEFT-TO-RIGHT ISOLATE"),
        ("\u2028", "LINE SEPARATOR"),
    ],
)
def test_control_characters_are_refused_in_names_titles_colours_and_where_a_text_is_one_line(
    sqlite_app: Flask, char: str, name: str
) -> None:
    api = client_from(sqlite_app)
    game_id, token, _, _ = targets(api)
    g = f"/api/games/{game_id}"
    one_line = [
        ("/api/games", {"players": [f"Ann{char}x", "Ben"]}, "invalid_setup"),
        ("/api/games", {"players": ["Ann", "Ben"], "title": f"Fri{char}day"}, "invalid_setup"),
        ("/api/games", {"players": [{"name": "Ann", "colour": f"r{char}ed"}, "Ben"]}, "invalid_setup"),
        (f"{g}/forks", {"title": f"what{char}if"}, "invalid_request"),
        ("/api/score-sheets", {"players": [{"name": f"Ann{char}x", "cp": 3}]}, "invalid_request"),
    ]
    for path, body, code in one_line:
        answer = api.post(path, body, token=token)
        assert answer.error() == (400, code), (name, path, answer.body)
        assert f"U+{ord(char):04X}" in answer.body["detail"], answer.body
    # several lines: a line break is kept (CR LF and CR, and U+2028, as LF); any other control is refused
    note = api.post(f"{g}/annotations", {"version": 1, "text": f"first{char}second"}, token=token)
    reason = api.post(f"{g}/abandon", {"reason": f"left{char}early"}, token=token, if_match=3)
    if char in "\r\n\u2028":
        assert note.status == 201 and note.body["text"] == "first\nsecond"
        assert reason.status == 200 and reason.body["game"]["abandoned"]["note"] == "left\nearly"
    else:
        assert note.error() == (400, "invalid_annotation"), note.body
        assert reason.error() == (400, "invalid_request"), reason.body


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "Ann\u200b"),  # a zero-width space
        ("Ann", "\u2060Ann"),  # a word joiner
        ("Ann", "\u0410nn"),  # a Cyrillic capital A
        ("Olga", "\u041elga"),  # a Cyrillic capital O
        ("Chloé", "Chloe\u0301"),  # é composed, and e + a combining acute accent
        ("Ann", "\uff21nn"),  # a full-width A
        ("Ann Marie", "ann  marie"),  # case and two blanks
        ("Ben", "\u0392en"),  # a Greek capital beta
    ],
)
def test_names_that_look_the_same_are_one_name(sqlite_app: Flask, first: str, second: str) -> None:
    api = client_from(sqlite_app)
    games = api.get("/api/games").body["total"]
    answer = api.post("/api/games", {"players": [first, second]})
    assert answer.error() == (400, "invalid_setup"), answer.body
    assert "two players are named" in answer.body["detail"]
    assert api.get("/api/games").body["total"] == games


def test_names_keep_their_letters_and_lose_the_invisible_characters_around_them(sqlite_app: Flask) -> None:
    api = client_from(sqlite_app)
    made = api.post("/api/games", {"players": ["\u200bAnn\ufeff", "Chloe\u0301", "Ольга"]})
    assert made.status == 201, made.body
    assert [player["name"] for player in made.body["game"]["players"]] == ["Ann", "Chloé", "Ольга"]


def test_the_text_export_never_writes_a_control_character_raw(sqlite_app: Flask) -> None:
    """Names and comments stored before the rules above (written here straight to the store, as an old
    installation holds them) are escaped in the text export: a reader's terminal is never driven by them."""
    api = client_from(sqlite_app)
    game_id, _token, _, _ = targets(api)
    log = sqlite_app.extensions["heronlog"].get().log
    gid = UUID(game_id)
    stream = log.annotation_stream(gid)
    added = notes.add(stream, version=2, game_version=3, author="owner", text="placeholder")
    evil = "clear\x1b[2J\x07 then\u202eesrever\nsecond line\x1b]0;title\x07"
    log.stores.of(gid).save(dataclasses.replace(added, text=evil))
    game = log.get_game(gid)
    abandoned = GameAbandoned(
        originator_id=gid,
        originator_version=game.version + 1,
        timestamp=game.modified_on,
        actor="owner",
        reason="bye\x1b[5m",
        idempotency_key=None,
    )
    log.stores.of(gid).save(abandoned)

    text = api.get(f"/api/games/{game_id}/export?format=text").body
    assert all(char == "\n" or (char.isprintable() and char != "\u202e") for char in text)
    assert "clear\\x1b[2J\\x07 then\\u202eesrever" in text
    assert "       second line\\x1b]0;title\\x07}" in text  # the comment's second line, indented under it
    assert "bye\\x1b[5m" in text


def cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "api.server.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        timeout=120,
        check=False,
    )


def test_check_and_import_refuse_what_the_api_refuses_in_one_line_never_a_traceback(
    sqlite_app: Flask, tmp_path: Path
) -> None:
    env = {"HERONLOG_STORE": "sqlite", "HERONLOG_DATA": str(tmp_path / "data"), "REDIS_URL": ""}
    nested = tmp_path / "nested.json"
    nested.write_text("[" * 100_000 + "]" * 100_000)
    _, _, document = played_export(client_from(sqlite_app))
    lone = tmp_path / "lone.json"
    text = json.dumps(document).replace('"Ann"', '"Ann\\ud800"', 1)
    assert "\\ud800" in text
    lone.write_text(text)
    for path in (nested, lone):
        for command in ("check", "import"):
            done = cli(command, str(path), env=env)
            assert done.returncode == 2, (command, path.name, done.stdout, done.stderr)
            assert "Traceback" not in done.stderr and done.stderr.startswith("heronlog: cannot read"), (
                done.stderr
            )
            assert done.stdout == ""
    big = tmp_path / "big.json"
    big.write_text(json.dumps(document).replace('"seed": 5', f'"seed": {BIG}', 1))
    assert cli("check", str(big), env=env).returncode == 2
