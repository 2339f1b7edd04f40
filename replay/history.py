"""Walking a game's history: one traversal feeds every reader (python-chess's visitor)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import domain
from replay import rules
from replay.annotations import Annotation
from replay.game import Game, MoveRecord
from replay.text import printable


@dataclass(frozen=True)
class Where:
    """Where a move happened: the coordinates of the state it was played from."""

    round: int
    turn: int
    seat: int | None
    phase: str


def where(state: Any) -> Where:
    coords = domain.coordinates(state)
    return Where(round=coords.round, turn=coords.turn, seat=coords.seat, phase=str(coords.phase))


def totals(state: Any) -> list[int]:
    """Each seat's score total at this state (the score timeline's points)."""
    return [int(sheet.to_dict()["total"]) for sheet in domain.score(state)]


class Visitor:
    """Receives a game's history in order; override what you need."""

    def begin(self, game: Game, state: Any) -> None:
        """Called once with the opening state."""

    def move(self, index: int, record: MoveRecord, before: Any, after: Any, at: Where) -> None:
        """Called for every effective move, ``index`` counting from 1 along the line of play."""

    def end(self, game: Game, state: Any) -> None:
        """Called once with the current state."""


def walk(game: Game, *visitors: Visitor) -> None:
    """Visit the whole line of play of ``game`` with every visitor, in one pass."""
    game = game.with_states_from_start()
    for visitor in visitors:
        visitor.begin(game, game.states[0])
    for index, version in enumerate(game.line, start=1):
        before, after = game.states[index - 1], game.states[index]
        at = where(before)
        record = game.records[version]
        for visitor in visitors:
            visitor.move(index, record, before, after, at)
    for visitor in visitors:
        visitor.end(game, game.state)


# --- the setup's layout -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetupLayout:
    """A game's setup layout (``domain.layout_of``) read from the board as the setup's chance left it: the
    opening's outcomes (a seeded game's draws, a laid-out table game's layout), then in a table game recorded
    one deal at a time its first chance moves. ``complete``: every chance prompt of the setup is answered;
    ``version``: the version of the game after which it was (1: from the start)."""

    layout: dict[str, Any]
    complete: bool
    version: int


def setup_layout(game: Game) -> SetupLayout:
    """The board as the setup dealt it, as one layout (see :class:`SetupLayout`)."""
    state = rules.fresh_state(game.setup, game.catalog, game.rules_version)
    for outcome in game.opening:
        if domain.setup_dealt(state):
            break
        state = domain.apply(state, outcome, check=False, draw=False)
    version = 1
    if not domain.setup_dealt(state):
        game = game.with_states_from_start()
        for index, move_version in enumerate(game.line, start=1):
            state = game.states[index]
            version = move_version
            if domain.setup_dealt(state):
                break
    return SetupLayout(domain.layout_of(state), bool(domain.setup_dealt(state)), version)


