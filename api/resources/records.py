"""JSON schemas generated from typed records (frozen dataclasses): the board's state and prompts, the events a
game's changes list, written as the engine's serialiser (`domain.serial`) and `api.resources.present` write them.

A record is an object of its fields, each typed by its annotation; a field marked ``omit_default``
(`domain.vocabulary.OPTIONAL`) may be left out; a prompt frame carries its kind in ``frame``; enums are their
values, icons their catalog notation. One schema per record, under a component name, so that the OpenAPI
document and every client generated from it type the board as the engine types it. A unit test validates the
board of real games against what is generated here, so the schemas cannot drift from the serialiser.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import textwrap
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Union

from domain.vocabulary import Icon, IconKind

Schema = dict[str, Any]


def ref(name: str) -> Schema:
    """A reference to the component ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


NULL: Schema = {"type": "object", "nullable": True, "enum": [None], "description": "none"}
"""The null arm of a nullable reference: null alone (an object type, as 3.0 needs a type beside ``nullable``,
whose only value is null). Every generator and linter of the suite reads ``anyOf: [$ref, NULL]`` as "that, or
null" (openapi-typescript: ``X | null``, openapi-python-client: ``X | None``)."""


def nullable(schema: Schema) -> Schema:
    """``schema`` or null, as OpenAPI 3.0 says it: a reference or :data:`NULL` (``allOf: [$ref]`` beside
    ``nullable`` needs a ``type`` for Redocly, and with ``type: object`` openapi-python-client reads it as not
    nullable), a null added to an enum (3.0.3: ``nullable`` does not add it)."""
    if "$ref" in schema:
        return {"anyOf": [schema, NULL]}
    result = {**schema, "nullable": True}
    if "enum" in result and None not in result["enum"]:
        result["enum"] = [*result["enum"], None]
    return result


def icon_schema() -> Schema:
    """An icon in the catalog's notation (`domain.vocabulary.parse_icon`): a kind, with an amount or a variant."""
    kinds = "|".join(sorted((kind.value for kind in IconKind), key=lambda k: (-len(k), k)))
    return {
        "type": "string",
        "pattern": f"^({kinds})(:[a-z0-9_]+)?$",
        "description": "an icon in the catalog's notation: a kind, then its amount or variant (`coin:2`, "
        "`tile:coral`, `courtier`); the catalog's `words.icons` says it in words",
        "example": "coin:2",
    }


