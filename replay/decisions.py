"""Command functions: decide what happens to a game and return the events that say so.

Each function takes the current :class:`~replay.game.Game` (never mutating it) and returns new events, or
raises an error and returns nothing. All checks happen here, before any event exists: the rules engine
validates moves, seeded chance outcomes are drawn, timestamps are read. Folding the events later
(:mod:`replay.game`) never validates again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID, uuid4

import domain
from replay import rules
from replay.errors import (
    AmendUnchanged,
    GameClosed,
    InvalidSetup,
    NothingToRedo,
    NothingToUndo,
    UnknownVersion,
)
from replay.events import (
    GameAbandoned,
    GameCreated,
    GameIndexed,
    Move,
    MoveAmended,
    MovePlayed,
    MovesRedone,
    MovesUndone,
    now,
)
from replay.game import Game

COLOURS = ("purple", "green", "blue", "red", "white", "black", "yellow", "orange")
MODES = ("table", "seeded")
SOLO = ("easy", "medium", "hard")
"""The solo rival's difficulties (RULES R-SO01)."""


def normalise_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """Check a requested setup and fill its defaults: the shape stored in ``GameCreated``."""
    players = setup.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        if not 1 <= players <= 100:  # the rules engine judges the exact count; this only bounds the work
            raise InvalidSetup("players must be a small count or a list of names", players=players)
        players = [f"Player {seat + 1}" for seat in range(players)]
    if not isinstance(players, list) or not players:
        raise InvalidSetup("players must be a count or a list of names or {name, colour} objects")
    if setup.get("solo") is not None:  # a stored solo setup lists the rival: it is added again below
        players = [p for p in players if not (isinstance(p, Mapping) and p.get("automatic"))]
    entries = [{"name": player} if isinstance(player, str) else player for player in players]
    chosen = {
        entry.get("colour")
        for entry in entries
        if isinstance(entry, Mapping) and isinstance(entry.get("colour"), str)
    }
    # A player left without a colour takes the first one nobody chose, so that a default never repeats a colour
    # picked for another seat (the board tells players apart by colour); past eight seats they repeat.
    unchosen = iter([colour for colour in COLOURS if colour not in chosen])
    seats: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise InvalidSetup(f"player {index + 1} needs a name", seat=index)
        name = entry["name"].strip()
        if not name or len(name) > 40:
            raise InvalidSetup(f"player {index + 1}'s name must have 1 to 40 characters", seat=index)
        colour = entry.get("colour") or next(unchosen, COLOURS[index % len(COLOURS)])
        if not isinstance(colour, str) or len(colour) > 20:
            raise InvalidSetup(f"player {index + 1}'s colour must be a short text", seat=index)
        seats.append({"name": name, "colour": colour})
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
    title = setup.get("title") or " vs ".join(seat["name"] for seat in seats)
    normal = {
        "players": seats,
        "mode": mode,
        "seed": seed,
        "options": dict(options),
        "title": str(title)[:120],
        "private": bool(setup.get("private", False)),
    }
    if expansions:  # a base game's setup keeps the shape it always had (exports compare it key by key)
        normal["expansions"] = list(expansions)
    return {**normal, "solo": solo} if solo is not None else normal


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
) -> tuple[GameCreated, Any]:
    """Decide a new game: the setup is checked by building its opening state with the rules engine.

    ``catalog`` is a partial override of the packaged catalog; the event stores the full effective catalog.
    ``opening`` (forks and imports) gives the setup's chance outcomes instead of drawing them; ``rules_version``
    (an import's: one of ``rules.COMPATIBLE``) the rules they are checked and drawn under, stored in the event.
    """
    normal = normalise_setup(setup)
    try:
        fresh = rules.fresh_state(normal, catalog, rules_version)
    except domain.DomainError as error:
        raise InvalidSetup(error.message, **error.details) from error
    except (TypeError, ValueError) as error:
        raise InvalidSetup(str(error)) from error
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
        catalog=domain.catalog_of(fresh),
        opening=drawn,
        parent=dict(parent) if parent else None,
    )
    return event, state


def index_entry(created: GameCreated, index_id: UUID, index_version: int) -> GameIndexed:
    """The game index's record of a new game (saved in the same transaction as the game's first event)."""
    return GameIndexed(
        originator_id=index_id,
        originator_version=index_version,
        timestamp=created.timestamp,
        game_id=str(created.originator_id),
        players=[seat["name"] for seat in created.setup["players"]],
        mode=created.setup["mode"],
        title=created.setup["title"],
        private=created.setup["private"],
        parent=created.parent,
    )


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


