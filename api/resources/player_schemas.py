"""The JSON of the players' resources (docs/api/players.md): the only code that knows their shapes."""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, validate, validates_schema

UUID_TEXT = r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$"
ORDERS = ("games", "wins", "rating")


class PlayerListQuerySchema(Schema):
    search = fields.String(
        load_default=None,
        validate=validate.Length(max=100),
        metadata={"description": "words: each must start a word of the player's name"},
    )
    order = fields.String(
        load_default="games",
        validate=validate.OneOf(ORDERS),
        metadata={
            "description": "most finished games, most wins, or highest rating first (unrated players last)"
        },
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))


class PageQuerySchema(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))


class RatingSchema(Schema):
    mu = fields.Float(required=True, metadata={"description": "the rating's mean (openskill Plackett-Luce)"})
    sigma = fields.Float(required=True, metadata={"description": "its uncertainty"})
    ordinal = fields.Float(required=True, metadata={"description": "mu - 3 sigma: what lists sort by"})
    games = fields.Integer(required=True, metadata={"description": "the rated games it comes from"})


class PlayerRowSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    listed = fields.Integer(
        required=True, metadata={"description": "every game listed: finished or not, solo"}
    )
    games = fields.Integer(
        required=True, metadata={"description": "finished multiplayer games (those counted)"}
    )
    won = fields.Integer(required=True)
    rating = fields.Nested(RatingSchema, required=True, allow_none=True)


class PlayerListSchema(Schema):
    players = fields.List(fields.Nested(PlayerRowSchema), required=True)
    order = fields.String(required=True)
    limit = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    total = fields.Integer(required=True)
    next = fields.String(required=True, allow_none=True)
    previous = fields.String(required=True, allow_none=True)


class GroupSchema(Schema):
    games = fields.Integer(required=True)
    won = fields.Integer(required=True)
    mean_score = fields.Float(required=True, allow_none=True)


class LineSchema(Schema):
    line = fields.String(
        required=True, metadata={"description": "a line of the score sheet (its field name)"}
    )
    words = fields.String(required=True)
    mean = fields.Float(required=True, allow_none=True)
    club_mean = fields.Float(required=True, allow_none=True, metadata={"description": "every player's mean"})


class ByPlayersSchema(GroupSchema):
    players = fields.Integer(required=True)


class MatchaGroupSchema(GroupSchema):
    matcha = fields.Boolean(required=True)


class SoloGroupSchema(GroupSchema):
    difficulty = fields.String(required=True)
    matcha = fields.Boolean(
        required=True, metadata={"description": "against the Tokugawa clan (with Matcha)"}
    )


class StartSchema(GroupSchema):
    card = fields.String(required=True, metadata={"description": "the starting resource card chosen (R-S12)"})
    words = fields.String(required=True)


class RecordSchema(Schema):
    listed = fields.Integer(required=True)
    in_progress = fields.Integer(required=True)
    abandoned = fields.Integer(required=True)
    games = fields.Integer(required=True)
    won = fields.Integer(required=True)
    mean_score = fields.Float(required=True, allow_none=True)
    best_score = fields.Integer(required=True, allow_none=True)
    best_game = fields.String(required=True, allow_none=True)
    lines = fields.List(fields.Nested(LineSchema), required=True)
    by_players = fields.List(fields.Nested(ByPlayersSchema), required=True)
    matcha = fields.List(fields.Nested(MatchaGroupSchema), required=True)
    solo = fields.List(fields.Nested(SoloGroupSchema), required=True)
    starts = fields.List(fields.Nested(StartSchema), required=True)


class RivalSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    games_together = fields.Integer(required=True)
    ahead = fields.Integer(required=True, metadata={"description": "games this player finished ahead"})
    behind = fields.Integer(required=True)
    tied = fields.Integer(required=True, metadata={"description": "a rank shared (the tie_break option)"})


class RatingPointSchema(RatingSchema):
    game_id = fields.String(required=True)
    finished_on = fields.String(required=True)


class PlayerProfileSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    record = fields.Nested(RecordSchema, required=True)
    rating = fields.Nested(RatingSchema, required=True, allow_none=True)
    history = fields.List(
        fields.Nested(RatingPointSchema),
        required=True,
        metadata={"description": "the rating after each of the latest 200 rated games, oldest first"},
    )
    versus = fields.List(fields.Nested(RivalSchema), required=True)
    bgstats = fields.String(
        required=True, allow_none=True, metadata={"description": "the uuid BG Stats knows this player by"}
    )


