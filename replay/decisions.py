"""Command functions: decide what happens to a game and return the events that say so.

Everything is decided here, before an event exists, so folding an event never validates, draws or reads the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID, uuid4

import domain
from domain import GameState
from replay import corrections, rules, text
from replay.corrections import AmendReport, Correction, Resolution
from replay.errors import (
    GameClosed,
    InvalidSetup,
    NothingToRedo,
    NothingToUndo,
    UnknownVersion,
)
from replay.events import (
    CorrectionRedone,
    CorrectionUndone,
    GameAbandoned,
    GameCreated,
    LineCorrected,
    Move,
    MoveAmended,
    MovePlayed,
    MoveResolved,
    MovesRedone,
    MovesUndone,
    now,
)
from replay.game import IN_PLACE, Game

__all__ = ["AmendReport", "Correction", "Resolution"]  # corrections' words, as callers have always named them

COLOURS = ("purple", "green", "blue", "red", "white", "black", "yellow", "orange")
MODES = ("table", "seeded")
SOLO = ("easy", "medium", "hard")
"""The solo rival's difficulties (R-SO01)."""
MAX_REASON = 500
"""The longest reason an abandonment keeps, in characters."""


def normalise_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Check a requested setup and fill its defaults: the shape stored in ``GameCreated``.

    Names, colours and the title follow the text rules of :mod:`replay.text` (one line of plain text: no
    control characters, no bidirectional overrides, no lone surrogates; kept composed, trimmed of blanks and
    invisible characters). Two players of one name, compared as the names look (:func:`replay.text.name_key`:
    ``Ann``, ``ann``, ``Ann`` + a zero-width space and ``Аnn`` with a Cyrillic ``А`` are one name), or of one
    colour given twice, are refused: messages and the board tell players apart by them."""
    players = setup.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        if not 1 <= players <= 100:  # the rules engine judges the exact count; this only bounds the work
            raise InvalidSetup("players must be a small count or a list of names", players=players)
        players = [f"Player {seat + 1}" for seat in range(players)]
    if not isinstance(players, list) or not players:
        raise InvalidSetup("players must be a count or a list of names or {name, colour} objects")
    if len(players) > 100:
        raise InvalidSetup("players must be a small count or a list of names", players=len(players))
    if setup.get("solo") is not None:  # a stored solo setup lists the rival: it is added again below
        players = [p for p in players if not (isinstance(p, Mapping) and p.get("automatic"))]
    entries = [{"name": player} if isinstance(player, str) else player for player in players]
    given: list[str | None] = []
    for index, entry in enumerate(entries):
        colour = entry.get("colour") if isinstance(entry, Mapping) else None
        if colour is None or colour == "":
            given.append(None)
            continue
        given.append(
            text.checked(
                colour, f"player {index + 1}'s colour", max_length=20, error=InvalidSetup, seat=index
            )
        )
    # A player left without a colour takes the first one nobody chose, so that a default never repeats a colour
    # picked for another seat (the board tells players apart by colour); past eight seats they repeat.
    unchosen = iter([colour for colour in COLOURS if colour not in set(given)])
    seats: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise InvalidSetup(f"player {index + 1} needs a name", seat=index)
        name = text.checked(
            entry["name"], f"player {index + 1}'s name", max_length=40, error=InvalidSetup, seat=index
        )
        colour = given[index] or next(unchosen, COLOURS[index % len(COLOURS)])
        seats.append({"name": name, "colour": colour})
    _distinct(seats, given)
    solo = setup.get("solo")
    if solo is not None:
        seats = _with_rival(seats, solo)
    mode = setup.get("mode", "seeded")
    if mode not in MODES:
        raise InvalidSetup(f"mode must be one of {', '.join(MODES)}", mode=mode)
    seed = setup.get("seed")
    if seed is None and mode == "seeded":
        seed = uuid4().int % 2**53  # decided here, once, and stored: replays never draw a seed again
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool) or seed < 0):
        raise InvalidSetup("seed must be a non-negative integer", seed=seed)
    options = setup.get("options") or {}
    if not isinstance(options, Mapping):
        raise InvalidSetup("options must be an object")
    expansions = setup.get("expansions") or []
    if (
        not isinstance(expansions, list | tuple)
        or any(name not in domain.EXPANSIONS for name in expansions)
        or len(set(expansions)) != len(expansions)
    ):
        raise InvalidSetup(
            f"expansions must be a list of distinct names among {list(domain.EXPANSIONS)}",
            expansions=expansions,
        )
    chosen_title = setup.get("title")
    if chosen_title is not None and chosen_title != "":
        title = text.checked(chosen_title, "the title", max_length=120, error=InvalidSetup)
    else:
        title = " vs ".join(seat["name"] for seat in seats)[:120]
    private = setup.get("private", False)
    normal = {
        "players": seats,
        "mode": mode,
        "seed": seed,
        "options": dict(options),
        "title": title,
        "private": bool(private),
    }
    if expansions:  # a base game's setup keeps the shape it always had (exports compare it key by key)
        normal["expansions"] = list(expansions)
    override = setup.get(CATALOG_OVERRIDE, False)
    if not isinstance(override, bool):
        raise InvalidSetup(f"{CATALOG_OVERRIDE} is true or false", details={CATALOG_OVERRIDE: repr(override)})
    if override:  # only ever there when true: every other setup keeps its shape
        normal[CATALOG_OVERRIDE] = True
    return {**normal, "solo": solo} if solo is not None else normal


CATALOG_OVERRIDE = "catalog_override"
"""The setup's mark of a game played with a catalog of its own (not the one this build packages): set when
such a game is created, kept by its forks and its export, and shown on every page of the game."""


def _distinct(seats: Sequence[Mapping[str, Any]], colours: Sequence[str | None]) -> None:
    """Refuse two players whose names look the same (:func:`replay.text.name_key`), or two colours given
    alike (ignoring case): messages and the board tell players apart by them."""
    names: dict[str, str] = {}
    for seat in seats:
        key = text.name_key(seat["name"])
        if key in names:
            raise InvalidSetup(
                f"two players are named {seat['name']!r}"
                + (f" and {names[key]!r}" if names[key] != seat["name"] else "")
                + ": each player needs a name of their own (names are compared as they look: ignoring case, "
                "invisible characters, and letters of other alphabets drawn alike)",
                name=seat["name"],
            )
        names[key] = seat["name"]
    seen: set[str] = set()
    for colour in colours:
        if colour is None:
            continue
        key = text.name_key(colour)
        if key in seen:
            raise InvalidSetup(
                f"two players are playing {colour!r}: each player needs a colour of their own (colours are "
                "compared ignoring case and the blanks around them)",
                colour=colour,
            )
        seen.add(key)


def _with_rival(seats: list[dict[str, Any]], solo: Any) -> list[dict[str, Any]]:
    """A solo game's seats: the one player, then the rival the engine plays (``automatic``, R-SO01)."""
    if solo not in SOLO:
        raise InvalidSetup(f"solo is the rival's difficulty: one of {', '.join(SOLO)}", solo=solo)
    if len(seats) != 1:
        raise InvalidSetup(
            "a solo game has one player; the rival takes the second seat (R-SO01)", players=len(seats)
        )
    colour = next(colour for colour in COLOURS if colour != seats[0]["colour"])
    return [*seats, {"name": domain.RIVAL_NAME, "colour": colour, "automatic": True}]


