"""heronlog's HTTP layer: the Flask application factory, the JSON API and the web pages."""

from api.own_packages import ensure_own_packages

__distribution__ = "heronlog"

ensure_own_packages(
    "domain", "replay"
)  # before either is imported: a clear error if another project's is found

from api.app import create_app  # noqa: E402

__all__ = ["create_app"]
