"""Observability: a request id on every request, one structured log line per request, and Prometheus metrics.

The request id follows a request through every log line; the log names routes, never paths (a game's id lets
anyone read it), and never holds a token or a body (docs/operations/observability.md).
"""

from __future__ import annotations

import contextlib
import datetime
import hmac
import itertools
import json
import logging
import os
import re
import shutil
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
from flask import Flask, Response, g, has_request_context, request

from api.server.environment import server_setting

REQUEST_ID_HEADER = "X-Request-ID"
VALID_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:/+=@-]{1,128}$")
TRACEPARENT = re.compile(r"^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$")
"""W3C Trace Context's ``traceparent``: version, trace id, parent id, flags (a later version may add fields)."""
CONFLICT_CODES = ("stale_version", "nothing_to_undo", "nothing_to_redo", "game_closed", "token_superseded")
ONE_TRIP_OUTCOMES = ("stored", "made_again")
"""What became of a move sent in one round trip (replay.one_trip): stored, or made again the ordinary way."""
"""The error codes of refused writes that the conflicts counter shows from zero (api.resources.errors.STATUS)."""
EXTENSION = "heronlog.metrics"
MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods the metrics name; any other (a client may send any token as a method) counts as ``other``, so that
no client can grow the metrics: 300 made-up methods once took a scrape from 39 KB to 548 KB."""
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds; fine below 50 ms, where a recorded move should answer."""

request_log = logging.getLogger("heronlog.request")


# --- what a request tells the observers ---------------------------------------------------------------------


def observe(**facts: Any) -> None:
    """Record facts about the current request for its log line and metrics (``actor``, ``error_code``,
    ``moves``); does nothing outside a request."""
    if has_request_context():
        g.observed = {**g.get("observed", {}), **facts}


def current_request_id() -> str | None:
    return g.get("request_id") if has_request_context() else None


def trace_of(header: str | None) -> tuple[str, str] | None:
    """The trace id and parent id of a W3C ``traceparent`` header, or None for none or a malformed one (an
    all-zero id, or version ff, is invalid)."""
    if not header:
        return None
    match = TRACEPARENT.match(header.strip())
    if match is None:
        return None
    version, trace_id, parent_id, _ = match.groups()
    if version == "ff" or set(trace_id) == {"0"} or set(parent_id) == {"0"}:
        return None
    if version == "00" and len(header.strip()) != 55:  # version 00 has exactly these four fields
        return None
    return trace_id, parent_id


# --- logs -----------------------------------------------------------------------------------------------------

_RECORD_FIELDS = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


def _as_text(value: Any) -> str:
    return str(value)


_LINE_ENCODER = msgspec.json.Encoder(enc_hook=_as_text)
"""Log lines' JSON: what JSON cannot hold is written as its text (``str``), as ``json.dumps(default=str)`` does."""


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time (UTC), level, logger, message, the request id when there is one, the
    fields given with ``extra=``, and the traceback of an exception."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        request_id = getattr(record, "request_id", None) or current_request_id()
        if request_id:
            entry["request_id"] = request_id
        trace = g.get("trace") if has_request_context() else None
        if trace and "trace_id" not in record.__dict__:
            entry["trace_id"] = trace[0]
        for key, value in record.__dict__.items():
            if key not in _RECORD_FIELDS and key not in entry:
                entry[key] = value
        if record.exc_info:
            entry["error"] = error_text(record.exc_info[1])
            entry["traceback"] = traceback_text(record.exc_info)
        elif record.stack_info:
            entry["stack"] = record.stack_info
        try:
            # msgspec writes a line in an eighth of json.dumps's time (0.9 against 7.5 µs for a request's line),
            # and every request writes one.
            return _LINE_ENCODER.encode(entry).decode("utf-8")
        except (TypeError, ValueError, OverflowError):  # a key that is not a string, a number too large...
            return json.dumps(entry, default=str, ensure_ascii=False)


ERROR_TEXT = 200
"""The most characters of an exception's own words a log line keeps."""


