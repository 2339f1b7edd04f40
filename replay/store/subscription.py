"""Following an application's notification log as it grows, with blocking reads (``XREAD BLOCK``)."""

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
