"""Following an application's notification log as it grows, with blocking reads (``XREAD BLOCK``).

Each append also adds a short notice to the application's notices stream. The subscription's thread repeats
three steps: note the newest notice (the horizon), read every notification after the last one delivered (in
pages, filtered by topic), then block on the notices stream until a notice newer than the horizon exists.
Whatever is committed after the horizon adds a newer notice and wakes the block, and notification ids rise in
commit order: nothing is missed, nothing is delivered twice, and notifications recorded before the
subscription started are delivered first. The blocking read works from any process.

``stop()`` takes effect within one block period (``subscribe_block_ms`` of the datastore, 200 ms by default).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from eventsourcing.persistence import ApplicationRecorder, ListenNotifySubscription


class Notices(Protocol):
    """What the subscription asks of the Redis application recorder beyond the library's recorder: its
    datastore's block period, and the notices stream (``last_notice``, ``wait_for_notice``)."""

    datastore: Any

    def last_notice(self) -> Any: ...

    def wait_for_notice(self, *, after: Any, timeout_ms: int) -> Any: ...


class RedisSubscription(ListenNotifySubscription[ApplicationRecorder]):
    """Notifications after ``gt`` (of the given ``topics``, if any), in order, then new ones as they come."""

    def __init__(
        self, recorder: ApplicationRecorder, gt: int | None = None, topics: Sequence[str] = ()
    ) -> None:
        self._notices = cast(Notices, recorder)
        # Set before the base class starts the pulling thread, which reads it.
        self._block_ms = self._notices.datastore.subscribe_block_ms
        super().__init__(recorder=recorder, gt=gt, topics=topics)

    def _loop_on_pull(self) -> None:
        try:
            while not self._has_been_stopped:
                horizon = self._notices.last_notice()
                self._pull()
                if self._has_been_stopped:
                    break
                self._notices.wait_for_notice(after=horizon, timeout_ms=self._block_ms)
        except BaseException as error:
            if self._thread_error is None:
                self._thread_error = error
            self.stop()
