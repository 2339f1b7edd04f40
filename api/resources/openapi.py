"""The blueprint class of the JSON API, and the error answers each operation documents beside the envelope
every operation has as its default."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest

from api.resources.fastjson import FastFlaskParser
from api.resources.records import NULL
from api.resources.schemas import ErrorSchema

F = TypeVar("F", bound=Callable[..., Any])

MEANINGS = {
    400: "malformed: the body, query or headers do not fit (invalid_request), or a malformed move (invalid_move)",
    401: "no token, or not one of this game's (unauthorized); private games need one even to read",
    403: "the token may not do this (forbidden): a seat acting for another seat, or an owner-only action; a "
    "seat token's amendment that takes other seats' moves off the line of play (amend_reaches_other_seats)",
    404: "no such game, version, annotation or player",
    304: "not modified: If-None-Match named the current ETag (the game's version); no body",
    409: "the game is not in a state for this: nothing to undo or redo (nothing_to_undo, nothing_to_redo), "
    "the game is closed (game_closed), an export that needs a finished game (game_unfinished); or a retried "
    "seat-token request whose token was replaced or withdrawn since (token_superseded); a link that would seat one "
    "player twice in a game (player_already_seated)",
    412: "the game moved on: If-Match or expected_version named a version that is no longer the game's "
    "(stale_version, with details.current_version); reload and decide again. If-Match compares strongly: "
    "weak tags alone never match (weak_etag)",
    413: "the body is larger than the limit (payload_too_large)",
    422: "refused by the rules (illegal_move with its rule, not_your_turn, game_over), a table setup's layout "
    "(invalid_layout: details.errors lists each field with its rule), an invalid log, an "
    "amendment to the move already recorded (amend_unchanged), or an amendment's resolution that does not fit it "
    "(resolution_not_later, resolution_repeated, resolution_not_needed, resolution_unused)",
    428: "the write names no version: send If-Match or expected_version (precondition_required)",
    429: "too many writes (rate_limited), with Retry-After",
    503: "the event store did not answer (store_unavailable), with Retry-After",
}


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]  # flask-smorest ships no type hints
    """flask-smorest's blueprint, reading JSON bodies with msgspec (:mod:`api.resources.fastjson`)."""

    ARGUMENTS_PARSER = FastFlaskParser()


# Every write honours it (api.app checks it before the write): documented on every write operation.
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
    "description": "1 to 200 printable characters (blanks around it are not part of it): a retried write "
    "with the same key answers as the first one did, writing nothing; the same key with another body is 422",
}

READ = (401, 404, 503)
WRITE = (400, 401, 403, 404, 409, 412, 413, 422, 428, 429, 503)
OPEN_WRITE = (400, 413, 429, 503)


def errors(blp: Blueprint, *statuses: int) -> Callable[[F], F]:
    """Document these error statuses (all in the one envelope) on a view.

    flask-smorest documents an alternative answer by wrapping the view in a function that only calls it; a
    write documents ten, and each wrapper cost a call and a coroutine check on every request. The documentation
    (the wrapper's ``_apidoc``) is kept on the view itself instead, and the view is left unwrapped."""

    def decorate(func: F) -> F:
        for status in sorted(statuses, reverse=True):
            documented = blp.alt_response(status, schema=ErrorSchema, description=MEANINGS[status])(func)
            func._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return func

    return decorate


# --- the finished document -----------------------------------------------------------------------------------
#
# flask-smorest writes the document from the views and schemas; :func:`finish` adds what client generators and
# linters (openapi-python-client, Redocly, Spectral) need and the views cannot say one by one: an operationId
# for every operation, `security: []` on the operations that take no token, servers and the license, errors
# as `application/problem+json` with `error_code` an enum, the response headers every answer carries, and moves
# typed as a union of every kind told apart by `kind`, with examples from recorded games.