def error_text(error: BaseException | None) -> str:
    """An exception as a log line names it: its type and the start of its words. Never its ``repr``: a
    ``UnicodeEncodeError``'s holds the whole text it could not encode (a whole event, a private game's names
    and annotations), and an exception's words may quote what a client sent."""
    if error is None:
        return ""
    words = str(error)
    if len(words) > ERROR_TEXT:
        words = words[:ERROR_TEXT] + f"... ({len(words)} characters)"
    return f"{type(error).__name__}: {words}" if words else type(error).__name__


def traceback_text(exc_info: Any) -> str:
    """The frames of a traceback (file, line, code), each exception of the chain said by :func:`error_text`."""
    kind, error, frames = exc_info
    if error is None:
        return "".join(traceback.format_exception(kind, error, frames))
    lines: list[str] = []
    for part in traceback.TracebackException(kind, error, frames).format(chain=True):
        lines.append(part)
    # The last line of each exception's block repeats its words: keep them short (error_text).
    said = {
        f"{type(each).__name__}: {each}\n": error_text(each) + "\n" for each in _chain(error) if str(each)
    }
    return "".join(said.get(line, line) for line in lines)


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and the exceptions it was raised from or during."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


class LineHandler(logging.Handler):
    """Each record one line, written to standard error (or ``fd``) in one ``write(2)``; the handler's lock is
    held across that system call only, never while the line is formatted.

    The standard ``StreamHandler`` holds its lock while it formats the record, writes it and flushes, and a
    worker's eight threads each log every request they answer: a thread holding that lock gives up the
    interpreter lock for the system call, the next request's thread runs, reaches its own log line and waits.
    Under the load benchmark's 500 moves/s that waiting cost more than the line itself (interleaved runs: the
    README, "Load"). Here a line is formatted first and the lock covers only its write, a few microseconds.

    The lock is still needed: a pipe that is full takes part of a long write and the writer waits for room, and
    another thread's line written meanwhile would land inside it. A line of at most ``PIPE_BUF`` bytes reaches
    a pipe (a container's log) whole whatever other processes write too; a longer one (a traceback) is whole
    among this process's lines."""

    def __init__(self, fd: int = 2) -> None:
        super().__init__()
        self.fd = fd

    def handle(self, record: logging.LogRecord) -> bool:
        if not self.filter(record):
            return False
        self.emit(record)
        return True

    def emit(self, record: logging.LogRecord) -> None:
        try:
            data = (self.format(record) + "\n").encode("utf-8", "backslashreplace")
            with self.lock:  # type: ignore[union-attr]  # made by Handler.__init__
                self._write(data)
        except Exception:
            self.handleError(record)

    def _write(self, data: bytes) -> None:
        while data:  # a write to a regular file or a pipe may take less than all (a full disk, a signal)
            data = data[os.write(self.fd, data) :]


def logging_config(log_format: str, level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for ``heronlog serve``: everything on standard error, as JSON or as
    text; gunicorn's own access log stays off (``heronlog.request`` has it)."""
    if log_format not in ("json", "text"):
        raise ValueError(f"HERONLOG_LOG_FORMAT is json or text, not {log_format!r}")
    level = level.upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ValueError(f"HERONLOG_LOG_LEVEL is debug, info, warning or error, not {level.lower()!r}")
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"}
        if log_format == "json"
        else {"format": "%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s"}
    )
    console = {"class": f"{__name__}.LineHandler", "formatter": "heronlog"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"heronlog": formatter},
        # an answer its client did not take in time is one line of information, not gunicorn's error and traceback
        "filters": {"untaken": {"()": "api.server.slow_clients.UntakenAnswers"}},
        "handlers": {"console": console},
        "root": {"level": level, "handlers": ["console"]},
        "loggers": {
            "gunicorn.error": {
                "level": level,
                "handlers": ["console"],
                "propagate": False,
                "filters": ["untaken"],
            },
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
        },
    }


def gunicorn_logger_class(config: Mapping[str, Any]) -> type:
    """gunicorn's logger class, configured with ``config`` (:func:`logging_config`) in the master and every
    worker, and without an access log of its own: ``heronlog.request`` is the access log, so gunicorn need not
    build its access-log data for every request (it does whenever a logging configuration is given to it)."""
    import logging.config

    from gunicorn import glogging

    class HeronlogGunicornLogger(glogging.Logger):  # type: ignore[misc]  # gunicorn ships no type hints
        def setup(self, cfg: Any) -> None:
            super().setup(cfg)
            logging.config.dictConfig(dict(config))

        @property
        def access_log_enabled(self) -> bool:  # gunicorn 25+: asked before building a request's log data
            return False

        def access(self, *_args: Any, **_kwargs: Any) -> None:
            return None

    return HeronlogGunicornLogger


