"""The infrastructure factory that the eventsourcing library finds with ``PERSISTENCE_MODULE=replay.store``.

Environment keys (each may be given per application too, as ``<APPLICATION NAME>_<KEY>``, the library's rule):

``REDIS_URL``
    required: ``redis://[user:password@]host:port/db``, ``rediss://...`` (TLS) or ``unix://...``.
``REDIS_KEY_PREFIX``
    first part of every key's hash tag ``{<prefix>:<application name>}`` (default ``heronlog``).
``REDIS_CLUSTER``
    ``auto`` (default: ask the server with ``INFO cluster``), or yes/no to skip the question.
``REDIS_SOCKET_TIMEOUT``
    seconds to wait for a reply (default 10).
``REDIS_SUBSCRIBE_BLOCK_MS``
    how long a subscription's blocking read waits before it checks whether it was stopped (default 200).
``REDIS_WAIT_REPLICAS``
    replicas that must confirm each append of events before it is acknowledged (default 0: the master's own
    word, with its fsync policy); a write they do not confirm in time raises ``NotReplicatedError``.
``REDIS_WAIT_TIMEOUT_MS``
    how long an append waits for those replicas (default 1000).

and the library's own keys: ``APPLICATION_RECORDER_TOPIC``, ``TRACKING_RECORDER_TOPIC``,
``PROCESS_RECORDER_TOPIC``, ``TRANSCODER_TOPIC``, ``COMPRESSOR_TOPIC``, ``CIPHER_TOPIC``/``CIPHER_KEY``,
``IS_SNAPSHOTTING_ENABLED`` (snapshots are kept by an aggregate recorder with ``purpose="snapshots"``).
"""

from __future__ import annotations

from types import TracebackType
from typing import TypeVar, cast

from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    InfrastructureFactory,
    ProcessRecorder,
)
from eventsourcing.utils import Environment, EnvType, resolve_topic, strtobool

from replay.store.datastore import (
    DEFAULT_PREFIX,
    DEFAULT_SOCKET_TIMEOUT,
    DEFAULT_SUBSCRIBE_BLOCK_MS,
    DEFAULT_WAIT_TIMEOUT_MS,
    RedisDatastore,
)
from replay.store.recorders import (
    RedisAggregateRecorder,
    RedisApplicationRecorder,
    RedisProcessRecorder,
    RedisTrackingRecorder,
)

TRedisTrackingRecorder = TypeVar("TRedisTrackingRecorder", bound=RedisTrackingRecorder)


class RedisFactory(InfrastructureFactory[RedisTrackingRecorder]):
    """Builds the Redis recorders of one application, sharing one connection pool."""

    REDIS_URL = "REDIS_URL"
    REDIS_KEY_PREFIX = "REDIS_KEY_PREFIX"
    REDIS_CLUSTER = "REDIS_CLUSTER"
    REDIS_SOCKET_TIMEOUT = "REDIS_SOCKET_TIMEOUT"
    REDIS_SUBSCRIBE_BLOCK_MS = "REDIS_SUBSCRIBE_BLOCK_MS"
    REDIS_WAIT_REPLICAS = "REDIS_WAIT_REPLICAS"
    REDIS_WAIT_TIMEOUT_MS = "REDIS_WAIT_TIMEOUT_MS"

    aggregate_recorder_class = RedisAggregateRecorder
    application_recorder_class = RedisApplicationRecorder
    tracking_recorder_class = RedisTrackingRecorder
    process_recorder_class = RedisProcessRecorder

    def __init__(self, env: Environment | EnvType | None) -> None:
        super().__init__(env)
        url = self.env.get(self.REDIS_URL)
        if not url:
            raise OSError(f"Redis URL not found in environment with key '{self.REDIS_URL}'")
        cluster = self.env.get(self.REDIS_CLUSTER, "auto").strip().lower()
        self.datastore = RedisDatastore(
            url,
            prefix=self.env.get(self.REDIS_KEY_PREFIX) or DEFAULT_PREFIX,
            cluster=None if cluster in ("", "auto") else strtobool(cluster),
            socket_timeout=self._number(self.REDIS_SOCKET_TIMEOUT, DEFAULT_SOCKET_TIMEOUT),
            subscribe_block_ms=int(self._number(self.REDIS_SUBSCRIBE_BLOCK_MS, DEFAULT_SUBSCRIBE_BLOCK_MS)),
            wait_replicas=int(self._number(self.REDIS_WAIT_REPLICAS, 0)),
            wait_timeout_ms=int(self._number(self.REDIS_WAIT_TIMEOUT_MS, DEFAULT_WAIT_TIMEOUT_MS)),
        )

    def _number(self, key: str, default: float) -> float:
        text = self.env.get(key)
        if not text:
            return default
        try:
            return float(text)
        except ValueError:
            raise OSError(f"Redis environment value for key '{key}' must be a number: {text!r}") from None

    @property
    def application_name(self) -> str:
        """The name the keys are namespaced with: the environment's (the application's) name."""
        return self.env.name

    def aggregate_recorder(self, purpose: str = "events") -> AggregateRecorder:
        return type(self).aggregate_recorder_class(
            self.datastore, name=self.application_name, purpose=purpose
        )

    def application_recorder(self) -> ApplicationRecorder:
        topic = self.env.get(self.APPLICATION_RECORDER_TOPIC)
        recorder_class = resolve_topic(topic) if topic else type(self).application_recorder_class
        assert issubclass(recorder_class, RedisApplicationRecorder), recorder_class
        return cast(ApplicationRecorder, recorder_class(self.datastore, name=self.application_name))

    def tracking_recorder(
        self, tracking_recorder_class: type[TRedisTrackingRecorder] | None = None
    ) -> TRedisTrackingRecorder:
        if tracking_recorder_class is None:
            topic = self.env.get(self.TRACKING_RECORDER_TOPIC)
            tracking_recorder_class = cast(
                type[TRedisTrackingRecorder],
                resolve_topic(topic) if topic else type(self).tracking_recorder_class,
            )
        assert issubclass(tracking_recorder_class, RedisTrackingRecorder), tracking_recorder_class
        return tracking_recorder_class(self.datastore, name=self.application_name)

    def process_recorder(self) -> ProcessRecorder:
        topic = self.env.get(self.PROCESS_RECORDER_TOPIC)
        recorder_class = resolve_topic(topic) if topic else type(self).process_recorder_class
        assert issubclass(recorder_class, RedisProcessRecorder), recorder_class
        return cast(ProcessRecorder, recorder_class(self.datastore, name=self.application_name))

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        super().__exit__(exc_type, exc_val, exc_tb)
        self.close()

    def close(self) -> None:
        self.datastore.close()
