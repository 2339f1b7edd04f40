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
from api.resources.openapi import IDEMPOTENCY_KEY, READ, Blueprint, errors
from api.resources.schemas import (
    AnnotationEditSchema,
    AnnotationListSchema,
    AnnotationSchema,
    NewAnnotationSchema,
)
from api.resources.write_guard import Admitted, counted

blp = Blueprint(
    "annotations",
    __name__,
    url_prefix="/api/games",
    description="Annotations: comments, glyphs and board targets anchored to versions of a game.",
)
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
REPLAYED = {"Idempotent-Replayed": "true"}


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
        """Every live annotation, in the order of the game.

        Withdrawn annotations are left out (the event stream keeps them). `yours` says, for each, whether the
        token sent may edit or delete it."""
        game, grant = reader(game_id)
        found = game_log().annotating.annotations(game_id, game)
        body = {
            "game_id": str(game_id),
            "annotations": [present.annotation_view(game, annotation, grant) for annotation in found],
        }
        return body, 200, etag(game.version)

    @counted
    @errors(blp, 400, 401, 404, 413, 422, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(NewAnnotationSchema, error_status_code=400)
    @blp.response(201, AnnotationSchema, headers=ETAG_HEADER)
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Annotate a version.

        Text, an optional glyph (! ? !! ?? !? ?!) and an optional board target
        `{kind, id}` (room, bridge, domain, yard, garden, well, outside, passage_of_time, daimyo; with Matcha also
        tea_room, himeji, tea_garden, tea_house). The id names a part this game's board has (the Well, the
        Passage of Time and the Daimyo take the empty id; a domain, the seat's index from 0): any other is
        `400 invalid_annotation`, its message and `details.ids` listing the ids that kind takes."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        written = game_log().annotating.annotate(
            game_id,
            version=body["version"],
            author=grant.actor,
            text=body["text"],
            glyph=body["glyph"],
            target=body["target"],
            idempotency_key=idempotency_key(),
            author_grant=grant.id,
            known=game,
        )
        annotation = written.annotation
        headers = {"Location": f"/api/games/{game_id}/annotations/{annotation.id}", **etag(game.version)}
        replayed = REPLAYED if written.repeated else {}
        return present.annotation_view(game, annotation, grant), 201, {**headers, **replayed}


@blp.route("/<uuid:game_id>/annotations/<string:annotation_id>")
class OneAnnotation(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, AnnotationSchema, headers=ETAG_HEADER)
    def get(self, game_id: UUID, annotation_id: str) -> Any:
        """One annotation.

        As the list gives it: its version, author, text, glyph and board target; `404 annotation_not_found`
        when there is none of that id, or it was withdrawn."""
        game, grant = reader(game_id)
        annotation = game_log().annotating.stream(game_id).get(annotation_id)
        return present.annotation_view(game, annotation, grant), 200, etag(game.version)

    @counted
    @errors(blp, 400, 401, 403, 404, 413, 422, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(AnnotationEditSchema, error_status_code=400)
    @blp.response(200, AnnotationSchema, headers=ETAG_HEADER)
    def patch(self, body: Mapping[str, Any], game_id: UUID, annotation_id: str, admitted: Admitted) -> Any:
        """Change an annotation's text, glyph or target.

        Fields left out keep their value; `glyph` or `target` null removes it. The owner may change any
        annotation, a seat's token those it wrote."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        changed = {field: body[field] for field in ("text", "glyph", "target") if field in body}
        written = game_log().annotating.edit_annotation(
            game_id,
            annotation_id,
            editor=grant.actor,
            idempotency_key=idempotency_key(),
            grant=grant,
            known=game,
            **changed,
        )
        return (
            present.annotation_view(game, written.annotation, grant),
            200,
            {**etag(game.version), **(REPLAYED if written.repeated else {})},
        )

    @counted
    @errors(blp, 401, 403, 404, 422, 429, 503)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.response(204, headers=ETAG_HEADER)
    def delete(self, game_id: UUID, annotation_id: str, admitted: Admitted) -> Any:
        """Withdraw an annotation.

        It leaves the annotations and the exports' record; the annotation stream keeps it for the audit. The
        owner may withdraw any annotation, a seat's token those it wrote."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        written = game_log().annotating.delete_annotation(
            game_id, annotation_id, actor=grant.actor, idempotency_key=idempotency_key(), grant=grant
        )
        return "", 204, {**etag(game.version), **(REPLAYED if written.repeated else {})}
