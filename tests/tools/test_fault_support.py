"""The accounting of ``make faults`` (tests/faults/support.py) counts what the API sends: a write on a version the
game no longer has is ``412 stale_version``, and a stale write the API accepted is caught, so the scenarios'
"0 accepted" can fail."""

from __future__ import annotations

from tests.api_helpers import Answer
from tests.faults.support import Player

STALE = {"error_code": "stale_version", "details": {"expected_version": 9, "current_version": 7}}


def test_a_stale_write_refused_412_is_counted() -> None:
    player = Player("http://x", "game", "token", 1)
    player.count(Answer(412, {}, STALE))
    player.count(Answer(409, {}, {"error_code": "nothing_to_undo"}))
    assert player.stale_412 == 1 and not player.stale_accepted


def test_a_stale_write_accepted_is_caught() -> None:
    player = Player("http://x", "game", "token", 1)
    player.acknowledged(Answer(201, {}, {"versions": [10]}), 9, "key-1", 0.0)
    assert not player.stale_accepted
    player.acknowledged(Answer(201, {}, {"versions": [8]}), 9, "key-2", 0.0)  # written on 7, not 9
    assert player.stale_accepted == ["game: a write on version 9 recorded as 8"]
    assert [ack.version for ack in player.acks] == [10, 8]
