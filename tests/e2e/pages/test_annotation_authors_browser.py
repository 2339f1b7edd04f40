"""The replay page offers Edit and Delete only on the annotations its token may change.

A seat's token is issued again when the seat changes hands; its new holder is not the author of what the
earlier holder wrote, and the API refuses their edits (403). The page used to offer the buttons by the seat's
name, so the new holder saw Edit and Delete that could only fail; it now follows the API's ``yours``. In
Debian's Chromium, against a real server.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api


def test_a_seat_s_next_holder_is_offered_no_edit_of_the_earlier_holder_s_annotation(
    page: Any, site: Served, api: Api
) -> None:
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben"], "mode": "seeded", "seed": 29})
    game_id, owner = created["game"]["game_id"], created["owner_token"]
    seat = f"/api/games/{game_id}/seats/1/token"
    version = created["game"]["version"]
    earlier = api.call("POST", seat, {}, owner)["token"]
    api.call(
        "POST", f"/api/games/{game_id}/annotations", {"version": version, "text": "Ben's first plan"}, earlier
    )
    later = api.call("POST", seat, {}, owner)["token"]  # the seat changes hands
    api.call(
        "POST", f"/api/games/{game_id}/annotations", {"version": version, "text": "the new Ben's plan"}, later
    )

    page.goto(f"{site.url}/games/{game_id}/replay?version={version}#token={later}")
    page.wait_for_function("() => document.querySelectorAll('#move-list .note').length === 2")
    notes = page.locator("#move-list .note")
    theirs = notes.filter(has_text="Ben's first plan")
    mine = notes.filter(has_text="the new Ben's plan")
    assert theirs.get_by_role("button", name="Edit").count() == 0
    assert theirs.get_by_role("button", name="Delete").count() == 0
    assert mine.get_by_role("button", name="Edit").count() == 1
    assert mine.get_by_role("button", name="Delete").count() == 1
