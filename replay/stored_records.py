"""A stream's stored records read back as events: checked as a game's (an unbroken run of versions, every
checksum there and right, a damaged record named by stream and version), or read entry by entry where each
entry stands alone (the list of games), a damaged one logged and left out."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Mapper, MapperDeserialisationError
from eventsourcing.utils import TopicError

from replay.errors import GameCorrupt
from replay.integrity import CorruptRecord, is_sealed, unseal

logger = logging.getLogger(__name__)

UNREADABLE = (MapperDeserialisationError, TopicError, ValueError, TypeError, KeyError)
"""What the library's mapper raises for a record it cannot turn back into an event."""


def checked_events(
    mapper: Mapper[UUID], stream_id: UUID, records: Sequence[Any], *, first: bool = False
) -> list[Any]:
    """A stream's stored records (``first``: from its first version on) as events, each checked: in an
    unbroken run of versions, starting at version 1 when ``first``, its checksum right (:mod:`replay.integrity`),
    and present where the records before it carry one (records are written in order, so a record without one
    after a record with one had it removed). A damaged one is a :class:`GameCorrupt` naming the stream and the
    version."""
    events: list[Any] = []
    sealed = False
    for record in records:
        version = record.originator_version
        if not events and first and version != 1:
            raise GameCorrupt.of(stream_id, 1, f"is missing: the stored events start at version {version}")
        if events and version != events[-1].originator_version + 1:
            raise GameCorrupt.of(
                stream_id,
                events[-1].originator_version + 1,
                f"is missing: the stored versions go from {events[-1].originator_version} to {version}",
            )
        if is_sealed(record):
            sealed = True
        elif sealed:
            raise GameCorrupt.of(
                stream_id,
                version,
                "carries no checksum while the records before it do (its checksum was removed)",
            )
        try:
            events.append(mapper.to_domain_event(record))
        except UNREADABLE as error:
            raise GameCorrupt.of(stream_id, version, str(error)) from error
    return events


def readable_events(mapper: Mapper[UUID], stream_id: UUID, records: Sequence[Any]) -> list[Any]:
    """The records that can be read, as events; each damaged one is logged and left out."""
    events = []
    for record in records:
        try:
            events.append(mapper.to_domain_event(record))
        except UNREADABLE as error:
            logger.error(
                "stream %s: the record at version %s is damaged: %s",
                stream_id,
                record.originator_version,
                error,
            )
    return events


def starts_whole(stream_id: UUID, first: Any) -> bool:
    """Whether a game's first stored record (as the list of games reads it with a page) is its version 1 and
    passes its checksum (:mod:`replay.integrity`). Only the checksum: turning the record into an event costs
    some six times as much, and a record whose bytes are as written reads as it did when it was written."""
    if first.originator_id != stream_id or first.originator_version != 1:
        return False
    try:
        unseal(first)
    except CorruptRecord:
        return False
    return True
