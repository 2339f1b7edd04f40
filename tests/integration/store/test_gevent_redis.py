"""The Redis client under gevent, as ``heronlog serve`` runs it: a command leaves its request's greenlet only to wait
for its reply. Each time a greenlet hands over to gevent's hub, every other runnable request goes first, so a
client that also yielded to check its pooled connection would send each Redis round trip to the back of the line
twice (redis-py 8 does: its check polls the socket, and gevent's poll switches to the hub even when it need not
wait). Counted with greenlet's trace, in a process patched by gevent as the server's workers are, on the real
redis-server."""

from __future__ import annotations

import textwrap

import pytest

from tests.integration.store.support import in_patched_process

COUNT_SWITCHES = textwrap.dedent(
    """
    from gevent import monkey

    monkey.patch_all()

    import json
    import sys

    import gevent
    import greenlet

    from replay.store.datastore import RedisDatastore

    client = RedisDatastore(sys.argv[1], check_durability=False).client
    client.ping()  # connected, and its connection back in the pool
    hub = gevent.get_hub()
    switches = 0

    def trace(event, args):
        global switches
        if event in ("switch", "throw") and args[1] is hub:
            switches += 1

    pool = client.connection_pool
    greenlet.settrace(trace)
    for _ in range(100):
        pool.release(pool.get_connection())
    taking = switches
    per_command = []
    for _ in range(100):
        switches = 0
        client.ping()
        per_command.append(switches)
    greenlet.settrace(None)
    print(json.dumps({"taking": taking, "per_command": per_command}))
    """
)


@pytest.fixture(scope="module")
def switches(redis_url: str) -> dict[str, object]:
    result: dict[str, object] = in_patched_process(COUNT_SWITCHES, redis_url)
    return result


def test_taking_a_pooled_connection_never_yields_to_the_hub(switches: dict[str, object]) -> None:
    assert switches["taking"] == 0


def test_a_command_yields_to_the_hub_at_most_once_for_its_reply(switches: dict[str, object]) -> None:
    per_command = switches["per_command"]
    assert isinstance(per_command, list) and len(per_command) == 100
    assert max(per_command) <= 1, per_command
