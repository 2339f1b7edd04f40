"""Helpers shared by the replay tests of every tier: stores to run on, and playing random legal moves."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log


def open_store(kind: str, tmp_path: Path, redis_url: str | None = None) -> GameLog:
    """A fresh, empty game log on the named store (a new SQLite file, or a new Redis key prefix)."""
    if kind == "memory":
        return open_log(StoreConfig(kind="memory"))
    if kind == "sqlite":
        return open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite"))
    assert redis_url is not None
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    return open_log(StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=prefix))


def is_free(move: dict[str, Any]) -> bool:
    """Seal conversions are free moves: a random player makes them only now and then."""
    return move.get("kind") == "convert"


def pick(state: Any, rng: random.Random) -> dict[str, Any]:
    """A random legal move, preferring the answers to the prompt over free conversions."""
    moves = domain.legal_moves(state)
    answers = [move for move in moves if not is_free(move)]
    if answers and (rng.random() < 0.9 or len(answers) == len(moves)):
        return rng.choice(answers)
    return rng.choice(moves)


def play_random(log: GameLog, game_id: uuid.UUID, count: int, rng: random.Random) -> Iterator[int]:
    """Play ``count`` random legal moves (fewer if the game ends); yields each new version."""
    for _ in range(count):
        game = log.get(game_id)
        if domain.is_over(game.state):
            return
        played = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="owner")
        yield played.versions[-1]


def canonical(state: Any) -> Any:
    """A state as JSON-plain data, for comparisons across stores and snapshots."""
    import json

    return json.loads(json.dumps(domain.state_to_dict(state), sort_keys=True, default=str))


def club_archive(log: GameLog, seed: int = 11) -> dict[uuid.UUID, str]:
    """A small club archive with every kind of game a backup must carry: public and private games, a fork
    (played on), an abandoned game, a finished one, one with moves undone and redone, one amended, and
    annotations added, edited and deleted. Returns each game's owner token (as the API would have issued)."""
    rng = random.Random(seed)
    tokens: dict[uuid.UUID, str] = {}

    def new(players: list[str], title: str, private: bool = False) -> uuid.UUID:
        setup = {"players": players, "seed": rng.randrange(1000), "title": title, "private": private}
        issued = log.create_game(setup)
        tokens[issued.game_id] = issued.token
        return issued.game_id

    public = new(["Ann", "Bo", "Cy"], "Tuesday table 1")
    list(play_random(log, public, 24, rng))
    owner = log.authenticate(public, tokens[public])
    assert owner is not None
    # Written with the owner's token, as the API writes a comment: the grant it names does not travel.
    note = log.annotate(
        public, version=4, author="owner", text="Why not the well?", glyph="?!", author_grant=owner.id
    ).annotation
    log.annotate(
        public,
        version=9,
        author="owner",
        text="Strong.",
        glyph="!",
        target={"kind": "bridge", "id": "coral"},
    )
    log.edit_annotation(public, note.id, editor="owner", text="Why not the well here?", glyph="?")

    private = new(["Dee", "Eli"], "Coaching session", private=True)
    list(play_random(log, private, 15, rng))
    gone = log.annotate(private, version=2, author="seat:0", text="draft").annotation
    log.delete_annotation(private, gone.id, actor="seat:0")

    branch = log.fork(public, 10, "What if the well")
    tokens[branch.game_id] = branch.token
    list(play_random(log, branch.game_id, 6, rng))

    abandoned = new(["Fay", "Gus"], "Left at round 2")
    list(play_random(log, abandoned, 8, rng))
    game = log.get(abandoned)
    log.abandon(abandoned, expected_version=game.version, actor="owner", reason="the café closed")

    finished = new(["Hal", "Ivy"], "Final of the month")
    game = log.get(finished)
    while not domain.is_over(game.state):
        game = log.play(finished, pick(game.state, rng), expected_version=game.version, actor="owner").game

    edited = new(["Jo", "Kai", "Lu", "Mo"], "Fixed and taken back")
    list(play_random(log, edited, 12, rng))
    game = log.get(edited)
    game = log.undo(edited, to_version=8, expected_version=game.version, actor="owner").game
    game = log.redo(edited, count=2, expected_version=game.version, actor="owner").game
    first = game.line[0]
    _, before = log.before_move(edited, first)
    # another move than the recorded one: a correction must change it (a random legal move may be the same)
    others = [m for m in domain.legal_moves(before) if m != game.records[first].move and not is_free(m)]
    log.amend(edited, first, rng.choice(others), expected_version=game.version, actor="owner")
    return tokens


def first_format_snapshot(game: Any, *, described_on_line: bool = True, as_data: bool = False) -> Any:
    """``game``'s snapshot as heronlog wrote them before snapshots kept a state rather than a history: the
    whole fold (records, audit, keys, catalog...) as JSON text, or as JSON data (``as_data``: the format before
    that). Archives hold such snapshots; they must still restore."""
    import msgspec

    from replay.game import GameSnapshot

    fold = {
        "created_on": game.created_on,
        "setup": game.setup,
        "rules_version": game.rules_version,
        "catalog": game.catalog,
        "opening": list(game.opening),
        "parent": game.parent,
        "records": [
            {
                "version": record.version,
                "move": record.move,
                "chance": list(record.chance),
                "seat": record.seat,
                "actor": record.actor,
                "at": record.at,
                "description": record.description,
                "idempotency_key": record.idempotency_key,
                "amends": record.amends,
                "resolves": record.resolves,
            }
            for record in game.records.values()
        ],
        "line": list(game.line),
        "redo": list(game.redo),
        "audit": [entry.to_dict() for entry in game.audit],
        "keys": {key: list(versions) for key, versions in game.keys.items()},
        "abandoned": game.abandoned.to_dict() if game.abandoned else None,
        "engine": domain.state_to_dict(game.state, catalog=False),
    }
    if described_on_line:
        fold["described_on_line"] = True
    text = msgspec.json.encode(fold).decode()
    return GameSnapshot(
        originator_id=game.id,
        originator_version=game.version,
        timestamp=game.modified_on,
        topic="replay.game:Game",
        state=GameSnapshot(game.id, game.version, game.modified_on, "t", text).fold() if as_data else text,
    )