# --- the timeline -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TimelineEntry:
    """One move as the replay screen lists it."""

    index: int | None
    version: int
    round: int | None
    turn: int | None
    seat: int | None
    player: str | None
    kind: str
    description: str
    chance: tuple[str, ...]
    actor: str
    at: datetime
    totals: tuple[int, ...] | None
    amends: int | None = None
    """The version of the recorded move this one stands in for: the move a person corrected (amended), or a
    later move that no longer fitted after a correction and that this one resolved."""
    undone: bool = False
    automatic: bool = False
    """The move was made in an automatic seat's turn (the solo rival): a solo card revealed, a choice the
    player made for it, a card it made refill."""
    automatic_chance: tuple[int, ...] = ()
    """Which of the ``chance`` lines belong to an automatic seat's turn (the rival's, drawn in seeded mode)."""
    correction: str | None = None
    """``amended``: the move a correction put here; ``resolved``: a move played anew in that correction, where a
    later recorded move no longer fitted; ``added``: a move a correction put before a recorded move that stays
    (one forgotten); ``rewritten``: a recorded move a correction said anew (by the other seat, or the same die
    from the other end); None for a move as it was recorded."""
    replaced: str | None = None
    """The words of the recorded move it stands in for (``amends``), as they were recorded."""
    stands_for: tuple[int, ...] = ()
    """Every version whose place in the game this move took, the latest first (a move corrected twice stands
    for both): annotations anchored to them read beside it."""
    phase: str | None = None
    """Where in the game the move was played: ``setup``, ``turns`` or ``end_of_round`` (the gardens' activation
    and the next round's dice, R-E03, R-E04: filed under the round's end, with no turn and no player's turn)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "version": self.version,
            "round": self.round,
            "turn": self.turn,
            "seat": self.seat,
            "player": self.player,
            "kind": self.kind,
            "description": self.description,
            "chance": list(self.chance),
            "actor": self.actor,
            "at": self.at.isoformat(),
            "totals": list(self.totals) if self.totals is not None else None,
            "amends": self.amends,
            "undone": self.undone,
            "automatic": self.automatic,
            "automatic_chance": list(self.automatic_chance),
            "correction": self.correction,
            "replaced": self.replaced,
            "stands_for": list(self.stands_for),
            "phase": self.phase,
        }


def chance_lines(before: Any, record: MoveRecord) -> tuple[str, ...]:
    """Readable lines for the chance outcomes that followed a move."""
    return tuple(line for line, _ in described_chance(before, record))


def automatic(state: Any) -> bool:
    """Whether the prompt of `state` belongs to an automatic seat's turn (the solo rival's)."""
    return bool(domain.prompt_of(state).get("automatic"))


def described_chance(before: Any, record: MoveRecord) -> list[tuple[str, bool]]:
    """Each chance outcome that followed a move, in words, and whether it was part of an automatic seat's
    turn."""
    if not record.chance:
        return []
    state = domain.apply(before, record.move, check=False, draw=False)
    lines = []
    for outcome in record.chance:
        lines.append((domain.describe(state, outcome), automatic(state)))
        state = domain.apply(state, outcome, check=False, draw=False)
    return lines


def opening_lines(game: Game) -> list[str]:
    """What automatic seats did during the opening chance outcomes (a solo rival playing the first turn)."""
    if not game.setup.get("solo"):
        return []
    state = rules.fresh_state(game.setup, game.catalog, game.rules_version)
    lines = []
    for outcome in game.opening:
        if automatic(state):
            lines.append(domain.describe(state, outcome))
        state = domain.apply(state, outcome, check=False, draw=False)
    return lines


def correction_of(record: MoveRecord, in_place: bool = True) -> str | None:
    """How a move came to be on the line: ``amended``, ``resolved``, ``added``, ``rewritten`` (see
    :class:`TimelineEntry`) or None. ``in_place``: it takes the place of a recorded move now off the line
    (else a move played in a correction before a recorded move that stays is ``added``)."""
    if record.amends is not None:
        return "amended"
    if record.resolves is not None:
        return "resolved" if in_place else "added"
    return "rewritten" if record.rewritten else None


def replaced_words(game: Game, record: MoveRecord) -> str | None:
    """The words of the recorded move that ``record`` was played in place of, if any."""
    replaced = game.records.get(record.replaced) if record.replaced is not None else None
    return replaced.description if replaced is not None else None


def stands_for(game: Game) -> dict[int, tuple[int, ...]]:
    """For each move of the line that took the place of recorded moves now off the line, their versions, the
    latest first: the move an amendment replaced (and the one that one replaced, ...), or the later move a
    resolution was played in place of (its first move takes that place; a recorded move that stays after the
    moves of its resolution keeps its own). What annotations follow: one anchored to a move that a correction
    replaced reads beside the move that stands there now ("by index": the same place in the game)."""
    on_line = set(game.line)
    taken: set[int] = set()
    places: dict[int, tuple[int, ...]] = {}
    for version in game.line:
        chain: list[int] = []
        replaced = game.records[version].replaced
        while replaced is not None and replaced not in on_line and replaced not in taken:
            chain.append(replaced)
            taken.add(replaced)
            replaced = game.records[replaced].replaced if replaced in game.records else None
        if chain:
            places[version] = tuple(chain)
    return places


CORRECTIONS = frozenset({"amend", "correct", "uncorrect", "recorrect"})
"""The audit kinds of a correction, and of its undo and redo."""


def removed(game: Game) -> dict[int, list[int]]:
    """The recorded moves corrections took off the line of play with nothing in their place (moves that never
    happened, and those a misfit without a resolution dropped), by the move of the line they followed (0:
    before the first): what the text record lists where they stood."""
    from replay.decisions import line_at  # the bookkeeping of the line, as every reader of a past line uses

    on_line = set(game.line)
    taken = {version for chain in stands_for(game).values() for version in chain}
    places = {replaced: version for version, chain in stands_for(game).items() for replaced in chain}
    found: dict[int, list[int]] = {}
    listed: set[int] = set()
    for entry in game.audit:
        if entry.kind not in CORRECTIONS:
            continue
        before = line_at(game, entry.version - 1)
        after = set(line_at(game, entry.version))
        for at, version in enumerate(before):
            if version in after or version in on_line or version in taken or version in listed:
                continue
            listed.add(version)
            follows = 0
            for earlier in reversed(before[:at]):
                shown = earlier if earlier in on_line else places.get(earlier)
                if shown is not None:
                    follows = shown
                    break
            found.setdefault(follows, []).append(version)
    return found


@dataclass
class Timeline(Visitor):
    """Builds the list of effective moves with coordinates, description and score totals after each."""

    entries: list[TimelineEntry] = field(default_factory=list)
    names: Sequence[str] = ()
    places: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    records: Mapping[int, MoveRecord] = field(default_factory=dict)

    def begin(self, game: Game, state: Any) -> None:
        self.names = [seat["name"] for seat in game.setup["players"]]
        self.places = stands_for(game)
        self.records = game.records

    def move(self, index: int, record: MoveRecord, before: Any, after: Any, at: Where) -> None:
        seat = record.seat
        chance = described_chance(before, record)
        own = automatic(before)
        # a chance move of the rival's turn is the rival's: name it, as a player's move names its player
        shown = at.seat if own and seat is None else seat
        places = self.places.get(record.version, ())
        end_of_round = at.phase == "end_of_round"
        self.entries.append(
            TimelineEntry(
                index=index,
                version=record.version,
                round=at.round,
                turn=None if end_of_round else at.turn,  # the round's end is no player's turn
                seat=seat,
                player=self.names[shown] if shown is not None and shown < len(self.names) else None,
                kind=str(record.move.get("kind")),
                description=record.description,
                chance=tuple(line for line, _ in chance),
                actor=record.actor,
                at=record.at,
                totals=tuple(totals(after)),
                amends=places[0] if places else None,
                automatic=own,
                automatic_chance=tuple(i for i, (_, rival) in enumerate(chance) if rival),
                correction=correction_of(record, bool(places)),
                replaced=self.records[places[0]].description if places else None,
                stands_for=places,
                phase=at.phase,
            )
        )


def timeline(game: Game, *, include_undone: bool = False) -> list[TimelineEntry]:
    visitor = Timeline()
    walk(game, visitor)
    entries = visitor.entries
    if include_undone:
        on_line = set(game.line)
        names = [seat["name"] for seat in game.setup["players"]]
        for record in game.records.values():
            if record.version in on_line:
                continue
            entries.append(
                TimelineEntry(
                    index=None,
                    version=record.version,
                    round=None,
                    turn=None,
                    seat=record.seat,
                    player=names[record.seat] if record.seat is not None else None,
                    kind=str(record.move.get("kind")),
                    description=record.description,
                    chance=(),
                    actor=record.actor,
                    at=record.at,
                    totals=None,
                    amends=record.replaced,
                    undone=True,
                    correction=correction_of(record),
                    replaced=replaced_words(game, record),
                )
            )
        entries.sort(key=lambda entry: entry.version)
    return entries


# --- the text record --------------------------------------------------------------------------------------


@dataclass
class TextRecord(Visitor):
    """A readable record: round and turn headers, one line per move, annotations inline, the score sheet."""

    annotations: Sequence[Annotation] = ()
    lines: list[str] = field(default_factory=list)
    names: Sequence[str] = ()
    _heading: tuple[int, int, int | None] | None = None
    _annotations_at: dict[int, list[Annotation]] = field(default_factory=dict)
    _opening: Any = None
    _places: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    _records: Mapping[int, MoveRecord] = field(default_factory=dict)
    _removed: Mapping[int, list[int]] = field(default_factory=dict)

    def begin(self, game: Game, state: Any) -> None:
        setup = game.setup
        self._opening = state
        self._places = stands_for(game)
        self._records = game.records
        self._removed = removed(game)
        self.names = [seat["name"] for seat in setup["players"]]
        self.lines += [
            f"# {setup['title']}",
            f"game {game.id} · rules {game.rules_version} · {setup['mode']} mode"
            + (f" · seed {setup['seed']}" if setup.get("seed") is not None else ""),
            "players: " + ", ".join(f"{seat['name']} ({seat['colour']})" for seat in setup["players"]),
            f"recorded {game.created_on:%Y-%m-%d %H:%M} UTC",
        ]
        if game.parent:
            self.lines.append(f"branch of game {game.parent['game_id']} at version {game.parent['version']}")
        if setup.get("catalog_override"):
            self.lines.append("played with a catalog of its own, not the components heronlog packages")
        if game.setup.get("solo"):
            self.lines.append(f"solo game against the rival, difficulty {game.setup['solo']}")
            self.lines.extend(f"       ({line})" for line in opening_lines(game))
        for annotation in self.annotations:
            self._annotations_at.setdefault(annotation.version, []).append(annotation)
        self._flush_annotations(1)
        self._list_removed(0)

    def _list_removed(self, version: int) -> None:
        """The moves a correction took off the line right after this one (0: before the first move)."""
        for gone in self._removed.get(version, ()):
            self.lines.append(f"       [removed in a correction: {self._records[gone].description}]")

    def _flush_annotations(self, version: int) -> None:
        for annotation in self._annotations_at.pop(version, []):
            glyph = f"{annotation.glyph} " if annotation.glyph else ""
            target = f" [{self._target(annotation.target)}]" if annotation.target else ""
            author = actor_text(self._opening, annotation.author)
            # A comment of several lines goes on, indented, under its first (text() escapes the rest).
            first, *more = annotation.text.split("\n")
            said = [f"      {{{glyph}{author}{target}: {first}", *(f"       {line}" for line in more)]
            said[-1] += "}"
            self.lines.extend(said)

    def _target(self, target: Mapping[str, Any]) -> str:
        """A comment's board target in the replay page's words ("steward room 1", "Ben's domain (seat 2)")."""
        return domain.part_text(self._opening, str(target["kind"]), str(target["id"]))

    def move(self, index: int, record: MoveRecord, before: Any, after: Any, at: Where) -> None:
        if self._heading is None or self._heading[0] != at.round:
            self.lines += ["", f"## Round {at.round}"]
        if at.phase == "end_of_round":
            # The gardens' activation and the new dice: the round's end, no player's turn (R-E03, R-E04).
            if self._heading != (at.round, -1, None):
                self.lines.append(f"### End of round {at.round}")
            self._heading = (at.round, -1, None)
        else:
            if self._heading != (at.round, at.turn, at.seat) and at.seat is not None:
                # Turn 0 is the setup's choices (the replay page's "setup"), before the round's first turn.
                turn = "Setup" if at.turn == 0 else f"Turn {at.turn}"
                self.lines.append(f"### {turn}: {self.names[at.seat]}")
            self._heading = (at.round, at.turn, at.seat)
        # Numbered as a reader counts moves, from 1 (a move's version, 1 higher or more, is in the JSON export).
        self.lines.append(f"{index:>5}. {record.description}{self._corrected(record)}")
        self.lines.extend(f"       ({line})" for line in chance_lines(before, record))
        self._flush_annotations(record.version)
        for replaced in self._places.get(record.version, ()):  # the annotations of the moves it stands in for
            self._flush_annotations(replaced)
        self._list_removed(record.version)

    def _corrected(self, record: MoveRecord) -> str:
        """How a corrected move reads: marked, with the recorded move it stands in for, if any."""
        places = self._places.get(record.version)
        if places:
            return f"  [corrected; recorded first as: {self._records[places[0]].description}]"
        said = correction_of(record, in_place=False)
        if said == "added":  # played in a correction, before a recorded move that stays
            return "  [added in a correction]"
        if said == "rewritten":
            return "  [said anew in a correction]"
        return ""

    def end(self, game: Game, state: Any) -> None:
        leftover = sorted(self._annotations_at.items())
        if leftover:
            self.lines += ["", "## Notes on undone moves and other versions"]
            for version, _ in leftover:
                self.lines.append(f"  at version {version}:")
                self._flush_annotations(version)
        self.lines += ["", "## Score sheet" + ("" if domain.is_over(state) else " (game in progress)")]
        self.lines.extend(score_table(state, self.names))
        if game.abandoned:
            first, *more = game.abandoned.remark.strip().split("\n")
            self.lines.append(
                f"abandoned by {actor_text(state, game.abandoned.actor)}" + (f": {first}" if first else "")
            )
            self.lines.extend(f"  {line}" for line in more)

    def text(self) -> str:
        """The record, each line as :func:`replay.text.printable` writes it: a name, title or comment stored
        with a control character (before they were refused) never writes it raw to a reader's terminal."""
        return "\n".join(printable(line) for line in self.lines) + "\n"