class PlayerGameSchema(Schema):
    game_id = fields.String(required=True)
    title = fields.String(required=True)
    played_on = fields.String(required=True)
    status = fields.String(required=True)
    mode = fields.String(required=True)
    private = fields.Boolean(required=True)
    forked = fields.Boolean(required=True)
    solo = fields.String(required=True, allow_none=True)
    matcha = fields.Boolean(required=True)
    counted = fields.Boolean(required=True, metadata={"description": "whether it counts in the record"})
    seat = fields.Integer(required=True, metadata={"description": "the player's seat, from 0"})
    players = fields.List(fields.String(), required=True)
    score = fields.Integer(required=True, allow_none=True)
    rank = fields.Integer(required=True, allow_none=True)
    winner = fields.String(required=True, allow_none=True)


class PlayerGamesSchema(Schema):
    player_id = fields.String(required=True)
    games = fields.List(fields.Nested(PlayerGameSchema), required=True)
    limit = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    total = fields.Integer(required=True)
    next = fields.String(required=True, allow_none=True)
    previous = fields.String(required=True, allow_none=True)


class PlayerRefSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)


class VersusGameSchema(Schema):
    game_id = fields.String(required=True)
    title = fields.String(required=True)
    played_on = fields.String(required=True)
    score = fields.Integer(required=True)
    other_score = fields.Integer(required=True)
    rank = fields.Integer(required=True)
    other_rank = fields.Integer(required=True)


class VersusSchema(Schema):
    player = fields.Nested(PlayerRefSchema, required=True)
    other = fields.Nested(PlayerRefSchema, required=True)
    games_together = fields.Integer(required=True)
    ahead = fields.Integer(required=True)
    behind = fields.Integer(required=True)
    tied = fields.Integer(required=True)
    games = fields.List(
        fields.Nested(VersusGameSchema),
        required=True,
        metadata={"description": "the latest 20 finished games they played together, newest first"},
    )


class MergeSchema(Schema):
    into = fields.String(
        required=True,
        validate=validate.Regexp(UUID_TEXT, error="not a player id"),
        metadata={"description": "the player this one is the same person as"},
    )


class SeatRefSchema(Schema):
    game_id = fields.UUID(required=True)
    seat = fields.Integer(required=True, validate=validate.Range(min=0, max=7))


class SplitSchema(Schema):
    name = fields.String(required=True, metadata={"description": "the other player's name (new or existing)"})
    seats = fields.List(
        fields.Nested(SeatRefSchema),
        required=True,
        validate=validate.Length(min=1, max=1000),
        metadata={"description": "the seats this player sat in that were the other player's"},
    )


class LinkedGameSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the game's links' version now"})


class LinkedSchema(Schema):
    games = fields.List(fields.Nested(LinkedGameSchema), required=True)
    left = fields.Integer(
        required=True,
        metadata={
            "description": "public games of the player left as they were: the request holds no owner token of them"
        },
    )


class SeatPlayerSchema(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "the seat's name in the game"})
    player_id = fields.String(required=True)
    player = fields.String(required=True, metadata={"description": "the player's name"})
    linked = fields.Boolean(
        required=True, metadata={"description": "whether the owner linked it to another name"}
    )


class GamePlayersSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "the links' version (the ETag)"})
    seats = fields.List(fields.Nested(SeatPlayerSchema), required=True)


class LinkSeatSchema(Schema):
    seat = fields.Integer(required=True, validate=validate.Range(min=0, max=7))
    player_id = fields.String(
        load_default=None,
        validate=validate.Regexp(UUID_TEXT, error="not a player id"),
        metadata={"description": "an existing player"},
    )
    name = fields.String(load_default=None, metadata={"description": "a player's name (new or existing)"})
    expected_version = fields.Integer(load_default=None, validate=validate.Range(min=0))

    @validates_schema
    def _one_player(self, data: dict[str, Any], **_: Any) -> None:
        if (data.get("player_id") is None) == (data.get("name") is None):
            raise ValidationError("name the player by player_id or by name (one of them)", "player_id")


class BgStatsPlayerSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    uuid = fields.String(required=True, validate=validate.Regexp(UUID_TEXT, error="not a uuid"))


class BgStatsPlayersFileSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    players = fields.List(
        fields.Nested(BgStatsPlayerSchema), required=True, validate=validate.Length(max=5000)
    )


class ReferredSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    uuid = fields.String(required=True)


class BgStatsLinkedSchema(Schema):
    referred = fields.List(fields.Nested(ReferredSchema), required=True)
    not_here = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the file's players who are no player of a game the request owns"},
    )