def undo(game: Game, *, actor: str, to_version: int | None = None) -> MovesUndone:
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
    )


def redo(game: Game, *, actor: str, count: int = 1) -> MovesRedone:
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
    )


@dataclass(frozen=True)
class AmendReport:
    """What an amendment did to the moves after the amended one."""

    version: int
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    first_misfit: dict[str, Any] | None = None
    redrawn: dict[str, list[Move]] = field(default_factory=dict)

    @property
    def all_fit(self) -> bool:
        return self.first_misfit is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "all_fit": self.all_fit,
            "kept": list(self.kept),
            "dropped": list(self.dropped),
            "first_misfit": self.first_misfit,
            "redrawn": sorted(int(version) for version in self.redrawn),
        }


def state_before_move(game: Game, version: int) -> Any:
    """The rules-engine state just before the move recorded at ``version``, as the line of play stands now:
    what an amendment of that move is judged against (its legal moves are the alternatives)."""
    if version not in game.line:
        raise UnknownVersion(f"version {version} is not a move of the line of play", version=version)
    return game.state_after(game.line.index(version))


def state_after_move(game: Game, version: int) -> Any:
    """The rules-engine state right after the move recorded at ``version``, as the line of play stands now
    (after an amendment, the kept later moves follow the new move: the game as it stood after event
    ``version`` is another state)."""
    if version not in game.line:
        raise UnknownVersion(f"version {version} is not a move of the line of play", version=version)
    return game.state_after(game.line.index(version) + 1)


def amend(
    game: Game, version: int, move: Move, *, actor: str, unchanged: bool = False
) -> tuple[MoveAmended, AmendReport]:
    """Decide an amendment: replace the move recorded at ``version`` and re-check every later effective move.

    The first later move that no longer fits, and everything after it, leave the line of play (reported in
    :class:`AmendReport`); in seeded mode a later move whose chance outcomes must change gets them redrawn.
    The move already recorded there is refused (:class:`AmendUnchanged`: it would correct nothing), unless
    ``unchanged`` (an import re-deciding a log written before such amendments were refused).
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
    state, chance = rules.decide(before, move)
    description = domain.describe(before, move)
    kept: list[int] = []
    redrawn: dict[str, list[Move]] = {}
    misfit: dict[str, Any] | None = None
    later = game.line[position + 1 :]
    for index, later_version in enumerate(later):
        record = game.records[later_version]
        try:
            if game.mode == "seeded":
                next_state, outcomes = rules.decide(state, record.move)
                if outcomes != list(record.chance):
                    redrawn[str(later_version)] = outcomes
            else:
                next_state = rules.recheck(state, record.move, record.chance)
        except domain.DomainError as error:
            misfit = {"version": later_version, "move": record.move, "error": error.to_dict()}
            dropped = tuple(later[index:])
            break
        state = next_state
        kept.append(later_version)
    else:
        dropped = ()
    event = MoveAmended(
        originator_id=game.id,
        originator_version=game.version + 1,
        timestamp=now(),
        version=version,
        move=dict(move),
        chance=chance,
        actor=actor,
        description=description,
        dropped=list(dropped),
        redrawn=redrawn,
    )
    return event, AmendReport(version, tuple(kept), dropped, misfit, redrawn)


def abandon(game: Game, *, actor: str, reason: str) -> GameAbandoned:
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
        reason=reason[:500],
    )


def fork_events(game: Game, version: int, new_id: UUID, title: str | None = None) -> list[Any]:
    """Decide a branch: a new game with the same setup and catalog, whose first moves are the moves of the
    parent's line of play as it stood at ``version`` (copied as recorded, with their actors). Its title is
    ``title``, or by default the parent's marked as a branch (`branch_title`)."""
    line = line_at(game, version)
    chosen = title.strip() if title else ""
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
    line: list[int] = []
    redo: list[int] = []
    audit = {entry.version: entry for entry in game.audit}
    for current in range(2, version + 1):
        if current in game.records and game.records[current].amends is None:
            line.append(current)
            redo = []
            continue
        entry = audit.get(current)
        if entry is None:
            continue
        if entry.kind == "undo":
            line = line[: len(line) - len(entry.versions)]
            redo = [*entry.versions, *redo]
        elif entry.kind == "redo":
            line.extend(entry.versions)
            redo = redo[len(entry.versions) :]
        elif entry.kind == "amend":
            amended, *dropped = entry.versions
            position = line.index(amended)
            later = [v for v in line[position + 1 :] if v not in set(dropped)]
            line = [*line[:position], current, *later]
            redo = []
    return tuple(line)
