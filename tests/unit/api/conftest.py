"""Fixtures of the API's unit tests: the app on the in-memory store, spoken to with Flask's test client."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


@pytest.fixture
def app() -> Iterator[Flask]:
    """The application on a fresh in-memory store."""
    yield create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def api(client: FlaskClient) -> ApiClient:
    """The API client over Flask's test client."""
    return ApiClient(flask_transport(client))
