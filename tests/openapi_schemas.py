"""Validating answers against the OpenAPI document's own schemas, as a typed client reads them.

OpenAPI 3.0's ``nullable`` is turned into JSON Schema (``X`` or null) the way schemathesis reads it for answers, and
the result is checked with jsonschema: an answer that carries a member the document does not name, misses a
required one or types one otherwise fails.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable: true`` beside a schema makes it "that, or null"."""
    if isinstance(node, dict):
        converted = {key: json_schema(value) for key, value in node.items()}
        if converted.pop("nullable", False):
            return {"anyOf": [converted, {"type": "null"}]}
        return converted
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    return node


class DocumentSchemas:
    """The schemas of one OpenAPI document: of a component, or of an operation's answer."""

    def __init__(self, document: Mapping[str, Any]) -> None:
        self.document = document
        self.components = json_schema(document["components"]["schemas"])

    def validator(self, schema: Mapping[str, Any]) -> jsonschema.Draft7Validator:
        root = {"allOf": [json_schema(schema)], "components": {"schemas": self.components}}
        return jsonschema.Draft7Validator(root)

    def component(self, name: str) -> jsonschema.Draft7Validator:
        return self.validator({"$ref": f"#/components/schemas/{name}"})

    def answer(self, method: str, path: str, status: int, media: str = "application/json") -> Any:
        """The validator of an operation's answer, by its path template (``/api/games/{game_id}``)."""
        response = self.document["paths"][path][method]["responses"][str(status)]
        return self.validator(response["content"][media]["schema"])


def problems(validator: jsonschema.Draft7Validator, instance: Any, limit: int = 5) -> list[str]:
    """What is wrong with ``instance``, each problem with where it is (empty when it validates)."""
    found = sorted(validator.iter_errors(instance), key=lambda error: list(error.absolute_path))
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}" for error in found[:limit]]
