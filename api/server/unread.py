"""A connection whose request body was refused unread is closed, and its answer says so.

gunicorn drains at most a limit of an unread body before a keep-alive connection's next request, and closes the
connection beyond it after its answer said keep-alive; so heronlog has it close first, saying ``Connection:
close``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

DRAIN_LIMIT = 64 * 1024
"""How many unread body bytes gunicorn discards before it closes a keep-alive connection instead (its
``_DRAIN_MAX_BYTES``)."""

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def may_be_unread(environ: dict[str, Any], status: str) -> bool:
    """Whether an answer of ``status`` may leave more of the request's body unread than gunicorn discards:
    a 413 never read it, and another refusal (4xx, 5xx) of a body larger than :data:`DRAIN_LIMIT` may not
    have. A body of unknown length (chunked) counts as large."""
    code = int(status.split(" ", 1)[0])
    if code == 413:
        return True
    if code < 400:
        return False
    if environ.get("HTTP_TRANSFER_ENCODING", "").lower() == "chunked":
        return True
    try:
        return int(environ.get("CONTENT_LENGTH") or 0) > DRAIN_LIMIT
    except ValueError:
        return True


def closing_when_unread(app: WsgiApp) -> WsgiApp:
    """``app``, whose answers close their connection when :func:`may_be_unread` says so. gunicorn's
    ``start_response`` is a method of its response, whose ``force_close`` makes it write ``Connection:
    close`` and close after answering; another server's is passed through untouched."""

    def closing(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            if may_be_unread(environ, status):
                force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
                if callable(force_close):
                    force_close()
            return start_response(status, headers, *exc_info)

        return app(environ, start)

    return closing
