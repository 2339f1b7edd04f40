"""The task queue analysis jobs wait in, and the workers that take them: huey.

huey was chosen over RQ and dramatiq because one task definition runs on both of heronlog's stores: `RedisHuey`
where games are in Redis (workers on any machine that reaches that Redis take jobs), `SqliteHuey` beside the
embedded SQLite store (a local consumer with process workers, started by the server itself). RQ speaks Redis
only; dramatiq's Redis broker acknowledges messages, but it has no SQLite broker of the same standing. huey
does not acknowledge a job: one taken by a worker that dies is gone from the queue. The analysis does not need
it to: every job claims its decision with a lease in the analysis stream, and the sweep
(:meth:`replay.analysis_jobs.Analyses.sweep`) queues again the jobs whose lease ran out with no result.

Where the queue is: ``HERONLOG_QUEUE_URL`` (``redis://...``, or ``sqlite:///path``); by default the store's own
Redis, or a file ``heronlog-queue.sqlite`` beside the SQLite store. A Redis Cluster store needs
``HERONLOG_QUEUE_URL`` naming one plain Redis server (huey keeps its queue in one list). The in-memory store
runs jobs in threads of the process that asks (:class:`ThreadQueue`, for tests and demos).
"""

from __future__ import annotations

import argparse
import fcntl
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from replay.analysis_jobs import Analyses, Job, Settings
from replay.config import ConfigError, StoreConfig, Variable, open_log

logger = logging.getLogger("heronlog.analysis")

TASK = "heronlog.analyse_decision"
QUEUE_NAME = "heronlog-analysis"
QUEUE_FILENAME = "heronlog-queue.sqlite"
LOCK_FILENAME = "heronlog-analysis-workers.lock"

ANALYSIS_VARIABLES: tuple[Variable, ...] = (
    Variable(
        "HERONLOG_QUEUE_URL",
        None,
        "where analysis jobs wait: `redis://host:port/db` or `sqlite:///path` (default: the store's Redis, or "
        "`heronlog-queue.sqlite` in the SQLite store's folder); a Redis Cluster store needs one plain Redis here",
    ),
    Variable(
        "HERONLOG_ANALYSIS_WORKERS",
        "0",
        "processes of `heronlog worker` (and of the SQLite store's local workers) that evaluate decisions; 0: "
        "one per CPU",
    ),
    Variable(
        "HERONLOG_ANALYSIS_LEASE",
        "120",
        "seconds a worker holds a decision it took; one that holds it longer with no result is taken for dead and "
        "its job queued again (an evaluation stops at three quarters of it)",
    ),
)
"""The variables of the analysis workers (``api.server.environment.variables`` lists them with the others)."""
_DECLARED = {variable.name: variable for variable in ANALYSIS_VARIABLES}


def analysis_setting(environ: Mapping[str, str], name: str) -> str | None:
    declared = _DECLARED[name]
    return environ.get(name) or declared.default


def worker_count(environ: Mapping[str, str]) -> int:
    text = analysis_setting(environ, "HERONLOG_ANALYSIS_WORKERS") or "0"
    if not text.isdigit() or int(text) > 256:
        raise ConfigError(f"HERONLOG_ANALYSIS_WORKERS must be a whole number from 0 to 256, not {text!r}")
    return int(text) or os.cpu_count() or 1


def settings_from(environ: Mapping[str, str], playouts: int = 200) -> Settings:
    text = analysis_setting(environ, "HERONLOG_ANALYSIS_LEASE") or "120"
    try:
        lease = float(text)
    except ValueError:
        lease = -1.0
    if not 1 <= lease <= 86_400:
        raise ConfigError(
            f"HERONLOG_ANALYSIS_LEASE must be a number of seconds from 1 to 86400, not {text!r}"
        )
    return Settings(playouts=playouts, lease_seconds=lease)


def queue_location(store: StoreConfig, environ: Mapping[str, str]) -> str:
    """Where the jobs of this store's analyses wait (see the module docstring)."""
    given = analysis_setting(environ, "HERONLOG_QUEUE_URL")
    if given:
        if not given.startswith(("redis://", "rediss://", "unix://", "sqlite://")):
            raise ConfigError(f"HERONLOG_QUEUE_URL is a redis:// or sqlite:/// URL, not {given!r}")
        return given
    if store.kind == "redis":
        assert store.redis_url is not None
        if "," in store.redis_url or environ.get("REDIS_CLUSTER", "auto") == "yes":
            raise ConfigError(
                "a Redis Cluster store needs HERONLOG_QUEUE_URL: one plain Redis for the job queue"
            )
        return store.redis_url
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        return f"sqlite:///{store.sqlite_path.parent / QUEUE_FILENAME}"
    return "memory:"


def make_huey(location: str, store: StoreConfig) -> Any:
    """The huey instance of a queue location (no results kept: a job's result is in the analysis stream). On
    Redis its keys are named after the store's key prefix, so stores that share a server share no queue."""
    from huey import RedisHuey, SqliteHuey

    if location.startswith("sqlite://"):
        path = Path(location.removeprefix("sqlite://"))
        path.parent.mkdir(parents=True, exist_ok=True)
        return SqliteHuey(QUEUE_NAME, filename=str(path), results=False)
    return RedisHuey(f"{store.redis_prefix}-{QUEUE_NAME}", url=location, results=False)