OPERATION_IDS: dict[tuple[str, str], str] = {
    ("get", "/api/games"): "listGames",
    ("post", "/api/games"): "createGame",
    ("get", "/api/games/layout-form"): "getLayoutForm",
    ("get", "/api/games/layout-choices"): "getLayoutChoices",
    ("post", "/api/games/import"): "importGame",
    ("get", "/api/games/{game_id}"): "getGame",
    ("get", "/api/games/{game_id}/legal-moves"): "getLegalMoves",
    ("post", "/api/games/{game_id}/moves"): "playMoves",
    ("post", "/api/games/{game_id}/undo"): "undoMoves",
    ("post", "/api/games/{game_id}/redo"): "redoMoves",
    ("post", "/api/games/{game_id}/amend"): "amendMove",
    ("post", "/api/games/{game_id}/abandon"): "abandonGame",
    ("post", "/api/games/{game_id}/forks"): "forkGame",
    ("get", "/api/games/{game_id}/states/{version}"): "getStateAt",
    ("get", "/api/games/{game_id}/states"): "getStateAtTurn",
    ("get", "/api/games/{game_id}/timeline"): "getTimeline",
    ("get", "/api/games/{game_id}/changes"): "getChanges",
    ("get", "/api/games/{game_id}/score"): "getScore",
    ("get", "/api/games/{game_id}/catalog"): "getCatalog",
    ("get", "/api/games/{game_id}/layout"): "getLayout",
    ("get", "/api/games/{game_id}/export"): "exportGame",
    ("get", "/api/games/{game_id}/export/text"): "exportGameText",
    ("get", "/api/games/{game_id}/export/bgg"): "exportGameBgg",
    ("post", "/api/games/{game_id}/seats/{seat}/token"): "issueSeatToken",
    ("delete", "/api/games/{game_id}/seats/{seat}/token"): "revokeSeatToken",
    ("get", "/api/games/{game_id}/access"): "listAccess",
    ("get", "/api/games/{game_id}/stream"): "streamGame",
    ("get", "/api/games/{game_id}/annotations"): "listAnnotations",
    ("get", "/api/games/{game_id}/analysis"): "getAnalysis",
    ("post", "/api/games/{game_id}/analysis"): "requestAnalysis",
    ("post", "/api/analyse"): "analysePosition",
    ("post", "/api/games/{game_id}/annotations"): "addAnnotation",
    ("get", "/api/games/{game_id}/annotations/{annotation_id}"): "getAnnotation",
    ("patch", "/api/games/{game_id}/annotations/{annotation_id}"): "editAnnotation",
    ("delete", "/api/games/{game_id}/annotations/{annotation_id}"): "deleteAnnotation",
    ("post", "/api/score-sheets"): "scoreSheets",
    ("get", "/api/players"): "listPlayers",
    ("get", "/api/players/{player_id}"): "getPlayer",
    ("get", "/api/players/{player_id}/games"): "listPlayerGames",
    ("get", "/api/players/{player_id}/versus/{other_id}"): "getHeadToHead",
    ("post", "/api/players/{player_id}/merge"): "mergePlayer",
    ("post", "/api/players/{player_id}/split"): "splitPlayer",
    ("post", "/api/players/bgstats"): "linkBgStatsPlayers",
    ("get", "/api/games/{game_id}/players"): "getGamePlayers",
    ("post", "/api/games/{game_id}/players"): "linkSeat",
    ("get", "/api/problems/{error_code}"): "getProblemType",
}
"""Every operation's operationId: the name a generated client gives its function."""

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

CREATED_LOCATION = {"createGame", "importGame", "forkGame", "addAnnotation"}
"""Operations whose 201 names the new resource in ``Location``."""

SERVERS = [
    {"url": "/", "description": "the server that serves this document"},
    {"url": "http://127.0.0.1:8000", "description": "`heronlog serve` (and `make run`) on this machine"},
]

LICENSE = {"name": "MIT", "url": "https://spdx.org/licenses/MIT.html"}

PROBLEM_JSON = "application/problem+json"


def _header(description: str, required: bool = False, **schema: Any) -> dict[str, Any]:
    header: dict[str, Any] = {"description": description, "schema": {"type": "string", **schema}}
    if required:
        header["required"] = True
    return header


