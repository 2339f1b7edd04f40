"""The real app, with a test-only way to hold one request open inside a worker: for the fault test that kills
a gunicorn worker mid-request (tests/e2e/test_faults_http.py). Served by gunicorn with
``"tests.e2e.held_app:create()"``; never part of heronlog itself.

A request to record a move carrying ``X-Test-Hold: before-commit`` or ``after-commit`` writes the worker's pid
to the file named by ``HERONLOG_TEST_HOLD_FILE`` at that point and then waits (at most a minute) for the test
to kill the worker: before the move's event is written, or after it is written but before any answer leaves. A
request that creates a game holds the same way with ``create-before-commit`` (its receipt kept, its events not
yet written) or ``create-after-commit``.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from flask import Flask, request

from api.app import create_app
from api.resources.context import EXTENSION

HOLD_SECONDS = 60


def hold(point: str) -> None:
    if request.headers.get("X-Test-Hold") != point:
        return
    Path(os.environ["HERONLOG_TEST_HOLD_FILE"]).write_text(str(os.getpid()))
    time.sleep(HOLD_SECONDS)  # the test kills this worker meanwhile


def create() -> Flask:
    app = create_app()
    box = app.extensions[EXTENSION]
    build = box._build

    def build_held() -> Any:
        services = build()
        play = services.log.recording.play

        def held_play(*args: Any, **kwargs: Any) -> Any:
            hold("before-commit")
            result = play(*args, **kwargs)
            hold("after-commit")
            return result

        services.log.recording.play = held_play
        save_new = services.log.creation._save

        def held_save_new(*args: Any, **kwargs: Any) -> Any:
            hold("create-before-commit")
            result = save_new(*args, **kwargs)
            hold("create-after-commit")
            return result

        services.log.creation._save = held_save_new
        return services

    box._build = build_held
    return app
