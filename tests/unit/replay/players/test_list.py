"""The list of players: the same order whichever way a page is read (straight from a sorted set, or worked out from
every player when it reaches the unrated ones, searches or counts private games)."""

from __future__ import annotations

import pytest

from replay.players.reading import Reading
from tests.unit.replay.players.support import finished, projection


@pytest.fixture
def reading() -> Reading:
    kept = projection()
    games = [
        finished([("Aiko", 60, 1), ("Ben", 50, 2)], number=1),
        finished([("Aiko", 40, 2), ("Chie", 70, 1), ("Ben", 30, 3)], number=2),
        finished([("Chieko", 10, 2), ("Dai", 50, 1)], number=3),
        finished([("Eri", 90, 1), ("Rival", 10, 2)], number=4, solo="easy"),  # solo: unrated
        finished([("Fumi", 0, 1), ("Aiko", 0, 2)], number=5, status="in progress"),  # listed only
    ]
    for facts in games:
        kept.keep(facts)
    return Reading(kept)


@pytest.mark.parametrize("order", ["games", "wins", "rating"])
def test_a_page_at_a_time_lists_the_players_in_the_whole_lists_order(reading: Reading, order: str) -> None:
    whole, total = reading.page(order=order, search=None, offset=0, limit=50, held=())
    assert total == len(whole) == 7
    paged = [reading.page(order=order, search=None, offset=at, limit=1, held=())[0][0] for at in range(total)]
    assert paged == whole


def test_rated_players_come_first_by_rating_then_the_others_by_games(reading: Reading) -> None:
    rows, _ = reading.page(order="rating", search=None, offset=0, limit=50, held=())
    rated = [row for row in rows if row.rating is not None]
    assert rows[: len(rated)] == rated and len(rated) == 5
    assert [row.rating.ordinal for row in rated if row.rating] == sorted(
        (row.rating.ordinal for row in rated if row.rating), reverse=True
    )
    assert {row.name for row in rows[len(rated) :]} == {"Eri", "Fumi"}


def test_a_search_lists_the_whole_lists_players_whose_names_it_starts(reading: Reading) -> None:
    for order in ("games", "wins", "rating"):
        whole, _ = reading.page(order=order, search=None, offset=0, limit=50, held=())
        found, total = reading.page(order=order, search="chie", offset=0, limit=50, held=())
        assert found == [row for row in whole if row.name.startswith("Chie")] and total == 2
    assert reading.page(order="games", search="hie", offset=0, limit=50, held=())[1] == 0
