"""The marshmallow schemas of the JSON API: the only code that knows what the JSON looks like.

They check a request's shape (the rules are the engine's business) and document every answer in the OpenAPI
document.
"""

from __future__ import annotations

import functools
from typing import Any

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate, validates_schema

from api.resources.board_schemas import PROMPT_KINDS
from api.resources.errors import STATUS
from domain import kinds
from domain.areas.bridges import ENDS
from domain.catalog import HIMEJI_DECKS
from domain.game import RULES_VERSIONS
from domain.vocabulary import Colour, MatchaColour, Mode, Phase, Resource
from replay.game import MAX_VERSION

MAX_BATCH = 500
"""The most moves one request may carry (a whole game recorded offline fits)."""

SEAT = "the seat's index, from 0: seat 0 is the game's first player, whom messages call 'seat 1'"
"""The description of every ``seat`` field: JSON counts seats from 0, the words people read count from 1."""
VERSION = validate.Range(min=0, max=MAX_VERSION, error="a game version is a whole number from {min} to {max}")
"""The bounds of every version a client sends (SQLite's INTEGER, 2**63-1, is the largest a store holds): out of
them is ``400 invalid_request`` naming the field, never a store error."""
EXPECTED_VERSION = "instead of If-Match: the version the write expects (a number; `*` is If-Match's only)"


def expected_version_field() -> fields.Integer:
    """``expected_version`` in a write's body: a version number. ``*`` ("whatever it is now") is If-Match's
    only, and is told so."""
    return fields.Integer(
        strict=True,
        validate=VERSION,
        error_messages={
            "invalid": "expected_version must be a version number; '*' may be sent as If-Match only"
        },
        metadata={"description": EXPECTED_VERSION},
    )


SCHEMA_MARK = "x-heronlog-schema"
"""Marks a field documented as a component of the OpenAPI document that marshmallow does not describe (the board,
the catalog, a move): :mod:`api.resources.openapi` puts a reference to the component in its place."""


def documented(name: str, metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """A field's metadata saying that its value is the component ``name`` (see `SCHEMA_MARK`)."""
    return {**(metadata or {}), SCHEMA_MARK: name}


STATUSES = ["in progress", "finished", "abandoned", "rules unsupported"]
"""A game's status (`replay.game.Game.status`)."""
MODES = [mode.value for mode in Mode]
DIE_COLOURS = [colour.value for colour in (*Colour, *MatchaColour)]


ACTOR = "owner, or seat:N with N the seat's index from 0 (seat:1 is the game's second player)"
"""The description of every actor field (``actor``, ``you``, ``author``)."""


class StrictBoolean(fields.Boolean):
    """A JSON boolean: true or false only ("yes", 1 or "true" are refused, where marshmallow's Boolean takes
    them for true). For bodies; a query string's booleans (``?current_line=1``) keep the usual spellings."""

    default_error_messages = {"invalid": "Not a boolean: send true or false."}  # noqa: RUF012  # marshmallow's own

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class ErrorSchema(Schema):
    """The one shape of every answer that is not a success: a problem document (RFC 9457, served as
    `application/problem+json`) whose extension members `error_code`, `rule` and `details` are heronlog's."""

    type = fields.String(
        required=True,
        metadata={
            "description": "the problem type, a URI reference (/api/problems/<error_code>): GET it for its meaning",
            "example": "/api/problems/stale_version",
        },
    )
    title = fields.String(
        required=True,
        metadata={"description": "the problem type in a few words", "example": "The game has moved on"},
    )
    status = fields.Integer(
        required=True, metadata={"description": "the HTTP status, repeated", "example": 412}
    )
    detail = fields.String(
        required=True,
        metadata={
            "description": "what went wrong this time, for people",
            "example": "the game is at version 12, not 11: reload it and decide again",
        },
    )
    error_code = fields.String(
        required=True,
        validate=validate.OneOf(sorted(STATUS)),
        metadata={"description": "stable machine code (clients branch on it)", "example": "stale_version"},
    )
    rule = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the rule broken (R-xx), or null", "example": None},
    )
    details = fields.Dict(
        required=True,
        metadata=documented(
            "ErrorDetails",
            {"description": "what a client needs to recover", "example": {"current_version": 12}},
        ),
    )


class ProblemTypeSchema(Schema):
    """What a problem type means (``GET /api/problems/{error_code}``)."""

    type = fields.String(required=True, metadata={"example": "/api/problems/stale_version"})
    title = fields.String(required=True, metadata={"example": "The game has moved on"})
    status = fields.Integer(required=True, metadata={"example": 412})
    error_code = fields.String(required=True, metadata={"example": "stale_version"})
    meaning = fields.String(required=True, metadata={"description": "what the status means, and what to do"})


# --- shared pieces ----------------------------------------------------------------------------------------


class PlayerSchema(Schema):
    """A seat: its player's name and colour."""

    name = fields.String(required=True)
    colour = fields.String(required=True)
    automatic = fields.Boolean(
        metadata={"description": "present (true) for a seat the rules engine plays: the solo game's rival"}
    )


class CoordinatesSchema(Schema):
    """Where the game stands: round, turn, the seat to play (null while chance decides) and the phase."""

    round = fields.Integer(required=True)
    turn = fields.Integer(required=True)
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": f"{SEAT}; null for chance"}
    )
    phase = fields.String(required=True, validate=validate.OneOf([phase.value for phase in Phase]))


class ParentSchema(Schema):
    """Where a branch leaves its parent: the parent game and the version it was forked at."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)


class AuditEntrySchema(Schema):
    """A change to the line of play other than a move: here, the game's abandonment."""

    version = fields.Integer(required=True, metadata={"description": "the game's version it made"})
    kind = fields.String(required=True, metadata={"description": "what it was (abandon)"})
    actor = fields.String(required=True, metadata={"description": "who did it: owner, or seat:N"})
    at = fields.String(required=True, metadata={"description": "when (ISO 8601)"})
    versions = fields.List(fields.Integer(), required=True)
    note = fields.String(required=True, metadata={"description": "the reason given (may be empty)"})


