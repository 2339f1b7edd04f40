"""Command functions: decide what happens to a game and return the events that say so.

Everything is decided here, before an event exists, so folding an event never validates, draws or reads the clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID, uuid4

import domain
from domain import GameState
from replay import rules, text
from replay.errors import (
    AmendUnchanged,
    GameClosed,
    InvalidResolution,
    InvalidSetup,
    NothingToRedo,
    NothingToUndo,
    ResolutionNotLater,
    ResolutionNotNeeded,
    ResolutionRepeated,
    ResolutionUnused,
    UnknownVersion,
)
from replay.events import (
    GameAbandoned,
    GameCreated,
    Move,
    MoveAmended,
    MovePlayed,
    MoveResolved,
    MovesRedone,
    MovesUndone,
    now,
)
from replay.game import Game, MoveRecord

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
) -> MovesUndone:
    """Decide an undo: of the last effective move, or of every effective move recorded after ``to_version``."""
    _open(game)
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


def redo(game: Game, *, actor: str, count: int = 1, idempotency_key: str | None = None) -> MovesRedone:
    """Decide a redo of the next ``count`` undone moves, exactly as they were recorded."""
    _open(game)
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


@dataclass(frozen=True)
class Resolution:
    """What was really played where a later recorded move no longer fits after an amendment.

    ``index`` is that recorded move's position in the line of play as it stands when the amendment is asked
    for, counting from 1 (the timeline's ``index``, "move 14" on the replay page); the amendment never
    renumbers it, so every dry run of one correction names its misfits alike. ``moves`` are played in its
    place, in order: one for the move really played instead, none when the recorded move never happened,
    several when more was played there. ``keep_recorded``: the recorded move happened too, right after
    ``moves`` (they were left out of the record); it stays on the line if it fits after them.
    """

    index: int
    moves: tuple[Move, ...]
    keep_recorded: bool = False

    @classmethod
    def read(cls, raw: Any, position: int) -> Resolution:
        """A resolution from its JSON form (``{"index": I, "move": {...}}``, or ``"moves": [...]`` with an
        optional ``"keep_recorded": true``); ``position`` is its place in the list, for the error."""
        if isinstance(raw, Resolution):
            return raw
        where = {"resolution": position}
        if not isinstance(raw, Mapping):
            raise InvalidResolution("a resolution is an object: {index, move}", **where)
        index = raw.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise InvalidResolution(
                "a resolution's index is a whole number (a move's place in the line)", **where
            )
        unknown = set(raw) - {"index", "move", "moves", "keep_recorded"}
        if unknown:
            raise InvalidResolution(
                f"unknown field(s) of a resolution: {', '.join(sorted(unknown))}", **where
            )
        if ("move" in raw) == ("moves" in raw):
            raise InvalidResolution(
                "a resolution gives its move (move) or its moves (moves), one of them", **where
            )
        moves = [raw["move"]] if "move" in raw else raw["moves"]
        if not isinstance(moves, list | tuple) or not all(
            isinstance(move, Mapping) and isinstance(move.get("kind"), str) for move in moves
        ):
            raise InvalidResolution(
                "a resolution's moves are objects with a kind, as legal-moves lists them", **where
            )
        keep = raw.get("keep_recorded", False)
        if not isinstance(keep, bool):
            raise InvalidResolution("keep_recorded is true or false", **where)
        return cls(index=index, moves=tuple(dict(move) for move in moves), keep_recorded=keep)


@dataclass(frozen=True)
class AmendReport:
    """What an amendment did to the moves after the amended one.

    ``kept``: the later recorded moves that stay on the line (with their versions). ``dropped``: the first
    later move that no longer fits and has no resolution, and every move after it. ``resolved``: each misfit
    that a resolution answered, with the words of the moves played in its place. ``first_misfit``: that
    unresolved misfit, with what a client needs to resolve it (its index, the words of the recorded move and of
    why it no longer fits, the moves legal there); ``misfit_state`` is the engine's state there (for the board).
    """

    version: int
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    first_misfit: dict[str, Any] | None = None
    redrawn: dict[str, list[Move]] = field(default_factory=dict)
    resolved: tuple[dict[str, Any], ...] = ()
    over: bool = False
    """Whether the game is over at the end of the corrected line (a correction may leave a finished game waiting
    for a move nobody recorded: an action its last player now could take)."""
    misfit_state: Any = field(default=None, compare=False, repr=False)

    @property
    def all_fit(self) -> bool:
        """No later move is left without a place: each still fits, or was resolved."""
        return self.first_misfit is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "all_fit": self.all_fit,
            "kept": list(self.kept),
            "dropped": list(self.dropped),
            "first_misfit": self.first_misfit,
            "redrawn": sorted(int(version) for version in self.redrawn),
            "resolved": [dict(entry) for entry in self.resolved],
            "over": self.over,
        }


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
) -> tuple[list[MoveResolved | MoveAmended], AmendReport]:
    """Decide an amendment: replace the move recorded at ``version`` and re-check every later effective move.

    Each later recorded move is played again on the corrected line, in order. One that still fits is kept (its
    version, words re-said on the new line; in seeded mode the chance outcomes after it are drawn again when
    they must change). One that no longer fits is replaced by its :class:`Resolution`, if one names its line
    index; the first without one, and everything after it, leave the line of play (reported in
    :class:`AmendReport`). The move already recorded is refused (:class:`AmendUnchanged`: it would correct
    nothing), unless ``unchanged`` (an import re-deciding a log written before such amendments were refused).

    The events: one ``MoveResolved`` per move played by a resolution, then the ``MoveAmended`` that says where
    each goes; all of them are written in one atomic write. Every resolution must be used where it stands
    (:class:`ResolutionNotLater`, :class:`ResolutionRepeated`, :class:`ResolutionNotNeeded`,
    :class:`ResolutionUnused`); a resolution's move that the rules refuse raises the engine's error, with
    ``details.resolution_index``. Nothing is decided in part: an error leaves no event.
    """
    _open(game)
    before = state_before_move(game, version)
    if not unchanged and dict(move) == game.records[version].move:
        raise AmendUnchanged(
            f"that is the move already recorded at version {version}: a correction must change it",
            version=version,
        )
    game = game.with_states_from_start()
    position = game.line.index(version)
    planned = _planned(resolutions, position, len(game.line))
    state, chance = rules.decide(before, move)
    description = domain.describe(before, move)
    kept: list[int] = []
    redrawn: dict[str, list[Move]] = {}
    misfit: dict[str, Any] | None = None
    misfit_state: Any = None
    dropped: tuple[int, ...] = ()
    played: list[MoveResolved] = []
    resolved: list[dict[str, Any]] = []
    stored: list[dict[str, Any]] = []
    later = game.line[position + 1 :]
    for offset, later_version in enumerate(later):
        index = position + 2 + offset  # the line index (from 1) of this recorded move
        record = game.records[later_version]
        resolution = planned.pop(index, None)
        refit: Refit | None = _refit(game.mode, state, record)
        if resolution is not None:
            if not isinstance(refit, domain.DomainError):
                raise ResolutionNotNeeded(
                    f"move {index} still fits after this correction: it is kept as recorded, and needs no "
                    "resolution",
                    index=index,
                    version=later_version,
                )
            first = game.version + 1 + len(played)
            for number, resolving in enumerate(resolution.moves):
                done, state = _resolving(
                    game,
                    state,
                    resolving,
                    at=first + number,
                    replaces=later_version,
                    actor=actor,
                    index=index,
                    idempotency_key=idempotency_key,
                )
                played.append(done)
            refit = _refit(game.mode, state, record) if resolution.keep_recorded else None
            stays = refit is not None and not isinstance(refit, domain.DomainError)
            resolved.append(
                {
                    "index": index,
                    "version": later_version,
                    "recorded_words": record.description,
                    "words": [done.description for done in played[first - game.version - 1 :]],
                    "kept": stays,
                }
            )
            stored.append(
                {
                    "index": index,
                    "version": later_version,
                    "moves": list(range(first, first + len(resolution.moves))),
                    "kept": stays,
                }
            )
        if refit is None:  # replaced by its resolution's moves
            continue
        if isinstance(refit, domain.DomainError):
            misfit, misfit_state = _misfit(state, index, record, refit, resolution is not None), state
            dropped = tuple(later[offset:])
            break
        state, outcomes = refit
        if outcomes is not None:
            redrawn[str(later_version)] = outcomes
        kept.append(later_version)
    if planned:
        unused = sorted(planned)
        reached = (
            f"move {misfit['index']} no longer fits and has no resolution" if misfit else "the line ends"
        )
        raise ResolutionUnused(
            f"the resolution for move {unused[0]} is never reached: {reached}, so the moves from it on leave "
            "the line of play",
            indexes=unused,
            first_misfit=misfit["index"] if misfit else None,
        )
    event = MoveAmended(
        originator_id=game.id,
        originator_version=game.version + 1 + len(played),
        timestamp=now(),
        version=version,
        move=dict(move),
        chance=chance,
        actor=actor,
        description=description,
        dropped=list(dropped),
        redrawn=redrawn,
        resolutions=stored,
        idempotency_key=idempotency_key,
    )
    over = domain.is_over(state)  # the state the corrected line ends on (before its first misfit, if any)
    report = AmendReport(version, tuple(kept), dropped, misfit, redrawn, tuple(resolved), over, misfit_state)
    return [*played, event], report


def _planned(resolutions: Sequence[Any], position: int, length: int) -> dict[int, Resolution]:
    """The resolutions asked for, by line index, each checked to name a later move, once."""
    planned: dict[int, Resolution] = {}
    for number, raw in enumerate(resolutions):
        resolution = Resolution.read(raw, number)
        if not position + 2 <= resolution.index <= length:
            raise ResolutionNotLater(
                f"a resolution names move {resolution.index}: the moves after the corrected one (move "
                f"{position + 1}) are moves {position + 2} to {length}"
                if position + 2 <= length
                else f"a resolution names move {resolution.index}: no move comes after the corrected one",
                index=resolution.index,
                first=position + 2,
                last=length,
            )
        if resolution.index in planned:
            raise ResolutionRepeated(
                f"two resolutions name move {resolution.index}: give it one, with all the moves played there",
                index=resolution.index,
            )
        planned[resolution.index] = resolution
    return planned


Refit = tuple[Any, list[Move] | None] | domain.DomainError
"""A recorded move played again: the state it leads to and its redrawn chance outcomes, or why it no longer
fits."""


def _refit(mode: str, state: Any, record: MoveRecord) -> Refit:
    """A recorded move played again on ``state``: the state it leads to and, in seeded mode, its chance
    outcomes when they must be drawn anew (None when they are the recorded ones); or why it no longer fits.
    In table mode chance is recorded data (what happened at the table): re-checked, never drawn."""
    try:
        if mode == "seeded":
            next_state, outcomes = rules.decide(state, record.move)
            return next_state, (outcomes if outcomes != list(record.chance) else None)
        return rules.recheck(state, record.move, record.chance), None
    except domain.DomainError as error:
        return error


def _resolving(
    game: Game,
    state: Any,
    move: Move,
    *,
    at: int,
    replaces: int,
    actor: str,
    index: int,
    idempotency_key: str | None = None,
) -> tuple[MoveResolved, Any]:
    """Decide one move of a resolution, as a move recorded on that line would be (``play``): its event, and
    the state it leads to."""
    try:
        after, chance = rules.decide(state, move)
    except domain.DomainError as error:
        error.details.setdefault("resolution_index", index)
        raise
    event = MoveResolved(
        originator_id=game.id,
        originator_version=at,
        timestamp=now(),
        replaces=replaces,
        move=dict(move),
        chance=chance,
        seat=move.get("seat"),
        actor=actor,
        description=domain.describe(state, move),
        idempotency_key=idempotency_key,
    )
    return event, after


def _misfit(
    state: Any, index: int, record: MoveRecord, error: domain.DomainError, after_resolution: bool
) -> dict[str, Any]:
    """A later move that no longer fits, as a client needs it to resolve it: where it is, what it was in words
    (as recorded: its words on the line it was played on, safe whatever the new state), why it no longer fits
    (the rules' words and number), who is asked to play there and every move legal there.
    ``after_resolution``: it was kept after the moves of its own resolution (``keep_recorded``) and still
    does not fit after them; that resolution is the one to extend."""
    seat = domain.prompt_of(state).get("seat")
    players = state.players
    return {
        "index": index,
        "version": record.version,
        "move": record.move,
        "error": error.to_dict(),
        "recorded_words": record.description,
        "reason": error.message,
        "rule": error.rule,
        "seat": seat,
        "player": players[seat].name if isinstance(seat, int) and 0 <= seat < len(players) else None,
        "legal_moves": domain.legal_moves(state),
        "after_resolution": after_resolution,
    }


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
    return lengths


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