REQUEST_ID = _header(
    "the request's id: the one the client sent in X-Request-ID, or a new one; every log line of the request "
    "carries it",
    required=True,
)
RETRY_AFTER = _header("seconds to wait before trying again", required=True)
RATE_LIMIT_HEADERS = {
    "RateLimit-Policy": _header(
        'the write limit, as the IETF draft says it: "writes";q=<writes>;w=<seconds>'
    ),
    "RateLimit": _header('where the window stands: "writes";r=<writes left>;t=<seconds to its end>'),
    "RateLimit-Limit": _header("writes allowed per window (the earlier drafts' field)"),
    "RateLimit-Remaining": _header("writes left in this window (the earlier drafts' field)"),
    "RateLimit-Reset": _header("seconds until the window ends (the earlier drafts' field)"),
}
REPLAYED_HEADER = _header(
    "true when this is the answer to a retry with the same Idempotency-Key (the first attempt's answer)",
    enum=["true"],
)
LOCATION = _header("the path of the resource this request created")
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": 'an ETag this client has ("12"): when it is still the game\'s version the answer is 304 '
    "Not Modified, without a body",
}


def _move_examples() -> dict[str, Any]:
    import json
    from importlib import resources

    text = resources.files("api.resources").joinpath("move_examples.json").read_text(encoding="utf-8")
    examples: dict[str, Any] = json.loads(text)["examples"]
    return examples


