"""An integrity check inside every stored record: flipped bytes in a stored event or snapshot are found when it is
read, never served.

:class:`CheckedMapper` adds an 8-byte BLAKE2b digest to every stored state; a digest needs no key (unlike the
library's cipher), and finds damage rather than forgery. Records written before it are read as they were.
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent

MAGIC = b"\xffHL1"
"""The first bytes of a checked record's state: 0xff never begins a JSON text (nor UTF-8), so a record written
before the check is told apart by its first byte."""
DIGEST_SIZE = 8
HEADER_SIZE = len(MAGIC) + DIGEST_SIZE


class CorruptRecord(MapperDeserialisationError):
    """A stored record fails its integrity check: its bytes changed since it was written."""

    def __init__(self, originator_id: UUID | str, version: int, topic: str, detail: str) -> None:
        super().__init__(f"the stored record at version {version} of {originator_id} ({topic}) {detail}")
        self.originator_id = originator_id
        self.version = version
        self.detail = detail


def digest(originator_id: UUID | str, version: int, topic: str, state: bytes) -> bytes:
    """The record's digest: what identifies it (stream, version, topic) and what it holds. Fed piece by
    piece (no joined copy of the state): a few microseconds per event."""
    mark = hashlib.blake2b(
        originator_id.bytes if isinstance(originator_id, UUID) else originator_id.encode(),
        digest_size=DIGEST_SIZE,
    )
    mark.update(b"\n%d\n" % version)
    mark.update(topic.encode())
    mark.update(b"\n")
    mark.update(state)
    return mark.digest()


def seal(stored: StoredEvent) -> StoredEvent:
    """The stored event with its digest in front of its state."""
    state = stored.state
    mark = digest(stored.originator_id, stored.originator_version, stored.topic, state)
    return StoredEvent(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=MAGIC + mark + state,
    )


def is_sealed(stored: StoredEvent) -> bool:
    """Whether the record carries a digest (every record written since the check; not the ones before)."""
    return stored.state[: len(MAGIC)] == MAGIC


def unseal(stored: StoredEvent) -> StoredEvent:
    """The stored event as the library wrote it, after checking its digest (:class:`CorruptRecord` when it
    does not match). A record without a digest is returned as it is."""
    state = stored.state
    if state[: len(MAGIC)] != MAGIC:
        return stored
    if len(state) < HEADER_SIZE:
        raise CorruptRecord(stored.originator_id, stored.originator_version, stored.topic, "is cut short")
    body = state[HEADER_SIZE:]
    expected = digest(stored.originator_id, stored.originator_version, stored.topic, body)
    if state[len(MAGIC) : HEADER_SIZE] != expected:
        raise CorruptRecord(
            stored.originator_id,
            stored.originator_version,
            stored.topic,
            "fails its integrity check (its bytes changed since it was written)",
        )
    return StoredEvent(
        originator_id=stored.originator_id,
        originator_version=stored.originator_version,
        topic=stored.topic,
        state=body,
    )


class CheckedMapper(Mapper[UUID]):
    """The library's mapper, with a digest sealed into every record it writes and checked in every record it
    reads (see the module docstring)."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return seal(super().to_stored_event(domain_event))

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return super().to_domain_event(unseal(stored_event))
