"""What every store's views (replay.views) must do alike: run by the unit tests on memory and SQLite and by the
integration tests on Redis."""

from __future__ import annotations

from collections.abc import Callable

from replay.views import Change, Views


def counters_vanish_at_zero_and_sets_lose_members_at_zero(views: Views) -> None:
    change = Change()
    change.hincr("h", "a", 3)
    change.hincr("h", "b", 1)
    change.zincr("z", "m", 2)
    change.zincr("z", "n", 1)
    assert views.apply(change)
    change = Change()
    change.hincr("h", "a", -3)
    change.zincr("z", "m", -2)
    assert views.apply(change)
    assert views.read([("hgetall", "h"), ("zrange", "z", 0, 10, False)]) == [{"b": "1"}, [("n", 1.0)]]


def a_change_is_applied_only_while_its_guards_hold(views: Views) -> None:
    first = Change()
    first.guard("stamps", "g", None)
    first.hset("stamps", "g", "1")
    first.hincr("h", "games", 1)
    assert views.apply(first)
    assert not views.apply(first)  # the same change again: its guard no longer holds, nothing counted twice
    second = Change()
    second.guard("stamps", "g", "1")
    second.hset("stamps", "g", "2")
    second.hincr("h", "games", 1)
    assert views.apply(second)
    assert views.read([("hgetall", "h")]) == [{"games": "2"}]


def the_smaller_and_the_greater_text_are_kept(views: Views) -> None:
    for value in ("b", "a", "c"):
        change = Change()
        change.hmin("s", "min", value)
        change.hmax("s", "max", value)
        views.apply(change)
    assert views.read([("hmget", "s", ["min", "max", "none"])]) == [["a", "c", None]]


def sorted_sets_are_read_by_rank_score_and_with_each_other(views: Views) -> None:
    change = Change()
    for member, score in (("a", 1), ("b", 2), ("c", 2), ("d", 5)):
        change.zadd("one", member, score)
    for member, score in (("b", 9), ("d", 9), ("e", 9)):
        change.zadd("two", member, score)
    views.apply(change)
    assert views.read(
        [
            ("zrange", "one", 0, 2, True),
            ("zrange", "one", 1, 2, False),
            ("zrange", "one", 0, 0, False),
            ("zfrom", "one", 2, 10),
            ("zinter", "one", "two", 0, 10),
            ("zscore", "one", "c"),
            ("zscore", "one", "x"),
            ("zcard", "one"),
            ("zcard", "none"),
        ]
    ) == [
        [("d", 5.0), ("c", 2.0)],
        [("b", 2.0), ("c", 2.0)],
        [],
        [("b", 2.0), ("c", 2.0), ("d", 5.0)],
        [("d", 5.0), ("b", 2.0)],
        2.0,
        None,
        4,
        0,
    ]


def a_key_is_deleted_whole(views: Views) -> None:
    change = Change()
    change.hset("h", "a", "1")
    change.zadd("h2", "m", 1)
    views.apply(change)
    change = Change()
    change.delete("h")
    change.delete("h2")
    views.apply(change)
    assert views.read([("hgetall", "h"), ("zcard", "h2")]) == [{}, 0]


CASES: list[Callable[[Views], None]] = [
    counters_vanish_at_zero_and_sets_lose_members_at_zero,
    a_change_is_applied_only_while_its_guards_hold,
    the_smaller_and_the_greater_text_are_kept,
    sorted_sets_are_read_by_rank_score_and_with_each_other,
    a_key_is_deleted_whole,
]
