"""heronlog's HTTP layer: the Flask application factory, the JSON API and the web pages."""

from api.app import create_app

__all__ = ["create_app"]