# --- metrics --------------------------------------------------------------------------------------------------


class Metrics:
    """The app's Prometheus metrics, in a registry of its own (several apps may live in one test process)."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.requests = Counter(
            "heronlog_http_requests",
            "HTTP requests answered, by method (other: one HTTP does not define), route template and status.",
            ["method", "route", "status"],
            registry=registry,
        )
        self.latency = Histogram(
            "heronlog_http_request_duration_seconds",
            "Time from a request's arrival to its answer being ready (a stream: until it starts).",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.moves = Counter(
            "heronlog_moves_recorded",
            "Moves recorded (a retry with the same Idempotency-Key counts once).",
            registry=registry,
        )
        self.conflicts = Counter(
            "heronlog_conflicts",
            "Writes refused because the game moved on (412 stale_version) or is not in a state for them (409: "
            "nothing to undo or redo, game closed...), by error code.",
            ["error_code"],
            registry=registry,
        )
        for code in CONFLICT_CODES:  # from zero (see the module docstring)
            self.conflicts.labels(code)
        self.store_errors = Counter(
            "heronlog_store_errors",
            "Answers 503 store_unavailable: the event store did not answer, by route.",
            ["route"],
            registry=registry,
        )
        self.rate_limited = Counter(
            "heronlog_rate_limited",
            "Writes refused with 429 rate_limited.",
            registry=registry,
        )
        self.one_trip = Counter(
            "heronlog_one_trip_moves",
            "Moves decided on the game a worker held and sent in one round trip, by outcome: stored, or made again "
            "the ordinary way (the store held something else, or the move was refused on what was held).",
            ["outcome"],
            registry=registry,
        )
        for outcome in ONE_TRIP_OUTCOMES:
            self.one_trip.labels(outcome)
        # Memory, per worker ("liveall": one series per live worker process, labelled with its pid).
        self.cache_bytes = Gauge(
            "heronlog_cache_bytes",
            "Estimated bytes held by the worker's warm cache of games (replay.cache).",
            registry=registry,
            multiprocess_mode="liveall",
        )
        self.cache_budget = Gauge(
            "heronlog_cache_budget_bytes",
            "The warm cache's budget (HERONLOG_CACHE_MB): it never holds more.",
            registry=registry,
            multiprocess_mode="liveall",
        )
        self.cache_entries = Gauge(
            "heronlog_cache_entries",
            "Games (and what is derived from them) held by the worker's warm cache.",
            registry=registry,
            multiprocess_mode="liveall",
        )
        self.cache_lookups = Counter(
            "heronlog_cache_lookups",
            "Reads of the warm cache, by outcome: hit (the fold was kept) or miss (read from the store).",
            ["outcome"],
            registry=registry,
        )
        self.cache_evictions = Counter(
            "heronlog_cache_evictions",
            "Folds pushed out of the warm cache to stay within its budget.",
            registry=registry,
        )
        self.resident = Gauge(
            "heronlog_worker_resident_bytes",
            "The worker process's resident memory (RSS).",
            registry=registry,
            multiprocess_mode="liveall",
        )
        self.memory_source: Callable[[], Any | None] = lambda: None
        """What :meth:`sample_memory` reads: the game log's cache figures (``replay.cache.CacheStats``), or None
        before the game log is built (``api.app.create_app`` sets it)."""
        self._sampled_at = 0.0
        self._counted: tuple[int, int, int] = (0, 0, 0)
        self._routes_known = False

    def know_routes(self, app: Flask) -> None:
        """Show every route's store errors from zero; done once, at the first request (the routes are all
        registered by then)."""
        if self._routes_known:
            return
        self._routes_known = True
        for route in sorted({rule.rule for rule in app.url_map.iter_rules()}):
            self.store_errors.labels(route)

    def observe(self, method: str, route: str, status: int, seconds: float, facts: Mapping[str, Any]) -> None:
        method = method if method in METHODS else "other"
        self.requests.labels(method, route, str(status)).inc()
        self.latency.labels(method, route).observe(seconds)
        moves = facts.get("moves")
        if moves:
            self.moves.inc(moves)
        if status in (409, 412):
            self.conflicts.labels(str(facts.get("error_code") or "conflict")).inc()
        elif status == 503:
            self.store_errors.labels(route).inc()
        elif status == 429:
            self.rate_limited.inc()
        if (trip := facts.get("one_trip")) in ONE_TRIP_OUTCOMES:
            self.one_trip.labels(trip).inc()
        if time.monotonic() - self._sampled_at >= 1.0:
            self.sample_memory()

    def sample_memory(self) -> None:
        """Read this worker's memory figures now (the cache's counters are added as they grew since)."""
        self._sampled_at = time.monotonic()
        resident = resident_bytes()
        if resident is not None:
            self.resident.set(resident)
        stats = self.memory_source()
        if stats is None:
            return
        self.cache_bytes.set(stats.bytes)
        self.cache_budget.set(stats.budget)
        self.cache_entries.set(stats.entries)
        hits, misses, evictions = self._counted
        self.cache_lookups.labels("hit").inc(max(0, stats.hits - hits))
        self.cache_lookups.labels("miss").inc(max(0, stats.misses - misses))
        self.cache_evictions.inc(max(0, stats.evictions - evictions))
        self._counted = (stats.hits, stats.misses, stats.evictions)

    def exposition(self, accept: str = "") -> tuple[bytes, str]:
        """The metrics in the format ``accept`` asks for (OpenMetrics when it names
        ``application/openmetrics-text``, else Prometheus' text format), and its content type. Under gunicorn,
        the sum over every worker's files; the build info and the process series of this process are added."""
        from prometheus_client import CollectorRegistry
        from prometheus_client.exposition import choose_encoder

        try:
            self.sample_memory()
        except Exception:  # the figures of the other metrics are still worth answering
            logging.getLogger("api").warning("could not sample the memory figures", exc_info=True)
        registry = CollectorRegistry()
        if os.environ.get(MULTIPROC_DIR):
            from prometheus_client import multiprocess

            multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # untyped in the library
        else:
            registry.register(_Forward(self.registry))
        _process_series(registry)
        encoder, content_type = choose_encoder(accept)
        return encoder(registry), content_type


class _Forward:
    """A collector that hands on another registry's metrics (the app's own, when no worker files exist)."""

    def __init__(self, registry: Any) -> None:
        self.registry = registry

    def collect(self) -> Any:
        return self.registry.collect()


class _BuildInfo:
    """``heronlog_build_info``: 1, labelled with heronlog's version and the Python that runs it."""

    def collect(self) -> Any:
        import platform

        from prometheus_client.core import GaugeMetricFamily

        from replay.health import package_version

        family = GaugeMetricFamily(
            "heronlog_build_info",
            "heronlog's version and the Python running it (always 1).",
            labels=["version", "python", "implementation"],
        )
        family.add_metric([package_version(), platform.python_version(), platform.python_implementation()], 1)
        yield family


def _process_series(registry: Any) -> None:
    """The build info, and the ``process_*`` and ``python_info`` series of the process answering the scrape."""
    from prometheus_client import PlatformCollector, ProcessCollector

    registry.register(_BuildInfo())
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)