class PromptSchema(Schema):
    """What the rules engine waits for, from whom (seat null: a chance prompt), with its context."""

    kind = fields.String(
        required=True,
        validate=validate.OneOf(PROMPT_KINDS),
        metadata={"description": "what is asked: the pending frame's name (`over` once the game is over)"},
    )
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": f"{SEAT}; null for chance"}
    )
    text = fields.String(
        required=True,
        metadata={"description": "the question in words, with who answers it (places named, counted from 1)"},
    )
    help = fields.String(
        required=True,
        metadata={
            "description": 'what the question alone does not say, "" when nothing: the castle dealt again (R-S03)'
        },
    )
    hint = fields.String(
        required=True,
        metadata={"description": 'how to answer the question, for a page to show under it ("" when nothing)'},
    )
    context = fields.Dict(required=True, metadata=documented("PromptContext"))


class ChoiceSchema(Schema):
    """A legal move as a page offers it (the move at the same place in ``moves``)."""

    words = fields.String(
        required=True, metadata={"description": "the move in words: what it takes, where, at what cost"}
    )
    group = fields.String(required=True, metadata={"description": "the heading the move goes under"})
    target = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the board part the move acts on, as the catalog's words.parts names it "
            "(bridge:coral:left, room:steward_2, room:steward_2:top, yard:yard_1, garden:coral_plant, track:11, "
            "domain:0:row:courtiers, tea_garden:path_1...); null for an answer with no place on the board"
        },
    )
    icons = fields.List(fields.String(), required=True, metadata={"description": "icons the move shows"})
    offered = fields.Boolean(
        metadata={
            "description": "a seal conversion only: false where it cannot serve the player whose turn it is "
            "(another player's question, the end of a round, a question that costs nothing): legal, but a page "
            "keeps it out of its offer"
        }
    )


class ScoreLineSchema(Schema):
    """One line of a score sheet (the rulebook's score pad)."""

    label = fields.String(
        required=True, metadata={"description": 'the line in words ("CP during the game", "courtiers")'}
    )
    points = fields.Integer(required=True)
    icons = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "the icons of what the line counts (the catalog's icon names: cp, coin, pot...)"
        },
    )


class ScoreSheetOutSchema(Schema):
    """One player's score sheet, line by line."""

    seat = fields.Integer(required=True, metadata={"description": SEAT})
    player = fields.String(required=True)
    lines = fields.List(fields.Nested(ScoreLineSchema), required=True)
    total = fields.Integer(required=True)
    rank = fields.Integer(required=True)


class MoveField(fields.Dict):
    """A move: a JSON object with at least ``kind`` (and ``seat``), as ``legal-moves`` lists it. Documented as
    the union of every move kind, told apart by ``kind`` (the schema ``Move`` of the OpenAPI document, made of
    `move_schema`'s); the rules engine reads its fields (`domain.kinds.parse`), so that a malformed move is
    ``invalid_move`` with the field at fault, as a move the rules refuse is judged after who may play it."""

    def __init__(self, **kwargs: Any) -> None:
        metadata = {"description": "a move exactly as GET legal-moves lists it", **kwargs.pop("metadata", {})}
        metadata[SCHEMA_MARK] = "Move"
        super().__init__(keys=fields.String(), metadata=metadata, **kwargs)


CONVERTS_TO = [resource.value for resource in Resource if resource is not Resource.SEAL]
"""What a seal conversion may buy (the catalog of a game says which, and at what price)."""


CLOSED_MOVE_FIELDS: dict[tuple[str, str], list[str]] = {
    ("take_die", "bridge"): DIE_COLOURS,
    ("take_die", "end"): list(ENDS),
    ("roll", "bridge"): DIE_COLOURS,
    ("himeji_card", "deck"): list(HIMEJI_DECKS),
    ("rival_discard", "deck"): list(HIMEJI_DECKS),
    ("die_tile", "colour"): [colour.value for colour in Colour],
    ("convert", "to"): CONVERTS_TO,
}
"""The move fields (by kind and field) whose values are a closed set of the rules: documented as enums. The rules
engine judges the value (a move naming another is ``illegal_move``, as before)."""


def _typed_field(typ: str, values: list[str] | None = None) -> fields.Field[Any]:
    """A required field of a move's JSON form, by the type `domain.kinds` gives it (from ``values``, if given)."""
    if values is not None:
        return fields.String(required=True, validate=validate.OneOf(values))
    if typ == kinds.INT:
        return fields.Integer(required=True, strict=True)
    if typ == kinds.BOOL:
        return fields.Boolean(required=True, truthy={True}, falsy={False})  # JSON true or false alone
    if typ == kinds.INTS:
        return fields.List(fields.Integer(strict=True), required=True)
    return fields.String(required=True)


def chance_seat(value: Any) -> None:
    """A chance move's seat is null. Checked here rather than written ``enum: [null]`` in the document: typed
    clients drop a member whose only value is null (openapi-fetch reads it as absent), so the document says
    ``integer, nullable`` and the description says "always null"."""
    if value is not None:
        raise ValidationError("a chance move's seat is null")


def move_schema(kind: type[kinds.Move]) -> type[Schema]:
    """The schema of one move kind, generated from its definition (`domain.kinds`): its kind, its seat (null
    for chance), its typed fields and, for a player's move that may carry them, the seal conversions made just
    before it. Every legal move of the engine loads with its kind's schema (a unit test holds them together)."""
    seat = (
        fields.Integer(
            required=True,
            allow_none=True,
            validate=chance_seat,
            metadata={"description": "always null: chance answers it"},
        )
        if kind.chance
        else fields.Integer(
            required=True,
            strict=True,
            validate=validate.Range(min=0),
            metadata={"description": "the seat's index, from 0"},
        )
    )
    declared: dict[str, fields.Field[Any]] = {
        "kind": fields.String(required=True, validate=validate.OneOf([kind.kind])),
        "seat": seat,
    }
    for name, typ in kind.shape.items():
        declared[name] = _typed_field(typ, CLOSED_MOVE_FIELDS.get((kind.kind, name)))
    if kind.convertible:
        declared[kinds.CONVERT] = fields.List(
            fields.String(validate=validate.OneOf(CONVERTS_TO)),
            metadata={
                "description": "the seal conversions made just before the move, in order, each as what it buys "
                "(rules 0.3.0 list a move with those that make it affordable: post it as listed; the listing's "
                "`notes` say how it is paid)"
            },
        )
    return Schema.from_dict(declared, name=f"{kind.__name__}Schema")


@functools.cache
def move_schemas() -> dict[str, type[Schema]]:
    """Every move kind's schema, by kind (`move_schema`)."""
    return {name: move_schema(kind) for name, kind in kinds.KINDS.items()}


# --- games ------------------------------------------------------------------------------------------------


