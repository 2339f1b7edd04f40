"""The players' pages in Debian's Chromium, against a real server: after two finished public games with the same
three names, each player's page shows their record and head to head; the owner links a seat to another player on
the game's players page, and both players' pages show it; the game list filters by player. Phones too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replay.players.names import id_of
from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, no_horizontal_scroll


def finished(api: Api, names: list[str], seed: int) -> tuple[str, str]:
    created = api.call("POST", "/api/games", {"players": names, "mode": "seeded", "seed": seed})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    for _ in range(2000):
        legal = api.call("GET", f"/api/games/{game_id}/legal-moves")
        if legal["over"]:
            return game_id, token
        moves = [move for move in legal["moves"] if move.get("kind") != "convert"] or legal["moves"]
        api.call("POST", f"/api/games/{game_id}/moves", moves[0], token, legal["version"])
    raise AssertionError("the game never ended")


def test_each_players_page_shows_the_record_and_the_head_to_head_and_a_linked_seat_moves(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    first, owner = finished(api, ["Aiko", "Ben", "Chie"], 3)
    finished(api, ["Aiko", "Ben", "Chie"], 4)
    page.goto(f"{site.url}/players")
    rows = page.locator("table.players tbody tr")
    assert rows.count() == 3
    assert [
        cell.strip() for cell in page.locator("table.players td[data-label='Games']").all_inner_texts()
    ] == ["2"] * 3
    page.screenshot(path=str(shots / "players-list.png"), full_page=True)
    for name in ("Aiko", "Ben", "Chie"):
        page.goto(f"{site.url}/players/{id_of(name)}")
        page.wait_for_selector("#summary:not([hidden])")
        assert page.locator("#player-name").inner_text() == name
        assert "2games finished" in page.locator("#summary .tile").first.inner_text().replace("\n", "")
        rivals = page.locator("#versus tbody th a").all_inner_texts()
        assert sorted(rivals) == sorted({"Aiko", "Ben", "Chie"} - {name})
        assert page.locator("#rating-chart svg.chart-svg").count() == 1
        assert page.locator("#lines-chart svg.chart-svg").count() == 1
        page.wait_for_selector("#games tbody tr")
        assert page.locator("#games tbody tr").count() == 2
    page.screenshot(path=str(shots / "player-page.png"), full_page=True)

    page.goto(f"{site.url}/games/{first}/players#token={owner}")
    page.fill("#seat-0", "Aiko Tanaka")
    page.locator("#seat-0 ~ button[type=submit]").click()
    page.wait_for_selector(".seat-players .tag")
    assert page.locator(".seat-players li").first.locator("a").inner_text() == "Aiko Tanaka"
    page.screenshot(path=str(shots / "game-players.png"), full_page=True)
    page.locator(".seat-players li").first.locator("a").click()
    page.wait_for_selector("#summary:not([hidden])")
    assert page.locator("#player-name").inner_text() == "Aiko Tanaka"
    assert page.locator("#summary .tile").first.inner_text().startswith("1")
    page.goto(f"{site.url}/?player={id_of('Aiko')}")
    assert page.locator("table.games tbody tr").count() == 1


def test_the_players_pages_fit_a_phone(page: Any, site: Served, api: Api, shots: Path) -> None:
    finished(api, ["Dai", "Eri"], 5)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site.url}/players")
    assert no_horizontal_scroll(page)
    page.goto(f"{site.url}/players/{id_of('Dai')}")
    page.wait_for_selector("#games tbody tr")
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "player-page-phone.png"), full_page=True)
