"""The OpenAPI document and the interactive docs, served by the app itself (no CDN at run time)."""

from __future__ import annotations

import json
import re

from flask.testing import FlaskClient

METHODS = {"get", "post", "put", "patch", "delete"}
DOCUMENTED_RESOURCES = {
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
    assert operations >= DOCUMENTED_RESOURCES


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


# --- what client generators and linters need ---------------------------------------------------------------


def operations(document: dict) -> list[tuple[str, str, dict]]:  # type: ignore[type-arg]
    return [
        (method, path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def test_every_operation_is_described(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    operations = [
        (method, path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "responses" in operation
    ]
    for method, path, operation in operations:
        assert operation.get("description"), (method, path)
        summary = operation["summary"]
        assert summary.count("(") == summary.count(")"), (method, path, summary)
    assert not document["info"]["description"].count("message"), document["info"]["description"]


def test_every_operation_has_a_unique_operation_id_from_the_table(client: FlaskClient) -> None:
    from api.resources.openapi import OPERATION_IDS

    document = client.get("/api/openapi.json").get_json()
    ids = [operation["operationId"] for _, _, operation in operations(document)]
    assert len(ids) == len(set(ids)) == len(operations(document))
    # a new operation gets its name in api.resources.openapi.OPERATION_IDS, not a made-up one
    assert {(method, path) for method, path, _ in operations(document)} == set(OPERATION_IDS)


def test_operations_that_take_no_token_say_so_and_the_document_has_servers_and_a_license(
    client: FlaskClient,
) -> None:
    document = client.get("/api/openapi.json").get_json()
    public = {op["operationId"] for _, _, op in operations(document) if op["security"] == []}
    assert {"listGames", "createGame", "importGame", "scoreSheets", "getProblemType"} <= public
    assert not {"playMoves", "undoMoves", "amendMove", "issueSeatToken"} & public
    assert document["servers"] and all("url" in server for server in document["servers"])
    assert document["info"]["license"]["name"] == "MIT"


def test_errors_are_problem_documents_with_an_enum_of_every_error_code(client: FlaskClient) -> None:
    from api.resources.errors import STATUS

    document = client.get("/api/openapi.json").get_json()
    error = document["components"]["schemas"]["Error"]
    assert set(error["properties"]["error_code"]["enum"]) == set(STATUS)
    for method, path, operation in operations(document):
        for status, response in operation["responses"].items():
            if "$ref" in response or not (status == "default" or int(status) >= 400):
                continue
            assert set(response["content"]) == {"application/problem+json"}, (method, path, status)


def test_answers_document_their_headers(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    by_id = {op["operationId"]: op for _, _, op in operations(document)}
    for _, _, operation in operations(document):
        for status, response in operation["responses"].items():
            if "$ref" not in response:
                assert "X-Request-ID" in response["headers"], (operation["operationId"], status)
    assert by_id["createGame"]["responses"]["201"]["headers"]["Location"]
    assert by_id["playMoves"]["responses"]["201"]["headers"]["Idempotent-Replayed"]
    assert by_id["playMoves"]["responses"]["429"]["headers"]["Retry-After"]["required"] is True
    assert "RateLimit-Policy" in by_id["playMoves"]["responses"]["201"]["headers"]
    assert "412" in by_id["playMoves"]["responses"]
    assert "304" in by_id["getGame"]["responses"]
    assert "If-None-Match" in {p["name"] for p in by_id["getGame"]["parameters"]}


def test_moves_are_a_union_told_apart_by_kind_with_recorded_examples(client: FlaskClient) -> None:
    from domain.kinds import KINDS

    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    move = schemas["Move"]
    assert move["discriminator"]["propertyName"] == "kind"
    assert set(move["discriminator"]["mapping"]) == set(KINDS)
    for kind, ref in move["discriminator"]["mapping"].items():
        variant = schemas[ref.rsplit("/", 1)[1]]
        assert variant["properties"]["kind"]["enum"] == [kind]
        assert set(variant["required"]) == {"kind", "seat", *KINDS[kind].shape}
        assert variant["example"]["kind"] == kind
    # bare: generators read a discriminated union inside an allOf as a parent type (Omit<Move, "kind">)
    assert schemas["LegalMoves"]["properties"]["moves"]["items"] == {"$ref": "#/components/schemas/Move"}
    assert schemas["LegalMoves"]["properties"]["recorded"] == {"$ref": "#/components/schemas/Move"}
    assert not placeholders(document), placeholders(document)


def placeholders(node: object, where: str = "") -> list[str]:
    """Where an example holds a placeholder ("...") rather than a value a real game has."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("example", "examples") and "..." in json.dumps(value):
                found.append(f"{where}.{key}")
            found += placeholders(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += placeholders(value, f"{where}[{index}]")
    return found


def test_each_export_operation_answers_in_its_own_media_type(client: FlaskClient) -> None:
    document = client.get("/api/openapi.json").get_json()
    by_id = {op["operationId"]: op for _, _, op in operations(document)}
    assert set(by_id["exportGameText"]["responses"]["200"]["content"]) == {"text/plain"}
    assert set(by_id["exportGameBgg"]["responses"]["200"]["content"]) == {"text/xml"}
    assert next(iter(by_id["exportGame"]["responses"]["200"]["content"])) == "application/json"


def test_the_served_document_passes_openapi_spec_validator(client: FlaskClient) -> None:
    from openapi_spec_validator import validate

    validate(client.get("/api/openapi.json").get_json())