class HueyQueue:
    """Jobs in a huey queue; ``run`` is what a worker of this process does with one (None: this process only
    sends jobs)."""

    def __init__(self, huey: Any, run: Callable[[Job], object] | None = None) -> None:
        self.huey = huey

        def analyse_decision(game_id: str, run_number: int, index: int, attempt: int) -> None:
            if run is None:
                raise RuntimeError("this process sends analysis jobs; `heronlog worker` runs them")
            run(Job(game_id, run_number, index, attempt))

        self._task = huey.task(name=TASK)(analyse_decision)

    def send(self, jobs: Sequence[Job]) -> None:
        for job in jobs:
            self.huey.enqueue(self._task.s(*job))

    def waiting(self) -> list[Job]:
        return [Job(*task.args) for task in self.huey.pending() if task.name == self._task.name]


class ThreadQueue:
    """Jobs run by threads of this process, for the in-memory store (its games live in this process only)."""

    def __init__(self, run: Callable[[Job], object], threads: int = 2) -> None:
        self._run = run
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="heronlog-analysis")
        self._lock = threading.Lock()
        self._waiting: list[Job] = []

    def send(self, jobs: Sequence[Job]) -> None:
        with self._lock:
            self._waiting.extend(jobs)
        for job in jobs:
            self._pool.submit(self._take, job)

    def _take(self, job: Job) -> None:
        with self._lock:
            self._waiting.remove(job)
        try:
            self._run(job)
        except Exception:
            logger.exception("analysis job %s failed", job)

    def waiting(self) -> list[Job]:
        with self._lock:
            return list(self._waiting)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class ServiceBox:
    """The analysis service of this process, built on first use (in a forked worker, after the fork: a Redis
    connection is never shared across processes)."""

    def __init__(self, build: Callable[[], Analyses]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._built: tuple[int, Analyses] | None = None

    def get(self) -> Analyses:
        with self._lock:
            if self._built is None or self._built[0] != os.getpid():
                self._built = (os.getpid(), self._build())
            return self._built[1]

    def run(self, job: Job) -> str:
        return self.get().run_job(job)


def analyses_for(store: StoreConfig, environ: Mapping[str, str], log: Any, playouts: int = 200) -> Analyses:
    """The analysis service of a server process over its game log: it asks for analyses and reads them, and
    sends jobs to the store's queue (the in-memory store's jobs run in threads of this process)."""
    settings = settings_from(environ, playouts)
    location = queue_location(store, environ)
    if location == "memory:":
        queue = ThreadQueue(lambda job: service.run_job(job))  # noqa: PLW0108  (service is made just below)
        service = Analyses(log, queue, settings)
        return service
    return Analyses(log, HueyQueue(make_huey(location, store)), settings)


# --- the workers ------------------------------------------------------------------------------------------------


def work(
    store: StoreConfig, environ: Mapping[str, str], *, workers: int | None = None, embedded: bool = False
) -> int:
    """Run huey's consumer with process workers until stopped (``heronlog worker``). ``embedded``: the local
    workers of a SQLite store, started by the server: at most one such consumer per data folder (a lock), and it
    stops when the process that started it is gone."""
    location = queue_location(store, environ)
    if location == "memory:":
        raise ConfigError(
            "the in-memory store runs its analyses in the server's own threads: no worker needed"
        )
    settings = settings_from(environ)
    box = ServiceBox(lambda: Analyses(open_log(store), queue, settings))
    queue = HueyQueue(make_huey(location, store), box.run)
    count = workers or worker_count(environ)
    lock = None
    if embedded:
        assert store.sqlite_path is not None
        lock = _hold_lock(store.sqlite_path.parent / LOCK_FILENAME)
        if lock is None:
            return 0  # another local consumer serves this folder
        _stop_with_parent()
    consumer = queue.huey.create_consumer(workers=count, worker_type="process", periodic=False)
    logger.info("analysis workers: %s processes on %s", count, location.split("@")[-1])
    consumer.run()
    return 0


def _hold_lock(path: Path) -> Any:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def _stop_with_parent() -> None:
    """Stop (as on SIGTERM) once the process that started this one is gone."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            threading.Event().wait(1.0)
            if os.getppid() != parent:
                os.kill(os.getpid(), signal.SIGTERM)
                return

    threading.Thread(target=watch, name="heronlog-parent-watch", daemon=True).start()


def local_workers_running(store: StoreConfig) -> bool:
    """Whether a local consumer holds this SQLite store's lock."""
    assert store.sqlite_path is not None
    handle = _hold_lock(store.sqlite_path.parent / LOCK_FILENAME)
    if handle is None:
        return True
    handle.close()
    return False


def start_local_workers(store: StoreConfig, environ: Mapping[str, str]) -> subprocess.Popen[bytes] | None:
    """Start the SQLite store's local consumer (a child of this process) unless one runs already."""
    if (
        store.kind != "sqlite"
        or analysis_setting(environ, "HERONLOG_QUEUE_URL")
        or local_workers_running(store)
    ):
        return None
    assert store.sqlite_path is not None
    env = {**os.environ, "HERONLOG_STORE": "sqlite", "HERONLOG_DATA": str(store.sqlite_path.parent)}
    # not `-m replay.analysis_queue`: run as __main__, its task would be named after __main__, not this module
    command = [
        sys.executable,
        "-c",
        "from replay.analysis_queue import main; raise SystemExit(main())",
        "--embedded",
    ]
    return subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL)


def main(argv: Sequence[str] | None = None) -> int:
    """The local consumer ``start_local_workers`` starts (``--embedded``)."""
    parser = argparse.ArgumentParser(prog="heronlog-local-workers")
    parser.add_argument("--embedded", action="store_true")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    return work(
        StoreConfig.from_environ(os.environ), os.environ, workers=args.workers, embedded=args.embedded
    )
