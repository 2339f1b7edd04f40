"""The OpenAPI document and the interactive docs, served by the app itself (no CDN at run time)."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

METHODS = {"get", "post", "put", "patch", "delete"}
DESIGN_RESOURCES = {
    ("post", "/api/games"),
    ("get", "/api/games"),
    ("get", "/api/games/{game_id}"),
    ("get", "/api/games/{game_id}/legal-moves"),
    ("post", "/api/games/{game_id}/moves"),
    ("post", "/api/games/{game_id}/undo"),
    ("post", "/api/games/{game_id}/redo"),
    ("post", "/api/games/{game_id}/amend"),
    ("get", "/api/games/{game_id}/states/{version}"),
    ("get", "/api/games/{game_id}/timeline"),
    ("get", "/api/games/{game_id}/annotations"),
    ("post", "/api/games/{game_id}/annotations"),
    ("patch", "/api/games/{game_id}/annotations/{annotation_id}"),
    ("delete", "/api/games/{game_id}/annotations/{annotation_id}"),
    ("post", "/api/games/{game_id}/forks"),
    ("get", "/api/games/{game_id}/export"),
    ("post", "/api/games/import"),
    ("get", "/api/games/{game_id}/stream"),
    ("post", "/api/score-sheets"),
    ("post", "/api/games/{game_id}/seats/{seat}/token"),
}


def test_the_document_lists_every_resource_of_the_design(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    operations = {
        (method, path) for path, item in document["paths"].items() for method in item if method in METHODS
    }
    assert operations >= DESIGN_RESOURCES


def test_every_operation_documents_the_error_envelope_as_its_default_answer(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    error = document["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"type", "title", "status", "detail", "error_code", "rule", "details"}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            assert "default" in operation["responses"], (method, path)


def test_the_docs_page_and_its_assets_are_served_locally(client: FlaskClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert assets and not [url for url in assets if url.startswith(("http:", "https:", "//"))]
    for url in assets:
        with client.get(url) as response:
            assert response.status_code == 200, url
    # the page names no icon, so browsers ask for /favicon.ico (once a 404 in every visit's log)
    with client.get("/favicon.ico") as icon:
        assert icon.status_code == 200 and icon.mimetype == "image/svg+xml"


def test_the_query_parameters_of_amending_and_replaying_an_amended_game_are_documented(
    client: FlaskClient,
) -> None:
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, name in [
        ("/api/games/{game_id}/legal-moves", "before"),
        ("/api/games/{game_id}/states/{version}", "current_line"),
    ]:
        operation = paths[path]["get"]
        assert name in {p["name"] for p in operation["parameters"] if p["in"] == "query"}, path
        assert {"400", "404"} <= set(operation["responses"]), path


def test_every_write_documents_the_idempotency_key_it_honours(client: FlaskClient) -> None:
    # api.app checks and honours the header on every write, so every write must say so.
    document = client.get("/api/openapi.json").get_json()
    writes = [
        (method, path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS - {"get"}
    ]
    assert len(writes) >= 14
    for method, path, operation in writes:
        keyed = [p for p in operation.get("parameters", []) if p["name"] == "Idempotency-Key"]
        assert keyed and keyed[0]["in"] == "header", (method, path)
        assert keyed[0]["schema"]["maxLength"] == 200, (method, path)


def test_issuing_a_seat_token_documents_the_409_of_a_retry_whose_token_stopped_working(
    client: FlaskClient,
) -> None:
    operation = client.get("/api/openapi.json").get_json()["paths"]["/api/games/{game_id}/seats/{seat}/token"]
    post = operation["post"]
    assert "token_superseded" in post["responses"]["409"]["description"]
    assert "token_superseded" in post["description"]
