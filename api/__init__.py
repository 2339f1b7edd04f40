"""heronlog's HTTP layer: the Flask application factory, the JSON API and the web pages. ``create_app`` is imported
on first use, so that ``heronlog serve`` can make the process cooperative (api.server.launch) before the app loads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from api.own_packages import ensure_own_packages

__distribution__ = "heronlog"

# before either is imported (standard library only): a clear error if another project's is found instead
ensure_own_packages("domain", "replay")

if TYPE_CHECKING:
    from api.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from api.app import create_app

        return create_app
    raise AttributeError(f"module 'api' has no attribute {name!r}")
