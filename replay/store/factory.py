"""The infrastructure factory that the eventsourcing library finds with ``PERSISTENCE_MODULE=replay.store``."""

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
    REDIS_GATHER = "REDIS_GATHER"
    REDIS_ONE_TRIP_MOVES = "REDIS_ONE_TRIP_MOVES"

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
            gather=strtobool(self.env.get(self.REDIS_GATHER) or "yes"),
            one_trip=strtobool(self.env.get(self.REDIS_ONE_TRIP_MOVES) or "yes"),
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
