"""JSON in and out of the API with msgspec: Flask's JSON provider, webargs' body parser, and ready-made answers.

msgspec does the work in C, several times faster than the standard library, which still reads what msgspec cannot
and refuses what is not JSON text (docs/api/limits.md#json-text). An object that names a key twice is refused
too: JSON leaves its meaning open (RFC 8259, section 4).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, cast

import marshmallow as ma
import msgspec
from flask import Response, current_app
from flask.json.provider import DefaultJSONProvider
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

from replay.text import has_surrogate


def _fallback(value: Any) -> Any:
    """Types msgspec does not know: as Flask's own provider would write them (or its TypeError)."""
    return DefaultJSONProvider.default(value)


_encoder = msgspec.json.Encoder(enc_hook=_fallback)
_decoder = msgspec.json.Decoder()


def encode(value: Any) -> bytes:
    """``value`` as JSON bytes (UTF-8); the standard library's output where msgspec cannot write it."""
    try:
        return _encoder.encode(value)
    except (TypeError, ValueError, OverflowError, UnicodeError):
        return json.dumps(value, default=_fallback, ensure_ascii=True).encode()


def decode(data: str | bytes) -> Any:
    """JSON text as Python data. Input msgspec refuses is read by the standard library, which refuses what is
    not JSON text (see the module docstring) with a ``JSONDecodeError``, what Flask and webargs expect (an
    empty body's error has an empty ``doc``: webargs reads that as no body at all)."""
    try:
        try:
            value = _decoder.decode(data)
        except msgspec.DecodeError:
            value = _standard(data)
        else:
            _no_repeated_keys(data)
            return value
    except RecursionError:  # both readers recurse: past about a thousand levels, not a 500
        raise json.JSONDecodeError("JSON nested too deeply", "nested", 0) from None
    where = _lone_surrogate(value)
    if where is not None:
        raise json.JSONDecodeError(
            f"a lone surrogate escape ({where}) is not a character: send valid Unicode", "surrogate", 0
        )
    return value


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members as the standard library reads them, as a dict: refused when a key comes twice."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise json.JSONDecodeError(f"the key {key!r} appears twice in one object", "repeated", 0)
            seen.add(key)
    return found


def _no_repeated_keys(data: str | bytes) -> None:
    """Refuse JSON text (already read once, by msgspec, which keeps the last of two equal keys) that names a key
    twice in one object: read again by the standard library's scanner, each object's members checked as it is
    read. A move's body costs a few microseconds more."""
    if isinstance(data, str):
        if "{" not in data:
            return
    elif b"{" not in data:
        return
    try:
        json.loads(data, object_pairs_hook=_unique)
    except json.JSONDecodeError as error:
        if error.doc == "repeated":
            raise
    except ValueError:  # what msgspec read and the standard library would not (never a repeated key)
        return


def _refused_constant(name: str) -> Any:
    raise json.JSONDecodeError(f"{name} is not a JSON number", name, 0)


def _standard(data: str | bytes) -> Any:
    """The standard library's reading of what msgspec refused: it reads integers of any length JSON allows
    (msgspec stops at 64 bits), and refuses NaN and Infinity (not JSON), bytes that are not UTF-8, and an
    integer of more digits than Python converts (4,300)."""
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise json.JSONDecodeError(
                f"the body is not UTF-8 ({error.reason})", "bytes", error.start
            ) from None
    try:
        return json.loads(data, parse_constant=_refused_constant, object_pairs_hook=_unique)
    except json.JSONDecodeError:
        raise
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        raise json.JSONDecodeError("a number has more than 4,300 digits", "number", 0) from None


def _lone_surrogate(value: Any) -> str | None:
    """Where a lone surrogate is in decoded JSON (``$.players[0]``), or None. Only the standard library's
    reading can give one (msgspec refuses them), so only a body msgspec refused is walked."""
    stack: list[tuple[str, Any]] = [("$", value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            if has_surrogate(item):
                return path
        elif isinstance(item, dict):
            for key, child in item.items():
                if has_surrogate(key):
                    return f"{path} (a key)"
                stack.append((f"{path}.{key}", child))
        elif isinstance(item, list):
            stack.extend((f"{path}[{index}]", child) for index, child in enumerate(item))
    return None


class FastJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with msgspec underneath; ``sort_keys`` and ``indent`` (which msgspec does not
    do) still go to the standard library, as do the keyword arguments of a direct ``dumps``/``loads``."""

    sort_keys = False  # keep the schemas' field order

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs or self.sort_keys:
            return super().dumps(obj, **kwargs)
        return encode(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        if kwargs:
            return super().loads(s, **kwargs)
        return decode(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        if self.sort_keys or self.compact is False or (self.compact is None and self._app.debug):
            return cast(Response, super().response(obj))
        # Flask's response class takes bytes as a body; its stub names str only.
        response_class: Any = self._app.response_class
        return cast(Response, response_class(encode(obj), mimetype=self.mimetype))


class FastFlaskParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with msgspec instead of the standard library, and keeping one
    instance of each schema class it is given (webargs makes a new one for every request otherwise: a
    marshmallow schema's construction cost as much as its load). A schema instance holds no per-load state,
    so the threads of a worker share it safely."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._schemas: dict[type, Any] = {}

    def _get_schema(self, argmap: Any, req: Any) -> Any:
        if isinstance(argmap, type) and issubclass(argmap, ma.Schema):
            schema = self._schemas.get(argmap)
            if schema is None:
                schema = self._schemas.setdefault(argmap, argmap())
            return schema
        return super()._get_schema(argmap, req)

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        # an empty body is "missing" (webargs reads a JSONDecodeError with an empty doc so)
        return decode(req.get_data(cache=True))

    def _handle_invalid_json_error(self, error: Any, req: Any, *args: Any, **kwargs: Any) -> Any:
        """A body that is not JSON text: ``400 invalid_request`` saying what was wrong with it (webargs' own
        words, "Invalid JSON body.", first)."""
        reason = getattr(error, "msg", None) or getattr(error, "reason", None) or ""
        said = f"Invalid JSON body: {reason}." if reason else "Invalid JSON body."
        abort(400, exc=error, messages={"json": [said]})


def json_response(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """An answer from plain JSON data, without a schema's dump: for bodies built in their schema's shape."""
    response: Response = current_app.response_class(
        encode(body), status=status, headers=dict(headers or {}), mimetype="application/json"
    )
    return response
