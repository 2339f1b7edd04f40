"""The Flask application factory: the one composition root of heronlog (STYLE habit 10).

:func:`create_app` builds everything: the game log on the configured store, the access gatekeeper, the rate
limiter and the idempotency cache (in Redis when Redis is the store, in this process otherwise), the
flask-smorest API with its OpenAPI document (``/api/openapi.json``) and its interactive docs (``/api/docs``,
Swagger UI served from the installed ``swagger-ui-bundle``: no CDN), and the one error envelope.
Nothing runs at import time.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any
from uuid import UUID

from flask import Flask, Response, g, jsonify, request, send_from_directory
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from api.resources import errors, fastjson
from api.resources.context import (
    BEARER,
    EXTENSION,
    STREAMS,
    LazyServices,
    Services,
    idempotency_key,
    presented_token,
    replay_check,
    services,
)
from api.resources.errors import ApiError, error_response
from api.resources.fastjson import FastJSONProvider
from api.resources.limits import (
    MemoryAnswers,
    MemoryCounter,
    RateLimiter,
    RedisAnswers,
    RedisCounter,
    Remembered,
    StreamSlots,
)
from api.resources.schemas import ErrorSchema
from api.server import observability
from api.server.environment import DEFAULTS
from replay.application import PlannedRead
from replay.config import StoreConfig, open_log
from replay.health import check_store, package_version

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class HeronApi(Api):  # type: ignore[misc]  # flask-smorest ships no type hints
    """flask-smorest's Api with heronlog's error envelope, documented as every operation's default answer."""

    ERROR_SCHEMA = ErrorSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        return errors.from_http_exception(error)


