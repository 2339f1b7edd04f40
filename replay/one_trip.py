"""A move in one round trip: the write guard's count, the check that the store still holds the game as this process
holds it, and the append, in one script (Redis, ``REDIS_ONE_TRIP_MOVES``; docs/operations/slow-clients.md).

The ordinary write reads first: its count travels with the read of the game and its grants (one round trip),
then the append (a second). When this process holds the game and its grants warm, and each one's last event is
known, a move can instead be decided on what it holds and sent once, with the count and with what it was decided
on: the last version and time of the game and of its grants. The script refuses (:class:`NotAsHeld`) before it
writes anything when the store holds something else, when the count would pass its limit, or when the request's
``Idempotency-Key`` was used for another kind of write; the write guard then makes the request again the
ordinary way, which reads, counts and answers as it always did. Whatever a one-trip move answers, the ordinary
write would have answered the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID


class NotAsHeld(Exception):
    """A one-trip append refused before writing anything: the store does not hold the game or its grants as this
    process does, or the count or the key's use would refuse the write. Make the request the ordinary way."""


@dataclass
class CountedAppend:
    """What a one-trip move sends with its append, and what came back.

    ``counter`` is the rate-limit window's counter (kept ``lifetime`` seconds; ``left`` seconds of the window
    remain), ``limit`` the writes it may hold (0: none), ``use`` the key use to claim (its Redis key, the kind of
    write, its lifetime) or None; ``held`` each stream the move was decided on, with its last version and the
    time of that event as this process holds them. ``appended`` and ``count`` say what the store did: the events
    are stored, and the window's count after this write (None when the reply was lost and the append was found
    stored afterwards: the same script counted it, to a count not known here)."""

    game_id: UUID
    counter: str
    lifetime: int
    left: int
    limit: int
    use: tuple[str, str, int] | None
    held: list[tuple[UUID, int, str]]
    appended: bool = field(default=False)
    count: int | None = field(default=None)


def count_later(
    store: Any,
    streams: Sequence[tuple[UUID, Any]],
    *,
    key: str,
    window: int,
    limit: int,
    claim: tuple[str, str, int] | None = None,
) -> tuple[list[Any], CountedAppend] | None:
    """The folds ``store`` (a ``replay.stores.GameStore``) holds of ``streams`` (a game, then its grants) and what a
    move decided on them sends with its append; None when the store cannot (not Redis, or switched off) or when
    one of them is not held with its last event known. ``key``, ``window`` and ``claim`` as the ordinary count's."""
    claimed: Callable[[str], str] | None = getattr(store.ephemeral, "claimed", None)
    counter: Callable[[str, int], tuple[str, int, int]] | None = getattr(store.ephemeral, "counter", None)
    if not getattr(store.recorder, "counts_with_append", False) or claimed is None or counter is None:
        return None
    plan = store.catch_up_plan(streams)
    if plan is None:
        return None
    name, lifetime, left = counter(key, window)
    use = (claimed(claim[0]), claim[1], claim[2]) if claim is not None else None
    held = [
        (stream_id, version, stamp.isoformat())
        for (stream_id, _), (version, stamp) in zip(streams, plan.heads, strict=True)
    ]
    return plan.held, CountedAppend(streams[0][0], name, lifetime, left, limit, use, held)
