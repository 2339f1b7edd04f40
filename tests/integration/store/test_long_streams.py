"""Reads of any size. A Redis script once unpacked every id of a stream in one call, which fails past
about 8,000 values ("too many results to unpack"): the list of games broke at its 8,000th game, and a game of
8,000 events could not be exported. Streams are now read page by page, and every script slices what it unpacks."""

from __future__ import annotations

import random
import uuid
from dataclasses import replace

import pytest
from eventsourcing.persistence import StoredEvent

from api.app import create_app
from api.resources.context import EXTENSION
from replay.config import StoreConfig, open_log
from replay.events import MovesRedone, MovesUndone, now
from replay.game import history
from replay.store import RedisApplicationRecorder, RedisDatastore
from replay.store.recorders import RECORDS_PER_PAGE
from tests.api_helpers import ApiClient, flask_transport
from tests.integration.store.support import purge
from tests.replay_helpers import canonical, pick

LONG = 20_001


def event(stream: uuid.UUID, version: int) -> StoredEvent:
    return StoredEvent(originator_id=stream, originator_version=version, topic="topic", state=b"%d" % version)


@pytest.mark.parametrize("url_fixture", ["redis_url", "cluster_url"], ids=["standalone", "cluster"])
def test_a_stream_of_20001_events_reads_whole_in_any_direction(
    url_fixture: str, request: pytest.FixtureRequest
) -> None:
    url = str(request.getfixturevalue(url_fixture))
    prefix = f"long-{uuid.uuid4().hex[:8]}"
    datastore = RedisDatastore(url, prefix=prefix)
    try:
        recorder = RedisApplicationRecorder(datastore, name="games")
        stream, other = uuid.uuid4(), uuid.uuid4()
        for start in range(1, LONG + 1, 2000):
            recorder.insert_events([event(stream, v) for v in range(start, min(start + 2000, LONG + 1))])
        recorder.insert_events([event(other, 1)])
        assert LONG > 2 * RECORDS_PER_PAGE
        every = recorder.select_events(stream)
        assert [e.originator_version for e in every] == list(range(1, LONG + 1))
        assert [e.state for e in every[-2:]] == [b"%d" % (LONG - 1), b"%d" % LONG]
        tail = recorder.select_events(stream, desc=True, limit=3)
        assert [e.originator_version for e in tail] == [LONG, LONG - 1, LONG - 2]
        backwards = recorder.select_events(stream, desc=True, lte=LONG - 1)
        assert [e.originator_version for e in backwards] == list(range(LONG - 1, 0, -1))
        window = recorder.select_events(stream, gt=8_000, lte=9_500)
        assert [e.originator_version for e in window] == list(range(8_001, 9_501))
        assert len(recorder.select_events(stream, limit=RECORDS_PER_PAGE + 1)) == RECORDS_PER_PAGE + 1
        # What brings held folds up to date reads more than a page of new events too.
        new, few = recorder.select_new_events([(stream, LONG - 1_500), (other, 0)])
        assert [e.originator_version for e in new] == list(range(LONG - 1_499, LONG + 1))
        assert [e.originator_version for e in few] == [1]
    finally:
        datastore.close()
        purge(url, prefix)


def test_a_game_of_20000_events_reads_exports_and_streams_its_changes(redis_url: str) -> None:
    """A game taken back and played again 10,000 times (a teaching session), with the snapshot the policy
    writes near its end: it reads, exports whole and answers changes?since=0 over HTTP."""
    store = StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"long-{uuid.uuid4().hex[:8]}")
    log = open_log(store)
    try:
        game_id = log.create_game({"players": 2, "seed": 3}).game_id
        rng = random.Random(3)
        for _ in range(5):
            game = log.get(game_id)
            log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="seat:0")
        played = log.get(game_id)
        last, version, batch = played.line[-1], played.version, []
        while version < 20_000:  # written a thousand at a time: undo the last move, redo it
            version += 1
            taken_back = (version - played.version) % 2 == 1
            kind = MovesUndone if taken_back else MovesRedone
            batch.append(kind(originator_id=game_id, originator_version=version, timestamp=now(),
                              versions=[last], actor="coach"))  # fmt: skip
            if len(batch) == 1_000 or version == 20_000:
                log.stores.of(game_id).save(*batch)
                batch = []
        events = log.events_of(game_id)
        past = history(events)
        assert past.line == played.line and len(past.audit) == 20_000 - played.version
        log.games._write_snapshot(replace(past, base=len(past.line), states=(played.state,)))
    finally:
        log.close()

    app = create_app({"STORE": store})
    api = ApiClient(flask_transport(app.test_client()))
    read = api.get(f"/api/games/{game_id}")
    assert read.status == 200 and read.etag == 20_000
    exported = api.get(f"/api/games/{game_id}/export")
    assert exported.status == 200 and len(exported.body["events"]) == 19_999
    changes = api.get(f"/api/games/{game_id}/changes?since=0")
    assert changes.status == 200
    app.extensions[EXTENSION].get().log.close()
    cold = open_log(store)
    try:
        assert canonical(cold.get(game_id).state) == canonical(played.state)
    finally:
        cold.close()
