"""A game imported with a catalog of its own says so on every page of it: its points and effects
may not be the printed game's (an export with Passage of Time points raised was taken and shown as any game)."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api


def test_a_game_played_with_a_catalog_of_its_own_is_marked_on_its_pages(
    page: Any, site: Served, api: Api
) -> None:
    game_id, _ = api.seeded_game(["Aiko", "Ben"], seed=3, moves=4)
    document = api.call("GET", f"/api/games/{game_id}/export")
    track = document["catalog"]["passage_of_time"]
    track["points"] = [min(points + 5, 20) for points in track["points"]]  # within the catalog's maxima
    document["setup"]["catalog_override"] = True
    imported = api.call("POST", "/api/games/import?new_id=1", document)["game"]["game_id"]

    for path in (f"/games/{imported}", f"/games/{imported}/replay"):
        page.goto(site.url + path)
        flag = page.locator("#catalog-flag")
        flag.wait_for()
        assert "catalog of its own" in flag.inner_text()
    page.goto(f"{site.url}/games/{game_id}")
    page.wait_for_selector("#board[data-version]")  # the page drawn, its header first (record.js: paint)
    assert page.locator("#catalog-flag").count() == 0
