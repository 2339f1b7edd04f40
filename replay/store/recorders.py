"""The four Redis recorders of the eventsourcing library: aggregate, application, tracking and process."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast
from uuid import UUID

from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    IntegrityError,
    Notification,
    OperationalError,
    ProcessRecorder,
    ProgrammingError,
    StoredEvent,
    Subscription,
    Tracking,
    TrackingRecorder,
)

from replay.one_trip import CountedAppend, NotAsHeld
from replay.store import scripts
from replay.store.datastore import RedisDatastore
from replay.store.errors import HeldStaleError, OutcomeUnknownError, RecordMissingError

T = TypeVar("T")
DEFAULT_APPLICATION_NAME = "default"
# Log entries scanned per call when notifications are read: bounds how long one call holds the server (a Redis
# script blocks every other client while it runs), however rare the topics asked for.
TOPIC_SCAN_BUDGET = 2000
# Events returned by one call that reads a stream: a long stream (a game of 20,000 events, the list of
# 8,000 games) is read page by page, each page one short script, so no call holds the server for long and no
# script unpacks an unbounded list.
RECORDS_PER_PAGE = 1000

ViewCommand = tuple[str | bytes | int | float, ...]
"""A Redis command on one of a view's keys: ``(command, view key name, *arguments)``, for example
``("HINCRBY", "counters", "created", 1)``."""


def pack_record(event: StoredEvent) -> bytes:
    """A log record: ``<topic>\\n<version>\\n<originator>\\n<state>``, the originator being ``u`` and a
    UUID's 32 hex digits, or ``o`` and a string id as JSON (no raw newline). The topic comes first so that a
    script can filter by topic without decoding anything."""
    originator = event.originator_id
    token = "u" + originator.hex if isinstance(originator, UUID) else "o" + json.dumps(originator)
    return f"{event.topic}\n{event.originator_version}\n{token}\n".encode() + event.state


def unpack_record(record: bytes, notification_id: int) -> Notification:
    topic, version, token, state = record.split(b"\n", 3)
    originator_id: UUID | str = UUID(token[1:].decode()) if token[:1] == b"u" else json.loads(token[1:])
    return Notification(
        id=notification_id,
        originator_id=originator_id,
        originator_version=int(version),
        topic=topic.decode(),
        state=state,
    )


def stored_event(originator_id: UUID | str, record: bytes | None) -> StoredEvent:
    """A log record (:func:`pack_record`) as a stored event of an originator already known to the reader
    (the originator's own part of the record is not decoded again)."""
    if record is None:  # the stream's index names a notification the log does not hold
        raise RecordMissingError(f"an event of {originator_id} is indexed but missing from the log")
    try:
        topic, version, _, state = record.split(b"\n", 3)
    except ValueError:
        raise RecordMissingError(
            f"an event record of {originator_id} is not a record: {record[:40]!r}"
        ) from None
    return StoredEvent(
        originator_id=originator_id, originator_version=int(version), topic=topic.decode(), state=state
    )


def pack_member(event: StoredEvent) -> bytes:
    """An aggregate recorder's sorted-set member; the version makes it unique within the set."""
    return b"%d\n%s\n" % (event.originator_version, event.topic.encode()) + event.state


def unpack_member(originator_id: UUID | str, member: bytes) -> StoredEvent:
    version, topic, state = member.split(b"\n", 2)
    return StoredEvent(
        originator_id=originator_id, originator_version=int(version), topic=topic.decode(), state=state
    )


def score_range(gt: int | None, lte: int | None) -> tuple[str, str]:
    """``ZRANGE ... BYSCORE`` bounds for versions greater than ``gt`` and at most ``lte``."""
    return ("-inf" if gt is None else f"({gt}", "+inf" if lte is None else str(lte))


@dataclass(frozen=True)
class Batch:
    """The keys and arguments of an append script: one sorted set per distinct originator."""

    keys: list[str]
    args: list[str | bytes | int]


class RedisRecorder:
    """What every Redis recorder shares: the datastore and the key names of one application."""

    def __init__(self, datastore: RedisDatastore, *, name: str = "", purpose: str = "events") -> None:
        self.datastore = datastore
        self.application_name = name or DEFAULT_APPLICATION_NAME
        self.purpose = purpose
        self.tag = datastore.tag(self.application_name)
        self.log_key = f"{self.tag}:events:log"
        self.counter_key = f"{self.tag}:events:last"
        self.notices_key = f"{self.tag}:events:notices"
        self.tracking_key = f"{self.tag}:tracking"

    @staticmethod
    def _outcome_or_unknown(read: Callable[[], T]) -> T:
        """Read what a write whose reply was lost left behind; if that fails too, the outcome is unknown."""
        try:
            return read()
        except OperationalError as error:
            raise OutcomeUnknownError(
                f"a write's reply was lost and the server cannot tell: {error}"
            ) from error

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.tag}, purpose={self.purpose!r})"


