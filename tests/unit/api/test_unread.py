"""A refused body left unread closes its connection, and the answer says so (api.server.unread)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from api.server.unread import DRAIN_LIMIT, closing_when_unread, may_be_unread


class GunicornLikeResponse:
    """What ``start_response`` is bound to under gunicorn: a response that can be made to close."""

    def __init__(self) -> None:
        self.closed = False
        self.status = ""

    def force_close(self) -> None:
        self.closed = True

    def start_response(self, status: str, headers: list[tuple[str, str]], *exc_info: Any) -> None:
        self.status = status


def answering(status: str) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        start_response(status, [("Content-Type", "application/json")])
        return [b"{}"]

    return app


def run(status: str, environ: dict[str, Any]) -> GunicornLikeResponse:
    response = GunicornLikeResponse()
    body = closing_when_unread(answering(status))(environ, response.start_response)
    assert list(body) == [b"{}"]
    assert response.status == status
    return response


@pytest.mark.parametrize(
    ("status", "environ", "closes"),
    [
        ("413 REQUEST ENTITY TOO LARGE", {"CONTENT_LENGTH": str(3 * 1024 * 1024)}, True),
        ("413 REQUEST ENTITY TOO LARGE", {}, True),
        ("400 BAD REQUEST", {"CONTENT_LENGTH": str(DRAIN_LIMIT + 1)}, True),
        ("401 UNAUTHORIZED", {"HTTP_TRANSFER_ENCODING": "chunked"}, True),
        ("400 BAD REQUEST", {"CONTENT_LENGTH": str(DRAIN_LIMIT)}, False),
        ("409 CONFLICT", {"CONTENT_LENGTH": "120"}, False),
        ("201 CREATED", {"CONTENT_LENGTH": str(DRAIN_LIMIT * 8)}, False),
        ("200 OK", {}, False),
    ],
)
def test_a_refusal_that_may_leave_the_body_unread_closes_the_connection(
    status: str, environ: dict[str, Any], closes: bool
) -> None:
    assert may_be_unread(environ, status) is closes
    assert run(status, environ).closed is closes


def test_another_servers_start_response_is_passed_through() -> None:
    seen: list[str] = []

    def start_response(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> None:
        seen.append(status)

    body = closing_when_unread(answering("413 REQUEST ENTITY TOO LARGE"))({}, start_response)
    assert list(body) == [b"{}"]
    assert seen == ["413 REQUEST ENTITY TOO LARGE"]
