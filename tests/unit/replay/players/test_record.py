"""A player's record from the games they sat in: counted, listed, the rules' ranks, and head to head."""

from __future__ import annotations

from collections import Counter

from replay.players.facts import GameFacts
from replay.players.record import parts, record_of, summed, versus_of
from tests.unit.replay.players.support import finished, pid


def counters(*games: GameFacts) -> dict[str, Counter[str]]:
    return summed(parts(game, pid) for game in games)


def test_a_record_counts_finished_games_their_wins_and_the_mean_and_each_lines_mean() -> None:
    mine = counters(
        finished([("Aiko", 60, 1), ("Ben", 50, 2)], number=1),
        finished([("Aiko", 40, 2), ("Ben", 70, 1)], number=2),
        finished([("Aiko", 80, 1), ("Ben", 10, 2), ("Chie", 5, 3)], number=3),
    )[pid("Aiko")]
    record = record_of(mine, (80, "g"))
    assert (record["listed"], record["games"], record["won"]) == (3, 3, 2)
    assert record["mean_score"] == 60.0
    assert {line["line"]: line["mean"] for line in record["lines"]}["in_game_cp"] == 60.0
    assert {line["line"]: line["mean"] for line in record["lines"]}["courtiers"] == 1.0
    assert [(group["players"], group["games"], group["won"]) for group in record["by_players"]] == [
        (2, 2, 1),
        (3, 1, 1),
    ]
    assert record["matcha"] == [{"matcha": False, "games": 3, "won": 2, "mean_score": 60.0}]


def test_R_F09_a_shared_first_rank_is_a_win_for_both_and_a_tie_head_to_head() -> None:  # noqa: N802  # the rule, as docs/rules/ writes it
    both = counters(finished([("Aiko", 50, 1), ("Ben", 50, 1), ("Chie", 20, 3)]))
    assert record_of(both[pid("Aiko")], None)["won"] == 1
    assert record_of(both[pid("Ben")], None)["won"] == 1
    versus = versus_of(both[pid("Aiko")])
    assert versus[pid("Ben")] == {"games": 1, "ahead": 0, "behind": 0}
    assert versus[pid("Chie")] == {"games": 1, "ahead": 1, "behind": 0}


def test_abandoned_unfinished_and_what_if_games_are_listed_but_not_counted() -> None:
    mine = counters(
        finished([("Aiko", 60, 1), ("Ben", 50, 2)], number=1),
        finished([("Aiko", 0, 1), ("Ben", 0, 2)], number=2, status="abandoned"),
        finished([("Aiko", 0, 1), ("Ben", 0, 2)], number=3, status="in progress"),
        finished([("Aiko", 99, 1), ("Ben", 0, 2)], number=4, forked=True),
    )[pid("Aiko")]
    record = record_of(mine, None)
    assert (record["listed"], record["games"], record["abandoned"], record["in_progress"]) == (4, 1, 1, 1)
    assert record["mean_score"] == 60.0


def test_a_solo_game_has_its_own_record_by_rival_and_no_head_to_head() -> None:
    mine = counters(
        finished([("Aiko", 70, 1), ("Rival", 60, 2)], number=1, solo="hard"),
        finished([("Aiko", 30, 2), ("Rival", 60, 1)], number=2, solo="hard", matcha=True),
        finished([("Aiko", 50, 1), ("Rival", 20, 2)], number=3, solo="easy"),
    )
    record = record_of(mine[pid("Aiko")], None)
    assert record["games"] == 0 and record["mean_score"] is None
    assert [(s["difficulty"], s["matcha"], s["games"], s["won"]) for s in record["solo"]] == [
        ("easy", False, 1, 1),
        ("hard", False, 1, 1),
        ("hard", True, 1, 0),
    ]
    assert versus_of(mine[pid("Aiko")]) == {}
    assert pid("Rival") not in mine


def test_starting_choices_are_counted_with_how_their_games_went() -> None:
    mine = counters(
        finished([("Aiko", 60, 1), ("Ben", 50, 2)], number=1, starts=["SR3", "SR1"]),
        finished([("Aiko", 40, 2), ("Ben", 70, 1)], number=2, starts=["SR3", "SR2"]),
        finished([("Aiko", 90, 1), ("Ben", 70, 2)], number=3, starts=["SR5", "SR2"]),
    )[pid("Aiko")]
    assert record_of(mine, None)["starts"] == [
        {"card": "SR3", "games": 2, "won": 1, "mean_score": 50.0},
        {"card": "SR5", "games": 1, "won": 1, "mean_score": 90.0},
    ]


def test_a_games_part_taken_away_leaves_the_counters_as_they_were() -> None:
    one = finished([("Aiko", 60, 1), ("Ben", 50, 2)], number=1)
    two = finished([("Aiko", 40, 2), ("Ben", 70, 1)], number=2)
    together = counters(one, two)
    for player, taken in parts(two, pid).items():
        together[player].subtract(taken)
    assert {p: +c for p, c in together.items()} == {p: +c for p, c in counters(one).items()}