def create(
    setup: Mapping[str, Any],
    *,
    catalog: Mapping[str, Any] | None = None,
    game_id: UUID | None = None,
    parent: Mapping[str, Any] | None = None,
    opening: Sequence[Move] | None = None,
    rules_version: str = domain.RULES_VERSION,
    layout: Mapping[str, Any] | None = None,
    draw_rest: bool = False,
) -> tuple[GameCreated, Any]:
    """Decide a new game: the setup is checked by building its opening state with the rules engine.

    ``catalog`` is a partial override of the packaged catalog; the event stores the full effective catalog.
    ``opening`` (forks and imports) gives the setup's chance outcomes instead of drawing them; ``rules_version``
    (an import's: one of ``rules.COMPATIBLE``) the rules they are checked and drawn under, stored in the event.

    ``layout`` (a table game's, ``domain.layout``): the physical table's setup at once. Its entries become the
    setup's chance moves, each checked by the rules as if the recorder had entered it (``domain.InvalidLayout``
    lists every problem under its field), and are stored as the event's ``opening``, as a seeded game's draws
    are: the game is then waiting for the players' starting choices, and replays, exports, imports and forks as
    any game does. With ``draw_rest`` what the layout leaves out is drawn from the game's seed (one is decided
    here if the setup gives none, and stored in it).
    """
    if layout is not None:
        return _laid_out(setup, layout, draw_rest, catalog=catalog, game_id=game_id)
    normal = normalise_setup(setup)
    try:
        fresh = rules.fresh_state(normal, catalog, rules_version)
    except domain.DomainError as error:
        raise InvalidSetup(error.message, **error.details) from error
    except (TypeError, ValueError) as error:
        raise InvalidSetup(str(error)) from error
    effective = domain.catalog_of(fresh)
    if (
        catalog
        and not normal.get(CATALOG_OVERRIDE)
        and effective != rules.packaged_catalog(normal, rules_version)
    ):
        normal[CATALOG_OVERRIDE] = True  # a catalog of its own: the game says so wherever it is shown
    if opening is None:
        state, drawn = rules.draw_opening(fresh)
    else:
        # Given by a fork (from a stored game) or an import (untrusted): each outcome is checked by the rules
        # as it is applied, so a malformed one is refused as a setup error rather than failing in the engine.
        if not all(isinstance(move, Mapping) for move in opening):
            raise InvalidSetup("every setup chance outcome (opening) must be an object")
        drawn = [dict(move) for move in opening]
        try:
            state = rules.opening_state(
                normal, domain.catalog_of(fresh), drawn, check=True, rules_version=rules_version
            )
        except domain.DomainError as error:
            raise InvalidSetup(
                f"the setup's chance outcomes do not fit: {error.message}", **error.details
            ) from error
    event = GameCreated(
        originator_id=game_id or uuid4(),
        originator_version=1,
        timestamp=now(),
        setup=normal,
        rules_version=rules_version,
        catalog=effective,
        opening=drawn,
        parent=dict(parent) if parent else None,
    )
    return event, state


