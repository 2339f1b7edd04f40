"""Annotations: comments anchored to a version of a game, for teaching (docs/api/resources.md#annotations).

They live in a stream of their own, so annotating never conflicts with recording and takes no ``If-Match``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.resources import present
from api.resources.context import etag, game_log, idempotency_key, reader, writer
from api.resources.errors import ApiError
from api.resources.openapi import IDEMPOTENCY_KEY, READ, Blueprint, errors
from api.resources.schemas import (
    AnnotationEditSchema,
    AnnotationListSchema,
    AnnotationSchema,
    NewAnnotationSchema,
)
from replay.access import Grant
from replay.annotations import Annotation

blp = Blueprint(
    "annotations",
    __name__,
    url_prefix="/api/games",
    description="Annotations: comments, glyphs and board targets anchored to versions of a game.",
)
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
REPLAYED = {"Idempotent-Replayed": "true"}


def _retried(game_id: UUID, key: str | None) -> bool:
    """Whether this write's ``Idempotency-Key`` is already recorded in the game's annotation stream: the log
    then answers it as it answered the first attempt (and the answer says so)."""
    return key is not None and key in game_log().annotation_stream(game_id).keys


ETAG_HEADER = {
    "ETag": {
        "description": "the game's version (annotation writes never change it, and take no If-Match)",
        "schema": {"type": "string"},
    }
}


@blp.route("/<uuid:game_id>/annotations")
class Annotations(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, AnnotationListSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID) -> Any:
        """Every live annotation, in the order of the game."""
        game, grant = reader(game_id)
        notes = game_log().annotations(game_id)
        body = {
            "game_id": str(game_id),
            "annotations": [present.annotation_view(game, n, grant) for n in notes],
        }
        return body, 200, etag(game.version)

    @errors(blp, 400, 401, 404, 413, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(NewAnnotationSchema, error_status_code=400)
    @blp.response(201, AnnotationSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID) -> Any:
        """Annotate a version: text, an optional glyph (! ? !! ?? !? ?!) and an optional board target
        `{kind, id}` (room, bridge, domain, yard, garden, well, outside, passage_of_time, daimyo; with Matcha also
        tea_room, himeji, tea_garden, tea_house). The id names a part this game's board has (the Well, the
        Passage of Time and the Daimyo take the empty id; a domain, the seat's index from 0): any other is
        `400 invalid_annotation`, its message and `details.ids` listing the ids that kind takes."""
        game, grant = writer(game_id)
        key = idempotency_key()
        repeated = _retried(game_id, key)
        note = game_log().annotate(
            game_id,
            version=body["version"],
            author=grant.actor,
            text=body["text"],
            glyph=body["glyph"],
            target=body["target"],
            idempotency_key=key,
            author_grant=grant.id,
        )
        headers = {"Location": f"/api/games/{game_id}/annotations/{note.id}", **etag(game.version)}
        return present.annotation_view(game, note, grant), 201, {**headers, **(REPLAYED if repeated else {})}


@blp.route("/<uuid:game_id>/annotations/<string:annotation_id>")
class OneAnnotation(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, AnnotationSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID, annotation_id: str) -> Any:
        """One annotation."""
        game, grant = reader(game_id)
        note = game_log().annotation_stream(game_id).get(annotation_id)
        return present.annotation_view(game, note, grant), 200, etag(game.version)

    @errors(blp, 400, 401, 403, 404, 413, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(AnnotationEditSchema, error_status_code=400)
    @blp.response(200, AnnotationSchema, headers=ETAG_HEADER)
    def patch(self, body: Mapping[str, Any], game_id: UUID, annotation_id: str) -> Any:
        """Change an annotation's text, glyph or target (fields left out keep their value)."""
        game, grant = writer(game_id)
        key = idempotency_key()
        repeated = _retried(game_id, key)
        note = game_log().annotation_stream(game_id).items.get(annotation_id)
        if note is None or (note.deleted and not repeated):
            game_log().annotation_stream(game_id).get(annotation_id)  # 404 annotation_not_found
        assert note is not None
        _may_change(grant, note)
        edited = game_log().edit_annotation(
            game_id,
            annotation_id,
            editor=grant.actor,
            text=body.get("text", note.text),
            glyph=body.get("glyph", note.glyph),
            target=body.get("target", note.target),
            idempotency_key=key,
        )
        return (
            present.annotation_view(game, edited, grant),
            200,
            {**etag(game.version), **(REPLAYED if repeated else {})},
        )

    @errors(blp, 401, 403, 404, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.response(204, headers=ETAG_HEADER)
    def delete(self, game_id: UUID, annotation_id: str) -> Any:
        """Withdraw an annotation (the stream keeps it for the audit)."""
        game, grant = writer(game_id)
        key = idempotency_key()
        repeated = _retried(game_id, key)
        stream = game_log().annotation_stream(game_id)
        note = stream.items.get(annotation_id) if repeated else stream.get(annotation_id)
        if note is None:
            stream.get(annotation_id)  # 404 annotation_not_found
        assert note is not None
        _may_change(grant, note)
        game_log().delete_annotation(game_id, annotation_id, actor=grant.actor, idempotency_key=key)
        return "", 204, {**etag(game.version), **(REPLAYED if repeated else {})}


def _may_change(grant: Grant, note: Annotation) -> None:
    if not note.changeable_by(grant.role, grant.id):
        raise ApiError(
            "forbidden",
            "a seat token may change only the annotations it wrote itself (not those of an earlier token of "
            "its seat, nor of another seat)",
            actor=grant.actor,
        )
