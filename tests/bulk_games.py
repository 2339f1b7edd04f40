"""Many games at once, for the tests and benches of the list of games.

Creating a game through the game log sets up the rules engine's opening (several milliseconds), so ten thousand
games would take minutes. :func:`write_games` writes what the game log's creation writes, in the same
transactions, for many games from one template: each game's ``GameCreated`` (the template's, under a new id,
title, players and time), its entry in the store's index stream at the next position, its owner grant, and then
its summary (what ``GameRepository.save_new_game`` keeps after the write; here with the entry, projected at once,
a batch per script: the list's own catch-up projects the entry again, harmlessly). Games are written a batch
per transaction, with consecutive index positions, so one process must be the only one creating games while it
runs.

``catalog="empty"`` writes the ``GameCreated`` events without their catalog (23 KB each): the list of games
never reads it, and a hundred thousand games then fit in a benchmark's Redis. Such games cannot be folded.
``follow`` gives moves to copy after each game's first event (the template game's own, so they fold).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal
from uuid import UUID, uuid4

from eventsourcing.persistence import StoredEvent

from replay import access as grants
from replay.application import GameLog
from replay.events import DomainEvent, GameCreated
from replay.index import Entry, Summary, entry_for, index_id, summary_of
from replay.integrity import seal, unseal

FIRST_NAMES = [
    "Aiko",
    "Ben",
    "Chie",
    "Dai",
    "Eri",
    "Fumi",
    "Goro",
    "Hana",
    "Ichiro",
    "Jun",
    "Kaori",
    "Ken",
    "Mai",
    "Nao",
    "Oki",
    "Rin",
    "Sora",
    "Taro",
    "Umi",
    "Yui",
    "Ann",
    "Bo",
    "Cy",
    "Dee",
    "Eli",
    "Flo",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kai",
    "Lea",
    "Max",
    "Nell",
    "Otto",
    "Pia",
    "Quin",
    "Ray",
    "Sam",
    "Tess",
    "Uli",
    "Vic",
    "Wes",
    "Xia",
    "Yan",
    "Zoe",
]
TITLE_WORDS = [
    "Club",
    "night",
    "Tuesday",
    "Friday",
    "table",
    "league",
    "cup",
    "final",
    "round",
    "practice",
    "rematch",
    "weekend",
    "evening",
    "lunch",
    "tournament",
    "casual",
    "opening",
    "heron",
    "castle",
    "bridge",
    "garden",
]


def template(log: GameLog, players: int = 4, seed: int = 1) -> GameCreated:
    """A ``GameCreated`` made by the game log (written to its store), for :func:`write_games` to copy."""
    game_id = log.create_game({"players": players, "seed": seed}).game_id
    created = next(iter(log.stores.of(game_id).events.get(game_id, lte=1)))
    assert isinstance(created, GameCreated)
    return created


def names(number: int, rng: random.Random, players: int) -> tuple[str, list[str]]:
    """A title and players' names for game ``number`` (varied, as a club's archive: names repeat)."""
    seats = rng.sample(FIRST_NAMES, players)
    title = f"{rng.choice(TITLE_WORDS).capitalize()} {rng.choice(TITLE_WORDS)} {number}"
    return title, seats


def write_games(
    log: GameLog,
    count: int,
    like: GameCreated,
    *,
    start: datetime | None = None,
    private_every: int = 0,
    seed: int = 5,
    batch: int = 200,
    catalog: Literal["kept", "empty"] = "kept",
    follow: Sequence[DomainEvent] = (),
) -> list[UUID]:
    """Write ``count`` games shaped like ``like``, one second apart from ``start`` (every ``private_every``-th
    private); the ids, oldest first."""
    rng = random.Random(seed)
    start = start or datetime(2024, 1, 1, tzinfo=UTC)
    game = log.get(like.originator_id)
    if follow:
        game = log.get_game(like.originator_id, follow[-1].originator_version)
    summary = summary_of(game)
    players = len(like.setup["players"])
    made: list[UUID] = []
    pending: dict[int, list[GameCreated]] = {}
    catalog_json: dict[int, bytes] = {}
    for number in range(count):
        title, seats = names(number, rng, players)
        setup = {
            **like.setup,
            "title": title,
            "players": [
                {**seat, "name": name} for seat, name in zip(like.setup["players"], seats, strict=True)
            ],
            "private": bool(private_every) and number % private_every == private_every - 1,
        }
        created = replace(
            like,
            originator_id=uuid4(),
            timestamp=start + timedelta(seconds=number),
            setup=setup,
            catalog=like.catalog if catalog == "kept" else {},
        )
        made.append(created.originator_id)
        home = log.stores.all.index(log.stores.of(created.originator_id))
        pending.setdefault(home, []).append(created)
        if len(pending[home]) >= batch:
            _save(log, pending.pop(home), summary, catalog_json, follow)
    for home in list(pending):
        _save(log, pending.pop(home), summary, catalog_json, follow)
    return made


MARK = "heronlog-bulk-catalog"


def _stored(store: Any, created: GameCreated, catalog_json: dict[int, bytes]) -> StoredEvent:
    """The stored ``GameCreated``, as the store's mapper writes it, with the catalog's JSON encoded once per
    catalog (it is four fifths of the event's bytes and of the time to encode them). The splice is made in the
    record as the library writes it, and the record sealed again (its integrity check: replay.integrity)."""
    if not created.catalog:
        return store.mapper.to_stored_event(created)
    marked = unseal(store.mapper.to_stored_event(replace(created, catalog=MARK)))
    text = catalog_json.get(id(created.catalog))
    if text is None:
        text = catalog_json[id(created.catalog)] = store.mapper.transcoder.encode(created.catalog)
        whole = store.mapper.to_stored_event(created)  # once: the splice gives the same bytes
        assert whole == seal(
            replace(marked, state=marked.state.replace(b'"' + MARK.encode() + b'"', text))
        ), "not what the mapper writes"
    return seal(replace(marked, state=marked.state.replace(b'"' + MARK.encode() + b'"', text)))


def _save(
    log: GameLog,
    games: Sequence[GameCreated],
    summary: Summary,
    catalog_json: dict[int, bytes],
    follow: Sequence[DomainEvent] = (),
) -> None:
    store = log.stores.of(games[0].originator_id)
    stream = index_id(store)
    position = store.last_version(stream)
    stored: list[StoredEvent] = []
    entries = []
    for offset, created in enumerate(games, start=1):
        owner = grants.grant(
            grants.empty(created.originator_id),
            role=grants.OWNER,
            seat=None,
            token_hash=grants.hash_token(grants.new_token()),
            by="system",
        )
        indexed = entry_for(created, stream, position + offset)
        stored += [
            _stored(store, created, catalog_json),
            *map(store.mapper.to_stored_event, (indexed, owner)),
            *(
                store.mapper.to_stored_event(replace(event, originator_id=created.originator_id))
                for event in follow
            ),
        ]
        entries.append((Entry.of(indexed), replace(summary, created_on=created.timestamp.isoformat())))
    store.recorder.insert_events(stored)  # what store.save(*events) hands its recorder: one transaction
    store.listing.add(entries, 0)
