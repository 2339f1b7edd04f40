"""Idempotency: one mechanism, the log's (docs/api/idempotency.md).

A client that did not get the answer to a write (a phone losing its connection) sends it again with the same
``Idempotency-Key``. The write must not happen twice, and the retry must get the answer the first attempt got.

* **Writes to a game** (moves, undo, redo, amend, abandon, comments, withdrawing a seat's tokens): the key is
  recorded in the write's own events. A retry finds it in the stream's fold (:class:`replay.game.Game`
  ``keys``), checks that it asks for the same thing (the same moves, or the same decision re-made on the game
  as it stood before the recorded write), and its answer is rebuilt from the log as it stood right after that
  write: the same answer, byte for byte. A key that comes back with another request is refused
  (:class:`KeyReused`): it would otherwise be answered as recorded while nothing was.
* **Writes that hand out a token** (a new game's owner token, when a game is created, forked or imported; a
  seat token): the log keeps only a token's hash, so the answer cannot be rebuilt from it. A **receipt**
  (:class:`Receipt`: the request's fingerprint, the game and the token) is kept briefly beside the store's
  events (:mod:`replay.ephemeral`), written *before* the events it describes: a retry that finds a receipt
  whose events are missing (the first attempt crashed in between) writes them with the receipt's game id and
  token, so the write happens once, whatever crashes.

The caller chooses the key's scope: a write to a game is scoped by the game (and the token that may write to
it); a creation has no game yet, so the API scopes its key by who sent it before handing it here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
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
