"""heronlog's HTTP layer: the Flask application factory, the JSON API and the web pages.

Nothing runs at import time: call :func:`create_app` to build an application.
"""

from api.app import create_app

__all__ = ["create_app"]