def resident_bytes() -> int | None:
    """This process's resident memory, from ``/proc/self/statm`` (None where there is no such file)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


# --- wiring ---------------------------------------------------------------------------------------------------


class _RequestIds:
    """New request ids: 32 hexadecimal digits, a random prefix drawn once per process and a counter. A random
    UUID per request cost a system call and an object on every request; ids only need to differ from each
    other (they are no secret). A forked process (a gunicorn worker) draws a prefix of its own."""

    def __init__(self) -> None:
        self.reset()
        os.register_at_fork(after_in_child=self.reset)

    def reset(self) -> None:
        self.prefix = os.urandom(8).hex()
        self.counter = itertools.count(1)  # next() on it is atomic under the GIL: threads share it safely

    def new(self) -> str:
        return f"{self.prefix}{next(self.counter) & 0xFFFFFFFFFFFFFFFF:016x}"


_request_ids = _RequestIds()


def request_id_from(header: str | None) -> str:
    """The client's request id when it is a sensible one, else a new one (never an unbounded string)."""
    if header and VALID_REQUEST_ID.match(header):
        return header
    return _request_ids.new()


def install(app: Flask) -> Metrics:
    """Request ids and the request log on ``app``, and the metrics it counts (served at ``GET /metrics`` by
    :func:`api.app.create_app`, with :func:`metrics_token`). Call it before any other
    ``before_request`` hook (the rate limit...), so that every answer, refusals included, is counted."""
    metrics = Metrics()
    app.extensions[EXTENSION] = metrics

    @app.before_request
    def start_request() -> None:
        g.request_started = time.perf_counter()
        g.request_id = request_id_from(request.headers.get(REQUEST_ID_HEADER))
        g.trace = trace_of(request.headers.get("traceparent"))
        metrics.know_routes(app)

    @app.after_request
    def finish_request(response: Response) -> Response:
        started = g.get("request_started")
        seconds = time.perf_counter() - started if started is not None else 0.0
        request_id = g.get("request_id") or request_id_from(None)
        response.headers[REQUEST_ID_HEADER] = request_id
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        facts: dict[str, Any] = g.get("observed", {})
        try:
            metrics.observe(request.method, route, response.status_code, seconds, facts)
        except Exception:  # a metrics failure must never cost the client its answer
            logging.getLogger("api").warning("could not update the metrics", exc_info=True)
        actor = facts.get("actor")
        fields: dict[str, Any] = {
            "method": request.method,
            "route": route,
            "status": response.status_code,
            "duration_ms": round(seconds * 1000, 2),
            "request_id": request_id,
            "role": actor.split(":", 1)[0] if actor else "none",
            "actor": actor,
        }
        fields["client"] = request.remote_addr
        forwarded = request.headers.get("X-Forwarded-For")
        if forwarded:  # said by a proxy (or by anyone: it is logged as what it is, never trusted)
            fields["forwarded_for"] = forwarded[:200]
        trace = g.get("trace")
        if trace:
            fields["trace_id"], fields["parent_id"] = trace
        if "error_code" in facts:
            fields["error_code"] = facts["error_code"]
        level = logging.WARNING if response.status_code >= 500 else logging.INFO
        request_log.log(level, "%s %s %s", request.method, route, response.status_code, extra=fields)
        return response

    return metrics


