"""The last event (version, time) of each stream whose fold this process holds: what the store must still hold
for that fold to be brought up to date rather than read again. Bounded, least recently used out: a forgotten head
only costs a fresh read, never a wrong answer."""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any
from uuid import UUID

HEADS_KEPT = 16_384
"""The most streams whose last event a store remembers (a few hundred bytes each): about as many folds as the
warm cache holds at its default budget."""


class Heads:
    """Each held fold's last event, shared by the threads of one store."""

    def __init__(self, kept: int = HEADS_KEPT) -> None:
        self._kept = kept
        self._heads: OrderedDict[UUID, tuple[int, datetime]] = OrderedDict()
        self._lock = threading.Lock()

    def record(self, event: Any) -> None:
        """``event`` is now the last of its stream's fold."""
        with self._lock:
            self._heads[event.originator_id] = (event.originator_version, event.timestamp)
            self._heads.move_to_end(event.originator_id)
            if len(self._heads) > self._kept:
                self._heads.popitem(last=False)

    def of(self, stream_id: UUID) -> tuple[int, datetime] | None:
        """The last event of the fold held for ``stream_id``, or None."""
        with self._lock:
            head = self._heads.get(stream_id)
            if head is not None:
                self._heads.move_to_end(stream_id)
            return head

    def forget(self, stream_id: UUID) -> None:
        with self._lock:
            self._heads.pop(stream_id, None)
