"""The faster reader of stored events (replay/transcoding.py) reads exactly what the library's JSON transcoder
reads, from the bytes the library writes: every event type, typed values nested anywhere, and the JSON the
standard library writes but msgspec refuses (NaN)."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any
from uuid import uuid4

import pytest
from eventsourcing.persistence import DatetimeAsISO, DecimalAsStr, JSONTranscoder, Mapper, UUIDAsHex

from replay.transcoding import FastJSONTranscoder
from tests.unit.replay.test_events import EXAMPLES


def transcoders() -> tuple[JSONTranscoder, FastJSONTranscoder]:
    made = JSONTranscoder(), FastJSONTranscoder()
    for transcoder in made:
        for transcoding in (UUIDAsHex(), DatetimeAsISO(), DecimalAsStr()):
            transcoder.register(transcoding)
    return made


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda event: type(event).__name__)
def test_every_event_type_reads_the_same_with_either_reader(event: Any) -> None:
    library, fast = transcoders()
    stored = Mapper(transcoder=library).to_stored_event(event)
    assert fast.decode(stored.state) == library.decode(stored.state)
    assert Mapper(transcoder=fast).to_domain_event(stored) == Mapper(transcoder=library).to_domain_event(
        stored
    )


def test_typed_values_nested_anywhere_are_revived_inner_ones_first() -> None:
    library, fast = transcoders()
    when = datetime(2026, 12, 1, 16, 0, tzinfo=UTC)
    value = {
        "timestamp": when,
        "by": [{"id": uuid4(), "at": when}, {"amount": Decimal("1.50")}],
        "plain": {"_type_": "not two keys", "x": 1, "y": 2},
    }
    data = library.encode(value)
    assert data.count(b'"_type_"') > 1
    assert fast.decode(data) == library.decode(data) == value


def test_what_msgspec_refuses_is_read_by_the_library() -> None:
    library, fast = transcoders()
    data = library.encode({"value": float("nan")})
    assert b"NaN" in data
    assert math.isnan(fast.decode(data)["value"])