class RedisAggregateRecorder(RedisRecorder, AggregateRecorder):
    """Stored events in one sorted set per originator, without a notification log (snapshots use this)."""

    def stream_key(self, originator_id: UUID | str) -> str:
        return f"{self.tag}:{self.purpose}:agg:{originator_id}"

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not stored_events:
            return None
        keys: dict[str, int] = {}
        args: list[str | bytes | int] = [len(stored_events)]
        for event in stored_events:
            index = keys.setdefault(self.stream_key(event.originator_id), len(keys) + 1)
            args += [index, event.originator_version, pack_member(event)]
        append = self.datastore.script(scripts.APPEND_AGGREGATE)
        try:
            self.datastore.write(lambda: append(list(keys), args))
        except OutcomeUnknownError:
            self._resolve_unknown(stored_events, lambda: append(list(keys), args))
        return None

    def _resolve_unknown(self, stored_events: Sequence[StoredEvent], resend: Any) -> None:
        """Find out whether an append whose reply was lost was applied: all stored -> done; none -> send once
        more (the script's checks make a late first copy harmless); otherwise someone else wrote there."""
        outcome = self._outcome_or_unknown(lambda: self._stored_outcome(stored_events))
        if outcome == "absent":
            try:
                self.datastore.write(resend)
                return
            except IntegrityError:
                outcome = self._stored_outcome(stored_events)
        if outcome != "ours":
            raise IntegrityError(f"other events were recorded at these versions: {stored_events[0]}")

    def _stored_outcome(self, stored_events: Sequence[StoredEvent]) -> str:
        found = 0
        for event in stored_events:
            stored = self.select_events(
                event.originator_id, gt=event.originator_version - 1, lte=event.originator_version
            )
            if stored:
                if stored[0] != event:
                    return "conflict"
                found += 1
        if found == len(stored_events):
            return "ours"
        return "absent" if found == 0 else "conflict"

    def discard(self, originator_id: UUID | str, version: int) -> None:
        """Delete the record at ``version`` of an originator: for a store of snapshots only (a snapshot found
        damaged, or not matching the events it summarises, is dropped). Events are never deleted."""
        if self.purpose == "events":
            raise ProgrammingError("events are never deleted: only snapshots can be discarded")
        key = self.stream_key(originator_id)
        client = self.datastore.client
        self.datastore.write(lambda: client.zremrangebyscore(key, version, version))

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        key = self.stream_key(originator_id)
        low, high = score_range(gt, lte)
        client = self.datastore.client
        offset = None if limit is None else 0
        start, end = (high, low) if desc else (low, high)
        members = self.datastore.read(
            lambda: client.zrange(key, start, end, desc=desc, byscore=True, offset=offset, num=limit)
        )
        return [unpack_member(originator_id, member) for member in cast(list[bytes], members)]


