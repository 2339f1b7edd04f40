"""A generation written whole (a rebuild's, :meth:`Projection.write_whole`) holds what the same games kept one at
a time put in the generation in use: the same hashes and sorted sets, field for field."""

from __future__ import annotations

from typing import Any

from replay.players.keys import Keys
from tests.unit.replay.players.support import finished, projection


def contents(views: Any, generation: str) -> dict[str, Any]:
    """A generation's hashes and sorted sets by their names less the generation (its state left out: when it
    was rated and its revision count the writes, not the games)."""
    prefix = f"players:{generation}:"
    found = {
        key[len(prefix) :]: dict(value)
        for store in (views._hashes, views._sets)
        for key, value in store.items()
        if key.startswith(prefix) and value
    }
    found.pop("state", None)
    return found


def test_a_generation_written_whole_holds_what_the_games_kept_one_at_a_time_hold() -> None:
    games = [
        finished([("Aiko", 60, 1), ("Ben", 50, 2)], number=1, starts=["SR1", "SR2"]),
        finished([("Aiko", 40, 2), ("Ben", 70, 1), ("Chie", 55, 3)], number=2, matcha=True),
        finished([("Chie", 80, 1), ("Dai", 10, 2)], number=3, private=True),
        finished([("Dai", 90, 1), ("Rival", 70, 2)], number=4, solo="hard"),
        finished([("Aiko", 0, 0), ("Dai", 0, 0)], number=5, status="abandoned"),
        finished([("Ben", 30, 1), ("Chie", 30, 1)], number=6, forked=True),
    ]
    kept = projection()
    for game in games:
        kept.keep(game, new=True)
    kept.settle()  # what the first read does: a write only marks the ratings to be worked out
    whole = Keys("whole")
    kept.write_whole(whole, games, {})
    live = contents(kept.views, kept.keys().generation)
    assert {"games", "club", "named", "ratings", "after"} <= set(live)
    assert contents(kept.views, whole.generation) == live
