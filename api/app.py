"""The Flask application factory: the one composition root of heronlog (STYLE habit 10)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from flask import Flask, jsonify

from replay.config import StoreConfig
from replay.health import check_store


def package_version() -> str:
    """The installed distribution's version (the source tree may run uninstalled in some tools)."""
    try:
        return version("heronlog")
    except PackageNotFoundError:
        return "0+unknown"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the application. ``config`` may hold ``STORE`` (a :class:`StoreConfig`) and Flask settings;
    without ``STORE`` the store is resolved from the process environment."""
    app = Flask(__name__)
    settings = dict(config or {})
    store = settings.pop("STORE", None) or StoreConfig.from_environ(os.environ)
    app.config.update(settings)
    app.config["STORE"] = store

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