class NewGameSchema(Schema):
    """A new game: players (a count, or names, or {name, colour}), the mode and its options."""

    players = fields.Raw(
        required=True,
        metadata=documented(
            "NewPlayers",
            {
                "description": "a count, a list of names, or a list of {name, colour}",
                "example": ["Aiko", "Ben", "Chie", "Dai"],
            },
        ),
    )
    mode = fields.String(load_default="seeded", validate=validate.OneOf(MODES))
    # strict: a JSON whole number only (1.5 was taken as seed 1, a deal the client never asked for)
    seed = fields.Integer(
        allow_none=True, load_default=None, strict=True, validate=validate.Range(min=0, max=2**53)
    )
    options = fields.Dict(load_default=dict, metadata=documented("SetupOptions"))
    expansions = fields.List(
        fields.String(validate=validate.OneOf(["matcha"])),
        load_default=list,
        validate=validate.Length(max=1),
        metadata={
            "description": 'the expansions in play: [] (the base game) or ["matcha"]',
            "example": ["matcha"],
        },
    )
    title = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=120))
    private = StrictBoolean(load_default=False)
    solo = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(["easy", "medium", "hard"]),
        metadata={
            "description": "the solo game: one player against the automated rival of this difficulty, which "
            "takes the second seat (R-SO01); its option rival_scoring is sheet (default) or cp_only"
        },
    )
    layout = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={
            SCHEMA_MARK: "LayoutSections",
            "description": "table mode only: the physical table's setup at once (see LayoutSchema and GET "
            "/api/games/{id}/layout): the game is laid out exactly so and then waits for the players' starting "
            "choices. Every entry is checked by the rules; 422 invalid_layout lists each problem with its field "
            "(details.errors[].field, e.g. castle.steward_2 or dice.coral) and rule",
            "example": {"dice": {"coral": [1, 2, 4, 4, 6]}, "stack": [2, 0, 3, 1]},
        },
    )
    draw_rest = StrictBoolean(
        load_default=False,
        metadata={
            "description": "with a layout: draw what it leaves out from the game's seed (given, or decided and "
            "stored), as a seeded game draws; otherwise every missing entry is a problem of the 422"
        },
    )


class GameSchema(Schema):
    """A game as it stands: who plays, where it is, what it waits for, and the board."""

    game_id = fields.String(required=True)
    title = fields.String(required=True)
    players = fields.List(fields.Nested(PlayerSchema), required=True)
    mode = fields.String(required=True, validate=validate.OneOf(MODES))
    seed = fields.Integer(required=True, allow_none=True)
    options = fields.Dict(
        required=True,
        metadata=documented("SetupOptions", {"description": "the options the game was set up with"}),
    )
    expansions = fields.List(
        fields.String(validate=validate.OneOf(["matcha"])),
        required=True,
        metadata={"description": '[] or ["matcha"]'},
    )
    solo = fields.String(
        validate=validate.OneOf(["easy", "medium", "hard"]),
        metadata={"description": "present in a solo game: the rival's difficulty"},
    )
    private = fields.Boolean(required=True)
    parent = fields.Nested(
        ParentSchema, required=True, allow_none=True, metadata={"description": "a branch's parent, or null"}
    )
    rules_version = fields.String(required=True, validate=validate.OneOf(list(RULES_VERSIONS)))
    catalog_override = fields.Boolean(
        required=True,
        metadata={
            "description": "the game is played with a catalog of its own (an import that declared one), not the "
            "components heronlog packages: its points and effects may differ from the printed game's"
        },
    )
    created_on = fields.String(
        required=True,
        metadata={"description": "when the game was played (an imported game keeps its own date)"},
    )
    modified_on = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "also sent as the ETag"})
    status = fields.String(
        required=True,
        validate=validate.OneOf(STATUSES),
        metadata={"description": "in progress, finished or abandoned"},
    )
    over = fields.Boolean(required=True)
    moves = fields.Integer(required=True, metadata={"description": "effective moves on the line of play"})
    can_undo = fields.Boolean(required=True)
    redoable = fields.Integer(required=True, metadata={"description": "how many undone moves can be redone"})
    coordinates = fields.Nested(CoordinatesSchema, required=True)
    prompt = fields.Nested(PromptSchema, required=True)
    abandoned = fields.Nested(
        AuditEntrySchema,
        required=True,
        allow_none=True,
        metadata={"description": "who abandoned the game, when and why; null while it is not abandoned"},
    )
    state = fields.Dict(
        required=True,
        metadata=documented(
            "GameState",
            {"description": "the board, JSON-ready for drawing (the catalog is served apart: /catalog)"},
        ),
    )


class LegalMovesSchema(Schema):
    """The pending prompt and every legal answer to it; any of them may be posted as-is to ``moves``."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    over = fields.Boolean(
        required=True, metadata={"description": "the rules say the game has ended (it has its result)"}
    )
    closed = fields.Boolean(
        required=True,
        metadata={
            "description": "the game was abandoned: nothing more may be played on it (fork it to play on); "
            "prompt is then null and moves empty (with ?before=V, the prompt of then stays, moves empty)"
        },
    )
    prompt = fields.Nested(
        PromptSchema, required=True, allow_none=True, metadata={"description": "null once the game is closed"}
    )
    moves = fields.List(MoveField(), required=True)
    notes = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": 'beside each move (same order), what its own words would not say, or "": how a '
            'move listed with the seal conversions it needs (its `convert`, rules 0.3.0) is paid, "pay 2 coins + '
            '1 seal" (its choice says it too)'
        },
    )
    choices = fields.List(
        fields.Nested(ChoiceSchema),
        required=True,
        metadata={
            "description": "each move of `moves`, in the same order, as a page offers it (words, target)"
        },
    )
    before = fields.Integer(
        metadata={"description": "with ?before=V only: the move these are the alternatives to (its version)"}
    )
    recorded = MoveField(
        metadata={"description": "with ?before=V only: the move recorded at V (one of `moves`)"}
    )
    state = fields.Dict(
        metadata=documented(
            "GameState",
            {
                "description": "with ?before=V only: the board just before that move, JSON-ready for drawing "
                "and labelling the moves (the catalog is served apart: /catalog)"
            },
        )
    )


class LegalMovesQuerySchema(Schema):
    before = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_VERSION),
        metadata={
            "description": "list the moves that were legal just before the move at this version of the line of "
            "play (what `amend` may put in its place) instead of the pending ones; the answer's `version` is "
            "still the game's, to send as If-Match"
        },
    )


NEXT_MOVES = (
    "what GET legal-moves would answer now: the prompt and every legal move (post one as-is to moves, with "
    "its version as If-Match); a recording client needs no other request before its next move"
)


class CreatedGameSchema(Schema):
    """A game just created (or forked, or imported), with its owner token: shown this once, never again."""

    game = fields.Nested(GameSchema, required=True)
    owner_token = fields.String(required=True, metadata={"description": "send as Authorization: Bearer ..."})
    legal_moves = fields.Nested(LegalMovesSchema, required=True, metadata={"description": NEXT_MOVES})


class GameSummarySchema(Schema):
    game_id = fields.String(required=True)
    title = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    mode = fields.String(required=True, validate=validate.OneOf(MODES))
    private = fields.Boolean(required=True)
    parent = fields.Nested(ParentSchema, required=True, allow_none=True)
    created_on = fields.String(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    round = fields.Integer(required=True)
    winner = fields.String(required=True, allow_none=True)


CURSOR = r"^-?\d{1,20}_[0-9a-f]{32}$"
"""A page's cursor (``replay.index.Key``): opaque to clients, who only send back what a page gave them."""