class RedisApplicationRecorder(RedisAggregateRecorder, ApplicationRecorder):
    """Stored events in the application's notification log (a stream), indexed per originator."""

    topic_scan_budget = TOPIC_SCAN_BUDGET

    def stream_key(self, originator_id: UUID | str) -> str:
        return f"{self.tag}:events:seq:{originator_id}"

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        counted = kwargs.get("counted")
        if isinstance(counted, CountedAppend) and stored_events:
            return self._append_counted(stored_events, counted)
        return self._append(stored_events, None)

    @property
    def counts_with_append(self) -> bool:
        """Whether a move may be counted, checked and appended in one round trip (``REDIS_ONE_TRIP_MOVES``)."""
        return self.datastore.one_trip

    def _append_counted(self, stored_events: Sequence[StoredEvent], counted: CountedAppend) -> list[int]:
        """Append as :meth:`_append` does, in the script that also checks what the write was decided on, counts
        it and claims its key's use (replay.one_trip): :class:`NotAsHeld` when that script refuses."""
        batch = self._batch(stored_events, None)
        keys = {key: index for index, key in enumerate(batch.keys, start=1)}
        held: list[str | bytes | int] = []
        for stream_id, version, stamp in counted.held:
            held += [keys.setdefault(self.stream_key(stream_id), len(keys) + 1), version, stamp]
        window = keys.setdefault(counted.counter, len(keys) + 1)
        use, kind, use_lifetime = counted.use if counted.use is not None else ("", "", 1)
        use_index = keys.setdefault(use, len(keys) + 1) if use else 0
        args = [
            *batch.args,
            1,
            counted.lifetime,
            counted.limit,
            window,
            use_index,
            kind,
            max(1, use_lifetime),
        ]
        args += [len(counted.held), *held]
        script = self.datastore.script(scripts.COUNTED_APPEND_EVENTS)
        try:
            first, total = self.datastore.write_script(script, list(keys), args)
        except HeldStaleError as error:
            raise NotAsHeld(str(error)) from error
        except OutcomeUnknownError:
            ids = self._found_after_loss(stored_events, None)
            if ids is None:  # never applied: the ordinary write reads, counts and appends afresh
                raise NotAsHeld("the reply was lost and nothing was stored") from None
            counted.appended = True  # stored, and counted by the same script: its count is not known here
            return ids
        counted.appended, counted.count = True, int(total)
        return list(range(int(first), int(first) + len(stored_events)))

    def _batch(self, stored_events: Sequence[StoredEvent], tracking: Tracking | None) -> Batch:
        keys: dict[str, int] = {
            self.log_key: 1,
            self.counter_key: 2,
            self.notices_key: 3,
            self.tracking_key: 4,
        }
        args: list[str | bytes | int] = (
            [tracking.application_name, tracking.notification_id] if tracking else ["", ""]
        )
        args.append(len(stored_events))
        for event in stored_events:
            key = self.stream_key(event.originator_id)
            index = keys.setdefault(key, len(keys) + 1)
            args += [index, event.originator_version, key, pack_record(event)]
        return Batch(list(keys), args)

    def _append(self, stored_events: Sequence[StoredEvent], tracking: Tracking | None) -> list[int]:
        if not stored_events and tracking is None:
            return []
        batch = self._batch(stored_events, tracking)
        append = self.datastore.script(scripts.APPEND_EVENTS)
        try:
            first = int(self.datastore.write_script(append, batch.keys, batch.args))
        except OutcomeUnknownError:
            return self._resolve_unknown_append(stored_events, tracking, batch)
        return list(range(first, first + len(stored_events)))

    def _resolve_unknown_append(
        self, stored_events: Sequence[StoredEvent], tracking: Tracking | None, batch: Batch
    ) -> list[int]:
        """Find out whether an append whose reply was lost was applied (see ``_resolve_unknown``)."""
        ids = self._found_after_loss(stored_events, tracking)
        if ids is not None:
            return ids
        append = self.datastore.script(scripts.APPEND_EVENTS)
        try:
            first = int(self.datastore.write_script(append, batch.keys, batch.args))
            return list(range(first, first + len(stored_events)))
        except IntegrityError:
            ids = self._found_after_loss(stored_events, tracking)
        if ids is None:
            raise IntegrityError("other events or a later tracking position were recorded by someone else")
        return ids

    def _found_after_loss(
        self, stored_events: Sequence[StoredEvent], tracking: Tracking | None
    ) -> list[int] | None:
        """What an append whose reply was lost left: its notification ids when it was stored (and, with
        ``wait_replicas``, confirmed by the replicas), None when nothing was; ``IntegrityError`` when someone else's
        events or a later tracking position are there."""
        outcome, ids = self._outcome_or_unknown(lambda: self._append_outcome(stored_events, tracking))
        if outcome == "absent":
            return None
        if outcome != "ours":
            raise IntegrityError("other events or a later tracking position were recorded by someone else")
        self.datastore.confirm_replicated(self.log_key)
        return ids

    def _append_outcome(
        self, stored_events: Sequence[StoredEvent], tracking: Tracking | None
    ) -> tuple[str, list[int]]:
        keys: dict[str, int] = {self.log_key: 1, self.tracking_key: 2}
        args: list[str | bytes | int] = [tracking.application_name if tracking else "", len(stored_events)]
        for event in stored_events:
            args += [
                keys.setdefault(self.stream_key(event.originator_id), len(keys) + 1),
                event.originator_version,
            ]
        probe = self.datastore.script(scripts.PROBE_EVENTS)
        reply = cast(list[bytes], self.datastore.read(lambda: probe(list(keys), args)))
        ids: list[int] = []
        mine = theirs = 0
        for i, event in enumerate(stored_events):
            nid, record = reply[1 + 2 * i : 3 + 2 * i]
            if not nid:
                continue
            stored = unpack_record(record, int(nid))
            if stored.topic == event.topic and stored.state == event.state:
                mine += 1
                ids.append(int(nid))
            else:
                theirs += 1
        if tracking is not None:
            position = int(reply[0]) if reply[0] else None
            if position == tracking.notification_id:
                mine += 1
            elif position is not None and position > tracking.notification_id:
                theirs += 1
        expected = len(stored_events) + (1 if tracking is not None else 0)
        if theirs == 0 and mine == expected:
            return "ours", ids
        if theirs == 0 and mine == 0:
            return "absent", []
        return "conflict", []

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> Sequence[StoredEvent]:
        low, high = score_range(gt, lte)
        select = self.datastore.script(scripts.SELECT_EVENTS)
        keys = [self.stream_key(originator_id), self.log_key]
        found: list[StoredEvent] = []
        # Page by page (RECORDS_PER_PAGE): a stream only grows at its end, so each page goes on after the last
        # version of the one before.
        while True:
            wanted = RECORDS_PER_PAGE if limit is None else min(RECORDS_PER_PAGE, limit - len(found))
            if wanted <= 0:
                return found
            args = [low, high, "1" if desc else "0", str(wanted)]
            records = cast(list[bytes | None], self.datastore.read(partial(select, keys, args)))
            if None in records:  # the index names a record the log does not hold: say which version
                self._missing(originator_id, args, records.index(None))
            page = [stored_event(originator_id, record) for record in records]
            found += page
            if len(page) < wanted:
                return found
            after = f"({page[-1].originator_version}"
            low, high = (low, after) if desc else (after, high)

    def _missing(self, originator_id: UUID | str, args: list[str], position: int) -> None:
        """Raise :class:`RecordMissingError` for the record at ``position`` of a page read with ``args``
        (``SELECT_EVENTS``'s), naming its version: read from the stream's index again, on this error path only."""
        low, high, desc, wanted = args
        key, client = self.stream_key(originator_id), self.datastore.client
        start, end = (high, low) if desc == "1" else (low, high)
        indexed = cast(
            list[tuple[bytes, float]],
            self.datastore.read(
                lambda: client.zrange(
                    key,
                    start,
                    end,
                    desc=desc == "1",
                    byscore=True,
                    offset=0,
                    num=int(wanted),
                    withscores=True,
                )
            ),
        )
        version = int(indexed[position][1]) if position < len(indexed) else None
        where = "a record" if version is None else f"the record of version {version}"
        raise RecordMissingError(f"{where} is indexed but missing from the log", version=version)

    def select_new_events(self, after: Sequence[tuple[UUID | str, int]]) -> list[list[StoredEvent]]:
        """The events of each ``(originator, version)`` pair recorded after that version, in one round trip:
        what bringing several cached aggregates up to date needs (``GameStore.read_together``). An originator
        with more than a page of new events is read page by page after it."""
        select = self.datastore.script(scripts.SELECT_NEW_EVENTS)
        keys, args = self._new_events_keys(after)
        reply = self.datastore.read(lambda: select(keys, args))
        return self._paged(after, self._parse_new_events(after, reply))

    def count_and_select_new_events(
        self,
        counter: str,
        weight: int,
        seconds: int,
        after: Sequence[tuple[UUID | str, int]],
        claim: tuple[str, str, int] | None = None,
    ) -> tuple[int, str | None, list[list[StoredEvent]]]:
        """Add ``weight`` to the rate-limit counter ``counter`` (a key under this store's hash tag, kept
        ``seconds``), then read as :meth:`select_new_events` does, in the same round trip: the write guard's
        count and the write's read of its game (``GameStore.count_reading``). ``claim`` (a Redis key under the
        same tag, a kind of write, seconds): an ``Idempotency-Key``'s use, kept unless one is kept already; the
        use kept is returned (None without a claim). A write (the count): sent once."""
        keys, args = self._new_events_keys(after)
        if claim is None:
            script = self.datastore.script(scripts.COUNT_AND_SELECT_NEW_EVENTS)
            reply = self.datastore.write(lambda: script([counter, *keys], [weight, seconds, *args]))
            return int(reply[0]), None, self._paged(after, self._parse_new_events(after, reply[1:]))
        used, kind, keep = claim
        claiming = self.datastore.script(scripts.COUNT_CLAIM_AND_SELECT_NEW_EVENTS)
        reply = self.datastore.write(
            lambda: claiming([counter, used, *keys], [weight, seconds, kind, max(1, keep), *args])
        )
        first = reply[1].decode() if isinstance(reply[1], bytes) else str(reply[1])
        return int(reply[0]), first, self._paged(after, self._parse_new_events(after, reply[2:]))

    def _paged(
        self, after: Sequence[tuple[UUID | str, int]], found: Sequence[list[StoredEvent] | None]
    ) -> list[list[StoredEvent]]:
        """Each originator's new events, read page by page after the round trip where it had more than a page."""
        return [
            list(self.select_events(originator_id, gt=version)) if events is None else events
            for (originator_id, version), events in zip(after, found, strict=True)
        ]

    def _new_events_keys(self, after: Sequence[tuple[UUID | str, int]]) -> tuple[list[str], list[str | int]]:
        keys = [self.log_key, *(self.stream_key(originator_id) for originator_id, _ in after)]
        return keys, [RECORDS_PER_PAGE, *(f"({version}" for _, version in after)]

    @staticmethod
    def _parse_new_events(
        after: Sequence[tuple[UUID | str, int]], reply: Any
    ) -> list[list[StoredEvent] | None]:
        found: list[list[StoredEvent] | None] = []
        position = 0
        for originator_id, _ in after:
            count = int(reply[position])
            if count < 0:  # more than a page: the caller reads it page by page
                found.append(None)
                position += 1
                continue
            found.append(
                [stored_event(originator_id, record) for record in reply[position + 1 : position + 1 + count]]
            )
            position += 1 + count
        return found

    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> Sequence[Notification]:
        first = 1 if start is None else max(1, start if inclusive_of_start else start + 1)
        if limit <= 0 or (stop is not None and stop < first):
            return []
        # One bounded scan of the log per round trip (the script stops at the last id given out), past any id
        # the log does not hold: a lost record hides nothing after it.
        found: list[Notification] = []
        while len(found) < limit:
            upto = (
                first + self.topic_scan_budget - 1
                if stop is None
                else min(stop, first + self.topic_scan_budget - 1)
            )
            reply = self._scan(first, upto, limit - len(found), topics)
            found += [
                unpack_record(record, int(nid)) for nid, record in zip(reply[1::2], reply[2::2], strict=True)
            ]
            if len(found) >= limit or int(reply[0]) < upto or upto == stop:
                break  # the limit was reached, the log ended within this scan, or ``stop`` was reached
            first = upto + 1
        return found

    def _scan(self, first: int, last: int, limit: int, topics: Sequence[str]) -> list[Any]:
        """One bounded scan of the log (see ``scripts.SELECT_NOTIFICATIONS``)."""
        select = self.datastore.script(scripts.SELECT_NOTIFICATIONS)
        args: list[str | int] = [first, last, limit, *topics]
        return cast(list[Any], self.datastore.read(lambda: select([self.log_key, self.counter_key], args)))

    def originator_ids(self) -> list[UUID | str]:
        """Every originator this recorder holds events of, found in the index of each one's events (its sorted
        set), not in the log: a record missing from the log hides no originator."""
        head = f"{self.tag}:events:seq:"
        found: list[UUID | str] = []
        for key in self.datastore.keys_like(self.tag, ":events:seq:*"):
            name = key.decode()[len(head) :]
            try:
                found.append(UUID(name))
            except ValueError:
                found.append(name)
        return found

    def max_notification_id(self) -> int | None:
        client = self.datastore.client
        value = self.datastore.read(lambda: client.get(self.counter_key))
        return int(cast(bytes, value)) if value else None

    def last_notice(self) -> bytes:
        """The id of the newest commit notice ('0-0' when there is none): where a blocking read starts."""
        client = self.datastore.client
        tail = cast(
            list[tuple[bytes, Any]], self.datastore.read(lambda: client.xrevrange(self.notices_key, count=1))
        )
        return tail[0][0] if tail else b"0-0"

    def wait_for_notice(self, after: bytes, timeout_ms: int) -> bool:
        """Block until a commit notice newer than ``after`` exists, or the timeout passes (then False)."""
        client = self.datastore.client
        reply = self.datastore.read(
            lambda: client.xread({self.notices_key: after}, count=1, block=timeout_ms)
        )
        return bool(reply)

    def subscribe(
        self, gt: int | None = None, topics: Sequence[str] = ()
    ) -> Subscription[ApplicationRecorder]:
        from replay.store.subscription import RedisSubscription

        return RedisSubscription(recorder=self, gt=gt, topics=topics)


