"""Every environment variable heronlog reads, in one table: the store's (``replay.config.STORE_VARIABLES``), the
server's (:data:`SERVER_VARIABLES`) and the API's settings (``HERONLOG_<NAME>`` for each of :data:`DEFAULTS`).

The code reads its environment only through this table, and docs/operations/configuration.md is held to it.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping

from replay.analysis_queue import ANALYSIS_VARIABLES
from replay.config import STORE_VARIABLES, Variable

DEFAULTS: Mapping[str, int | float] = {
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,  # bytes: an exported game with its catalog fits many times over
    "RATE_LIMIT_WINDOW": 60,  # seconds
    "RATE_LIMIT_PER_TOKEN": 600,  # writes per window per token (0: no limit)
    "RATE_LIMIT_PER_ADDRESS": 120,  # writes per window per client address, for writes without a token
    "RATE_LIMIT_PER_SOURCE": 60,  # forks and imports per window of one game they come from (0: no limit)
    "IMPORT_MAX_EVENTS": 1000,  # events (game and annotations) one import may hold (0: no cap)
    "IMPORT_EVENTS_PER_WRITE": 50,  # an import counts as one write per this many events, in the rate limit
    "IMPORTS_AT_ONCE": 1,  # heavy imports (over 500 events) one process refolds at once (0: no cap)
    "BODY_BYTES_PER_WRITE": 64 * 1024,  # a write counts as one write per this many bytes of its body
    "IDEMPOTENCY_TTL": 3600,  # seconds a receipt (the answer of a creation that handed out a token) is kept
    "STREAM_MAX_SECONDS": 300.0,  # the longest an event stream stays open (the browser then reconnects)
    "STREAM_HEARTBEAT_SECONDS": 15.0,
    "STREAM_POLL_SECONDS": 0.5,
    "STREAM_MAX_OPEN": 0,  # event streams open at once per process (0: no cap; heronlog serve: 100)
    "ANALYSIS_PLAYOUTS": 200,  # playouts per decision of a game's analysis, unless the request asks otherwise
    "ANALYSE_MAX_PLAYOUTS": 64,  # the most playouts POST /api/analyse runs
    "ANALYSE_MAX_SECONDS": 0.2,  # the longest POST /api/analyse evaluates
    "ANALYSE_PLAYOUTS_PER_WRITE": 100,  # POST /api/analyse counts as one write per this many playouts
    "ANALYSES_AT_ONCE": 1,  # POST /api/analyse evaluations one process runs at once (0: no cap)
}
"""The API's settings with their defaults; each may be given in ``create_app``'s config or as
``HERONLOG_<NAME>``."""


SERVER_VARIABLES: tuple[Variable, ...] = (
    Variable(
        "HERONLOG_HOST", "127.0.0.1", "address `heronlog serve` listens on (`0.0.0.0` in the container)"
    ),
    Variable("HERONLOG_PORT", "8000", "port `heronlog serve` listens on"),
    Variable("HERONLOG_WORKERS", "1", "gunicorn worker processes (keep 1 on SQLite)"),
    Variable(
        "HERONLOG_CONNECTIONS",
        "4096",
        "connections each worker holds at once (gunicorn's `worker_connections`); more wait to be accepted",
    ),
    Variable(
        "HERONLOG_CONCURRENT_REQUESTS",
        "8",
        "requests each worker runs in the app at once; more wait their turn, first come, first served (0: no "
        "limit)",
    ),
    Variable(
        "HERONLOG_TRUSTED_PROXIES",
        "0",
        "proxies in front of `heronlog serve` whose `X-Forwarded-For` names the client (the compose files: 1); "
        "0: the connection's own address",
    ),
    Variable(
        "HERONLOG_REUSE_PORT",
        "auto",
        "`auto`: `yes` with several workers; `yes`: each worker listens on its own socket (`SO_REUSEPORT`) and the "
        "kernel spreads connections by a hash; `no`: the workers share one socket",
    ),
    Variable(
        "HERONLOG_PIN_WORKERS",
        "auto",
        "`auto`: each worker kept on a CPU of its own when there are as many workers as CPUs to run on; `yes`: "
        "always; `no`: never (the kernel moves them)",
    ),
    Variable(
        "HERONLOG_ENGINE",
        "pure",
        "the rules engine: `pure` (the Python source) or `compiled` (the build `make compiled` makes)",
    ),
    Variable("HERONLOG_ENGINE_BUILD", "build/compiled", "the folder of the compiled engine's build"),
    Variable("HERONLOG_LOG_FORMAT", "json", "`json` (one object per line) or `text`"),
    Variable("HERONLOG_LOG_LEVEL", "info", "`debug`, `info`, `warning` or `error`"),
    Variable("HERONLOG_METRICS_TOKEN", None, "when set, `GET /metrics` needs `Authorization: Bearer <it>`"),
    Variable(
        "HERONLOG_CORS_ORIGINS",
        None,
        "origins whose pages may call the API (`https://club.example,https://b.example`, or `*`); unset: none",
    ),
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
    "RATE_LIMIT_PER_ADDRESS": (
        "writes per window per client address, for the writes that take no token and for every creation (a "
        "game, a fork, an import, a score sheet; 0: no limit)"
    ),
    "RATE_LIMIT_PER_SOURCE": (
        "forks and imports per window of one game they come from (the game forked; the game an export was "
        "taken from; 0: no limit)"
    ),
    "IMPORT_MAX_EVENTS": (
        "the most events (of the game and of its annotations) an import may hold; more is "
        "`413 import_too_large` (0: no cap)"
    ),
    "IMPORT_EVENTS_PER_WRITE": (
        "an import counts in the rate limit of its address as one write per this many of its events (at least "
        "one, at most the whole limit)"
    ),
    "IMPORTS_AT_ONCE": (
        "imports of more than 500 events one process refolds at once; one more is `503 too_many_imports` with "
        "`Retry-After` (0: no cap)"
    ),
    "BODY_BYTES_PER_WRITE": (
        "a write counts in its rate limit as one write per this many bytes of its body (at least one, at most "
        "the whole limit), refused or not; an import counts by its events or its bytes, whichever weighs more"
    ),
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
        "event streams one process holds open at once (0: no cap; unset, `heronlog serve` takes 100 per "
        "worker); one more is `503 too_many_streams` with `Retry-After: 5`"
    ),
    "ANALYSIS_PLAYOUTS": "playouts per decision of a game's analysis, unless the request asks for another number",
    "ANALYSE_MAX_PLAYOUTS": "the most playouts `POST /api/analyse` runs (a request asking more gets this many)",
    "ANALYSE_MAX_SECONDS": "the longest `POST /api/analyse` evaluates, in seconds",
    "ANALYSE_PLAYOUTS_PER_WRITE": (
        "`POST /api/analyse` counts in the rate limit of its address as one write per this many playouts"
    ),
    "ANALYSES_AT_ONCE": (
        "`POST /api/analyse` evaluations one process runs at once; one more is `503 too_many_analyses` (0: no cap)"
    ),
}
"""What each of ``DEFAULTS`` means (a test checks that none is missing)."""

_SERVER = {variable.name: variable for variable in SERVER_VARIABLES}


LOWEST: Mapping[str, int | float] = {
    "MAX_CONTENT_LENGTH": 1,
    "RATE_LIMIT_WINDOW": 1,
    "RATE_LIMIT_PER_TOKEN": 0,
    "RATE_LIMIT_PER_ADDRESS": 0,
    "RATE_LIMIT_PER_SOURCE": 0,
    "IMPORT_MAX_EVENTS": 0,
    "IMPORT_EVENTS_PER_WRITE": 1,
    "IMPORTS_AT_ONCE": 0,
    "BODY_BYTES_PER_WRITE": 1,
    "IDEMPOTENCY_TTL": 1,
    "STREAM_MAX_SECONDS": 0.001,
    "STREAM_HEARTBEAT_SECONDS": 0.001,
    "STREAM_POLL_SECONDS": 0.001,
    "STREAM_MAX_OPEN": 0,
    "ANALYSIS_PLAYOUTS": 10,
    "ANALYSE_MAX_PLAYOUTS": 2,
    "ANALYSE_MAX_SECONDS": 0.01,
    "ANALYSE_PLAYOUTS_PER_WRITE": 1,
    "ANALYSES_AT_ONCE": 0,
}
"""The smallest value each of :data:`DEFAULTS` takes (a test checks that none is missing)."""

CHOICES: Mapping[str, tuple[str, ...]] = {
    "HERONLOG_REUSE_PORT": ("auto", "yes", "no"),
    "HERONLOG_PIN_WORKERS": ("auto", "yes", "no"),
    "HERONLOG_LOG_FORMAT": ("json", "text"),
    "HERONLOG_LOG_LEVEL": ("debug", "info", "warning", "error"),
}
"""The server variables that take one of a few words."""

RANGES: Mapping[str, tuple[int, int]] = {
    "HERONLOG_PORT": (1, 65535),
    "HERONLOG_WORKERS": (1, 256),
    "HERONLOG_CONNECTIONS": (16, 1_000_000),
    "HERONLOG_CONCURRENT_REQUESTS": (0, 10_000),
    "HERONLOG_TRUSTED_PROXIES": (0, 10),
}
"""The server variables that take a whole number, and its bounds."""


class SettingError(ValueError):
    """A setting whose value cannot be used: its message is the one line ``heronlog serve`` stops with."""


def whole_number(label: str, text: str, lowest: int, highest: int | None = None) -> int:
    """``text`` (the value of the setting ``label``) as a whole number from ``lowest`` to ``highest``."""
    stripped = text.strip()
    bounds = f"from {lowest} to {highest}" if highest is not None else f"of {lowest} or more"
    if (
        not (stripped.isdigit() or (stripped.startswith("-") and stripped[1:].isdigit()))
        or len(stripped) > 18
    ):
        raise SettingError(f"{label} must be a whole number {bounds}, not {text!r}")
    value = int(stripped)
    if value < lowest or (highest is not None and value > highest):
        raise SettingError(f"{label} must be a whole number {bounds}, not {text!r}")
    return value


def api_setting(name: str, text: str) -> int | float:
    """The value of ``HERONLOG_<name>`` (one of :data:`DEFAULTS`) read from ``text``, or :class:`SettingError`."""
    label = f"HERONLOG_{name}"
    lowest = LOWEST[name]
    if isinstance(DEFAULTS[name], int):
        return whole_number(label, text, int(lowest))
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < lowest:
        raise SettingError(f"{label} must be a number of seconds above 0, not {text!r}")
    return value


def check_api_settings(environ: Mapping[str, str]) -> list[str]:
    """What is wrong with the API's settings in ``environ`` (``HERONLOG_<NAME>`` for each of :data:`DEFAULTS`),
    one line each: ``create_app`` would otherwise fail in every worker, and the server answer nothing."""
    problems = []
    for name in DEFAULTS:
        text = environ.get(f"HERONLOG_{name}")
        if text is not None:
            try:
                api_setting(name, text)
            except SettingError as error:
                problems.append(str(error))
    return problems


def choice(label: str, text: str, choices: tuple[str, ...]) -> str:
    """``text`` when it is one of ``choices``, exactly as written (what reads it later compares it so)."""
    if text not in choices:
        allowed = ", ".join(choices[:-1]) + " or " + choices[-1]
        raise SettingError(f"{label} is {allowed}, not {text!r}")
    return text


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
    every = (*STORE_VARIABLES, *ANALYSIS_VARIABLES, *SERVER_VARIABLES, *settings)
    return {variable.name: variable for variable in every}


def unknown_variables(environ: Mapping[str, str]) -> list[str]:
    """A warning for each ``HERONLOG_*`` variable of ``environ`` that is no setting (a misspelt one is
    otherwise ignored without a word), with the setting it most likely meant. ``HERONLOG_TEST_*`` are the test
    suite's own."""
    known = variables()
    warnings = []
    for name in sorted(environ):
        if name.startswith("HERONLOG_") and not name.startswith("HERONLOG_TEST_") and name not in known:
            near = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {near[0]}?" if near else ""
            warnings.append(f"{name} is not a heronlog setting and is ignored{hint}")
    return warnings