class GameListQuerySchema(Schema):
    search = fields.String(
        load_default=None,
        validate=validate.Length(max=100),
        metadata={"description": "words: each must start a word of the title or of a player's name"},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    after = fields.String(
        load_default=None,
        validate=validate.Regexp(CURSOR, error="not a cursor of the list of games"),
        metadata={"description": "the games older than this cursor (a page's `next` link carries it)"},
    )
    before = fields.String(
        load_default=None,
        validate=validate.Regexp(CURSOR, error="not a cursor of the list of games"),
        metadata={"description": "the games newer than this cursor (a page's `previous` link carries it)"},
    )

    @validates_schema
    def _one_cursor(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("after") is not None and data.get("before") is not None:
            raise ValidationError("a page is either after a cursor or before one", "before")


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    limit = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    total = fields.Integer(
        required=True,
        metadata={
            "description": "how many games the search finds in all (at least, when `complete` is false)"
        },
    )
    complete = fields.Boolean(
        required=True,
        metadata={
            "description": "false when the search was cut short: its words start too many words, so only the "
            "newest 10,000 games were searched (add a word, or a longer one)"
        },
    )
    next = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the path of the next page (older games; same search and limit), or null"},
    )
    previous = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the path of the page before (newer games), or null on the first"},
    )
    unavailable = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "the stores (shards) that did not answer: their games are missing from this page and "
            "from total (empty when every store answered)"
        },
    )


# --- moves ------------------------------------------------------------------------------------------------


class MoveSubmissionSchema(Schema):
    """One move (an object from ``legal-moves``, as-is) or ``{"moves": [...]}``, a batch applied all or nothing.
    ``expected_version`` may stand in for the ``If-Match`` header."""

    class Meta:
        unknown = INCLUDE

    kind = fields.String(metadata={"description": "for one move: its kind (as listed)"})
    seat = fields.Integer(
        allow_none=True, strict=True, metadata={"description": f"for one move: {SEAT}; null for chance"}
    )
    moves = fields.List(
        MoveField(),
        validate=validate.Length(min=1, max=MAX_BATCH),
        metadata={"description": "a batch: every move, in order"},
    )
    expected_version = expected_version_field()

    @validates_schema
    def one_or_many(self, data: dict[str, Any], **_: Any) -> None:
        if ("moves" in data) == ("kind" in data):
            raise ValidationError("send one move (with its kind) or a list of moves, not both or neither")


class PlayedSchema(Schema):
    """What a write did: the versions it created, the game right after it, and its legal moves (so that
    recording a game takes one request per move). A retry with the same Idempotency-Key gets this answer again,
    byte for byte, rebuilt from the log, with the header `Idempotent-Replayed: true`."""

    versions = fields.List(fields.Integer(), required=True)
    game = fields.Nested(GameSchema, required=True)
    legal_moves = fields.Nested(LegalMovesSchema, required=True, metadata={"description": NEXT_MOVES})


class UndoSchema(Schema):
    to_version = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=VERSION,
        metadata={"description": "undo every move after this version (default: the last move)"},
    )
    expected_version = expected_version_field()


class RedoSchema(Schema):
    count = fields.Integer(load_default=1, strict=True, validate=validate.Range(min=1, max=10_000))
    expected_version = expected_version_field()


LINE_INDEX = (
    "a move's place in the line of play as it stands before this amendment, counting from 1: the timeline's "
    "`index`, move N on the replay page (the moves after the corrected one are its index + 1 and on)"
)


class ResolutionSchema(Schema):
    """What was really played where a later recorded move no longer fits after the correction."""

    index = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_VERSION),
        metadata={"description": f"the misfit it resolves: {LINE_INDEX}"},
    )
    move = MoveField(
        metadata={"description": "the move really played in its place, as the report's legal_moves list it"}
    )
    moves = fields.List(
        MoveField(),
        validate=validate.Length(max=MAX_BATCH),
        metadata={
            "description": "instead of move: every move really played in its place, in order ([]: the "
            "recorded move never happened, it leaves the line)"
        },
    )
    keep_recorded = StrictBoolean(
        load_default=False,
        metadata={
            "description": "the recorded move was played too, right after these moves (they were left out of "
            "the record): it stays on the line if it fits after them"
        },
    )
    swap_seats = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=99)),
        validate=validate.Length(equal=2),
        metadata={
            "description": "instead of moves: from this move on, the moves recorded for one of the two seats "
            "(indexes from 0) were the other's (owner only)",
            "example": [0, 1],
        },
    )

    @validates_schema
    def move_or_moves(self, data: dict[str, Any], **_: Any) -> None:
        if sum(name in data for name in ("move", "moves", "swap_seats")) != 1:
            raise ValidationError(
                "a resolution gives move (one move), moves (a list) or swap_seats (two seats), one of them"
            )


CORRECTION_FIELDS = ("move", "moves", "insert", "remove", "swap_seats", "layout")
"""What a correction says happened at its move, one of them (docs/api/amend.md)."""


