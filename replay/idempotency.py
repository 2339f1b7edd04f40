"""Idempotency: one mechanism, the log's (docs/api/idempotency.md).

A write's ``Idempotency-Key`` is stored with its events, so a retry is answered from the log however late it
comes; only answers carrying a new token are kept apart, briefly, as receipts. A key's first kind of write is
kept beside the rate-limit counters, so the same key sent with another kind is refused at once; the log refuses
it too (:func:`same_events`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from replay.errors import KeyReused


def fingerprint(kind: str, **request: Any) -> str:
    """What a request asked for, as a short digest: a retry must ask for the same. ``kind`` names the write;
    ``request`` its parameters, compared as JSON with sorted keys (a client that orders its keys otherwise
    asks for the same thing)."""
    text = json.dumps([kind, request], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True)
class Receipt:
    """What a creation that handed out a token decided, kept briefly for its retry (see the module
    docstring): the request's fingerprint, the game, and the token with its grant."""

    fingerprint: str
    game_id: UUID
    token: str
    grant_id: str
    version: int = 0
    """For a new game: the version it is created at (its events as decided)."""

    def to_bytes(self) -> bytes:
        return json.dumps(
            {
                "fingerprint": self.fingerprint,
                "game_id": str(self.game_id),
                "token": self.token,
                "grant_id": self.grant_id,
                "version": self.version,
            }
        ).encode()

    @classmethod
    def from_bytes(cls, data: bytes) -> Receipt:
        fields: Mapping[str, Any] = json.loads(data)
        return cls(
            fields["fingerprint"],
            UUID(fields["game_id"]),
            fields["token"],
            fields["grant_id"],
            int(fields.get("version", 0)),
        )

    def check(self, asked: str) -> None:
        """Refuse a retry that asks for something else under the same key."""
        if asked != self.fingerprint:
            raise KeyReused(
                "this Idempotency-Key was used for another request: use a new key for a new write",
                game_id=str(self.game_id),
            )


def receipt_key(kind: str, key: str) -> str:
    """The name a receipt is kept under: the kind of write and the (scoped) key, hashed so that a client's key
    of any length or alphabet makes a short, plain name."""
    return f"{kind}:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def reused(versions: tuple[int, ...]) -> KeyReused:
    """The refusal of a key recorded with another write of a game."""
    return KeyReused(
        "this Idempotency-Key was used for another write: use a new key for a new write",
        versions=list(versions),
    )


def receipt_of(kept: Receipts, name: str, asked: str) -> Receipt:
    """The receipt kept under ``name`` for a retry that asks ``asked`` (:class:`KeyReused` if it asks for
    something else)."""
    found = kept.get(name)
    if found is None:  # it expired between the two calls: nothing is left to answer from
        raise KeyReused("this Idempotency-Key was used a moment ago: use a new key for a new write")
    receipt = Receipt.from_bytes(found)
    receipt.check(asked)
    return receipt


class Receipts(Protocol):
    def get(self, key: str) -> bytes | None: ...


def key_use(scope: str, key: str) -> str:
    """The name a key's first use is kept under: who sent it (``scope``) and the key, hashed."""
    return "use:" + hashlib.sha256(f"{scope}\n{key}".encode("utf-8", "surrogatepass")).hexdigest()


def used_for_another(first: str, now: str) -> KeyReused:
    """The refusal of a key first used for the write ``first`` and now sent with the write ``now``."""
    return KeyReused(
        f"this Idempotency-Key was first used for another kind of write ({first}, not {now}): use a new key "
        "for a new write",
        first_used_for=first,
        sent_with=now,
    )


_HEADER = frozenset({"originator_id", "originator_version", "timestamp"})


def payload(event: Any, *ignored: str) -> dict[str, Any]:
    """What an event decided, without where and when it was decided (and without ``ignored`` fields, such as
    the random id a new comment draws): two decisions of the same request have the same payload."""
    skip = _HEADER | set(ignored)
    return {name: value for name, value in vars(event).items() if name not in skip}


def same_events(again: Sequence[Any], written: Sequence[Any], *ignored: str) -> bool:
    """Whether a request decided again made the very events recorded under its key: the same kinds of event
    with the same payloads (an undo and a redo of the same moves have the same fields, not the same kind)."""
    return [(type(event), payload(event, *ignored)) for event in again] == [
        (type(event), payload(event, *ignored)) for event in written
    ]