def actor_text(state: Any, actor: str) -> str:
    """Who acted, in words: ``owner`` as it is, a seat's actor as people count seats (``seat:1`` is "Ben (seat
    2)", :func:`domain.seat_text`)."""
    role, _, index = actor.partition(":")
    seat = _seat_index(index) if role == "seat" else None
    return actor if seat is None else domain.seat_text(state, seat)


def _seat_index(text: str) -> int | None:
    """The seat index that ``text`` spells (``"1"``), or None."""
    return int(text) if text.isascii() and text.isdigit() else None


SHEET_FIELDS = frozenset({"seat", "name", "total", "rank"})
"""Fields of a score sheet that are not scoring lines (every other field is one line of the sheet)."""


SHEET_LABELS = {
    "in_game_cp": "CP during the game",
    "coins_seals": "coins and seals",
    "passage_of_time": "Passage of Time",
}
"""The score pad's words for the lines whose field name is not already them (R-F01..R-F08)."""


def score_lines(sheet: Mapping[str, Any]) -> list[tuple[str, int]]:
    """A score sheet's lines in order, as (label, points): "CP during the game" for ``in_game_cp``, and so
    on (`SHEET_LABELS`; the other fields, "courtiers" or "geishas", are their own label)."""
    return [
        (SHEET_LABELS.get(key, key.replace("_", " ")), value)
        for key, value in sheet.items()
        if key not in SHEET_FIELDS
    ]


