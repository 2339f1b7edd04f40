"""The long fault scenarios of ``make faults``, each on servers of its own, under load from players
recording games over real HTTP through ``heronlog serve``. Each asserts what heronlog promises and adds a row of
figures (fault, acknowledged, lost, errors, recovery time) to ``test-output/faults.md``:

* Redis comes back with older data (it restarts from a snapshot taken a second before it died: what an
  ``everysec`` AOF gives after a power loss, or an older RDB file): only the moves of that second may be lost;
  no write lands on the lost versions; every game reads; no answer is a 500.
* A master of a cluster with replicas dies after its replication link was cut for 2 s, with
  ``REDIS_WAIT_REPLICAS=1``: its replica takes over with every acknowledged move and every new game.
* One master of three dies (no replica): the other shards' games record moves all along, the list answers and
  names the missing shard; once the node is back, its games serve again and nothing acknowledged is lost.
* Bytes flipped in events and snapshots of an archive, on SQLite and on Redis: ``verify`` finds each one, a
  damaged game answers a named error and the others serve, the backup goes on past the damaged games.
* Records deleted from an archive (an event of one game, another's first event, an entry of the list of
  games): the backup keeps every intact game and names the damaged ones, ``verify`` names exactly what is gone.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from pathlib import Path

import pytest
import redis

from api.app import create_app
from replay import backups
from replay.config import StoreConfig, open_log
from replay.index import index_id
from replay.store.shards import shard_index
from replay.verify import verify
from tests.api_helpers import ApiClient, flask_transport, http_transport
from tests.e2e.test_faults_http import served
from tests.faults.support import account, recovery, start_players, stop_players, write_figures
from tests.integration.replay.test_corruption import damage_event, delete_event
from tests.redis_cluster import Cluster
from tests.redis_process import RedisProcess
from tests.replay_helpers import play_random

PLAYERS = 12
QUIET = {
    "HERONLOG_RATE_LIMIT_PER_TOKEN": "0",
    "HERONLOG_RATE_LIMIT_PER_ADDRESS": "0",
    "REDIS_SOCKET_TIMEOUT": "2",
}


def cluster_env(cluster: Cluster, prefix: str, **more: str) -> dict[str, str]:
    """The settings of a heronlog serving three shards on ``cluster`` under ``prefix``, and ``more``."""
    return {
        "REDIS_URL": cluster.url,
        "HERONLOG_STORE": "redis",
        "REDIS_CLUSTER": "yes",
        "HERONLOG_SHARDS": "3",
        "REDIS_KEY_PREFIX": prefix,
        **more,
        **QUIET,
    }


def distinct_prefix(cluster: Cluster) -> tuple[str, list[int]]:
    """A key prefix whose three shards' hash tags fall on three masters, and those masters' ports."""
    while True:
        prefix = f"faults-{uuid.uuid4().hex[:8]}"
        masters = [cluster.master_of("{" + prefix + f":GameLog{shard}}}").port for shard in range(3)]
        if len(set(masters)) == 3:
            return prefix, masters


@pytest.mark.timeout(300)
def test_redis_back_with_older_data_under_load(tmp_path: Path, test_output: str) -> None:
    server = RedisProcess(tmp_path, "--appendonly", "no", "--save", "")
    server.start()
    env = {"REDIS_URL": server.url, "HERONLOG_STORE": "redis", "REDIS_KEY_PREFIX": "rollback", **QUIET}
    try:
        with served(tmp_path, env, "--workers", "2") as api_server:
            players, threads, stop = start_players(api_server.url, PLAYERS, seed=100)
            time.sleep(8)
            saved = time.monotonic()
            redis.Redis.from_url(server.url).save()  # what the server will come back with
            time.sleep(1.0)  # the second that will be lost
            server.kill()
            killed = time.monotonic()  # a write sent before this may have been applied before the kill
            time.sleep(1.0)
            server.start()
            back = time.monotonic()
            time.sleep(8)
            stop_players(threads, stop)
            outcome = account(api_server.url, players, may_lose=(saved, killed), answered_by=back)
    finally:
        server.stop()
    stale = sum(player.stale_412 for player in players)
    accepted = [write for player in players for write in player.stale_accepted]
    write_figures(
        test_output,
        f"| Redis back with the data of 1 s before it died, under load | Redis | {PLAYERS} | "
        f"{outcome.acknowledged} | {outcome.lost} | {outcome.lost_allowed} (the lost second) | "
        f"{outcome.errors_500} | {outcome.unreadable} | {recovery(players, back):.1f} | {stale} writes on "
        f"stale versions answered 412, {len(accepted)} accepted |",
    )
    assert outcome.lost == 0, outcome.lost_keys
    assert outcome.unreadable == 0 and outcome.errors_500 == 0
    assert not accepted, accepted
    assert outcome.lost_allowed > 0, "nothing was recorded in the lost second: the scenario proved nothing"


@pytest.mark.timeout(300)
def test_a_master_dies_after_its_replication_link_was_cut(tmp_path: Path, test_output: str) -> None:
    cluster = Cluster(tmp_path, masters=3, replicas=1, node_timeout=2000)
    try:
        cluster.start()
        prefix, _ = distinct_prefix(cluster)
        env = cluster_env(cluster, prefix, REDIS_WAIT_REPLICAS="1", REDIS_WAIT_TIMEOUT_MS="500")
        with served(tmp_path, env, "--workers", "2") as api_server:
            players, threads, stop = start_players(api_server.url, PLAYERS, seed=200)
            created: list[str] = []
            creating = threading.Thread(
                target=create_games, args=(api_server.url, created, stop), daemon=True
            )
            creating.start()
            time.sleep(6)
            tag = "{" + prefix + ":GameLog0}"
            master = cluster.master_of(tag)
            replica = cluster.replica_of(master)
            cluster.pause(replica)  # the replication link is cut...
            time.sleep(2)
            killed = time.monotonic()
            master.kill()  # ... then the master dies
            cluster.resume(replica)
            cluster.wait_until(lambda: cluster.master_of(tag) is replica, "the replica to take over", 60)
            time.sleep(6)
            stop_players(threads, stop)
            creating.join(timeout=30)
            outcome = account(api_server.url, players)
            api = ApiClient(http_transport(api_server.url, timeout=30))
            missing = [game for game in created if api.get(f"/api/games/{game}").status != 200]
    finally:
        cluster.stop()
    on_failed = [p for p in players if shard_index(uuid.UUID(p.game_id), 3) == 0]
    write_figures(
        test_output,
        f"| a master dies 2 s after its replication link was cut (WAIT 1 replica) | Redis Cluster, 3 masters "
        f"+ 3 replicas | {PLAYERS} | {outcome.acknowledged} | {outcome.lost} | 0 (none allowed) | "
        f"{outcome.errors_500} | {outcome.unreadable} | {recovery(on_failed, killed):.1f} | {len(created)} games "
        f"created during the run, {len(missing)} missing; "
        f"{sum(p.refused_503 for p in players)} writes answered 503 and retried |",
    )
    assert outcome.lost == 0, outcome.lost_keys
    assert not missing and outcome.unreadable == 0 and outcome.errors_500 == 0


def create_games(url: str, created: list[str], stop: threading.Event) -> None:
    """New games while the scenario runs, each with an Idempotency-Key retried until it is answered."""
    api = ApiClient(http_transport(url, timeout=10))
    while not stop.is_set():
        key = uuid.uuid4().hex
        while not stop.is_set():
            try:
                answer = api.post("/api/games", {"players": 2, "seed": 7}, key=key)
            except OSError:
                answer = None
            if answer is not None and answer.status == 201:
                created.append(answer.body["game"]["game_id"])
                break
            time.sleep(0.1)
        time.sleep(0.2)


@pytest.mark.timeout(300)
def test_one_master_of_three_dies_and_comes_back(tmp_path: Path, test_output: str) -> None:
    cluster = Cluster(tmp_path, masters=3, node_timeout=1000)
    try:
        cluster.start()
        prefix, masters = distinct_prefix(cluster)
        env = cluster_env(cluster, prefix)
        with served(tmp_path, env, "--workers", "2") as api_server:
            players, threads, stop = start_players(api_server.url, PLAYERS, seed=300)
            time.sleep(5)
            dead = 0
            node = next(n for n in cluster.nodes if n.port == masters[dead])
            down = time.monotonic()
            node.kill()
            time.sleep(8)
            api = ApiClient(http_transport(api_server.url, timeout=30))
            listing = api.get("/api/games")
            node.start()  # its AOF and nodes.conf: back with its data, in its place
            back = time.monotonic()
            cluster.wait_until(
                lambda: cluster.master_of("{" + prefix + ":GameLog0}") is node, "the node back", 60
            )
            time.sleep(5)
            stop_players(threads, stop)
            outcome = account(api_server.url, players)
    finally:
        cluster.stop()
    on_dead = [p for p in players if shard_index(uuid.UUID(p.game_id), 3) == dead]
    others = [p for p in players if p not in on_dead]
    during = sum(1 for p in others for ack in p.acks if down < ack.at < back)
    write_figures(
        test_output,
        f"| one master of three dies for 8 s (no replica) | Redis Cluster, 3 masters | {PLAYERS} | "
        f"{outcome.acknowledged} | {outcome.lost} | 0 (none allowed) | {outcome.errors_500} | "
        f"{outcome.unreadable} | {recovery(on_dead, back):.1f} | {during} moves recorded on the other shards "
        f"meanwhile; the list answered {listing.status} naming {listing.body.get('unavailable')} |",
    )
    assert listing.status == 200 and listing.body["unavailable"] == [f"GameLog{dead}"]
    assert during > 0, "the other shards recorded nothing while one was down"
    assert outcome.lost == 0 and outcome.unreadable == 0 and outcome.errors_500 == 0


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_bytes_flipped_across_an_archive(kind: str, tmp_path: Path, test_output: str) -> None:
    if kind == "sqlite":
        store = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "archive.sqlite")
    else:
        server = RedisProcess(tmp_path)
        server.start()
        store = StoreConfig(kind="redis", redis_url=server.url, redis_prefix="archive")
    try:
        log = open_log(store)
        rng = random.Random(27)
        games = [log.create_game({"players": 3, "seed": seed}).game_id for seed in range(30)]
        for game_id in games:
            list(play_random(log, game_id, 60, rng))
        snapshotted = {}
        for game_id in games[5:10]:
            kept = log.stores.of(game_id).snapshots
            assert kept is not None
            snapshotted[game_id] = [s.originator_version for s in kept.get(game_id)][-1]
        log.close()
        damaged = games[:5]
        for game_id in damaged:
            damage_event(store, game_id, rng.randint(2, 40))
        for game_id, version in snapshotted.items():
            damage_event(store, game_id, version, purpose="snapshots")
        log = open_log(store)
        started = time.monotonic()
        report = verify(log)
        verified = time.monotonic() - started
        found = {problem.stream for problem in report.problems}
        backed = backups.backup(log, tmp_path / "backup")
        log.close()
        api = ApiClient(flask_transport(create_app({"STORE": store}).test_client()))
        named = sum(api.get(f"/api/games/{game_id}").error() == (500, "game_corrupt") for game_id in damaged)
        serving = sum(api.get(f"/api/games/{game_id}").status == 200 for game_id in games[5:])
        listing = api.get("/api/games")
    finally:
        if kind == "redis":
            server.stop()
    write_figures(
        test_output,
        f"| bytes flipped in 5 events and 5 snapshots of 30 games | {'SQLite' if kind == 'sqlite' else 'Redis'} "
        f"| 30 | – | – | – | 0 | {len(damaged)}, the damaged ones (each named: {named}) | – | "
        f"verify found {len(report.problems)} problems in {verified:.1f} s; "
        f"backup kept {len(backed.games)}, reported {len(backed.failed)}; "
        f"{serving} of 25 others served; list {listing.status} |",
    )
    assert found == {str(game_id) for game_id in [*damaged, *snapshotted]}
    assert named == 5 and serving == 25 and listing.status == 200
    assert len(backed.games) == 25 and {f.game_id for f in backed.failed} == {str(g) for g in damaged}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_records_deleted_across_an_archive(kind: str, tmp_path: Path, test_output: str) -> None:
    """25 games recorded one after another; one event deleted from the middle of game 2, the first event of game
    5, and the entry of game 9 in the list of games: the backup keeps the 23 intact games and names the two
    damaged ones, verify names exactly those and the entry once, and every other game serves."""
    if kind == "sqlite":
        store = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "archive.sqlite")
    else:
        server = RedisProcess(tmp_path)
        server.start()
        store = StoreConfig(kind="redis", redis_url=server.url, redis_prefix="deleted")
    try:
        log = open_log(store)
        rng = random.Random(37)
        games = []
        for seed in range(25):
            game_id = log.create_game({"players": 2, "seed": seed}).game_id
            list(play_random(log, game_id, 20, rng))
            games.append(game_id)
        entry = next(
            e.originator_version
            for e in log.stores.all[0].stream_events(index_id(log.stores.all[0]))
            if e.game_id == str(games[8])  # type: ignore[attr-defined]
        )
        log.close()
        delete_event(store, games[1], 11)
        delete_event(store, games[4], 1)
        delete_event(store, index_id(log.stores.all[0]), entry)
        log = open_log(store)
        started = time.monotonic()
        report = verify(log)
        verified = time.monotonic() - started
        backed = backups.backup(log, tmp_path / "backup")
        log.close()
        api = ApiClient(flask_transport(create_app({"STORE": store}).test_client()))
        intact = [game_id for game_id in games if game_id not in (games[1], games[4])]
        serving = sum(api.get(f"/api/games/{game_id}").status == 200 for game_id in intact)
        listing = api.get("/api/games?limit=100")
    finally:
        if kind == "redis":
            server.stop()
    named = sorted({(problem.stream, problem.version) for problem in report.problems})
    write_figures(
        test_output,
        f"| 2 events and 1 entry of the list deleted in an archive of 25 games | "
        f"{'SQLite' if kind == 'sqlite' else 'Redis'} | 25 | – | – | – | 0 | 2, the damaged ones | – | "
        f"verify named {len(report.problems)} problems in {verified:.1f} s; backup kept {len(backed.games)}, "
        f"reported {len(backed.failed)}; {serving} of 23 others served; list {listing.status} |",
    )
    listed_id = str(index_id(log.stores.all[0]))
    assert named == sorted([(str(games[1]), 11), (str(games[4]), 1), (listed_id, entry)])
    assert len(backed.games) == 23 and {f.game_id for f in backed.failed} == {str(games[1]), str(games[4])}
    assert serving == 23 and listing.status == 200
