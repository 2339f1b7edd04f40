"""The references BG Stats knows players by: an import of a BG Stats file remembers, for each of its players that is
a player here (matched by name), the uuid BG Stats gave them, so that the BG Stats exports of this heronlog name
them as BG Stats already does (docs/api/exports.md#bg-stats). Kept as events in one stream of the first store."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.persistence import IntegrityError

from replay.errors import ReplayError
from replay.events import DomainEvent, now
from replay.players.names import key_of


class ReferencesBusy(ReplayError):
    """Other imports kept writing references meanwhile: nothing of this one was written."""

    code = "store_unavailable"


STREAM = uuid5(NAMESPACE_URL, "heronlog:players:references")


@dataclass(frozen=True)
class PlayerReferenced(DomainEvent):
    """A player (``player``, a name: matched as names are) is known to BG Stats by ``reference`` (its uuid)."""

    player: str
    reference: str
    by: str


REFERENCE_EVENTS: tuple[type[DomainEvent], ...] = (PlayerReferenced,)


@dataclass(frozen=True)
class References:
    """The fold: each player's key -> its BG Stats uuid."""

    id: UUID
    version: int = 0
    known: Mapping[str, str] = field(default_factory=dict)


def project_references(held: References | None, events: Any) -> References | None:
    for event in events:
        held = held or References(STREAM)
        known = {**held.known, key_of(event.player): event.reference}
        held = replace(held, version=event.originator_version, known=known)
    return held


def known(store: Any) -> Mapping[str, str]:
    """Every reference remembered (player's key -> BG Stats uuid)."""
    found = store.read(STREAM, project_references)
    return found.known if isinstance(found, References) else {}


def remember(store: Any, wanted: Mapping[str, tuple[str, str]], *, by: str) -> None:
    """Remember references (player's key -> (name, uuid)), those not known already, in one write."""
    for _ in range(5):
        held = store.read(STREAM, project_references)
        version = held.version if isinstance(held, References) else 0
        have = held.known if isinstance(held, References) else {}
        at = now()
        events: list[PlayerReferenced] = []
        for key, (name, reference) in sorted(wanted.items()):
            if have.get(key) != reference:
                events.append(
                    PlayerReferenced(
                        originator_id=STREAM,
                        originator_version=version + len(events) + 1,
                        timestamp=at,
                        player=name,
                        reference=reference,
                        by=by,
                    )
                )
        if not events:
            return
        try:
            store.save(*events)
            return
        except IntegrityError:
            continue  # another import wrote meanwhile: decide again on what it wrote
    raise ReferencesBusy(
        "the BG Stats references were being written by others meanwhile: send the file again"
    )
