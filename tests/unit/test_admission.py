"""Requests in turn (api.server.admission): at most N in the app at once, the rest in order of arrival, a freed place
handed to the oldest waiter (never taken by a newcomer), no place lost when a waiter is killed or the app fails,
and the probes never kept waiting."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import gevent
import pytest

from api.server.admission import Turns, in_turn


def test_a_freed_place_goes_to_the_oldest_waiter_not_to_a_newcomer() -> None:
    turns = Turns(1)
    order: list[str] = []
    turns.enter()  # the first holder

    def visit(name: str) -> None:
        turns.enter()
        order.append(name)
        gevent.sleep(0)
        turns.leave()

    waiting = [gevent.spawn(visit, name) for name in ("b", "c", "d")]
    gevent.sleep(0)  # all three are waiting now
    turns.leave()
    # A newcomer that asks at once, before any waiter has run (gevent's Semaphore would let it in first).
    turns.enter()
    order.append("newcomer")
    turns.leave()
    gevent.joinall(waiting, raise_error=True)
    assert order == ["b", "c", "d", "newcomer"]
    assert turns.free == 1 and not turns.waiting


def test_no_more_than_the_places_are_inside_at_once_and_they_enter_in_order() -> None:
    inside = 0
    most = 0
    entered: list[int] = []

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        nonlocal inside, most
        inside += 1
        most = max(most, inside)
        entered.append(environ["n"])
        gevent.sleep(0.001)  # a Redis round trip: the others run meanwhile
        inside -= 1
        return [b"ok"]

    served = in_turn(app, 3)
    requests = [gevent.spawn(served, {"n": n}, lambda *_: None) for n in range(20)]
    gevent.joinall(requests, raise_error=True)
    assert most == 3
    assert entered == list(range(20))


def test_a_waiter_killed_before_its_turn_takes_no_place_with_it() -> None:
    turns = Turns(1)
    turns.enter()
    killed = gevent.spawn(turns.enter)
    gevent.sleep(0)
    killed.kill()
    assert not turns.waiting
    turns.leave()
    assert turns.free == 1


def test_a_place_handed_to_a_waiter_killed_meanwhile_goes_on_to_the_next() -> None:
    turns = Turns(1)
    turns.enter()
    first = gevent.spawn(turns.enter)
    second = gevent.spawn(turns.enter)
    gevent.sleep(0)
    first.kill(block=False)  # the kill is on its way (a request's timeout, a worker stopping) ...
    turns.leave()  # ... when the place is handed to ``first``, which wakes to the kill
    second.join(timeout=1)
    assert second.successful()  # ``second`` holds the place ``first`` could not use
    turns.leave()
    assert turns.free == 1 and not turns.waiting


def test_the_place_is_given_up_before_the_answer_is_written() -> None:
    """An answer is written after the app returns (an event stream's events included): a client slow to take it
    holds no place."""
    written: list[str] = []

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
        def events() -> Iterator[bytes]:
            written.append(environ["who"])
            yield b"data: 1\n\n"

        return events()

    served = in_turn(app, 1)
    slow = served({"who": "slow"}, lambda *_: None)  # its answer not taken yet
    quick = served({"who": "quick"}, lambda *_: None)  # would wait for ever if the slow one held its place
    assert list(quick) == [b"data: 1\n\n"] and written == ["quick"]
    assert list(slow) == [b"data: 1\n\n"]


def test_no_limit_is_the_app_itself() -> None:
    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        return [b""]

    assert in_turn(app, 0) is app


def test_a_request_whose_app_fails_gives_its_place_back() -> None:
    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        raise RuntimeError("the store went away")

    served = in_turn(app, 1)
    for _ in range(2):  # the second would wait for ever if the first kept its place
        with pytest.raises(RuntimeError):
            served({"PATH_INFO": "/api/games"}, lambda *_: None)


def test_the_probes_and_the_metrics_pass_while_every_place_is_taken() -> None:
    answered: list[str] = []
    gate = Turns(0)  # the first move holds the one place until the gate opens

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("held"):
            gate.enter()
        answered.append(environ["PATH_INFO"])
        return [b"ok"]

    served = in_turn(app, 1)
    held = gevent.spawn(served, {"PATH_INFO": "/api/games/1/moves", "held": True}, lambda *_: None)
    gevent.sleep(0)
    waiting = gevent.spawn(served, {"PATH_INFO": "/api/games/2/moves"}, lambda *_: None)
    gevent.sleep(0)
    for path in ("/healthz", "/readyz", "/metrics"):
        assert served({"PATH_INFO": path}, lambda *_: None) == [b"ok"]
    assert answered == ["/healthz", "/readyz", "/metrics"]  # the moves still hold and wait for the place
    gate.leave()
    gevent.joinall([held, waiting], raise_error=True)
    assert answered[3:] == ["/api/games/1/moves", "/api/games/2/moves"]