class AmendSchema(Schema):
    version = fields.Integer(
        required=True,
        strict=True,
        validate=VERSION,
        metadata={"description": "the move to correct (1: the setup of a table game laid out at creation)"},
    )
    move = MoveField(metadata={"description": "replace: the move really played there"})
    moves = fields.List(
        MoveField(),
        validate=validate.Length(min=1, max=MAX_BATCH),
        metadata={
            "description": "replace: the moves really played there, in order (a conversion, then a placement)"
        },
    )
    insert = fields.List(
        MoveField(),
        validate=validate.Length(min=1, max=MAX_BATCH),
        metadata={"description": "moves played right before this move and left out of the record (it stays)"},
    )
    remove = fields.Boolean(
        validate=validate.Equal(True),
        metadata={"description": "true: this move never happened (it leaves the line)"},
    )
    swap_seats = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=99)),
        validate=validate.Length(equal=2),
        metadata={
            "description": "from this move on (version 1: from the setup's turn order on), the moves recorded "
            "for one of the two seats (indexes from 0) were the other's (owner only)",
            "example": [0, 1],
        },
    )
    layout = fields.Dict(
        metadata={
            "description": "version 1 of a table game laid out at creation: the setup's entries as they really "
            "lay, by section as GET layout gives them (a room's card, a bridge's dice, the turn order...); the "
            "rest stays as recorded. 422 invalid_layout names each problem's field",
            "example": {"castle": {"steward_2": "S7"}},
        }
    )
    resolutions = fields.List(
        fields.Nested(ResolutionSchema),
        load_default=list,
        validate=validate.Length(max=MAX_BATCH),
        metadata={
            "description": "for each later move that no longer fits after the correction, what was really "
            "played there (one per misfit, found with dry runs: the report's first_misfit); the later moves "
            "are played again in order, each misfit replaced by its resolution, and the first misfit without "
            "one leaves the line with every move after it"
        },
    )
    dry_run = StrictBoolean(load_default=False, metadata={"description": "report only, write nothing"})
    expected_version = expected_version_field()

    @validates_schema
    def one_correction(self, data: dict[str, Any], **_: Any) -> None:
        given = [name for name in CORRECTION_FIELDS if name in data]
        if len(given) != 1:
            raise ValidationError(
                f"a correction gives one of {', '.join(CORRECTION_FIELDS)}"
                + (f", not {' and '.join(given)}" if given else "")
            )


class SuggestionSchema(Schema):
    """A resolution the service suggests for a misfit, with what it keeps."""

    kind = fields.String(
        required=True,
        metadata={
            "description": "swap_seats (the two seats' moves swapped from here on), other_seat (the recorded "
            "move by the seat asked now), after_question (answers to the question the correction opened, then "
            "the recorded move), skipped (it never happened) or most_like (the legal move most like it)"
        },
    )
    resolution = fields.Dict(
        required=True,
        metadata={
            "description": "the resolution to send, as it is (it takes the place of any for that index)"
        },
    )
    words = fields.String(required=True, metadata={"description": "the suggestion in words"})
    keeps = fields.Integer(
        required=True,
        metadata={
            "description": "how many later recorded moves stay on the line with it, up to the next misfit "
            "(this one too, when it stays)"
        },
    )
    capped = fields.Boolean(
        required=True,
        metadata={"description": "the dry run stopped at its limit of moves: keeps is at least this"},
    )


class MisfitSchema(Schema):
    """The first later move that no longer fits and has no resolution: what a client needs to resolve it."""

    index = fields.Integer(required=True, metadata={"description": f"where it stands: {LINE_INDEX}"})
    version = fields.Integer(required=True, metadata={"description": "the recorded move's version"})
    move = MoveField(required=True, metadata={"description": "the recorded move"})
    error = fields.Nested(
        "RefusalSchema",
        required=True,
        metadata={"description": "the rules' refusal: code, rule, message"},
    )
    recorded_words = fields.String(
        required=True, metadata={"description": "the recorded move in words, as it was recorded"}
    )
    reason = fields.String(required=True, metadata={"description": "why it no longer fits, in words"})
    rule = fields.String(
        required=True, allow_none=True, metadata={"description": "the rule it breaks, or null"}
    )
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": f"who plays there: {SEAT}; null for chance"}
    )
    player = fields.String(required=True, allow_none=True, metadata={"description": "that seat's player"})
    after_resolution = fields.Boolean(
        required=True,
        metadata={
            "description": "true when it was kept after the moves of its own resolution (keep_recorded) and "
            "still does not fit: extend that resolution"
        },
    )
    legal_moves = fields.List(
        MoveField(), required=True, metadata={"description": "every move legal there (resolutions take one)"}
    )
    choices = fields.List(
        fields.Nested(ChoiceSchema),
        required=True,
        metadata={
            "description": "each legal move as a page offers it, in the order of legal_moves (words, group, "
            "board target, icons), as GET legal-moves gives them"
        },
    )
    prompt = fields.Nested(PromptSchema, required=True, metadata={"description": "the question asked there"})
    state = fields.Dict(
        required=True,
        metadata=documented(
            "GameState",
            {"description": "the board there, for drawing the legal moves (the catalog is served apart)"},
        ),
    )
    suggestions = fields.List(
        fields.Nested(SuggestionSchema),
        required=True,
        metadata={"description": "what probably happened there, best first (the most later moves kept)"},
    )


class RefusalSchema(Schema):
    """The rules' refusal of a move: its error code, the rule, the message and the details."""

    code = fields.String(
        required=True, metadata={"description": "the error code (illegal_move, not_your_turn...)"}
    )
    rule = fields.String(required=True, allow_none=True)
    message = fields.String(required=True)
    details = fields.Dict(required=True, metadata=documented("ErrorDetails"))


class ResolvedSchema(Schema):
    """A misfit answered by its resolution."""

    index = fields.Integer(required=True, metadata={"description": LINE_INDEX})
    version = fields.Integer(required=True, metadata={"description": "the recorded move's version"})
    recorded_words = fields.String(required=True, metadata={"description": "the recorded move in words"})
    words = fields.List(
        fields.String(), required=True, metadata={"description": "the moves played in its place, in words"}
    )
    kept = fields.Boolean(
        required=True, metadata={"description": "the recorded move stays on the line, after those moves"}
    )
    swap_seats = fields.List(
        fields.Integer(),
        metadata={"description": "the two seats swapped from this move on, if it was a swap"},
    )