def _settings(config: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for name, default in DEFAULTS.items():
        raw = config.get(name, environ.get(f"HERONLOG_{name}"))
        settings[name] = type(default)(raw) if raw is not None else default
    return settings


def _redis_client(store: StoreConfig) -> Any:
    from replay.store.datastore import RedisDatastore

    assert store.redis_url is not None
    datastore = RedisDatastore(store.redis_url, prefix=store.redis_prefix, check_durability=False)
    return datastore.client


def build_services(store: StoreConfig, settings: Mapping[str, Any]) -> Services:
    from replay.access import Gatekeeper

    # heronlog serve stores snapshots from a thread of each worker (replay.application.SnapshotWriter).
    log = open_log(
        store, **({"SNAPSHOTS_IN_BACKGROUND": "y"} if settings.get("SNAPSHOTS_IN_BACKGROUND") else {})
    )
    if store.kind == "redis":
        client = _redis_client(store)
        prefix = f"{store.redis_prefix}:api"
        counter: Any = RedisCounter(client, prefix)
        answers: Any = RedisAnswers(client, prefix)
    else:
        counter, answers = MemoryCounter(), MemoryAnswers()
    return Services(
        log=log,
        gate=Gatekeeper(log),
        limiter=RateLimiter(counter, int(settings["RATE_LIMIT_WINDOW"])),
        answers=answers,
        store_kind=store.kind,
    )


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
                "description": "Record, replay and study games of The White Castle. Errors share one shape "
                "(status, error_code, rule, message, details); writes take If-Match and Idempotency-Key.",
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

    from api.resources import annotations, games, scoring

    api.register_blueprint(games.blp)
    api.register_blueprint(annotations.blp)
    api.register_blueprint(scoring.blp)
    _add_docs_assets(app)
    _add_write_guards(app)

    @app.after_request
    def no_sniffing(response: Response) -> Response:
        # Every answer is what its Content-Type says: the text export (names and annotations as written, markup
        # included) is never taken for HTML by a browser that sniffs. The pages add their own policy (api.pages).
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    # The web pages (issue 7): templates and static modules over the JSON API above.
    from api.pages import bp as pages

    app.register_blueprint(pages)

    token = observability.metrics_token(app)

    @app.get("/metrics")
    def prometheus_metrics() -> Response:
        if token and not observability.token_matches(request.headers.get("Authorization", ""), token):
            raise ApiError(
                "unauthorized",
                "the metrics need the token of HERONLOG_METRICS_TOKEN (Authorization: Bearer <token>)",
                headers={"WWW-Authenticate": 'Bearer realm="heronlog-metrics"'},
            )
        body, content_type = metrics.exposition()
        return Response(body, status=200, content_type=content_type)

    @app.get("/healthz")
    def healthz() -> Any:
        health = check_store(store)
        body = {
            "status": "ok" if health.ok else "unavailable",
            "store": store.kind,
            "version": package_version(),
            "detail": health.detail,
        }
        return jsonify(body), 200 if health.ok else 503

    return app


def _add_docs_assets(app: Flask) -> None:
    """Swagger UI's files, from the installed swagger-ui-bundle package (the docs page works offline)."""
    from swagger_ui_bundle import swagger_ui_path

    folder = str(swagger_ui_path)

    @app.get("/api/docs/static/<path:filename>")
    def swagger_ui_asset(filename: str) -> Response:
        return send_from_directory(folder, filename, max_age=86400)

    # Pages without a <link rel="icon"> (the API docs' page) make browsers ask for /favicon.ico: the heron.
    @app.get("/favicon.ico")
    def favicon() -> Response:
        static = app.static_folder or ""
        return send_from_directory(static, "heron.svg", mimetype="image/svg+xml", max_age=86400)


def _identity() -> str:
    """Whom a write is counted against: its token (hashed: tokens are never kept), else the client address.
    Only a write to one game takes a token (and refuses one that is not that game's); a token sent with any
    other write (creating or importing a game, a score sheet) is not looked at, so it is counted by address:
    else a made-up token per request would escape the address's limit."""
    token = presented_token() if isinstance((request.view_args or {}).get("game_id"), UUID) else None
    if token:
        return "token:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]
    return "address:" + (request.remote_addr or "unknown")


def _still_valid(box: Services) -> None:
    """Before a retry of a write to a game gets its remembered answer: 401 if the token it was sent with no
    longer works (a seat token withdrawn or replaced since). The view checks the token of every write it
    makes; a remembered answer is given before any view runs, so without this a dead token went on being
    answered 2xx (its own earlier answers, a game's board in them) for as long as they are kept. Read only
    for retries that find their answer."""
    game_id = (request.view_args or {}).get("game_id")
    token = presented_token()
    if isinstance(game_id, UUID) and token and box.gate.authenticate(game_id, token) is None:
        raise ApiError(
            "unauthorized",
            "this token is not valid for this game",
            headers={"WWW-Authenticate": 'Bearer realm="heronlog", error="invalid_token"'},
        )


def _plan_read(box: Services) -> tuple[UUID, str, PlannedRead] | None:
    """For a write to one game with a well-formed token: the read of that game and of its grants, planned as
    one command for the rate limit's round trip, when that goes to the same Redis server (standalone)."""
    game_id = (request.view_args or {}).get("game_id")
    header = request.headers.get("Authorization")
    match = BEARER.match(header) if header is not None and isinstance(game_id, UUID) else None
    counter = box.limiter.counter
    if match is None or not isinstance(counter, RedisCounter):
        return None
    from replay.store.datastore import server_of  # Redis only: nothing to import for the other stores

    plan = box.gate.plan_game_and_grant(game_id, match.group(1))
    if plan is None or plan.server is None or plan.server != server_of(counter.client):
        return None
    return game_id, match.group(1), plan


def _add_write_guards(app: Flask) -> None:
    """Before a write: the rate limit, then the idempotency cache (a retried key answers as the first time,
    unless the view declared a check that refuses that answer now: ``api.resources.context.checked_before_replay``).
    After a successful write sent with a key: remember its answer (unless the write kept it already, in the
    same append as its events: ``api.resources.context.AnswerAlong``)."""

    @app.before_request
    def guard_writes() -> Response | None:
        if request.method not in WRITE_METHODS or not request.path.startswith("/api/"):
            return None
        if request.content_length and not request.is_json:  # a body as text/plain or a form: never read
            return error_response(
                400,
                "invalid_request",
                "the body must be sent as JSON, with Content-Type: application/json (it was "
                f"{request.mimetype or 'not said'})",
                details={"content_type": request.content_type},
            )
        box = services()
        who = _identity()
        limit_name = "RATE_LIMIT_PER_TOKEN" if who.startswith("token:") else "RATE_LIMIT_PER_ADDRESS"
        # Checked and trimmed here, for every write, as the moves' own log reads it (a header's surrounding
        # blanks are not part of its value): " k" must find the answer kept for "k", or a different write
        # sent with it would be taken by the log for a retry of the first, and answered as recorded.
        key = idempotency_key()
        cache_key = fingerprint = None
        if key:
            # The body as it means: the same move retried by a client that spaces its JSON differently (or
            # orders its keys otherwise) is the same request, not another one under a reused key.
            body = fastjson.canonical(request.get_data(cache=True))
            fingerprint = hashlib.sha256(
                b"\n".join([request.method.encode(), request.full_path.encode(), body])
            ).hexdigest()
            cache_key = hashlib.sha256(f"{who}\n{key}".encode()).hexdigest()
        # The limit, the remembered answer and the game the write is about (with its access stream), read
        # ahead: one round trip to Redis for the three (the view then finds the game read, api.resources.context).
        plan = _plan_read(box)
        verdict, remembered, read = box.limiter.check_and_recall(
            who, int(app.config[limit_name]), box.answers, cache_key, plan[2].command if plan else None
        )
        if plan is not None and read is not None and not isinstance(read, Exception):
            g.read_ahead = (plan[0], plan[1], plan[2].finish, read)
        if not verdict.allowed:
            raise ApiError(
                "rate_limited",
                f"too many writes: at most {verdict.limit} per {box.limiter.window} s; "
                f"try again in {verdict.retry_after} s",
                headers={"Retry-After": str(verdict.retry_after)},
                retry_after=verdict.retry_after,
                limit=verdict.limit,
            )
        if cache_key is None:
            return None
        g.idempotency = (cache_key, fingerprint)
        # The game lives on the answers' own Redis server: a move may keep its answer in its own append.
        g.answer_along = plan is not None
        if remembered is None:
            return None
        if remembered.fingerprint != fingerprint:
            raise ApiError(
                "idempotency_key_reused",
                "this Idempotency-Key was used for another request: use a new key for a new write",
            )
        _still_valid(box)  # a token withdrawn or replaced since gets no answer, not even its own first one
        check = (
            replay_check()
        )  # the view's own word on whether its first answer still holds (api.resources.context)
        if check is not None:
            check(remembered, **(request.view_args or {}))
        response = Response(remembered.body, status=remembered.status, headers=remembered.headers)
        response.headers["Idempotent-Replayed"] = "true"
        return response

    @app.after_request
    def remember_answer(response: Response) -> Response:
        pending = g.pop("idempotency", None)
        if pending is None or not 200 <= response.status_code < 300 or response.is_streamed:
            return response
        cache_key, fingerprint = pending
        try:
            services().answers.put(
                cache_key, Remembered.of(fingerprint, response), int(app.config["IDEMPOTENCY_TTL"])
            )
        except Exception:  # the answer was given: failing to remember it must not turn it into an error
            app.logger.warning("could not remember an idempotent answer", exc_info=True)
        return response
