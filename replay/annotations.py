"""Annotations: comments for teaching, anchored to a version of a game, in a stream of their own.

So annotating never changes the game's version and undo never erases commentary.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from replay.errors import AnnotationNotFound, InvalidAnnotation
from replay.events import AnnotationAdded, AnnotationDeleted, AnnotationEdited, DomainEvent, now
from replay.text import checked

GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
"""The glyphs of annotated game records: good, mistake, brilliant, blunder, interesting, dubious."""
TARGET_KINDS = (
    "room",
    "bridge",
    "domain",
    "yard",
    "garden",
    "well",
    "outside",
    "passage_of_time",
    "daimyo",
    "tea_room",
    "himeji",
    "tea_garden",
    "tea_house",
)
"""What a comment may point at on the board; ``id`` names which one (a room, a bridge colour, a seat). The last
four are Matcha's board, ids as the state names them: a Tea Room or Himeji space (``tea_room_left``,
``himeji_lower``), a place of the Tea Garden (``entrance``, ``viewing_platform``, ``path_1``, ``path_2``) and a
Tea House room (``tea_house_upper``). Matcha's green bridge is a ``bridge`` like the others."""
MAX_TEXT = 4000
MAX_PART = 100
"""The largest number a target's id may be (a seat's index): a number beyond is no part of any board."""


def stream_id(game_id: UUID) -> UUID:
    """The annotation stream's id, derived from the game's id (no lookup needed, no collision possible)."""
    return uuid5(NAMESPACE_URL, f"heronlog:annotations:{game_id}")


@dataclass(frozen=True)
class Annotation:
    """One comment as it stands now."""

    id: str
    version: int
    author: str
    text: str
    glyph: str | None
    target: Mapping[str, Any] | None
    created_on: datetime
    edited_on: datetime | None = None
    edited_by: str | None = None
    deleted: bool = False
    author_grant: str | None = None
    """The grant whose token wrote it (None: written before grants were recorded, or imported)."""

    def changeable_by(self, role: str, grant_id: str) -> bool:
        """Whether the holder of a token may edit or delete it: the owner, or the very token that wrote it
        (a seat's later token is another grant: the seat's new holder is not the comment's author)."""
        return role == "owner" or (self.author_grant is not None and self.author_grant == grant_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "version": self.version,
            "author": self.author,
            "text": self.text,
            "glyph": self.glyph,
            "target": dict(self.target) if self.target else None,
            "created_on": self.created_on.isoformat(),
            "edited_on": self.edited_on.isoformat() if self.edited_on else None,
            "edited_by": self.edited_by,
        }


@dataclass(frozen=True)
class Annotations:
    """The fold of one game's annotation stream."""

    id: UUID
    version: int
    game_id: str
    items: Mapping[str, Annotation]
    keys: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    """The writes made with an ``Idempotency-Key``: key -> (the stream's version after it, the annotation it
    wrote), so a retry is answered as the write was (:mod:`replay.idempotency`)."""

    def visible(self) -> list[Annotation]:
        """Live annotations, in the order of the game (version), then of writing."""
        live = [item for item in self.items.values() if not item.deleted]
        return sorted(live, key=lambda item: (item.version, item.created_on))

    def get(self, annotation_id: str) -> Annotation:
        item = self.items.get(annotation_id)
        if item is None or item.deleted:
            raise AnnotationNotFound(f"no annotation {annotation_id}", annotation_id=annotation_id)
        return item


def empty(game_id: UUID) -> Annotations:
    return Annotations(id=stream_id(game_id), version=0, game_id=str(game_id), items={})


Parts = Mapping[str, Sequence[str]]
"""The parts of one game's board, kind by kind (``domain.board_parts``): the ids its targets may name."""


def check_on_board(target: Mapping[str, Any] | None, parts: Parts | None) -> None:
    """Refuse a target naming a part this game's board does not have (``room nowhere``, a Tea Room in a base
    game): its comment would point at nothing. ``parts`` None checks nothing (the caller has no board)."""
    if target is None or parts is None:
        return
    kind, part = target["kind"], target["id"]
    ids = parts.get(kind, ())
    if part in ids:
        return
    if not ids:
        raise InvalidAnnotation(
            f"this game's board has no {kind} (a part of Matcha's board)", target=dict(target), ids=[]
        )
    if ids == ("",):
        listed = f'a {kind} target takes no id (send "" or leave id out)'
    else:
        listed = f"a {kind} target's id is one of {', '.join(ids)}"
    raise InvalidAnnotation(
        f"this game's board has no {kind} {part!r}: {listed}", target=dict(target), ids=list(ids)
    )