class AmendReportSchema(Schema):
    version = fields.Integer(required=True)
    correction = fields.String(
        required=True,
        validate=validate.OneOf(["replace", "insert", "remove", "swap_seats", "setup"]),
        metadata={"description": "the kind of correction"},
    )
    rewritten = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "the kept moves said anew: by the other seat (a swap), or the same die taken from "
            "the other end of its bridge"
        },
    )
    all_fit = fields.Boolean(
        required=True, metadata={"description": "every later move still fits, or was resolved"}
    )
    kept = fields.List(
        fields.Integer(), required=True, metadata={"description": "the versions of the later moves kept"}
    )
    dropped = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "the first misfit without a resolution and every move after it (versions)"},
    )
    first_misfit = fields.Nested(MisfitSchema, required=True, allow_none=True)
    resolved = fields.List(
        fields.Nested(ResolvedSchema),
        required=True,
        metadata={"description": "the misfits the resolutions answered, in the order of the line"},
    )
    redrawn = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "seeded games: the kept moves whose following chance outcomes (dice, cards) are "
            "drawn again, because the amendment changed what chance had to decide there"
        },
    )
    over = fields.Boolean(
        required=True,
        metadata={
            "description": "whether the game is over at the end of the corrected line: a finished game may wait "
            "for a move nobody recorded after a correction (an action its last player now could take)"
        },
    )


class AmendedSchema(PlayedSchema):
    report = fields.Nested(AmendReportSchema, required=True)
    dry_run = fields.Boolean(required=True)


class AbandonSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    expected_version = expected_version_field()


# --- history ----------------------------------------------------------------------------------------------


class StateSchema(Schema):
    """The game as it stood right after one version: board, prompt, coordinates and score."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    current_version = fields.Integer(
        metadata={
            "description": "the game's version now; absent from `states/{version}` without `current_line`, "
            "an answer that never changes"
        }
    )
    over = fields.Boolean(required=True)
    coordinates = fields.Nested(CoordinatesSchema, required=True)
    prompt = fields.Nested(PromptSchema, required=True)
    score = fields.List(fields.Nested(ScoreSheetOutSchema), required=True)
    state = fields.Dict(required=True, metadata=documented("GameState", {"description": "the board then"}))


class StateQuerySchema(Schema):
    current_line = fields.Boolean(
        load_default=False,
        metadata={
            "description": "the state right after the move at this version as the line of play stands now "
            "(after an amendment the kept later moves follow the new move), not the game as it stood right "
            "after event `version`; 404 unknown_version when it is not a move of the line"
        },
    )


class LocateQuerySchema(Schema):
    round = fields.Integer(required=True, validate=validate.Range(min=0, max=1000))
    turn = fields.Integer(required=True, validate=validate.Range(min=0, max=10_000))
    seat = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=100),
        metadata={"description": f"the turn of this seat only: {SEAT}"},
    )


class TimelineQuerySchema(Schema):
    include_undone = fields.Boolean(load_default=False)


class TimelineEntrySchema(Schema):
    index = fields.Integer(required=True, allow_none=True)
    version = fields.Integer(required=True)
    round = fields.Integer(required=True, allow_none=True)
    turn = fields.Integer(required=True, allow_none=True)
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": f"{SEAT}; null for chance"}
    )
    player = fields.String(required=True, allow_none=True)
    kind = fields.String(required=True)
    description = fields.String(required=True)
    chance = fields.List(fields.String(), required=True)
    actor = fields.String(required=True, metadata={"description": f"who acted: {ACTOR}"})
    at = fields.String(required=True)
    totals = fields.List(fields.Integer(), required=True, allow_none=True)
    amends = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "description": "the version of the recorded move this one stands in for: the move a correction "
            "replaced, or a later move that no longer fitted after it and that this one resolved"
        },
    )
    undone = fields.Boolean(required=True)
    automatic = fields.Boolean(
        required=True,
        metadata={"description": "made in the turn of a seat the engine plays (the solo rival)"},
    )
    automatic_chance = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "indexes of the chance lines that belong to the solo rival's turn"},
    )
    correction = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "amended: the move a correction put here; resolved: a move played anew in a "
            "correction, where a later recorded move no longer fitted; added: a move a correction put before a "
            "recorded move that stays (one forgotten); rewritten: a recorded move a correction said anew (by "
            "the other seat, or the same die from the other end); null for a move as recorded"
        },
    )
    replaced = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the recorded move it stands in for (amends), in the words it was recorded with"
        },
    )
    stands_for = fields.List(
        fields.Integer(),
        required=True,
        metadata={
            "description": "every version whose place this move took (a move corrected twice stands for both): "
            "annotations anchored to them belong beside it"
        },
    )
    phase = fields.String(
        allow_none=True,
        metadata={
            "description": "setup, turns or end_of_round: the gardens' activation and the next round's dice are "
            "filed under the round's end (turn null), not under a player's turn; null for an undone move"
        },
    )


class TimelineSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    entries = fields.List(fields.Nested(TimelineEntrySchema), required=True)


class ChangesQuerySchema(Schema):
    since = fields.Integer(load_default=0, validate=VERSION)


class ChangesSchema(Schema):
    """Every event after ``since`` (the polling clients' feed; the stream sends the same events)."""

    game_id = fields.String(required=True)
    since = fields.Integer(required=True)
    version = fields.Integer(required=True)
    events = fields.List(
        fields.Dict(metadata=documented("ChangeEvent")),
        required=True,
        metadata={"description": "each event after `since`, in order (docs/architecture/events.md)"},
    )


class CatalogSchema(Schema):
    """The components a game is played with (cards, tiles, board spaces, tracks), fixed when it was created."""

    game_id = fields.String(required=True)
    rules_version = fields.String(required=True)
    catalog = fields.Dict(required=True, metadata=documented("ComponentCatalog"))
    words = fields.Nested(
        "CatalogWordsSchema",
        required=True,
        metadata={
            "description": "the game's words for the pages: cards (id → what it does), icons (the catalog's icon "
            "notation → words), parts (board part id → its name; the ids a choice's target uses), annotations (the "
            "parts an annotation may point at, as kind:id) and part_icons (each of those parts' icon)"
        },
    )


class CatalogWordsSchema(Schema):
    """A game's words for the pages, served once with its catalog."""

    cards = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "card id → what it does"},
    )
    icons = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "an icon in the catalog's notation → its words"},
    )
    parts = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "board part id → its name (the ids a choice's target and an annotation use)"
        },
    )
    annotations = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "the parts an annotation may point at, kind:id"},
    )
    part_icons = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={"description": "each of those parts' icon"},
    )


class HimejiTopsSchema(Schema):
    """The card on top of each Himeji deck."""

    ikebana = fields.String()
    calligraphy = fields.String()


