"""Every environment variable heronlog reads, in one table: the store's (``replay.config.STORE_VARIABLES``), the
server's (:data:`SERVER_VARIABLES`) and the API's settings (``HERONLOG_<NAME>`` for each of
:data:`DEFAULTS`).

The code reads its environment through these tables (:func:`server_setting`, ``replay.config.setting``), so
the table is complete by construction; the README's configuration section and the docker files are checked
against :func:`variables` by the tests.
"""

from __future__ import annotations

from collections.abc import Mapping

from replay.config import STORE_VARIABLES, Variable

DEFAULTS: Mapping[str, int | float] = {
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,  # bytes: an exported game with its catalog fits many times over
    "RATE_LIMIT_WINDOW": 60,  # seconds
    "RATE_LIMIT_PER_TOKEN": 600,  # writes per window per token (0: no limit)
    "RATE_LIMIT_PER_ADDRESS": 120,  # writes per window per client address, for writes without a token
    "IDEMPOTENCY_TTL": 3600,  # seconds a receipt (the answer of a creation that handed out a token) is kept
    "STREAM_MAX_SECONDS": 300.0,  # the longest an event stream stays open (the browser then reconnects)
    "STREAM_HEARTBEAT_SECONDS": 15.0,
    "STREAM_POLL_SECONDS": 0.5,
    "STREAM_MAX_OPEN": 0,  # event streams open at once per process (0: no cap; heronlog serve: threads - 2)
}
"""The API's settings with their defaults; each may be given in ``create_app``'s config or as
``HERONLOG_<NAME>``."""


SERVER_VARIABLES: tuple[Variable, ...] = (
    Variable(
        "HERONLOG_HOST", "127.0.0.1", "address `heronlog serve` listens on (`0.0.0.0` in the container)"
    ),
    Variable("HERONLOG_PORT", "8000", "port `heronlog serve` listens on"),
    Variable("HERONLOG_WORKERS", "1", "gunicorn worker processes (keep 1 on SQLite)"),
    Variable("HERONLOG_THREADS", "8", "threads per worker; each open event stream holds one"),
    Variable(
        "HERONLOG_REUSE_PORT",
        "no",
        "`no`: the workers share one socket and take turns, each holding about as many connections; `yes`: each "
        "worker listens on its own socket (`SO_REUSEPORT`) and the kernel spreads connections by a hash",
    ),
    Variable(
        "HERONLOG_PIN_WORKERS",
        "auto",
        "`auto`: each worker kept on a CPU of its own when there are as many workers as CPUs to run on; `yes`: "
        "always; `no`: never (the kernel moves them)",
    ),
    Variable("HERONLOG_LOG_FORMAT", "json", "`json` (one object per line) or `text`"),
    Variable("HERONLOG_LOG_LEVEL", "info", "`debug`, `info`, `warning` or `error`"),
    Variable("HERONLOG_METRICS_TOKEN", None, "when set, `GET /metrics` needs `Authorization: Bearer <it>`"),
    Variable(
        "PROMETHEUS_MULTIPROC_DIR",
        None,
        "folder where the workers keep their metrics (default: a fresh temporary folder per `serve`)",
    ),
)
"""Variables of ``heronlog serve`` and of the logs and metrics."""

SETTING_MEANINGS: Mapping[str, str] = {
    "MAX_CONTENT_LENGTH": "largest request body, in bytes",
    "RATE_LIMIT_WINDOW": "seconds of a rate-limit window",
    "RATE_LIMIT_PER_TOKEN": "writes per window per token (0: no limit)",
    "RATE_LIMIT_PER_ADDRESS": "writes per window per client address, for writes that take no token (0: no limit)",
    "IDEMPOTENCY_TTL": (
        "seconds a receipt is kept: the answer of a retried creation that handed out a token (a new game's owner "
        "token, a seat token); every other write's retry is answered from the log, however late"
    ),
    "STREAM_MAX_SECONDS": "the longest an event stream stays open",
    "STREAM_HEARTBEAT_SECONDS": "seconds between an event stream's heartbeat comments",
    "STREAM_POLL_SECONDS": (
        "how often an event stream looks for new events on SQLite or in memory (on Redis a new event wakes it)"
    ),
    "STREAM_MAX_OPEN": (
        "event streams one process holds open at once (0: no cap; unset, `heronlog serve` takes its threads "
        "less two, at least 1); one more is `503 too_many_streams` with `Retry-After: 5`"
    ),
}
"""What each of ``DEFAULTS`` means (a test checks that none is missing)."""

_SERVER = {variable.name: variable for variable in SERVER_VARIABLES}


def server_setting(environ: Mapping[str, str], name: str) -> str:
    """The value of a declared server variable with a default: set and not empty, else the default."""
    declared = _SERVER[name]
    value = environ.get(name) or declared.default
    if value is None:
        raise KeyError(f"{name} has no default")
    return value


def variables() -> dict[str, Variable]:
    """Every variable heronlog reads, by name, in the order the README lists them."""
    settings = tuple(
        Variable(f"HERONLOG_{name}", str(default), SETTING_MEANINGS.get(name, ""))
        for name, default in DEFAULTS.items()
    )
    return {variable.name: variable for variable in (*STORE_VARIABLES, *SERVER_VARIABLES, *settings)}
