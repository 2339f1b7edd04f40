"""The Flask application factory: the one composition root of heronlog.

:func:`create_app` builds everything from its configuration, so nothing happens at import time and tests build
apps of their own (docs/architecture/index.md).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from api.resources import errors, write_guard
from api.resources.context import EXTENSION, LazyServices, Services, install_conditional_reads
from api.resources.errors import ApiError
from api.resources.fastjson import FastJSONProvider
from api.resources.schemas import ErrorSchema
from api.resources.stream import STREAMS, StreamSlots
from api.server import observability
from api.server.environment import DEFAULTS
from replay.config import StoreConfig, open_log
from replay.errors import store_unavailable
from replay.health import ShardHealth, package_version, readiness, summarise


class HeronApi(Api):  # type: ignore[misc]  # flask-smorest ships no type hints
    """flask-smorest's Api with heronlog's error envelope, documented as every operation's default answer."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        return errors.from_http_exception(error)

    def _openapi_json(self) -> Response:
        """The document, finished for client generators and linters (:func:`api.resources.openapi.finish`);
        built once."""
        if self._finished is None:
            from api.resources.openapi import finish

            self._finished = json.dumps(finish(self.spec.to_dict()), indent=2)
        return Response(self._finished, mimetype="application/json")

    _finished: str | None = None