def _laid_out(
    setup: Mapping[str, Any],
    layout: Mapping[str, Any],
    draw_rest: bool,
    *,
    catalog: Mapping[str, Any] | None,
    game_id: UUID | None,
) -> tuple[GameCreated, Any]:
    """A table game laid out at once from its layout (see :func:`create`)."""
    if setup.get("mode", "seeded") != "table":
        raise InvalidSetup(
            "a layout lays out a game set up at a real table: its mode is table (a seeded game draws its own)",
            mode=setup.get("mode", "seeded"),
        )
    normal = normalise_setup(setup)
    if draw_rest and normal.get("seed") is None:
        normal["seed"] = uuid4().int % 2**53  # decided here, once, and stored: the drawn entries are data
    try:
        fresh = rules.fresh_state(normal, catalog)
    except domain.DomainError as error:
        raise InvalidSetup(error.message, **error.details) from error
    except (TypeError, ValueError) as error:
        raise InvalidSetup(str(error)) from error
    step = domain.lay_out(fresh, layout, draw_rest=draw_rest)  # InvalidLayout: every problem, by field
    event = GameCreated(
        originator_id=game_id or uuid4(),
        originator_version=1,
        timestamp=now(),
        setup=normal,
        rules_version=domain.RULES_VERSION,
        catalog=domain.catalog_of(fresh),
        opening=[dict(move) for move in step.chance],
        parent=None,
    )
    return event, step.state


