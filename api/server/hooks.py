"""Gunicorn server hooks added by more than one part of ``heronlog serve``, each run after the others."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Hook = Callable[[Any, Any], None]
"""A gunicorn hook of the ``(server, worker)`` kind."""


def after(earlier: Hook | None, hook: Hook) -> Hook:
    """A hook that runs ``earlier`` (another part's hook for the same event, if any), then ``hook``."""
    if earlier is None:
        return hook

    def both(server: Any, worker: Any) -> None:
        earlier(server, worker)
        hook(server, worker)

    return both


def add(options: dict[str, Any], name: str, hook: Hook) -> None:
    """Add ``hook`` to gunicorn ``options`` for the event ``name``, after any hook already there."""
    options[name] = after(options.get(name), hook)
