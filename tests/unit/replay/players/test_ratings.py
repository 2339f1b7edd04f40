"""Ratings: openskill's Plackett-Luce, one update per rated game in the order the games finished, whatever order
they were stored or kept in; solo and private games never move them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from replay.players.facts import GameFacts
from replay.players.rating import Rating
from replay.players.reading import Reading
from tests.unit.replay.players.support import finished, pid, projection

NAMES = ["Aiko", "Ben", "Chie", "Dai", "Eri"]


def club(count: int, seed: int = 1) -> list[GameFacts]:
    rng = random.Random(seed)
    games = []
    for number in range(count):
        seated = rng.sample(NAMES, rng.choice([2, 3, 4]))
        totals = [rng.randrange(20, 90) for _ in seated]
        ranks = [1 + sorted(totals, reverse=True).index(total) for total in totals]  # ties share the rank
        games.append(finished(list(zip(seated, totals, ranks, strict=True)), number=number))
    return games


def ratings_after(games: list[GameFacts]) -> dict[str, Rating | None]:
    kept = projection()
    for facts in games:
        kept.keep(facts)
    reading = Reading(kept)
    return {name: (reading.player(pid(name), ()) or {}).get("rating") for name in NAMES}


def test_ratings_do_not_depend_on_the_order_games_are_kept_in() -> None:
    games = club(30)
    in_order = ratings_after(games)
    shuffled = games[:]
    random.Random(7).shuffle(shuffled)
    assert ratings_after(shuffled) == in_order
    assert ratings_after(games[::-1]) == in_order
    assert all(rating is not None and rating.games > 0 for rating in in_order.values())


def test_a_game_finished_earlier_but_kept_later_is_rated_in_its_place() -> None:
    games = club(12)
    late = games[3]
    rest = [game for game in games if game is not late]
    assert ratings_after([*rest, late]) == ratings_after(games)


def test_the_winner_of_a_first_game_rates_above_the_loser() -> None:
    rated = ratings_after([finished([("Aiko", 60, 1), ("Ben", 50, 2)])])
    assert rated["Aiko"] is not None and rated["Ben"] is not None
    assert rated["Aiko"].mu > rated["Ben"].mu and rated["Aiko"].games == 1


@pytest.mark.parametrize("kind", ["solo", "private", "abandoned", "branch"])
def test_solo_private_abandoned_and_branch_games_move_no_rating(kind: str) -> None:
    games = club(6)
    base = ratings_after(games)
    extra = {
        "solo": finished([("Aiko", 90, 1), ("Rival", 10, 2)], number=50, solo="hard"),
        "private": finished([("Aiko", 90, 1), ("Ben", 10, 2)], number=50, private=True),
        "abandoned": finished([("Aiko", 90, 1), ("Ben", 10, 2)], number=50, status="abandoned"),
        "branch": finished([("Aiko", 90, 1), ("Ben", 10, 2)], number=50, forked=True),
    }[kind]
    assert ratings_after([*games, extra]) == base


def test_a_corrected_result_works_the_ratings_out_again_from_that_game_on() -> None:
    games = club(10)
    corrected = games[2]
    swapped = replace(
        corrected,
        version=corrected.version + 1,
        seats=tuple(
            replace(seat, rank=len(corrected.seats) + 1 - (seat.rank or 0)) for seat in corrected.seats
        ),
    )
    kept = projection()
    for facts in games:
        kept.keep(facts)
    kept.keep(swapped)
    reading = Reading(kept)
    fixed = [swapped if game is corrected else game for game in games]
    assert {name: (reading.player(pid(name), ()) or {}).get("rating") for name in NAMES} == ratings_after(
        fixed
    )


def test_a_write_only_marks_the_ratings_and_the_next_read_works_them_out() -> None:
    """Keeping a finished game's facts (its last move's write) works out no rating: it marks where they are to be
    worked out again from, and the first read does it for every game finished since, as one pass over all of
    them would; a read with nothing marked works nothing out again."""
    games = club(8)
    kept = projection()
    reading = Reading(kept)
    for facts in games[:5]:
        kept.keep(facts)
    keys = kept.keys()
    state, held = kept.views.read([("hgetall", keys.state), ("hgetall", keys.ratings)])
    assert state.get("dirty") and held == {}
    reading.player(pid("Aiko"), ())
    for facts in games[5:]:
        kept.keep(facts)
    read = {name: (reading.player(pid(name), ()) or {}).get("rating") for name in NAMES}
    assert read == ratings_after(games)
    (state,) = kept.views.read([("hgetall", keys.state)])
    assert not state.get("dirty")
