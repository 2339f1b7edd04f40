"""Every stored record carries a digest of what identifies it and what it holds (replay/integrity.py): a byte
changed anywhere is found when the record is read; records written before the digest existed read as before."""

from __future__ import annotations

import json
from uuid import uuid4

import pytest
from eventsourcing.persistence import StoredEvent

from replay.integrity import HEADER_SIZE, MAGIC, CorruptRecord, is_sealed, seal, unseal


def record() -> StoredEvent:
    state = json.dumps({"move": {"kind": "take_die", "seat": 1}, "seat": 1}).encode()
    return StoredEvent(
        originator_id=uuid4(), originator_version=7, topic="replay.events:MovePlayed", state=state
    )


def test_a_sealed_record_reads_back_as_it_was_written() -> None:
    plain = record()
    sealed = seal(plain)
    assert is_sealed(sealed) and len(sealed.state) == len(plain.state) + HEADER_SIZE
    assert unseal(sealed) == plain


@pytest.mark.parametrize("at", [0, 5, len(MAGIC) + 3, HEADER_SIZE + 10, -1])
def test_a_byte_changed_anywhere_in_the_stored_state_is_found(at: int) -> None:
    sealed = seal(record())
    state = bytearray(sealed.state)
    at %= len(state)
    state[at] ^= 0x01
    changed = StoredEvent(sealed.originator_id, sealed.originator_version, sealed.topic, bytes(state))
    if at < len(MAGIC):  # the mark itself damaged: no longer a sealed record, and no longer JSON either
        assert not is_sealed(changed)
        return
    with pytest.raises(CorruptRecord) as found:
        unseal(changed)
    assert found.value.version == 7 and found.value.originator_id == sealed.originator_id


def test_a_record_read_under_another_stream_version_or_type_is_found() -> None:
    """A log entry indexed under another game (or version, or type) than it was written for."""
    sealed = seal(record())
    for other in (
        StoredEvent(uuid4(), sealed.originator_version, sealed.topic, sealed.state),
        StoredEvent(sealed.originator_id, 8, sealed.topic, sealed.state),
        StoredEvent(
            sealed.originator_id, sealed.originator_version, "replay.events:MovesUndone", sealed.state
        ),
    ):
        with pytest.raises(CorruptRecord):
            unseal(other)


def test_records_written_before_the_digest_read_as_before() -> None:
    plain = record()
    assert not is_sealed(plain) and unseal(plain) is plain
    assert all(not json.dumps(value).encode().startswith(MAGIC) for value in ({}, [], "x", 1))