def _open(game: Game) -> None:
    if game.abandoned is not None:
        raise GameClosed("this game was abandoned: fork it to play on", abandoned_at=game.abandoned.version)


@dataclass(frozen=True)
class Decided:
    """A batch of moves decided: their events, and the state each move left (with its chance outcomes)."""

    events: list[MovePlayed]
    states: list[Any]


def play(game: Game, moves: Sequence[Move], *, actor: str, idempotency_key: str | None = None) -> Decided:
    """Decide a batch of moves (all or nothing): each is validated against the state the previous one left.

    Deciding a move is validating it and playing it at once, so the states it reached come with the events:
    recording them (``replay.game.after_decided``) need not play the moves a second time."""
    _open(game)
    state = game.state
    events: list[MovePlayed] = []
    states: list[Any] = []
    for offset, move in enumerate(moves):
        before = state
        try:
            state, chance = rules.decide(state, move)
        except domain.DomainError as error:
            if len(moves) > 1:
                error.details.setdefault("batch_index", offset)
            raise
        description = domain.describe(before, move)
        events.append(
            MovePlayed(
                originator_id=game.id,
                originator_version=game.version + 1 + offset,
                timestamp=now(),
                move=dict(move),
                chance=chance,
                seat=move.get("seat"),
                actor=actor,
                description=description,
                idempotency_key=idempotency_key,
            )
        )
        states.append(state)
    return Decided(events, states)


