"""The Redis store's pure parts, without a server: error mapping, encodings, key names, shard routing."""

from __future__ import annotations

from uuid import UUID, uuid4

import pytest
import redis
import redis.exceptions as rex
from eventsourcing.persistence import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
    StoredEvent,
)

from replay.store.datastore import check_name
from replay.store.errors import OutcomeUnknownError, translate
from replay.store.recorders import pack_member, pack_record, score_range, unpack_member, unpack_record
from replay.store.shards import ShardRouter, shard_classes, shard_index, shard_names


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (rex.ResponseError("HLCONFLICT version 3 of {p:a}:events:seq:x is taken"), IntegrityError),
        (rex.ResponseError("HLTRACKING up is at 5, not below 5"), IntegrityError),
        (
            rex.ResponseError("HLGAP version 22 of {p:a}:events:seq:x does not follow the stored head, 11"),
            IntegrityError,
        ),
        (rex.RedisClusterException("Redis Cluster cannot be connected"), OperationalError),
        (rex.SlotNotCoveredError("slot 42 is not covered"), OperationalError),
        (
            rex.ResponseError("WRONGTYPE Operation against a key holding the wrong kind of value"),
            ProgrammingError,
        ),
        (rex.ResponseError("CROSSSLOT Keys in request don't hash to the same slot"), ProgrammingError),
        (rex.ResponseError("MISCONF Errors writing to the AOF file"), OperationalError),
        (rex.OutOfMemoryError("command not allowed when used memory > 'maxmemory'."), OperationalError),
        (rex.ReadOnlyError("You can't write against a read only replica."), OperationalError),
        (rex.BusyLoadingError("Redis is loading the dataset in memory"), OperationalError),
        (rex.ClusterDownError("The cluster is down"), OperationalError),
        (rex.NoPermissionError("this user has no permissions"), ProgrammingError),
        (rex.DataError("Invalid input of type: 'dict'"), InterfaceError),
        (rex.ResponseError("ERR something else"), DatabaseError),
    ],
)
def test_redis_errors_become_the_library_errors(error: Exception, expected: type[Exception]) -> None:
    translated = translate(error)
    assert type(translated) is expected


def test_a_cluster_without_a_reachable_node_is_the_store_unavailable_not_a_500() -> None:
    """redis-py's RedisClusterException is not a RedisError: it once escaped as an unexpected error (a 500)."""
    from replay.errors import store_unavailable
    from replay.store.errors import translated

    assert not isinstance(rex.RedisClusterException("x"), redis.RedisError)
    assert store_unavailable(rex.RedisClusterException("Redis Cluster cannot be connected"))
    with pytest.raises(OperationalError), translated():
        raise rex.RedisClusterException("Redis Cluster cannot be connected")


def test_a_lost_connection_is_an_unknown_outcome_for_writes_only() -> None:
    lost = redis.ConnectionError("Connection closed by server.")
    assert type(translate(lost)) is OperationalError
    assert type(translate(lost, write=True)) is OutcomeUnknownError
    assert type(translate(redis.TimeoutError("Timeout reading"), write=True)) is OutcomeUnknownError
    assert isinstance(translate(lost, write=True), OperationalError)
    # A refused login never ran the command, so it is not ambiguous.
    assert type(translate(rex.AuthenticationError("invalid password"), write=True)) is OperationalError


def test_originator_ids_keep_their_type_in_log_records() -> None:
    game = uuid4()
    record = pack_record(
        StoredEvent(originator_id=game, originator_version=3, topic="m:Moved", state=b"\0\nx")
    )
    assert record.startswith(b"m:Moved\n3\nu" + game.hex.encode() + b"\n")
    entry = unpack_record(record, 12)
    assert (entry.id, entry.originator_id, entry.originator_version, entry.state) == (12, game, 3, b"\0\nx")
    odd_name = 'game\n"1"'
    named = pack_record(StoredEvent(originator_id=odd_name, originator_version=1, topic="t", state=b""))
    assert unpack_record(named, 1).originator_id == odd_name


def test_an_aggregate_member_keeps_any_state_bytes() -> None:
    event = StoredEvent(originator_id="g", originator_version=7, topic="m:Moved", state=b"a\nb\n\x00c")
    assert pack_member(event).startswith(b"7\nm:Moved\n")
    assert unpack_member("g", pack_member(event)) == event


def test_score_ranges_exclude_gt_and_include_lte() -> None:
    assert score_range(None, None) == ("-inf", "+inf")
    assert score_range(3, 9) == ("(3", "9")


@pytest.mark.parametrize("bad", ["", "a{b", "a}b", "{tag}"])
def test_names_with_braces_are_refused_because_they_would_break_hash_tags(bad: str) -> None:
    with pytest.raises(ValueError, match="braces"):
        check_name("application name", bad)


def test_shards_are_named_classes_and_route_stably() -> None:
    class Games:
        name = "Games"

    classes = shard_classes(Games, 3)
    assert [cls.name for cls in classes] == shard_names("Games", 3) == ["Games0", "Games1", "Games2"]
    assert all(issubclass(cls, Games) for cls in classes)
    router = ShardRouter.build(Games, 3, lambda cls: cls())
    game = UUID(int=7)
    assert router.application_for(game) is router.applications[1]
    assert shard_index("same text", 5) == shard_index("same text", 5)
    with pytest.raises(ValueError, match="at least 1"):
        shard_index(game, 0)
