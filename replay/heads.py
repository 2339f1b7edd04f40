"""The last event (version, time) of each stream whose fold this process holds: what the store must still hold
for that fold to be brought up to date rather than read again. Bounded, least recently used out: a forgotten head
only costs a fresh read, never a wrong answer."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from replay.cache import Recent

HEADS_KEPT = 16_384
"""The most streams whose last event a store remembers (a few hundred bytes each): about as many folds as the
warm cache holds at its default budget."""


class Heads(Recent[UUID, tuple[int, datetime]]):
    """Each held fold's last event, shared by the threads of one store."""

    def __init__(self, kept: int = HEADS_KEPT) -> None:
        super().__init__(kept)

    def record(self, event: Any) -> None:
        """``event`` is now the last of its stream's fold."""
        self.put(event.originator_id, (event.originator_version, event.timestamp))

    def of(self, stream_id: UUID) -> tuple[int, datetime] | None:
        """The last event of the fold held for ``stream_id``, or None."""
        return self.get(stream_id)