class RedisTrackingRecorder(RedisRecorder, TrackingRecorder):
    """The last processed notification id of each upstream application, in one hash.

    A projection keeps its own data under :meth:`view_key` and changes it with :meth:`insert_tracking`'s
    ``commands``, atomically with the tracking position: a position is recorded exactly when its effects are.
    """

    def view_key(self, name: str) -> str:
        """A key for a view's own data, in this recorder's hash tag (so one script may write it)."""
        return f"{self.tag}:view:{name}"

    def insert_tracking(self, tracking: Tracking, *commands: ViewCommand) -> None:
        """Record ``tracking`` (strictly above the last position of its application, else ``IntegrityError``)
        and run ``commands`` on this view's keys in the same atomic step."""
        keys: dict[str, int] = {self.tracking_key: 1}
        args: list[str | bytes | int | float] = [
            tracking.application_name,
            tracking.notification_id,
            len(commands),
        ]
        for name, key_name, *rest in commands:
            index = keys.setdefault(self.view_key(str(key_name)), len(keys) + 1)
            args += [name, index, len(rest), *rest]
        script = self.datastore.script(scripts.INSERT_TRACKING)
        try:
            self.datastore.write(lambda: script(list(keys), args))
        except OutcomeUnknownError:
            position = self._outcome_or_unknown(lambda: self.max_tracking_id(tracking.application_name))
            if position == tracking.notification_id:
                return
            if position is not None and position > tracking.notification_id:
                raise IntegrityError(
                    f"tracking of {tracking.application_name} moved past {tracking}"
                ) from None
            # Not recorded: the script's own check makes a late first copy harmless.
            try:
                self.datastore.write(lambda: script(list(keys), args))
            except IntegrityError:
                if self.max_tracking_id(tracking.application_name) != tracking.notification_id:
                    raise

    def max_tracking_id(self, application_name: str) -> int | None:
        client = self.datastore.client
        value = self.datastore.read(lambda: client.hget(self.tracking_key, application_name))
        return None if value is None else int(cast(bytes, value))


class RedisProcessRecorder(RedisTrackingRecorder, RedisApplicationRecorder, ProcessRecorder):
    """An application recorder whose appends also record a tracking position, in the same script."""

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        return self._append(stored_events, kwargs.get("tracking"))
