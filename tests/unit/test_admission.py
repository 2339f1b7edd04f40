"""Requests at once, per worker (api.server.admission): at most so many requests run the app at once, the others
wait their turn in the order they came; probes and event streams never wait."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

import gevent
import gevent.event

from api.server.admission import in_turn


def environ(path: str) -> dict[str, Any]:
    return {"PATH_INFO": path, "REQUEST_METHOD": "POST"}


def start_response(status: str, headers: list[tuple[str, str]]) -> None:
    return None


class Recorder:
    """A WSGI app that notes how many requests run it at once and the order they entered it."""

    def __init__(self, hold: gevent.event.Event | None = None) -> None:
        self.running = 0
        self.most = 0
        self.entered: list[str] = []
        self.hold = hold

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        self.running += 1
        self.most = max(self.most, self.running)
        self.entered.append(environ["PATH_INFO"])
        try:
            if self.hold is not None and environ["PATH_INFO"].endswith("/moves"):
                self.hold.wait()
            gevent.sleep(0.001)  # a store round trip: the worker runs other greenlets meanwhile
        finally:
            self.running -= 1
        return [b"{}"]


def test_at_most_so_many_requests_run_the_app_at_once_in_the_order_they_came() -> None:
    app = Recorder()
    held = in_turn(app, 3)
    paths = [f"/api/games/{n}/moves" for n in range(20)]
    greenlets = [gevent.spawn(held, environ(path), start_response) for path in paths]
    gevent.joinall(greenlets, raise_error=True)
    assert app.most == 3
    assert app.entered == paths
    assert all(greenlet.value == [b"{}"] for greenlet in greenlets)


def test_without_a_cap_every_request_runs_at_once() -> None:
    app = Recorder()
    assert in_turn(app, 0) is app
    greenlets = [gevent.spawn(app, environ(f"/api/games/{n}/moves"), start_response) for n in range(10)]
    gevent.joinall(greenlets, raise_error=True)
    assert app.most == 10


def test_probes_and_event_streams_pass_while_every_turn_is_taken() -> None:
    hold = gevent.event.Event()
    app = Recorder(hold)
    held = in_turn(app, 2)
    busy = [gevent.spawn(held, environ(f"/api/games/{n}/moves"), start_response) for n in range(4)]
    gevent.sleep(0.01)
    assert app.running == 2  # two hold their turn, two wait for one
    for path in ("/healthz", "/readyz", "/metrics", "/api/games/abc/stream"):
        assert held(environ(path), start_response) == [b"{}"]
    assert app.entered.count("/healthz") == 1
    hold.set()
    gevent.joinall(busy, raise_error=True)
    assert app.most == 3  # the two holding, and each probe beside them


def test_a_request_that_fails_gives_its_turn_back() -> None:
    calls: list[int] = []

    def failing_at_first(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        calls.append(1)
        if len(calls) <= 3:
            raise RuntimeError("the app failed")
        return [b"{}"]

    held = in_turn(failing_at_first, 1)
    for _ in range(3):
        with contextlib.suppress(RuntimeError):
            held(environ("/api/games/x/moves"), start_response)
    with gevent.Timeout(2):  # a turn not given back would leave this request waiting for ever
        assert held(environ("/api/games/x/moves"), start_response) == [b"{}"]