def score_table(state: Any, names: Sequence[str]) -> list[str]:
    """The score sheet as aligned text, one column per seat."""
    sheets = [sheet.to_dict() for sheet in domain.score(state)]
    columns = [score_lines(sheet) for sheet in sheets]
    labels = [label for label, _ in columns[0]] if columns else []
    width = max([len(label) for label in labels] + [5])
    rows = ["".ljust(width) + "".join(f"{name[:12]:>14}" for name in names)]
    for row, label in enumerate(labels):
        rows.append(label.ljust(width) + "".join(f"{column[row][1]:>14}" for column in columns))
    rows.append("total".ljust(width) + "".join(f"{sheet['total']:>14}" for sheet in sheets))
    rows.append("rank".ljust(width) + "".join(f"{sheet['rank']:>14}" for sheet in sheets))
    return rows


def text_record(game: Game, annotations: Sequence[Annotation] = ()) -> str:
    visitor = TextRecord(annotations=annotations)
    walk(game, visitor)
    return visitor.text()


# --- who played first -----------------------------------------------------------------------------------


def first_player(game: Game) -> int | None:
    """The seat that played the first turn of the game (None before anyone has)."""
    if game.setup.get("solo"):  # the rival may play first, with no recorded move (seeded mode)
        state = game.with_states_from_start().states[0]
        order = domain.state_to_dict(state)["turn_order"]
        return int(order[0]) if order else None
    for version in game.line:
        seat = game.records[version].seat
        if seat is not None:
            position = game.line.index(version)
            if where(game.state_after(position)).phase == "turns":
                return seat
    return None