class MatchaLayoutSchema(Schema):
    """What chance dealt on the Matcha board (R-M01); each part present once dealt."""

    pond = fields.List(
        fields.String(allow_none=True),
        metadata={"description": "the lily pads in the pond's spaces, in order"},
    )
    himeji = fields.Nested(HimejiTopsSchema, metadata={"description": "each Himeji deck's top card"})
    tea_house = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "Tea House room → its ceremony token's face (yellow side up)"},
    )
    platform = fields.String(
        metadata={"description": "the Viewing Platform's ceremony token face (blue side up)"}
    )


class ComponentWordsSchema(Schema):
    """A component a layout field may take, by its id, and what is printed on it in words."""

    id = fields.String(required=True)
    words = fields.String(required=True)


class LayoutSectionsSchema(Schema):
    """A setup layout (domain.layout): what chance dealt while the game was set up, section by section. Every
    section is optional when a layout is sent (with draw_rest, what is left out is drawn)."""

    castle = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "room id → castle card id (R-S03)", "example": {"steward_1": "S2"}},
    )
    daimyo = fields.String(metadata={"description": "the Daimyo card (R-S04)", "example": "Dm3"})
    die_tiles = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String(allow_none=True)),
        metadata={
            "description": "room id → the colours of its die tiles, top to bottom (R-S05: every room shows two "
            "colours or more; decision C.9)",
            "example": {"diplomat_1": ["coral", "black"]},
        },
    )
    well = fields.List(
        fields.String(), metadata={"description": "the 2 die tiles laid reward side up at the Well (R-S05)"}
    )
    gardens = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "garden space (coral_plant, ...) → garden card (R-S08)"},
    )
    yards = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.String()),
        metadata={
            "description": "yard → {blue, yellow} → yard tile id, the face printed on the space (R-S09)",
            "example": {"yard_1": {"blue": "Y3", "yellow": "Y5"}, "yard_2": {"blue": "Y1"}},
        },
    )
    dice = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Integer()),
        metadata={
            "description": "bridge colour → the values rolled, n+1 of them, in any order (R-S07)",
            "example": {"coral": [1, 2, 4, 4, 6]},
        },
    )
    stack = fields.List(
        fields.Integer(),
        metadata={
            "description": "the influence markers' stack, top (the first player) first: seats from 0 (R-S11)"
        },
    )
    offer = fields.List(
        fields.Dict(keys=fields.String(), values=fields.String()),
        metadata={
            "description": "the starting pairs dealt: {resource, action} (with Matcha, token) (R-S12, R-M01)",
            "example": [{"resource": "SR3", "action": "A1"}],
        },
    )
    matcha = fields.Nested(
        MatchaLayoutSchema,
        metadata={
            "description": "with Matcha: the pond, the Himeji decks' top cards, the ceremony tokens (R-M01)"
        },
    )


class LayoutFormQuerySchema(Schema):
    """The game a table setup's form is for: its player count, expansions, solo difficulty, first-game option."""

    players = fields.Integer(
        load_default=4, validate=validate.Range(min=1, max=4), metadata={"description": "1 (solo) to 4"}
    )
    expansions = fields.List(fields.String(validate=validate.OneOf(["matcha"])), load_default=list)
    solo = fields.String(
        load_default=None, allow_none=True, validate=validate.OneOf(["easy", "medium", "hard"])
    )
    first_game = fields.Boolean(
        load_default=False, metadata={"description": "the first-game option: the castle is the rulebook's"}
    )


class LayoutChoicesQuerySchema(LayoutFormQuerySchema):
    """The game a table setup is for, and what is entered so far."""

    layout = fields.String(
        load_default="{}",
        validate=validate.Length(max=8000),
        metadata={
            "description": "the layout entered so far, as JSON text (the shape POST /api/games takes)",
            "example": '{"castle": {"steward_1": "S4"}}',
        },
    )


class LayoutChoicesSchema(Schema):
    """What each field of the table setup may still take beside what the other fields hold."""

    fields_ = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        required=True,
        data_key="fields",
        attribute="fields",
        metadata={
            "description": "card field → the ids of the cards or tiles it may take, in the pool's order"
        },
    )
    tiles = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.List(fields.String())),
        required=True,
        metadata={
            "description": "room → for each of its die-tile spaces, the colours possible, likeliest first"
        },
    )


class LayoutFieldSchema(Schema):
    """One field of the layout: its name (as an error's details.field gives it), its kind and its words."""

    field = fields.String(required=True, metadata={"example": "castle.steward_2"})
    kind = fields.String(
        required=True,
        metadata={
            "description": "card (one component of `pool`), tiles (a room's die-tile colours, `count` of "
            "them, `diamond` the ♦ position if any), dice (a bridge's `count` dice), stack (the turn order, `seats`)"
        },
    )
    label = fields.String(required=True)
    pool = fields.String()
    count = fields.Integer()
    diamond = fields.Integer(allow_none=True)
    colour = fields.String()
    seats = fields.Integer()


class LayoutFormSectionSchema(Schema):
    """One section of the table setup's form (the dice, the turn order, the castle...), its fields in order."""

    id = fields.String(
        required=True, metadata={"description": "the layout's section (dice, stack, castle...)"}
    )
    title = fields.String(required=True, metadata={"description": "the section's heading"})
    hint = fields.String(required=True, metadata={"description": "how to fill it in, in a line"})
    fields_ = fields.List(
        fields.Nested(LayoutFieldSchema), required=True, data_key="fields", attribute="fields"
    )


class LayoutFormSchema(Schema):
    """The table setup's form: its sections and fields in order, every component a field may take described
    by what is printed on it (`pools`), the die-tile colours and the rulebook's first-game layout (null when the
    first-game option lays it anyway)."""

    sections = fields.List(fields.Nested(LayoutFormSectionSchema), required=True)
    pools = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(ComponentWordsSchema)),
        required=True,
        metadata={"description": "pool → [{id, words}]: the card or tile's id and what is printed on it"},
    )
    catalog = fields.Dict(
        required=True,
        metadata=documented(
            "LayoutFormCatalog",
            {
                "description": "family → the catalog's entries of the pools' components (as GET catalog has "
                "them): what a page draws each card or tile from"
            },
        ),
    )
    colours = fields.List(
        fields.Nested(ComponentWordsSchema),
        required=True,
        metadata={"description": "the die-tile colours, in words"},
    )
    first_game = fields.Nested(
        LayoutSectionsSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "the rulebook's first-game layout (null when the first-game option lays it)"
        },
    )
    notes = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "what the form does not ask and why (the first-game option lays the castle)"
        },
    )


