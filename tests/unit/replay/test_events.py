"""Every event type round-trips through the library's mapper; old versions of MovePlayed and MoveAmended are
upcast."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from uuid import uuid4

import pytest

from replay.config import StoreConfig, open_log
from replay.events import (
    AnnotationAdded,
    AnnotationDeleted,
    AnnotationEdited,
    CorrectionRedone,
    CorrectionUndone,
    DomainEvent,
    GameAbandoned,
    GameCreated,
    GameIndexed,
    LineCorrected,
    MoveAmended,
    MovePlayed,
    MoveResolved,
    MovesRedone,
    MovesUndone,
)
from replay.integrity import unseal

AT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
MOVE = {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}
ID = uuid4()

EXAMPLES: list[DomainEvent] = [
    GameCreated(
        ID, 1, AT, {"players": [{"name": "A", "colour": "red"}], "mode": "seeded"}, "1", {"x": [1]}, [], None
    ),
    MovePlayed(ID, 2, AT, MOVE, [{"kind": "roll", "seat": None, "values": [1, 2]}], 0, "ann", "takes", "key"),
    MovesUndone(ID, 3, AT, [2], "bob"),
    MovesRedone(ID, 4, AT, [2], "bob"),
    MoveResolved(ID, 5, AT, 3, MOVE, [{"kind": "roll", "seat": None, "values": [3]}], 0, "ref", "takes"),
    MoveAmended(
        ID,
        6,
        AT,
        2,
        MOVE,
        [],
        "ref",
        "takes",
        [4],
        {"6": [MOVE]},
        [{"index": 2, "version": 3, "moves": [5], "kept": False}],
    ),
    GameAbandoned(ID, 7, AT, "owner", "rain"),
    LineCorrected(
        ID,
        8,
        AT,
        "swap_seats",
        1,
        [{"kind": "stack_order", "seat": None, "order": [1, 0]}],
        [0, 1],
        "owner",
        "the moves of A and B swapped",
        [],
        {},
        {"2": {**MOVE, "seat": 1}},
        [{"index": 1, "version": 2, "moves": [], "kept": True, "swap_seats": [0, 1]}],
        "key-8",
    ),
    CorrectionUndone(ID, 9, AT, 8, "owner"),
    CorrectionRedone(ID, 10, AT, 8, "owner", "key-10"),
    AnnotationAdded(ID, 1, AT, "n1", str(ID), 3, "t", "nice", "!?", {"kind": "room", "id": "steward-1"}),
    AnnotationEdited(ID, 2, AT, "n1", "t", "nicer", None, None),
    AnnotationDeleted(ID, 3, AT, "n1", "t"),
    GameIndexed(ID, 1, AT, str(ID), ["A", "B"], "table", "A vs B", False, {"game_id": "x", "version": 2}),
]


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda event: type(event).__name__)
def test_every_event_type_round_trips_through_the_mapper(event: DomainEvent) -> None:
    mapper = open_log(StoreConfig(kind="memory")).stores.all[0].mapper
    stored = mapper.to_stored_event(event)
    back = mapper.to_domain_event(stored)
    assert type(back) is type(event)
    assert vars(back) == json.loads(json.dumps(vars(event), default=str)) | {
        "originator_id": event.originator_id,
        "originator_version": event.originator_version,
        "timestamp": event.timestamp,
    }


def as_version_1(event: DomainEvent, *gone: str) -> DomainEvent:
    """``event`` stored as version 1 of its class was (without ``gone`` fields nor a class version), read back
    through the library's mapper (which upcasts it). Such records were written before records carried an
    integrity check (:mod:`replay.integrity`): the old record has none, and reads all the same."""
    mapper = open_log(StoreConfig(kind="memory")).stores.all[0].mapper
    stored = unseal(mapper.to_stored_event(event))
    old_state = json.loads(stored.state)
    del old_state["class_version"]
    for name in gone:
        del old_state[name]
    old = type(stored)(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=json.dumps(old_state).encode(),
    )
    return mapper.to_domain_event(old)


def test_a_version_1_move_played_is_upcast_with_no_idempotency_key() -> None:
    event = as_version_1(EXAMPLES[1], "idempotency_key")
    assert isinstance(event, MovePlayed)
    assert event.idempotency_key is None
    assert event.move == MOVE


def test_a_version_1_amendment_is_upcast_with_no_resolutions() -> None:
    amended = next(event for event in EXAMPLES if isinstance(event, MoveAmended))
    event = as_version_1(amended, "resolutions", "idempotency_key")
    assert isinstance(event, MoveAmended)
    assert event.resolutions == [] and event.idempotency_key is None
    assert (event.version, event.dropped, event.redrawn) == (2, [4], {"6": [MOVE]})


def test_a_version_2_amendment_is_upcast_saying_no_kept_move_anew() -> None:
    amended = replace(
        next(event for event in EXAMPLES if isinstance(event, MoveAmended)), rewritten={"3": MOVE}
    )
    mapper = open_log(StoreConfig(kind="memory")).stores.all[0].mapper
    stored = unseal(mapper.to_stored_event(amended))
    old_state = json.loads(stored.state)
    assert old_state.pop("rewritten") == {"3": MOVE}
    old_state["class_version"] = 2
    old = type(stored)(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=json.dumps(old_state).encode(),
    )
    event = mapper.to_domain_event(old)
    assert isinstance(event, MoveAmended)
    assert event.rewritten == {} and event.resolutions == amended.resolutions


def test_an_annotation_written_before_grants_were_recorded_is_upcast_with_no_author_grant() -> None:
    """Version 2 of ``AnnotationAdded`` did not say which grant wrote it: only the owner may change those."""
    added = next(event for event in EXAMPLES if isinstance(event, AnnotationAdded))
    mapper = open_log(StoreConfig(kind="memory")).stores.all[0].mapper
    # Written before records carried an integrity check (replay.integrity): the old record has none.
    stored = unseal(mapper.to_stored_event(replace(added, author_grant="g-1")))
    old_state = json.loads(stored.state)
    assert old_state.pop("author_grant") == "g-1"
    old_state["class_version"] = 2
    old = type(stored)(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=json.dumps(old_state).encode(),
    )
    event = mapper.to_domain_event(old)
    assert isinstance(event, AnnotationAdded)
    assert event.author_grant is None and event.text == added.text
    assert as_version_1(added, "idempotency_key", "author_grant").author_grant is None