def _camel(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_"))


def move_schemas() -> dict[str, Any]:
    """The components of the move union: one schema per kind (``TakeDieMove``...), converted from the schemas
    `api.resources.schemas.move_schema` generates from each kind's definition (`domain.kinds`), and ``Move``,
    their union told apart by ``kind`` (the examples come from recorded games)."""
    from apispec import APISpec
    from apispec.ext.marshmallow import MarshmallowPlugin

    from api.resources.schemas import move_schemas as generated
    from domain.kinds import KINDS

    spec = APISpec("moves", "1", "3.0.3", plugins=[MarshmallowPlugin()])
    for kind, schema in generated().items():
        spec.components.schema(KINDS[kind].__name__, schema=schema)
    converted = spec.to_dict()["components"]["schemas"]
    examples = _move_examples()
    schemas: dict[str, Any] = {}
    mapping: dict[str, str] = {}
    for kind, definition in KINDS.items():
        name = definition.__name__
        schema = converted[name]
        schema["description"] = f"a {kind} move" + (" (answers a chance prompt)" if definition.chance else "")
        if kind in examples:
            schema["example"] = examples[kind]["move"]
        schemas[name] = schema
        mapping[kind] = f"#/components/schemas/{name}"
    schemas["Move"] = {
        "description": "a move: one of the kinds below, told apart by `kind`, exactly as legal-moves lists it",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "kind", "mapping": mapping},
    }
    schemas["MoveBatch"] = {
        "type": "object",
        "description": "a batch of moves, applied all or nothing",
        "required": ["moves"],
        "properties": {
            "moves": {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/Move"}},
            "expected_version": {
                "type": "integer",
                "minimum": 0,
                "description": "instead of If-Match: the version the write expects",
            },
        },
    }
    return schemas


KEPT_BESIDE_REF = ("description", "example")
"""What a field's schema says that stays beside the reference put in its place (in an ``allOf``: 3.0 ignores a
reference's siblings)."""


UNIONS = frozenset({"Move"})
"""Components that are a ``oneOf`` told apart by a discriminator: always referenced bare, as generators read a
discriminated union inside an ``allOf`` as a parent type (openapi-typescript writes ``Omit<Move, "kind">``)."""


def _referenced(name: str, field: dict[str, Any]) -> dict[str, Any]:
    """The schema of a field documented as the component ``name`` (schemas.SCHEMA_MARK): a reference, wrapped in
    an ``allOf`` beside its description and example (a union's bare, see :data:`UNIONS`), or ``anyOf`` it and
    null when nullable."""
    reference = {"$ref": f"#/components/schemas/{name}"}
    kept = {key: field[key] for key in KEPT_BESIDE_REF if key in field}
    if field.get("nullable"):
        return {"anyOf": [reference, NULL], **kept}
    return {"allOf": [reference], **kept} if kept and name not in UNIONS else reference


def _typed_refs(node: Any) -> Any:
    """Every schema marked as a component (schemas.SCHEMA_MARK: a move, the board, the catalog...) becomes a
    reference to it, and a nullable reference is written ``anyOf: [$ref, NULL]`` (records.NULL: apispec writes
    ``anyOf: [$ref, {type: object, nullable: true}]``, whose second arm generated clients read as "any
    object")."""
    from api.resources.schemas import SCHEMA_MARK

    if isinstance(node, dict):
        if SCHEMA_MARK in node:
            return _referenced(node[SCHEMA_MARK], node)
        arms = node.get("anyOf")
        null_arm = {"type": "object", "nullable": True}
        if isinstance(arms, list) and len(arms) == 2 and null_arm in arms:  # in either order
            rest = {key: value for key, value in node.items() if key != "anyOf"}
            [typed] = [arm for arm in arms if arm != null_arm]
            return {
                "anyOf": [typed, NULL],
                **{key: value for key, value in rest.items() if key != "nullable"},
            }
        return {key: _typed_refs(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_typed_refs(item) for item in node]
    return node


def _references(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[-1]} if isinstance(node.get("$ref"), str) else set()
        for value in node.values():
            found |= _references(value)
        return found
    if isinstance(node, list):
        return set().union(*(_references(item) for item in node)) if node else set()
    return set()


def _drop_unused(document: dict[str, Any]) -> None:
    """Components no operation reaches (flask-smorest's PaginationMetadata, the moves' body schema that the
    typed union replaces): linters warn about them, and they document nothing."""
    schemas = document["components"]["schemas"]
    reached: set[str] = set()
    todo = _references(document["paths"]) | _references(document["components"].get("responses", {}))
    while todo:
        name = todo.pop()
        if name in reached or name not in schemas:
            continue
        reached.add(name)
        todo |= _references(schemas[name]) - reached
    for name in [name for name in schemas if name not in reached]:
        del schemas[name]


def _operation_id(method: str, path: str) -> str:
    known = OPERATION_IDS.get((method, path))
    if known:
        return known
    words = [part.strip("{}") for part in path.split("/") if part and part != "api"]
    return method + "".join(_camel(word.replace("-", "_")) for word in words)


def _error_content(response: dict[str, Any]) -> None:
    content = response.get("content")
    if content and "application/json" in content:
        content[PROBLEM_JSON] = content.pop("application/json")


def _described(operation: dict[str, Any]) -> None:
    """An operation whose docstring is one paragraph (flask-smorest makes it the summary, and no description):
    the paragraph becomes the description, its first sentence the summary. Every operation is described."""
    summary = " ".join(str(operation.get("summary", "")).split())
    if operation.get("description") or not summary:
        return
    first = re.split(r"(?<=[.:;])\s", summary, maxsplit=1)[0].rstrip(".:;")
    if first.count("(") > first.count(")"):  # the sentence went on inside a parenthesis
        first = first.split(" (", 1)[0]
    operation["summary"], operation["description"] = first, summary


def _finish_operation(method: str, path: str, operation: dict[str, Any]) -> None:
    operation_id = _operation_id(method, path)
    operation["operationId"] = operation_id
    _described(operation)
    if "security" not in operation:  # no token: say so, or generated clients demand one
        operation["security"] = []
    write = method != "get"
    if operation_id in EXPORT_MEDIA:
        _document_exports(operation, EXPORT_MEDIA[operation_id])
    responses: dict[str, Any] = operation["responses"]
    for status, response in responses.items():
        if "$ref" in response:
            continue
        headers = response.setdefault("headers", {})
        headers["X-Request-ID"] = REQUEST_ID
        failed = status == "default" or int(status) >= 400
        if failed:
            _error_content(response)
        if status == "429":
            headers["Retry-After"] = RETRY_AFTER
        if status == "503":
            headers["Retry-After"] = RETRY_AFTER
        if write and (failed or status.startswith("2")):
            headers.update(RATE_LIMIT_HEADERS)
        if write and status.startswith("2") and status != "204":
            headers["Idempotent-Replayed"] = REPLAYED_HEADER
        if status == "201" and operation_id in CREATED_LOCATION:
            headers["Location"] = LOCATION
    etagged = "200" in responses and "ETag" in responses["200"].get("headers", {})
    if not write and etagged and path != "/api/games/{game_id}/stream":
        operation.setdefault("parameters", []).append(IF_NONE_MATCH)
        responses["304"] = {
            "description": MEANINGS[304],
            "headers": {"ETag": responses["200"]["headers"]["ETag"], "X-Request-ID": REQUEST_ID},
        }
    if operation_id == "playMoves":
        operation["requestBody"]["content"]["application/json"]["schema"] = {
            "oneOf": [{"$ref": "#/components/schemas/Move"}, {"$ref": "#/components/schemas/MoveBatch"}],
        }
        operation["requestBody"]["content"]["application/json"]["examples"] = {
            "one move": {"value": _move_examples()["take_die"]["move"]},
            "a batch": {
                "value": {
                    "moves": [_move_examples()["take_die"]["move"], _move_examples()["place_die"]["move"]]
                }
            },
        }


EXPORT_MEDIA = {"exportGame": "application/json", "exportGameText": "text/plain", "exportGameBgg": "text/xml"}
"""The media type each export operation is read in (exportGame answers text and XML too, for its formats)."""


def _document_exports(operation: dict[str, Any], media: str) -> None:
    """An export's answer in its own media type (a generated client never decodes the text record as JSON)."""
    ok = operation["responses"].setdefault("200", {})
    ok.setdefault("headers", {})["ETag"] = _header("the game's version")
    ok["headers"]["Content-Disposition"] = _header("inline, or attachment for a file, with its name")
    text = {"schema": {"type": "string"}}
    if media == "text/plain":
        ok["description"] = "the readable record"
        ok["content"] = {"text/plain": text}
    elif media == "text/xml":
        # text/xml rather than application/xml (RFC 7303 has both): client generators read text/* as text
        ok["description"] = "the BoardGameGeek play record"
        ok["content"] = {"text/xml": text}
    else:
        ok["description"] = (
            "json: the full log (importable); bgstats: the BG Stats play file; bgstats-link: the create-play "
            "link; text and bgg are answered in their own media types (see exportGameText, exportGameBgg)"
        )
        ok["content"] = {
            "application/json": {
                "schema": {
                    "oneOf": [
                        {"$ref": "#/components/schemas/GameLogExport"},
                        {"$ref": "#/components/schemas/BGStatsExportFile"},
                        {"$ref": "#/components/schemas/BGStatsLink"},
                    ]
                }
            },
            "text/plain": text,
            "text/xml": text,
        }


def finish(document: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document as flask-smorest wrote it, finished (see the comment above)."""
    from api.resources.board_schemas import board_components, icon_refs
    from api.resources.catalog_schemas import catalog_components
    from api.resources.document_schemas import document_components
    from api.resources.errors import STATUS
    from api.resources.event_schemas import event_components

    document = _typed_refs(document)
    document["servers"] = SERVERS
    document["info"]["license"] = LICENSE
    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    added = {
        **board_components(),
        **catalog_components(),
        **event_components(),
        **document_components(),
        **move_schemas(),
    }
    clash = sorted(set(added) & set(schemas))
    if clash:  # pragma: no cover - a generated component would hide one of the API's schemas
        raise ValueError(f"components named twice: {clash}")
    icon = added.pop("Icon")
    schemas.update(icon_refs(added))
    schemas["Icon"] = icon
    schemas["Error"]["properties"]["error_code"]["enum"] = sorted(STATUS)
    for response in components.get("responses", {}).values():
        _error_content(response)
        response.setdefault("headers", {})["X-Request-ID"] = REQUEST_ID
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                _finish_operation(method, path, operation)
    _drop_unused(document)
    return document