class LayoutSchema(Schema):
    """A game's setup layout, as POST /api/games takes it back (`layout`, mode table)."""

    game_id = fields.String(required=True)
    version = fields.Integer(
        required=True,
        metadata={"description": "the version after which the setup was dealt (1: from the game's start)"},
    )
    complete = fields.Boolean(
        required=True,
        metadata={"description": "false while a table game's setup still waits for chance entries"},
    )
    layout = fields.Nested(LayoutSectionsSchema, required=True)


class ScoreSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    over = fields.Boolean(required=True)
    sheets = fields.List(fields.Nested(ScoreSheetOutSchema), required=True)


class StreamQuerySchema(Schema):
    after = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=VERSION,
        metadata={"description": "send events after this version (Last-Event-ID wins if present)"},
    )
    timeout = fields.Float(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={"description": "close the stream after this many seconds (capped by the server)"},
    )


# --- branches, exports ------------------------------------------------------------------------------------


class ForkSchema(Schema):
    version = fields.Integer(
        load_default=None,
        allow_none=True,
        strict=True,
        validate=VERSION,
        metadata={"description": "default: the current one"},
    )
    title = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=120),
        metadata={
            "description": 'default: the game\'s title and "— what if (from move N)" ("from the start" at version 1)'
        },
    )


EXPORT_FORMATS = ["json", "text", "bgstats", "bgstats-link", "bgg"]


class ExportQuerySchema(Schema):
    format = fields.String(
        load_default="json",
        validate=validate.OneOf(EXPORT_FORMATS),
        metadata={
            "description": "json: the full log (importable); text: a readable record; bgstats: a BG Stats play "
            "file; bgstats-link: BG Stats' create-play link (finished games); bgg: a BoardGameGeek play record"
        },
    )
    me = fields.Integer(
        load_default=None,
        validate=validate.Range(min=0, max=100),
        metadata={
            "description": "format=bgstats: the seat (from 0) of the person who imports the file, whose "
            "statistics BG Stats counts as its owner's (userInfo.meRefId); left out, the file names nobody"
        },
    )
    location = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=100),
        metadata={
            "description": "format=bgstats: where the game was played (BG Stats creates the location it "
            "names); left out, the play has no location"
        },
    )


class ImportQuerySchema(Schema):
    new_id = fields.Boolean(load_default=False, metadata={"description": "give the game a new id"})


class ImportDocumentSchema(Schema):
    """An export (``GET /api/games/{id}/export``), checked event by event when imported."""

    class Meta:
        unknown = INCLUDE

    format = fields.String(required=True, metadata={"example": "heronlog.game"})
    format_version = fields.Integer(required=True)


# --- annotations ------------------------------------------------------------------------------------------


class TargetSchema(Schema):
    """The part of the board an annotation points at: its kind and its id (api.resources.annotations)."""

    kind = fields.String(
        required=True,
        metadata={
            "description": "room, bridge, domain, yard, garden, well, outside, passage_of_time, daimyo..."
        },
    )
    id = fields.String(
        required=True, metadata={"description": "the part's id ('' for the one-of-a-kind ones)"}
    )


class AnnotationSchema(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True)
    author = fields.String(required=True, metadata={"description": f"who wrote it: {ACTOR}"})
    author_name = fields.String(required=True)
    text = fields.String(required=True)
    glyph = fields.String(required=True, allow_none=True)
    target = fields.Nested(TargetSchema, required=True, allow_none=True)
    created_on = fields.String(required=True)
    edited_on = fields.String(required=True, allow_none=True)
    edited_by = fields.String(required=True, allow_none=True)
    yours = fields.Boolean(
        required=True,
        metadata={
            "description": "whether the token sent with the request may edit or delete it: the owner's, or the "
            "token that wrote it (a seat's later holder may not); false without a token"
        },
    )


class AnnotationListSchema(Schema):
    game_id = fields.String(required=True)
    annotations = fields.List(fields.Nested(AnnotationSchema), required=True)


class NewAnnotationSchema(Schema):
    version = fields.Integer(required=True, strict=True, validate=VERSION)
    text = fields.String(required=True, validate=validate.Length(min=1, max=4000))
    glyph = fields.String(load_default=None, allow_none=True)
    target = fields.Dict(load_default=None, allow_none=True, metadata=documented("Target"))


class AnnotationEditSchema(Schema):
    text = fields.String(validate=validate.Length(min=1, max=4000))
    glyph = fields.String(allow_none=True)
    target = fields.Dict(allow_none=True, metadata=documented("Target"))


# --- access -----------------------------------------------------------------------------------------------


class SeatTokenSchema(Schema):
    """A seat token: shown this once. Earlier tokens of the seat stop working."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True, metadata={"description": SEAT})
    actor = fields.String(required=True, metadata={"description": f"who acted: {ACTOR}"})
    token = fields.String(required=True)


class GrantSchema(Schema):
    id = fields.String(required=True)
    role = fields.String(required=True)
    seat = fields.Integer(
        required=True, allow_none=True, metadata={"description": f"{SEAT}; null for the owner"}
    )
    actor = fields.String(required=True, metadata={"description": f"who acted: {ACTOR}"})
    granted_on = fields.String(required=True)
    by = fields.String(required=True)


class AccessSchema(Schema):
    game_id = fields.String(required=True)
    you = fields.String(required=True, metadata={"description": f"whom the token you sent acts as: {ACTOR}"})
    grants = fields.List(fields.Nested(GrantSchema), required=True)


# --- the score sheet --------------------------------------------------------------------------------------


class ScoreSheetRequestSchema(Schema):
    """End-of-game tallies of a game that was not recorded; the rulebook's scorer gives the points."""

    players = fields.List(
        fields.Dict(keys=fields.String(), metadata=documented("Tallies")),
        required=True,
        validate=validate.Length(min=1, max=4),
        metadata={
            "description": "one object of tallies per player, in turn order",
            "example": [{"name": "Aiko", "cp": 41, "coins": 6, "seals": 2, "food": 3, "iron": 7, "pearl": 1}],
        },
    )
    tie_break = fields.String(load_default="turn_order", validate=validate.OneOf(["turn_order", "shared"]))
    expansions = fields.List(
        fields.String(validate=validate.OneOf(["matcha"])),
        load_default=list,
        validate=validate.Length(max=1),
        metadata={
            "description": 'with ["matcha"] each player may also give whisks and geishas (or geisha_points)'
        },
    )


class ScoreSheetsSchema(Schema):
    sheets = fields.List(fields.Nested(ScoreSheetOutSchema), required=True)
