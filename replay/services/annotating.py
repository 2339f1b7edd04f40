"""Annotations: comments anchored to versions of a game, kept in a stream of their own (writing one never changes
the game's version, and undo never erases one; :mod:`replay.annotations` decides each write).

A comment's author may change it later, as may the owner; another token may not (``403 forbidden``): the check
is made here, for every way in. A new comment never conflicts in substance with another written at the same
moment, so a lost race is decided again; an edit or a deletion that lost one is stale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

import domain
from replay import annotations as annotation
from replay.access import Forbidden, Grant
from replay.annotations import Annotation, Annotations, project_annotations
from replay.errors import GameCorrupt, StaleVersion
from replay.events import AnnotationAdded, AnnotationDeleted, AnnotationEdited
from replay.game import Game
from replay.idempotency import reused, same_events
from replay.services.repository import GameRepository

AnnotationEvent = AnnotationAdded | AnnotationEdited | AnnotationDeleted


class _Keep:
    """A field of an edit left out: it keeps its value."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Any = _Keep()


@dataclass(frozen=True)
class Annotated:
    """The answer to an annotation write: the annotation as written, and whether this was a retry of it."""

    annotation: Annotation
    repeated: bool = False


class Annotating:
    """Read and write a game's annotations (see the module docstring)."""

    def __init__(self, games: GameRepository) -> None:
        self.games = games

    def stream(self, game_id: UUID, version: int | None = None) -> Annotations:
        """The fold of the game's annotation stream (at ``version`` of that stream, or as it stands)."""
        try:
            stream = self.games.stores.of(game_id).read(
                annotation.stream_id(game_id), project_annotations, version
            )
        except GameCorrupt as error:
            raise error.within(game_id, "annotations") from error
        return stream if isinstance(stream, Annotations) else annotation.empty(game_id)

    def annotations(self, game_id: UUID, known: Game | None = None) -> list[Annotation]:
        """The live annotations, in the order of the game (``known``: the game, read already)."""
        if known is None:
            self.games.get(game_id)  # no game, no annotations: 404 game_not_found
        return self.stream(game_id).visible()

    def annotate(
        self,
        game_id: UUID,
        *,
        version: int,
        author: str,
        text: str,
        glyph: str | None = None,
        target: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        author_grant: str | None = None,
        known: Game | None = None,
    ) -> Annotated:
        """Add a comment by ``author`` (an actor), written with the token of the grant ``author_grant``: that
        token's holder may change it later (``Annotation.changeable_by``), as may the owner."""
        game = known if known is not None and known.id == game_id else self.games.get(game_id)
        if idempotency_key is not None and idempotency_key in game.keys:  # used for a write to the game
            raise reused(game.keys[idempotency_key])
        parts = domain.board_parts(game.state)

        def decide(stream: Annotations) -> AnnotationEvent:
            return annotation.add(
                stream,
                version=version,
                game_version=game.version,
                author=author,
                text=text,
                glyph=glyph,
                target=target,
                parts=parts,
                idempotency_key=idempotency_key,
                author_grant=author_grant,
            )

        return self._write(game_id, idempotency_key, decide)

    def edit_annotation(
        self,
        game_id: UUID,
        annotation_id: str,
        *,
        editor: str,
        text: Any = KEEP,
        glyph: Any = KEEP,
        target: Any = KEEP,
        idempotency_key: str | None = None,
        grant: Grant | None = None,
        known: Game | None = None,
    ) -> Annotated:
        """Change a comment's text, glyph or target (a field left out, :data:`KEEP`, keeps its value)."""
        game = known if known is not None and known.id == game_id else self.games.get(game_id)
        parts = domain.board_parts(game.state)

        def decide(stream: Annotations) -> AnnotationEvent:
            now = stream.get(annotation_id)
            return annotation.edit(
                stream,
                annotation_id,
                editor=editor,
                text=now.text if text is KEEP else text,
                glyph=now.glyph if glyph is KEEP else glyph,
                target=now.target if target is KEEP else target,
                parts=parts,
                idempotency_key=idempotency_key,
            )

        return self._write(game_id, idempotency_key, decide, retry_races=False, grant=(grant, annotation_id))

    def delete_annotation(
        self,
        game_id: UUID,
        annotation_id: str,
        *,
        actor: str,
        idempotency_key: str | None = None,
        grant: Grant | None = None,
    ) -> Annotated:
        """Withdraw a comment (its stream keeps it, for the audit)."""

        def decide(stream: Annotations) -> AnnotationEvent:
            return annotation.delete(stream, annotation_id, actor=actor, idempotency_key=idempotency_key)

        return self._write(
            game_id, idempotency_key, decide, retry_races=False, deleted=True, grant=(grant, annotation_id)
        )

    def _write(
        self,
        game_id: UUID,
        key: str | None,
        decide: Callable[[Annotations], AnnotationEvent],
        *,
        retry_races: bool = True,
        deleted: bool = False,
        grant: tuple[Grant | None, str] | None = None,
    ) -> Annotated:
        """Get the annotation stream, answer a retry from it, check the token may change the comment
        (``grant``: the token's grant and the comment), decide, save."""
        store = self.games.stores.of(game_id)
        for _ in range(5 if retry_races else 1):
            stream = self.stream(game_id)
            done = stream.keys.get(key) if key else None
            if done is not None:
                then = self.stream(game_id, done[0])
                before = self.stream(game_id, done[0] - 1) if done[0] > 1 else annotation.empty(game_id)
                written = list(store.events.get(stream.id, gt=done[0] - 1, lte=done[0]))
                try:
                    again: AnnotationEvent | None = decide(before)
                except domain.DomainError:  # not a request that could be made there: not the one recorded
                    again = None
                fresh = ("annotation_id",) if isinstance(again, AnnotationAdded) else ()  # a new comment's id
                if again is None or not written or not same_events([again], written[:1], *fresh):
                    raise reused((done[0],))
                store.confirm_replicated()  # answered only once the replicas hold it
                return Annotated(then.items[done[1]], repeated=True)
            if grant is not None:
                _may_change(grant[0], stream.get(grant[1]))
            event = decide(stream)
            try:
                store.save(event)
            except IntegrityError:
                continue
            folded = annotation.mutate(event, stream)
            written_now = folded.items[event.annotation_id] if deleted else folded.get(event.annotation_id)
            return Annotated(written_now)
        raise StaleVersion(stream.version, self.stream(game_id).version)


def _may_change(grant: Grant | None, annotation: Annotation) -> None:
    """The owner changes any comment; a seat token only those it wrote itself."""
    if grant is not None and not annotation.changeable_by(grant.role, grant.id):
        raise Forbidden(
            "a seat token may change only the annotations it wrote itself (not those of an earlier token of "
            "its seat, nor of another seat)",
            actor=grant.actor,
        )