def field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a record's fields (``x: int`` then ``\"\"\"...\"\"\"``), by field name."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):  # pragma: no cover - a record defined outside a source file
        return {}
    body = ast.parse(source).body[0]
    docs: dict[str, str] = {}
    if not isinstance(body, ast.ClassDef):  # pragma: no cover
        return docs
    for before, after in zip(body.body, body.body[1:], strict=False):
        if (
            isinstance(before, ast.AnnAssign)
            and isinstance(before.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[before.target.id] = " ".join(after.value.value.split())
    return docs


def summary(cls: type) -> str:
    """A record's docstring, its first paragraph on one line."""
    doc = inspect.getdoc(cls) or ""
    return " ".join(doc.split("\n\n")[0].split())


class Records:
    """Builds the schemas of records into ``components``, one per record class, named by ``name``.

    ``name`` gives a record's component name; ``overrides`` types a field the annotation cannot (a
    ``dict[str, Any]`` payload, a string from a closed set), by (record class, field name); ``tag`` gives a
    record the constant member its JSON form carries first (a frame's ``frame``), as (key, value)."""

    def __init__(
        self,
        name: Callable[[type], str],
        *,
        overrides: Mapping[tuple[type, str], Schema] | None = None,
        tag: Callable[[type], tuple[str, str] | None] = lambda cls: None,
        skip: Mapping[type, frozenset[str]] | None = None,
        localns: Mapping[str, Any] | None = None,
    ) -> None:
        self.name = name
        self.overrides = dict(overrides or {})
        self.tag = tag
        self.skip = dict(skip or {})
        self.localns = dict(localns or {})
        self.components: dict[str, Schema] = {}
        self._named: dict[str, type] = {}

    def of(self, tp: Any) -> Schema:
        """The schema of a value of type ``tp`` (a reference for a record)."""
        origin = typing.get_origin(tp)
        if origin in (Union, types.UnionType):
            return self._union(typing.get_args(tp))
        if origin is list:
            return {"type": "array", "items": self.of(typing.get_args(tp)[0])}
        if origin is tuple:
            args = typing.get_args(tp)
            if len(args) == 2 and args[1] is Ellipsis:
                return {"type": "array", "items": self.of(args[0])}
            parts = [self.of(arg) for arg in args]
            distinct = [part for i, part in enumerate(parts) if part not in parts[:i]]
            items = distinct[0] if len(distinct) == 1 else {"anyOf": distinct}
            return {"type": "array", "items": items, "minItems": len(args), "maxItems": len(args)}
        if origin in (dict, Mapping) or origin is getattr(typing, "Mapping", None):
            _, value = typing.get_args(tp)
            return {"type": "object", "additionalProperties": self.of(value)}
        if tp is bool:
            return {"type": "boolean"}
        if tp is int:
            return {"type": "integer"}
        if tp is float:
            return {"type": "number"}
        if tp is str:
            return {"type": "string"}
        if tp is Icon:
            return icon_schema()
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return {"type": "string", "enum": [member.value for member in tp]}
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return ref(self.record(tp))
        raise TypeError(f"no JSON schema for {tp!r}: type the field in the overrides")

    def _union(self, args: tuple[Any, ...]) -> Schema:
        present = [arg for arg in args if arg is not type(None)]
        if len(present) < len(args):  # X | None
            inner = present[0] if len(present) == 1 else Union[tuple(present)]  # noqa: UP007  # built at run time
            return nullable(self.of(inner))
        if all(isinstance(arg, type) and issubclass(arg, enum.Enum) for arg in present):
            return {"type": "string", "enum": [member.value for arg in present for member in arg]}
        if all(isinstance(arg, type) and dataclasses.is_dataclass(arg) for arg in present):
            refs = {self.record(arg): arg for arg in present}
            tags = {name: self.tag(cls) for name, cls in refs.items()}
            schema: Schema = {"oneOf": [ref(name) for name in refs]}
            keys = {tag[0] for tag in tags.values() if tag is not None}
            if len(keys) == 1 and all(tags.values()):
                key = keys.pop()
                schema["discriminator"] = {
                    "propertyName": key,
                    "mapping": {tag[1]: ref(name)["$ref"] for name, tag in tags.items() if tag},
                }
            return schema
        raise TypeError(f"no JSON schema for the union {args!r}")

    def record(self, cls: type) -> str:
        """The component name of a record class, its schema built on first use."""
        name = self.name(cls)
        known = self._named.get(name)
        if known is cls:
            return name
        if known is not None:
            raise ValueError(f"{cls.__name__} and {known.__name__} would both be the component {name}")
        self._named[name] = cls
        self.components[name] = {}  # taken before its fields are typed: a record may reach itself
        hints = typing.get_type_hints(cls, localns=self.localns)
        docs = field_docs(cls)
        properties: dict[str, Schema] = {}
        required: list[str] = []
        tag = self.tag(cls)
        if tag is not None:
            properties[tag[0]] = {"type": "string", "enum": [tag[1]]}
            required.append(tag[0])
        for spec in dataclasses.fields(cls):
            if spec.name in self.skip.get(cls, frozenset()):
                continue
            schema = self.overrides.get((cls, spec.name)) or self.of(hints[spec.name])
            if spec.name in docs and "$ref" not in schema:
                schema = {**schema, "description": docs[spec.name]}
            elif spec.name in docs:
                schema = {"allOf": [schema], "description": docs[spec.name]}
            properties[spec.name] = schema
            if not spec.metadata.get("omit_default"):
                required.append(spec.name)
        component: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
        if required:
            component["required"] = required
        if summary(cls):
            component["description"] = summary(cls)
        self.components[name] = component
        return name
