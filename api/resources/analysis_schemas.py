"""The marshmallow schemas of computer analysis (``api.resources.analysis``): what a request may ask, and the
shape of a game's analysis and of a position's evaluation."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.resources.schemas import MoveField, documented, expected_version_field

MOVE = "a move as `GET /api/games/{id}/legal-moves` lists it"


class AnalysisRequestSchema(Schema):
    playouts = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=validate.Range(min=10, max=2000),
        metadata={"description": "playouts per decision (default: the server's, 200)"},
    )
    expected_version = expected_version_field()


class MoveValueSchema(Schema):
    move = MoveField(required=True, metadata={"description": MOVE})
    words = fields.String(required=True)
    playouts = fields.Integer(required=True)
    margin = fields.Float(
        required=True,
        metadata={"description": "expected final margin (CP): the seat's total minus the best other total"},
    )
    margin_se = fields.Float(required=True, metadata={"description": "its standard error"})
    win = fields.Float(required=True, metadata={"description": "share of the playouts the seat won"})
    win_se = fields.Float(required=True)
    cost = fields.Float(
        required=True,
        metadata={
            "description": "the best move's margin less this one's, on their common playouts (0 for the best)"
        },
    )
    cost_se = fields.Float(required=True)
    confidence = fields.Float(
        required=True,
        allow_none=True,
        metadata={"description": "probability that the best move is really better (null for the best)"},
    )
    seats = fields.List(
        fields.Float(),
        required=True,
        metadata={"description": "every seat's expected final margin after this move"},
    )


class NoteSchema(Schema):
    text = fields.String(required=True)
    glyph = fields.String(required=True, allow_none=True)


class DecisionSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "the move's place along the line, from 1"})
    version = fields.Integer(required=True, metadata={"description": "the game version of the move"})
    seat = fields.Integer(required=True)
    player = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "evaluated", "failed"]))
    failure = fields.String(required=True, allow_none=True)
    playouts = fields.Integer(required=True, allow_none=True)
    best = fields.Nested(MoveValueSchema, required=True, allow_none=True)
    played = fields.Nested(MoveValueSchema, required=True, allow_none=True)
    mark = fields.String(required=True, allow_none=True, metadata={"description": "?!, ? or ??"})
    moves = fields.List(fields.Nested(MoveValueSchema), required=True)
    note = fields.Nested(
        NoteSchema,
        required=True,
        allow_none=True,
        metadata={"description": "the annotation the replay page's 'Annotate this' offers"},
    )


class RunSchema(Schema):
    number = fields.Integer(required=True)
    game_version = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    evaluator = fields.String(required=True)
    playouts = fields.Integer(required=True)
    requested_by = fields.String(required=True)
    requested_on = fields.String(required=True)
    moves_covered = fields.Integer(required=True)
    moves_now = fields.Integer(required=True)
    total = fields.Integer(required=True)
    evaluated = fields.Integer(required=True)
    failed = fields.Integer(required=True)
    running = fields.Integer(required=True)
    cpu_seconds = fields.Float(required=True)


class MarkSchema(Schema):
    glyph = fields.String(required=True)
    cost = fields.Float(required=True)


class AnalysisSchema(Schema):
    game_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["none", "running", "finished"]))
    stale = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "why the analysis no longer fits the game (null while it does)"},
    )
    marks = fields.List(fields.Nested(MarkSchema), required=True)
    mark_confidence = fields.Float(required=True)
    run = fields.Nested(RunSchema, required=True, allow_none=True)
    decisions = fields.List(fields.Nested(DecisionSchema), required=True)


class AnalyseRequestSchema(Schema):
    position = fields.Dict(
        required=True,
        metadata=documented(
            "GameState",
            {
                "description": "the engine's state as `domain.state_to_dict` writes it (its `catalog` may be "
                "left out and sent beside it)"
            },
        ),
    )
    catalog = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata=documented(
            "ComponentCatalog", {"description": "the game's catalog (`GET /api/games/{id}/catalog`)"}
        ),
    )
    playouts = fields.Integer(load_default=200, strict=True, validate=validate.Range(min=2, max=100_000))
    seconds = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=0.01, max=3600))
    seed = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=2**53))


class EvaluationSchema(Schema):
    seat = fields.Integer(required=True)
    playouts = fields.Integer(required=True)
    seed = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    evaluator = fields.String(required=True)
    seconds = fields.Float(required=True, metadata={"description": "the budget the evaluation ran with"})
    moves = fields.List(fields.Nested(MoveValueSchema), required=True)