def check_content(
    text: Any, glyph: Any, target: Any, parts: Parts | None = None
) -> tuple[str, str | None, dict[str, Any] | None]:
    """Validate what a user wrote; returns it normalised. With the game's ``parts``, a target must name one of
    them (`check_on_board`); an imported log's annotations are checked without (old archives still restore)."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidAnnotation("an annotation needs some text")
    kept = checked(text, "an annotation", max_length=MAX_TEXT, multiline=True, error=InvalidAnnotation)
    if glyph is not None and glyph not in GLYPHS:
        raise InvalidAnnotation(f"glyph must be one of {' '.join(GLYPHS)}", glyph=str(glyph)[:10])
    if target is not None:
        if (
            not isinstance(target, Mapping)
            or target.get("kind") not in TARGET_KINDS
            or not isinstance(target.get("id", ""), str | int)
            or isinstance(target.get("id"), bool)
        ):
            raise InvalidAnnotation(
                f"target must be {{kind, id}} with kind one of {', '.join(TARGET_KINDS)}",
                target=str(target)[:200],
            )
        part = target.get("id", "")
        if isinstance(part, int) and not 0 <= part <= MAX_PART:
            raise InvalidAnnotation(f"a target's id is a seat's index or a part's name, not {part}")
        target = {
            "kind": target["kind"],
            "id": checked(
                str(part), "a target's id", max_length=40, allow_empty=True, error=InvalidAnnotation
            ),
        }
        check_on_board(target, parts)
    return kept, glyph, target


def add(
    stream: Annotations,
    *,
    version: int,
    game_version: int,
    author: str,
    text: Any,
    glyph: Any = None,
    target: Any = None,
    parts: Parts | None = None,
    idempotency_key: str | None = None,
    author_grant: str | None = None,
) -> AnnotationAdded:
    if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= game_version:
        raise InvalidAnnotation(f"version must be between 1 and {game_version}", version=version)
    text, glyph, target = check_content(text, glyph, target, parts)
    return AnnotationAdded(
        originator_id=stream.id,
        originator_version=stream.version + 1,
        timestamp=now(),
        annotation_id=str(uuid4()),
        game_id=stream.game_id,
        version=version,
        author=author,
        text=text,
        glyph=glyph,
        target=target,
        idempotency_key=idempotency_key,
        author_grant=author_grant,
    )


def edit(
    stream: Annotations,
    annotation_id: str,
    *,
    editor: str,
    text: Any,
    glyph: Any = None,
    target: Any = None,
    parts: Parts | None = None,
    idempotency_key: str | None = None,
) -> AnnotationEdited:
    stream.get(annotation_id)
    text, glyph, target = check_content(text, glyph, target, parts)
    return AnnotationEdited(
        originator_id=stream.id,
        originator_version=stream.version + 1,
        timestamp=now(),
        annotation_id=annotation_id,
        editor=editor,
        text=text,
        glyph=glyph,
        target=target,
        idempotency_key=idempotency_key,
    )


def delete(
    stream: Annotations, annotation_id: str, *, actor: str, idempotency_key: str | None = None
) -> AnnotationDeleted:
    stream.get(annotation_id)
    return AnnotationDeleted(
        originator_id=stream.id,
        originator_version=stream.version + 1,
        timestamp=now(),
        annotation_id=annotation_id,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def _advance(
    stream: Annotations, event: AnnotationAdded | AnnotationEdited | AnnotationDeleted
) -> dict[str, Any]:
    """What every annotation event changes: the stream's version, and the keys of its writes."""
    changed: dict[str, Any] = {"version": event.originator_version}
    if event.idempotency_key:
        entry = (event.originator_version, event.annotation_id)
        changed["keys"] = {**stream.keys, event.idempotency_key: entry}
    return changed


@singledispatch
def mutate(event: DomainEvent, stream: Annotations | None) -> Annotations:
    raise TypeError(f"not an annotation event: {type(event).__name__}")


@mutate.register
def _added(event: AnnotationAdded, stream: Annotations | None) -> Annotations:
    base = stream or Annotations(id=event.originator_id, version=0, game_id=event.game_id, items={})
    item = Annotation(
        id=event.annotation_id,
        version=event.version,
        author=event.author,
        text=event.text,
        glyph=event.glyph,
        target=event.target,
        created_on=event.timestamp,
        author_grant=event.author_grant,
    )
    return replace(base, **_advance(base, event), items={**base.items, item.id: item})


@mutate.register
def _edited(event: AnnotationEdited, stream: Annotations | None) -> Annotations:
    assert stream is not None
    item = replace(
        stream.items[event.annotation_id],
        text=event.text,
        glyph=event.glyph,
        target=event.target,
        edited_on=event.timestamp,
        edited_by=event.editor,
    )
    return replace(stream, **_advance(stream, event), items={**stream.items, item.id: item})


@mutate.register
def _deleted(event: AnnotationDeleted, stream: Annotations | None) -> Annotations:
    assert stream is not None
    item = replace(stream.items[event.annotation_id], deleted=True)
    return replace(stream, **_advance(stream, event), items={**stream.items, item.id: item})


def project_annotations(stream: Annotations | None, events: Iterable[Any]) -> Annotations | None:
    for event in events:
        stream = mutate(event, stream)
    return stream