def undo(
    game: Game, *, actor: str, to_version: int | None = None, idempotency_key: str | None = None
) -> MovesUndone | CorrectionUndone:
    """Decide an undo: of the last effective move, or of every effective move recorded after ``to_version``.
    Right after a correction (it was the last change to the line), a plain undo takes the correction back
    instead: the line is again as it stood before it (``CorrectionUndone``)."""
    _open(game)
    if to_version is None and game.corrected is not None:
        return CorrectionUndone(
            originator_id=game.id,
            originator_version=game.version + 1,
            timestamp=now(),
            correction=game.corrected.version,
            actor=actor,
            idempotency_key=idempotency_key,
        )
    if to_version is None:
        if not game.line:
            raise NothingToUndo("no move to undo")
        versions = [game.line[-1]]
    else:
        if to_version != 1 and to_version not in game.line:
            raise UnknownVersion(
                f"version {to_version} is not a move of the line of play (nor 1, the game's start)",
                version=to_version,
            )
        keep = 0 if to_version == 1 else game.line.index(to_version) + 1
        versions = list(game.line[keep:])
        if not versions:
            raise NothingToUndo(f"no move after version {to_version} to undo", version=to_version)
    return MovesUndone(
        originator_id=game.id,
        originator_version=game.version + 1,
        timestamp=now(),
        versions=versions,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def redo(
    game: Game, *, actor: str, count: int = 1, idempotency_key: str | None = None
) -> MovesRedone | CorrectionRedone:
    """Decide a redo of the next ``count`` undone moves, exactly as they were recorded; right after a
    correction was taken back, of that correction (``CorrectionRedone``: one step, ``count`` 1)."""
    _open(game)
    if game.uncorrected is not None:
        if count != 1:
            raise NothingToRedo("a correction taken back is written again in one step (count 1)", redoable=1)
        return CorrectionRedone(
            originator_id=game.id,
            originator_version=game.version + 1,
            timestamp=now(),
            correction=game.uncorrected.version,
            actor=actor,
            idempotency_key=idempotency_key,
        )
    if not game.redo:
        raise NothingToRedo("nothing to redo: nothing was undone, or a move was played since")
    if count < 1 or count > len(game.redo):
        raise NothingToRedo(f"only {len(game.redo)} move(s) can be redone", redoable=len(game.redo))
    return MovesRedone(
        originator_id=game.id,
        originator_version=game.version + 1,
        timestamp=now(),
        versions=list(game.redo[:count]),
        actor=actor,
        idempotency_key=idempotency_key,
    )


def state_before_move(game: Game, version: int) -> GameState:
    """The rules-engine state just before the move recorded at ``version``, as the line of play stands now:
    what an amendment of that move is judged against (its legal moves are the alternatives)."""
    if version not in game.line:
        raise UnknownVersion(f"version {version} is not a move of the line of play", version=version)
    return game.state_after(game.line.index(version))


def state_after_move(game: Game, version: int) -> GameState:
    """The rules-engine state right after the move recorded at ``version``, as the line of play stands now
    (after an amendment, the kept later moves follow the new move: the game as it stood after event
    ``version`` is another state)."""
    if version not in game.line:
        raise UnknownVersion(f"version {version} is not a move of the line of play", version=version)
    return game.state_after(game.line.index(version) + 1)


def amend(
    game: Game,
    version: int,
    move: Move,
    *,
    actor: str,
    unchanged: bool = False,
    resolutions: Sequence[Any] = (),
    idempotency_key: str | None = None,
    suggest: bool = True,
) -> tuple[list[MoveResolved | MoveAmended | LineCorrected], AmendReport]:
    """Decide an amendment: the move recorded at ``version`` replaced by ``move``, every later effective move
    re-checked (:func:`replay.corrections.correct`, which decides every kind of correction)."""
    return corrections.correct(
        game,
        Correction.replacing(version, move),
        actor=actor,
        unchanged=unchanged,
        resolutions=resolutions,
        idempotency_key=idempotency_key,
        suggest=suggest,
    )


def abandon(game: Game, *, actor: str, reason: str, idempotency_key: str | None = None) -> GameAbandoned:
    """Close a game that is still in progress. A game the rules say is over has its result: abandoning it
    would show it "abandoned" beside its winner, so it is refused (``409 game_closed``, ``details.over``)."""
    _open(game)
    if domain.is_over(game.state):
        raise GameClosed(
            "this game is over (it has its result): only a game in progress can be abandoned", over=True
        )
    return GameAbandoned(
        originator_id=game.id,
        originator_version=game.version + 1,
        timestamp=now(),
        actor=actor,
        reason=text.checked(reason, "the reason", max_length=MAX_REASON, multiline=True, allow_empty=True),
        idempotency_key=idempotency_key,
    )


def fork_events(game: Game, version: int, new_id: UUID, title: str | None = None) -> list[Any]:
    """Decide a branch: a new game with the same setup and catalog, whose first moves are the moves of the
    parent's line of play as it stood at ``version`` (copied as recorded, with their actors). Its title is
    ``title``, or by default the parent's marked as a branch (`branch_title`)."""
    line = line_at(game, version)
    chosen = text.checked(title, "the title", max_length=120, allow_empty=True) if title else ""
    created = GameCreated(
        originator_id=new_id,
        originator_version=1,
        timestamp=now(),
        setup={**game.setup, "title": (chosen or branch_title(game.setup["title"], len(line)))[:120]},
        rules_version=game.rules_version,
        catalog=dict(game.catalog),
        opening=list(game.opening),
        parent={"game_id": str(game.id), "version": version},
    )
    events: list[Any] = [created]
    for offset, move_version in enumerate(line):
        record = game.records[move_version]
        events.append(
            MovePlayed(
                originator_id=new_id,
                originator_version=2 + offset,
                timestamp=created.timestamp,
                move=dict(record.move),
                chance=list(record.chance),
                seat=record.seat,
                actor=record.actor,
                description=record.description,
                idempotency_key=None,
            )
        )
    return events


def branch_title(parent: str, moves: int) -> str:
    """A branch's default title: the parent's, with where it leaves the parent's line, so that both read apart
    in the list of games ("Friday — what if (from move 12)": the branch keeps the first 12 moves)."""
    return f"{parent} — what if (from move {moves})" if moves else f"{parent} — what if (from the start)"


def line_at(game: Game, version: int) -> tuple[int, ...]:
    """The line of play as it stood right after event ``version`` (replaying only the bookkeeping)."""
    if not 1 <= version <= game.version:
        raise UnknownVersion(f"this game has versions 1 to {game.version}", version=version)
    line = _Line(())
    _replay_line(game, version, line)
    return tuple(line.items)


def line_lengths(game: Game) -> list[int]:
    """For each version ``v`` of the game (index ``v``; index 0 unused): how many moves the line of play had
    right after event ``v`` when that line is the start of today's line, else -1 (it held a move undone or
    corrected since). One pass over the bookkeeping: what makes the state at any version a lookup
    (``replay.services.queries.Queries.state_at``)."""
    lengths = [-1, 0]
    line = _Line(game.line)
    _replay_line(game, game.version, line, lambda: lengths.append(len(line.items) if line.on_target else -1))
    # A correction that changed moves in place, or the setup under them, leaves the same versions on the line
    # with other states: the states from before it are read again (-1), never looked up.
    last = max((entry.version for entry in game.audit if entry.kind in IN_PLACE), default=0)
    return [-1 if version < last else length for version, length in enumerate(lengths)]


class _Line:
    """The line of play being replayed, and how long a start of it agrees with ``target`` (today's line)."""

    def __init__(self, target: Sequence[int]) -> None:
        self.items: list[int] = []
        self.target = target
        self.agree = 0

    @property
    def on_target(self) -> bool:
        return self.agree == len(self.items)

    def append(self, version: int) -> None:
        if self.on_target and self.agree < len(self.target) and self.target[self.agree] == version:
            self.agree += 1
        self.items.append(version)

    def cut(self, length: int) -> None:
        del self.items[length:]
        self.agree = min(self.agree, length)


def _replay_line(game: Game, version: int, line: _Line, after_each: Callable[[], None] | None = None) -> None:
    """Replay the line of play's bookkeeping from event 2 to ``version`` into ``line``, calling ``after_each``
    after every event."""
    # The moves of an amendment's resolutions, by the version of the recorded move each stands in for: they
    # are recorded just before their amendment, which puts them on the line.
    resolving: dict[int, list[int]] = {}
    audit = {entry.version: entry for entry in game.audit}
    for current in range(2, version + 1):
        record = game.records.get(current)
        entry = audit.get(current)
        if record is not None and record.resolves is not None:
            resolving.setdefault(record.resolves, []).append(current)
        elif record is not None and record.amends is None:
            line.append(current)
        elif entry is None:
            pass
        elif entry.kind == "undo":
            line.cut(len(line.items) - len(entry.versions))
        elif entry.kind == "redo":
            for redone in entry.versions:
                line.append(redone)
        elif entry.kind in IN_PLACE:  # a correction other than one move replaced, its undo or redo
            line.cut(0)
            for kept in entry.versions:  # the whole line as it then stood
                line.append(kept)
            resolving = {}
        elif entry.kind == "amend":
            # ``versions``: the amended move, then every later move that left the line (dropped, or replaced by
            # the moves of its resolution); a resolved move that was played too stays after them.
            amended, *left = entry.versions
            position = line.items.index(amended)
            gone = set(left)
            later: list[int] = []
            for move_version in line.items[position + 1 :]:
                later.extend(resolving.get(move_version, ()))
                if move_version not in gone:
                    later.append(move_version)
            line.cut(position)
            for kept in (current, *later):
                line.append(kept)
            resolving = {}
        if after_each is not None:
            after_each()
