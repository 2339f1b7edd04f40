"""Scripts gathered per turn of gevent's loop (replay.store.gathering), on the real redis-server, in a process patched
by gevent as ``heronlog serve``'s workers are: the scripts sent together travel as one pipeline, each caller gets its
own reply or its own error, a script the server does not know is sent whole, a lost server fails every caller
(none waits for ever), and nothing is gathered outside gevent, on a cluster or with ``REDIS_GATHER=no``."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from replay.store.datastore import RedisDatastore
from replay.store.factory import RedisFactory
from tests.integration.store.support import fresh_prefix, in_patched_process

GATHERED = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()

    import json
    import sys

    import gevent

    from replay.store.datastore import RedisDatastore

    url, prefix, dead, cluster = sys.argv[1:5]
    store = RedisDatastore(url, prefix=prefix, check_durability=False)
    add = store.script("return redis.call('incrby', KEYS[1], ARGV[1])")
    echo = store.script("if ARGV[1] == 'bad' then return redis.error_reply('refused') end return ARGV[1]")
    found = {}

    def together(calls):
        before = (store.gathering.sent, store.gathering.scripts)
        answers = [None] * len(calls)

        def run(index, call):
            try:
                answers[index] = call()
            except Exception as error:
                answers[index] = type(error).__name__ + ": " + str(error)

        gevent.joinall([gevent.spawn(run, index, call) for index, call in enumerate(calls)], timeout=20)
        return answers, store.gathering.sent - before[0], store.gathering.scripts - before[1]

    found["sums"] = together(
        [lambda i=i: store.write(lambda: add([prefix + ":n" + str(i)], [i])) for i in range(10)]
    )
    found["errors"] = together(
        [lambda word=word: store.write(lambda: echo([prefix + ":e"], [word])) for word in ("a", "bad", "c")]
    )
    store.client.script_flush()
    found["unknown"] = together(
        [lambda i=i: store.write(lambda: add([prefix + ":u"], [i])) for i in range(1, 4)]
    )
    lost = RedisDatastore(dead, prefix=prefix, check_durability=False, socket_timeout=2, cluster=False)
    gone = lost.script("return 1")
    store = lost
    found["lost"] = together([lambda: lost.write(lambda: gone([prefix + ":x"], [])) for _ in range(4)])
    off = RedisDatastore(url, prefix=prefix, check_durability=False, gather=False)
    found["off"] = off.gathering is None
    found["cluster"] = RedisDatastore(cluster, prefix=prefix, check_durability=False, cluster=True).gathering is None
    print(json.dumps(found, default=lambda value: value.decode()))
    """
)


def dead_url() -> str:
    """A loopback port nothing listens on."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{sock.getsockname()[1]}/0"


@pytest.fixture(scope="module")
def gathered(redis_url: str, cluster_url: str) -> dict[str, Any]:
    found: dict[str, Any] = in_patched_process(GATHERED, redis_url, fresh_prefix(), dead_url(), cluster_url)
    return found


def test_scripts_sent_in_one_turn_travel_as_one_pipeline_each_with_its_own_reply(
    gathered: dict[str, Any],
) -> None:
    answers, round_trips, scripts = gathered["sums"]
    assert answers == list(range(10))
    assert (round_trips, scripts) == (1, 10)


def test_a_script_that_fails_fails_its_own_caller_only(gathered: dict[str, Any]) -> None:
    answers, round_trips, _ = gathered["errors"]
    assert answers[0] == "a" and answers[2] == "c"
    assert "refused" in answers[1]
    assert round_trips == 1


def test_a_script_the_server_no_longer_knows_is_sent_whole_and_answers(gathered: dict[str, Any]) -> None:
    answers, _, _ = gathered["unknown"]
    assert sorted(answers) == [1, 3, 6]  # each caller's own running total of 1 + 2 + 3, in the order sent


def test_a_server_that_cannot_be_reached_fails_every_caller_and_none_waits(gathered: dict[str, Any]) -> None:
    answers, _, scripts = gathered["lost"]
    assert scripts == 4
    assert all(isinstance(answer, str) and answer for answer in answers), answers


def test_nothing_is_gathered_outside_gevent_on_a_cluster_or_when_switched_off(
    gathered: dict[str, Any], redis_url: str
) -> None:
    assert gathered["off"] is True and gathered["cluster"] is True
    assert RedisDatastore(redis_url, check_durability=False).gathering is None  # this process is not patched


def test_the_switch_reaches_the_datastore(redis_url: str) -> None:
    factory = RedisFactory({"REDIS_URL": redis_url, "REDIS_GATHER": "no", "REDIS_KEY_PREFIX": "gather-off"})
    assert factory.datastore.gathering is None


AFTER_A_WRITE = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()

    import json
    import random
    import sys

    import domain
    from replay.config import StoreConfig, open_log
    from tests.replay_helpers import pick

    url, prefix, together = sys.argv[1:4]
    log = open_log(StoreConfig(kind="redis", redis_url=url, redis_prefix=prefix))
    if together == "no":
        import replay.services.repository as repository

        repository.together = lambda calls: [call() for call in calls]
    (store,) = log.stores.all
    gathering = store.recorder.datastore.gathering
    found = {}

    def trips(call):
        before = (gathering.sent, gathering.scripts)
        answer = call()
        found.setdefault("trips", []).append([gathering.sent - before[0], gathering.scripts - before[1]])
        return answer

    game_id = trips(lambda: log.create_game({"players": 2, "seed": 3})).game_id
    game = log.get(game_id)
    rng = random.Random(3)
    moves = []
    while not domain.is_over(game.state):
        moves.append(pick(game.state, rng))
        game = log.play(game_id, moves[-1], expected_version=game.version, actor="t").game
    replayed = log.create_game({"players": 2, "seed": 3}).game_id
    for move in moves[:-1]:
        log.play(replayed, move, expected_version=None, actor="t")
    trips(lambda: log.play(replayed, moves[-1], expected_version=None, actor="t"))
    print(json.dumps(found))
    """
)


def test_what_follows_a_creation_or_a_last_move_travels_in_one_round_trip(redis_url: str) -> None:
    """What follows a game's creation and its last move (the list's summary, the players' facts) is sent at once,
    in greenlets of its own (``gathering.together``): one round trip for both, one fewer than one after the
    other, with the same scripts."""
    at_once = in_patched_process(AFTER_A_WRITE, redis_url, fresh_prefix(), "yes")["trips"]
    in_turn = in_patched_process(AFTER_A_WRITE, redis_url, fresh_prefix(), "no")["trips"]
    assert [scripts for _, scripts in at_once] == [scripts for _, scripts in in_turn]
    assert [trips for trips, _ in at_once] == [trips - 1 for trips, _ in in_turn], (at_once, in_turn)