def _settings(config: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for name, default in DEFAULTS.items():
        raw = config.get(name, environ.get(f"HERONLOG_{name}"))
        settings[name] = type(default)(raw) if raw is not None else default
    return settings


def build_services(store: StoreConfig, settings: Mapping[str, Any]) -> Services:
    # heronlog serve stores snapshots from a thread of each worker (replay.snapshots.SnapshotWriter).
    extra = {"RECEIPT_SECONDS": str(int(settings["IDEMPOTENCY_TTL"]))}
    if settings.get("SNAPSHOTS_IN_BACKGROUND"):
        extra["SNAPSHOTS_IN_BACKGROUND"] = "y"
    return Services(log=open_log(store, **extra), store_kind=store.kind)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the application. ``config`` may hold ``STORE`` (a :class:`StoreConfig`), the settings of
    :data:`DEFAULTS` and Flask settings; without ``STORE`` the store is resolved from the process environment."""
    # The pages' room holds the templates and static files (api/pages/); they are served at /static/.
    app = Flask(__name__, static_folder="pages/static", template_folder="pages/templates")
    given = dict(config or {})
    store = given.pop("STORE", None) or StoreConfig.from_environ(os.environ)
    app.config.update(given)
    app.config.update(_settings(given, os.environ))
    app.config["STORE"] = store
    app.config.update(
        API_TITLE="heronlog",
        API_VERSION=package_version(),
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/api/docs/static/",
        API_SPEC_OPTIONS={
            "info": {
                "description": "Record, replay and study games of The White Castle. Errors are problem "
                "documents of one shape (type, title, status, detail, error_code, rule, details); writes take "
                "If-Match and Idempotency-Key.",
            },
        },
    )
    # msgspec underneath Flask's JSON (api.resources.fastjson); it keeps the schemas' field order, as
    # sort_keys=False did.
    app.json = FastJSONProvider(app)

    settings = dict(app.config)
    app.extensions[EXTENSION] = LazyServices(lambda: build_services(store, settings))
    app.extensions[STREAMS] = StreamSlots(int(app.config["STREAM_MAX_OPEN"]))
    api = HeronApi(app)
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer", "description": "an owner or seat token"}
    )
    errors.register(app)
    metrics = observability.install(
        app
    )  # first of the request hooks: every answer gets its request id, log and count
    metrics.memory_source = lambda: _cache_stats(app)

    from api.resources import analysis, annotations, games, players, problems, scoring, stream

    api.register_blueprint(games.blp)
    api.register_blueprint(stream.blp)
    api.register_blueprint(annotations.blp)
    api.register_blueprint(scoring.blp)
    api.register_blueprint(problems.blp)
    api.register_blueprint(players.blp)
    api.register_blueprint(analysis.blp)
    analysis.install(app)
    _add_docs_assets(app)
    write_guard.install(app)
    install_conditional_reads(app)  # If-None-Match on reads: 304 (RFC 9110)
    _allow_cross_origin(app)

    @app.after_request
    def no_sniffing(response: Response) -> Response:
        # Every answer is what its Content-Type says: the text export (names and annotations as written, markup
        # included) is never taken for HTML by a browser that sniffs. The pages add their own policy (api.pages).
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    # The web pages: templates and static modules over the JSON API above.
    from api.pages import bp as pages
    from api.pages.players import bp as player_pages

    app.register_blueprint(pages)
    app.register_blueprint(player_pages)

    token = observability.metrics_token(app)

    @app.get("/metrics")
    def prometheus_metrics() -> Response:
        if token and not observability.token_matches(request.headers.get("Authorization", ""), token):
            raise ApiError(
                "unauthorized",
                "the metrics need the token of HERONLOG_METRICS_TOKEN (Authorization: Bearer <token>)",
                headers={"WWW-Authenticate": 'Bearer realm="heronlog-metrics"'},
            )
        body, content_type = metrics.exposition(request.headers.get("Accept", ""))
        return Response(body, status=200, content_type=content_type)

    @app.get("/healthz")
    def healthz() -> Any:
        """Liveness: the process answers. Nothing about the store (a restart would not mend it): /readyz."""
        body = {
            "status": "ok",
            "store": store.kind,
            "version": package_version(),
            "detail": "the process answers; GET /readyz says whether the store serves",
        }
        return jsonify(body), 200

    @app.get("/readyz")
    def readyz() -> Any:
        """Readiness: each store (shard) asked as requests ask it. 200 while some games can be recorded (status
        ok, or degraded when a shard does not serve), 503 when none can."""
        try:
            ready = readiness(app.extensions[EXTENSION].get().log)
        except Exception as error:  # the store cannot even be opened (Redis down at start)
            if not store_unavailable(error):
                raise
            ready = summarise((ShardHealth("store", "unavailable", f"cannot be opened: {error}"),))
        body = {
            "status": ready.status,
            "store": store.kind,
            "version": package_version(),
            "detail": ready.detail,
            "shards": [shard.to_dict() for shard in ready.shards],
        }
        headers = {} if ready.serving else {"Retry-After": "5"}
        return jsonify(body), 200 if ready.serving else 503, headers

    return app


CORS_EXPOSED = (
    "ETag",
    "Location",
    "Retry-After",
    "RateLimit",
    "RateLimit-Policy",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Idempotent-Replayed",
)
"""The answer headers a browser's script may read on a cross-origin answer (beside the CORS-safelisted ones)."""

CORS_REQUEST_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key")

ORIGIN = re.compile(r"^https?://[A-Za-z0-9.-]+(:\d{1,5})?$")


def cors_origins(app: Flask) -> list[str]:
    """The origins allowed to call the API from a browser (``HERONLOG_CORS_ORIGINS``, comma-separated; ``*``
    for any): none unless set. A ``ValueError`` for an entry that is no origin (``https://club.example``)."""
    raw = app.config.get("CORS_ORIGINS") or os.environ.get("HERONLOG_CORS_ORIGINS") or ""
    origins = [origin.strip() for origin in str(raw).split(",") if origin.strip()]
    for origin in origins:
        if origin != "*" and not ORIGIN.match(origin):
            raise ValueError(
                f"HERONLOG_CORS_ORIGINS: {origin!r} is not an origin (scheme://host[:port], no path), nor *"
            )
    return origins


def _allow_cross_origin(app: Flask) -> None:
    """CORS on ``/api/`` for the allow-listed origins (docs/api/http.md#cross-origin-browsers): off by default.
    The API's credentials are bearer tokens a script sends itself, never cookies, so no answer is made with
    credentials a page did not hold: an allowed origin cannot act for a visitor who did not give it a token."""
    origins = cors_origins(app)
    if not origins:
        return
    from flask_cors import CORS

    CORS(
        app,
        resources={r"/api/*": {"origins": origins}},
        expose_headers=list(CORS_EXPOSED),
        allow_headers=list(CORS_REQUEST_HEADERS),
        supports_credentials=False,
        max_age=600,
    )


def _cache_stats(app: Flask) -> Any | None:
    """The game log's warm-cache figures for ``/metrics``, or None when the game log is not built yet (the
    metrics never build it) or keeps no cache."""
    box: LazyServices = app.extensions[EXTENSION]
    built = box.built
    cache = built.log.cache if built is not None else None
    return cache.stats() if cache is not None else None


DOCS_PAGE = "/api/docs"

INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def docs_policy(page: bytes) -> str:
    """The Content-Security-Policy of the API docs' page: Swagger UI's files from this site, and of inline code
    only the page's own script (flask-smorest's, which starts Swagger UI), by its hash; never framed."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
        for script in INLINE_SCRIPT.findall(page)
    )
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' {hashes}".strip(),
            "style-src 'self'",
            "img-src 'self' data:",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def _add_docs_assets(app: Flask) -> None:
    """Swagger UI's files, from the installed swagger-ui-bundle package (the docs page works offline), and the
    docs page's own protection: a Content-Security-Policy and no framing by another site."""
    from swagger_ui_bundle import swagger_ui_path

    folder = str(swagger_ui_path)

    @app.after_request
    def docs_headers(response: Response) -> Response:
        if request.path == DOCS_PAGE and response.status_code == 200:
            response.headers["Content-Security-Policy"] = docs_policy(response.get_data())
            response.headers["X-Frame-Options"] = "DENY"
            response.headers["Referrer-Policy"] = "no-referrer"
        return response

    @app.get("/api/docs/static/<path:filename>")
    def swagger_ui_asset(filename: str) -> Response:
        return send_from_directory(folder, filename, max_age=86400)

    # Pages without a <link rel="icon"> (the API docs' page) make browsers ask for /favicon.ico: the heron.
    @app.get("/favicon.ico")
    def favicon() -> Response:
        static = app.static_folder or ""
        return send_from_directory(static, "heron.svg", mimetype="image/svg+xml", max_age=86400)
