"""The pages blueprint over Flask's test client: every page renders, escapes what users typed, sends a strict
Content-Security-Policy, and unknown pages are pages while unknown API paths keep the JSON error envelope."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from replay.config import StoreConfig

STATIC = Path(__file__).resolve().parents[3] / "api" / "pages" / "static"
TEMPLATES = Path(__file__).resolve().parents[3] / "api" / "pages" / "templates"


@pytest.fixture
def client() -> FlaskClient:
    """The application on a fresh in-memory store."""
    return create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True}).test_client()


def new_game(client: FlaskClient, **setup: object) -> str:
    body = {"players": ["Aiko", "Ben"], "mode": "seeded", "seed": 1, **setup}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.json
    return str(answer.json["game"]["game_id"])


def test_home_lists_public_games_with_links_to_record_replay_and_export(client: FlaskClient) -> None:
    game_id = new_game(client, title="Club night")
    hidden = new_game(client, title="Secret", private=True)
    page = client.get("/").get_data(as_text=True)
    assert "Club night" in page and "Aiko, Ben" in page
    assert f'href="/games/{game_id}"' in page
    assert f'href="/games/{game_id}/replay"' in page
    assert f"/api/games/{game_id}/export?format=text" in page
    assert hidden not in page and "Secret" not in page


def test_home_search_filters_by_player_or_title(client: FlaskClient) -> None:
    new_game(client, players=["Chie", "Dai"])
    new_game(client, players=["Emi", "Fumi"])
    page = client.get("/?search=emi").get_data(as_text=True)
    assert "Emi, Fumi" in page and "Chie" not in page
    assert "No public game matches" in client.get("/?search=zzz").get_data(as_text=True)


def test_home_pages_older_and_newer_by_cursor(client: FlaskClient) -> None:
    for number in range(27):
        new_game(client, title=f"Evening {number}", seed=number % 5)
    first = client.get("/").get_data(as_text=True)
    assert "Evening 26" in first and "Evening 1<" not in first and 'rel="prev"' not in first
    older = re.search(r'href="(/\?after=[^"]+)" rel="next"', first)
    assert older is not None
    second = client.get(older.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert "Evening 1<" in second and "Evening 0<" in second and "Evening 2<" not in second
    newer = re.search(r'href="(/\?before=[^"]+)" rel="prev"', second)
    assert newer is not None
    assert client.get(newer.group(1).replace("&amp;", "&")).get_data(as_text=True).count(
        "Evening"
    ) == first.count("Evening")
    assert client.get("/?after=not-a-cursor").status_code == 200, "a forged cursor shows the first page"


def test_a_search_cut_short_asks_to_refine_it(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from replay import index

    for number in range(4):
        new_game(client, players=[f"A{number}", "Bo"], title=f"Game {number}")
    monkeypatch.setattr(index, "SEARCH_CAP", 2)
    monkeypatch.setattr(index, "EXPANSION_MAX", 2)
    assert "Refine your search" in client.get("/?search=a").get_data(as_text=True)
    assert "1 game found" in client.get("/?search=game%201").get_data(as_text=True)


def test_names_are_escaped_never_markup(client: FlaskClient) -> None:
    new_game(client, players=["<script>alert(1)</script>", "Ben"], title="<b>bold</b>")
    page = client.get("/").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<b>bold</b>" not in page


@pytest.mark.parametrize("path", ["/", "/games/new", "/score-sheet"])
def test_pages_send_a_strict_content_security_policy(client: FlaskClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert answer.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize(
    "path", ["/no-such-page", "/games/not-a-game", "/games/00000000-0000-4000-8000-000000000000"]
)
def test_the_not_found_page_sends_the_pages_policy_too(client: FlaskClient, path: str) -> None:
    # A path no route matched was answered without the policy and Referrer-Policy (found by the security review).
    answer = client.get(path)
    assert answer.status_code == 404 and "text/html" in answer.content_type
    policy = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"


def test_game_pages_render_for_a_game_and_404_for_an_unknown_one(client: FlaskClient) -> None:
    game_id = new_game(client)
    for path in (f"/games/{game_id}", f"/games/{game_id}/replay"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert f'data-game-id="{game_id}"' in answer.get_data(as_text=True)
    missing = client.get("/games/00000000-0000-4000-8000-000000000000")
    assert missing.status_code == 404 and "text/html" in missing.content_type
    assert "Not found" in missing.get_data(as_text=True)


def test_unknown_api_paths_keep_the_problem_document(client: FlaskClient) -> None:
    answer = client.get("/api/nothing-here")
    assert answer.status_code == 404
    assert answer.content_type == "application/problem+json"
    assert set(answer.json) == {"type", "title", "status", "detail", "error_code", "rule", "details"}


def test_a_private_game_page_does_not_reveal_the_game(client: FlaskClient) -> None:
    game_id = new_game(client, title="Hidden table", private=True)
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Hidden table" not in page and "Aiko" not in page


def test_static_modules_are_served(client: FlaskClient) -> None:
    for name in ("board.js", "record.js", "replay.js", "qr.js", "style.css"):
        answer = client.get(f"/static/{name}")
        answer.close()
        assert answer.status_code == 200


def test_every_module_opens_with_a_header_comment_and_never_writes_markup() -> None:
    for module in sorted(STATIC.glob("*.js")):
        text = module.read_text()
        assert text.startswith("/* heronlog pages: "), module.name
        # Text goes in as text (dom.js): no HTML parsing of data anywhere.
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", text), module.name


def test_templates_hold_no_inline_script_or_style() -> None:
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template.name
        assert " style=" not in text and "<style" not in text, template.name
        assert " on" + "click=" not in text, template.name


# One source of words: the pages take board-part names, move words, help and costs from the API.
RULE_COST = re.compile(r"\b\d+ (coins?|seals?|whisks?|pearls?|iron|food)\b.*\)", re.IGNORECASE)
LABEL_TABLE = re.compile(
    r"\b(steward_\d|diplomat_\d|outside_\d|tea_room_left|viewing_platform|path_\d|yard_\d|coral_plant)[\"']?\s*:\s*[\"'`]"
)


def test_the_pages_hold_no_label_table_and_no_rule_cost() -> None:
    assert not (STATIC / "labels.js").exists()
    for module in sorted(STATIC.glob("*.js")):
        text = module.read_text()
        assert not RULE_COST.search(text), (module.name, RULE_COST.search(text))
        assert not LABEL_TABLE.search(text), (module.name, LABEL_TABLE.search(text))
        # the words of icons and moves are the API's: no table of icon words, no move labeller
        assert not re.search(r"\b(ACTIONS|GAINS|VARIANTS|SPACE_NAMES|RIVAL_ICONS)\s*=", text), module.name
        assert "moveLabel" not in text and "cardText" not in text, module.name


def test_the_rule_cost_check_catches_a_cost_written_in_javascript() -> None:
    assert RULE_COST.search('return "Audience: a courtier to the Gate (2 coins)";')
    assert LABEL_TABLE.search('const NAMES = { steward_1: "steward room 1" };')