def metrics_token(app: Flask) -> str:
    """The token ``GET /metrics`` needs (``HERONLOG_METRICS_TOKEN``), or "" when it needs none."""
    return str(app.config.get("METRICS_TOKEN") or os.environ.get("HERONLOG_METRICS_TOKEN") or "")


def token_matches(sent: str, token: str) -> bool:
    """Whether an ``Authorization`` header carries the metrics token (compared in constant time)."""
    return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


# --- heronlog serve -------------------------------------------------------------------------------------------


@contextlib.contextmanager
def serving(environ: dict[str, str] | os._Environ[str]) -> Iterator[dict[str, Any]]:
    """Prepare a ``heronlog serve`` process: a metrics folder shared by the workers (the given
    ``PROMETHEUS_MULTIPROC_DIR``, emptied of earlier figures, or a fresh temporary one, removed at the end)
    and the gunicorn options for logging and worker bookkeeping. Must run before anything imports
    ``prometheus_client``: the library picks its multi-process mode when it is first imported."""
    config = logging_config(
        server_setting(environ, "HERONLOG_LOG_FORMAT"), server_setting(environ, "HERONLOG_LOG_LEVEL")
    )
    given = environ.get(MULTIPROC_DIR)
    folder = Path(given) if given else Path(tempfile.mkdtemp(prefix="heronlog-metrics-"))
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.db"):
        stale.unlink()
    environ[MULTIPROC_DIR] = str(folder)

    def child_exit(_server: Any, worker: Any) -> None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]  # untyped in the library

    try:
        yield {"logger_class": gunicorn_logger_class(config), "child_exit": child_exit}
    finally:
        if not given:
            shutil.rmtree(folder, ignore_errors=True)
