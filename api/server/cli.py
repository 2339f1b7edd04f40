"""The ``heronlog`` command line (docs/cli.md): ``serve``, ``export``, ``import``, ``check``, ``revalidate``,
``upgrade``, ``verify``, ``backup``, ``restore`` and ``demo``.

What a command produces goes to standard output and its own words to standard error; every setting is checked
before ``serve`` starts anything.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import socket
import sqlite3
import sys
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from api.server import pinning, runtime
from api.server.collector import tune_worker_gc
from api.server.environment import (
    CHOICES,
    DEFAULTS,
    RANGES,
    SettingError,
    api_setting,
    check_api_settings,
    choice,
    server_setting,
    unknown_variables,
    whole_number,
)
from replay.config import STORE_KINDS, ConfigError, StoreConfig, check_data_folder, open_log


class Voice:
    """How heronlog's own words go to standard error: JSON lines or plain text (see the module docstring)."""

    format = "text"

    def say(self, message: str, *, level: str = "info", prefix: bool = True, **fields: Any) -> None:
        if self.format == "json":
            entry = {
                "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"),
                "level": level,
                "logger": "heronlog.cli",
                "message": message,
                "pid": os.getpid(),
                **fields,
            }
            line = json.dumps(entry, ensure_ascii=False, default=str)
        else:
            line = ("heronlog: " if prefix else "") + message
        print(line, file=sys.stderr, flush=True)


voice = Voice()


def say(message: str, *, level: str = "info", prefix: bool = True, **fields: Any) -> None:
    """heronlog's own words, on standard error, in the chosen format (:class:`Voice`)."""
    voice.say(message, level=level, prefix=prefix, **fields)


def fail(message: str, **fields: Any) -> None:
    say(message, level="error", **fields)


@dataclass(frozen=True)
class ServeSettings:
    """What ``heronlog serve`` runs with, each value checked (:func:`serve_settings`)."""

    host: str
    port: int
    workers: int
    connections: int
    concurrent_requests: int
    trusted_proxies: int
    reuse_port: bool
    pin_workers: str
    body_limit: int


def _given(
    args: argparse.Namespace, option: str, variable: str, environ: Mapping[str, str]
) -> tuple[str, str]:
    """The text of a serve option and the name to blame if it is wrong: ``--option`` when given on the command
    line, else its environment variable (or its default, which is right)."""
    value = getattr(args, option.replace("-", "_"))
    if value is not None:
        return str(value), f"--{option}"
    return server_setting(environ, variable), variable


def serve_settings(args: argparse.Namespace, environ: Mapping[str, str]) -> ServeSettings:
    """The settings of ``heronlog serve`` from its options and ``environ``; :class:`SettingError` names the
    first one that is wrong (a port that is no port, no workers, an unknown log format...)."""
    numbers = {}
    for option, variable in (
        ("port", "HERONLOG_PORT"),
        ("workers", "HERONLOG_WORKERS"),
        ("connections", "HERONLOG_CONNECTIONS"),
        ("concurrent-requests", "HERONLOG_CONCURRENT_REQUESTS"),
        ("trusted-proxies", "HERONLOG_TRUSTED_PROXIES"),
    ):
        text, label = _given(args, option, variable, environ)
        numbers[option] = whole_number(label, text, *RANGES[variable])
    words = {}
    for option, variable in (("reuse-port", "HERONLOG_REUSE_PORT"), ("pin-workers", "HERONLOG_PIN_WORKERS")):
        text, label = _given(args, option, variable, environ)
        words[option] = choice(label, text, CHOICES[variable])
    for variable in ("HERONLOG_LOG_FORMAT", "HERONLOG_LOG_LEVEL"):
        choice(variable, server_setting(environ, variable), CHOICES[variable])
    problems = check_api_settings(environ)
    if problems:
        raise SettingError(problems[0])
    host, _ = _given(args, "host", "HERONLOG_HOST", environ)
    if not host.strip():
        raise SettingError("--host must name an address to listen on, such as 127.0.0.1 or 0.0.0.0")
    limit = environ.get("HERONLOG_MAX_CONTENT_LENGTH")
    body_limit = api_setting("MAX_CONTENT_LENGTH", limit) if limit else DEFAULTS["MAX_CONTENT_LENGTH"]
    return ServeSettings(
        host=host.strip(),
        port=numbers["port"],
        workers=numbers["workers"],
        connections=numbers["connections"],
        concurrent_requests=numbers["concurrent-requests"],
        trusted_proxies=numbers["trusted-proxies"],
        # SO_REUSEPORT by default with several workers: the kernel's hash spreads keep-alive connections over
        # them (50 at once split 19/31 at worst in the load bench), where a shared socket gave a burst of them to
        # whichever worker woke first (47/3); one worker keeps the master's socket, which outlives its restarts.
        reuse_port=words["reuse-port"] == "yes" or (words["reuse-port"] == "auto" and numbers["workers"] > 1),
        pin_workers=words["pin-workers"],
        body_limit=int(body_limit),
    )


def check_listening(host: str, port: int) -> None:
    """Whether ``host:port`` can be listened on, said as one line (:class:`SettingError`) before anything starts:
    a port another server holds, or an address that is not this machine's."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as error:
        raise SettingError(
            f"cannot listen on {host}:{port}: {host!r} is not an address of this machine ({error})"
        ) from None
    family, kind, protocol, _, address = infos[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            reason = error.strerror or str(error)
            raise SettingError(f"cannot listen on {host}:{port}: {reason.lower()}") from None


MAX_EVENTS_HELP = (
    "the most events the log may hold (default: HERONLOG_IMPORT_MAX_EVENTS, as the API; 0: no cap)"
)


def _serve(args: argparse.Namespace) -> int:
    try:
        settings = serve_settings(args, os.environ)
        store = StoreConfig.from_environ(_environ(args), kind=args.store)
        check_data_folder(store)
        check_listening(settings.host, settings.port)
        # --pin-workers yes where the system cannot pin is said here, before any worker starts
        pinning.should_pin(settings.pin_workers, settings.workers, pinning.allowed_cpus())
    except (SettingError, ConfigError, ValueError) as error:
        fail(str(error))
        return 2
    # Stock gunicorn with its gevent workers (api.server.runtime): cooperative before the app's modules load.
    runtime.patch_for_gevent()
    raised = runtime.raise_open_files(settings.connections)
    if raised is not None:
        say(f"open files: the soft limit raised from {raised[0]:,} to its hard limit, {raised[1]:,}")
    if runtime.open_files_limit() < settings.connections + runtime.SPARE_FILES:
        say(
            f"open files: at most {runtime.open_files_limit():,} (the hard limit): fewer than "
            f"{settings.connections:,} connections per worker will be taken (raise it with ulimit -Hn or the "
            "container's nofile limit)",
            level="warning",
        )
    say(f"events kept in {store.describe()}")
    say(f"serving on http://{settings.host}:{settings.port}")

    from api.app import create_app
    from api.server import admission, observability, orphans, slow_clients

    options = runtime.options(
        bind=f"{settings.host}:{settings.port}",
        workers=settings.workers,
        connections=settings.connections,
        reuse_port=settings.reuse_port,
        post_worker_init=tune_worker_gc,
    )
    # JSON logs and the metrics folder shared by the workers (api.server.observability).
    with observability.serving(os.environ) as extra:
        # Snapshots are stored in the background: a write whose game is due one answers without waiting.
        app_config: dict[str, Any] = {"STORE": store, "SNAPSHOTS_IN_BACKGROUND": True}
        if "HERONLOG_STREAM_MAX_OPEN" not in os.environ:
            app_config["STREAM_MAX_OPEN"] = runtime.STREAMS_PER_WORKER
        served = {**options, **extra}
        orphans.install(served)  # a worker ends with its master, however the master ended
        pinning.install(served, settings.pin_workers)  # each worker on a CPU of its own, when they fill them

        def factory() -> Any:
            app: Any = create_app(app_config)
            if settings.trusted_proxies:
                # The client's address as the proxies in front say it (werkzeug's ProxyFix, X-Forwarded-For).
                from werkzeug.middleware.proxy_fix import ProxyFix

                app = ProxyFix(app, x_for=settings.trusted_proxies, x_proto=settings.trusted_proxies)
            # bodies read whole in time, then the app in turn (api.server.admission), answers taken in time
            # (api.server.slow_clients)
            app = admission.in_turn(app, settings.concurrent_requests)
            return slow_clients.whole_bodies(app, settings.body_limit)

        runtime.run(factory, served)
    return 0


def _environ(args: argparse.Namespace) -> dict[str, str]:
    """The environment the store is read from, with ``--data`` standing in for ``HERONLOG_DATA``."""
    environ = dict(os.environ)
    if getattr(args, "data", None):
        environ["HERONLOG_DATA"] = args.data
    return environ


def _store(args: argparse.Namespace) -> StoreConfig:
    return StoreConfig.from_environ(_environ(args), kind=getattr(args, "store", None))


class NoStore(Exception):
    """There is no store to read where the configuration points."""


def _read_only_log(store: StoreConfig) -> Any:
    """The game log on ``store``, opened to read only: nothing is created (the SQLite file is opened read-only
    and must exist; no table is made) and nothing can be written."""
    from replay.application import GameLog

    env = store.eventsourcing_env()
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        if not store.sqlite_path.is_file():
            raise NoStore(f"no store at {store.sqlite_path}: nothing to export (set --data or HERONLOG_DATA)")
        env["SQLITE_DBNAME"] = f"file:{store.sqlite_path}?mode=ro"
    env["CREATE_TABLE"] = "false"
    return GameLog(env, shards=store.shards)


def _read_json(path: str) -> Any:
    """A file's JSON, read as the API reads a request's body (``api.resources.fastjson.decode``): JSON nested
    past the recursion limit, a lone surrogate, NaN or an integer of 4,300 digits is refused as not JSON text
    (a ``ValueError``), never a traceback, and ``check`` and ``import`` accept the same files."""
    from api.resources.fastjson import decode

    if path == "-":
        return decode(sys.stdin.buffer.read())
    with open(path, "rb") as handle:
        return decode(handle.read())


def _max_events(args: argparse.Namespace) -> int:
    """The most events an import may hold: ``--max-events``, else the server's ``HERONLOG_IMPORT_MAX_EVENTS``
    (so that ``check`` says what the API would, and ``import`` takes what it takes); 0: no cap."""
    if args.max_events is not None:
        return int(args.max_events)
    from api.server.environment import DEFAULTS

    raw = os.environ.get("HERONLOG_IMPORT_MAX_EVENTS") or str(DEFAULTS["IMPORT_MAX_EVENTS"])
    return int(raw)


def _export(args: argparse.Namespace) -> int:
    from replay import exports
    from replay.errors import ReplayError

    try:
        game_id = uuid.UUID(args.game_id)
    except ValueError:
        return _not_a_game_id(args.game_id)
    try:
        log = _read_only_log(_store(args))
    except NoStore as error:
        fail(str(error))
        return 1
    try:
        if args.format == "json":
            text = exports.json_text(log.export(game_id))
        elif args.format == "text":
            text = log.export_text(game_id)
        elif args.format == "bgg":
            text = log.export_bgg(game_id)
        else:
            data = (
                log.export_bgstats(game_id) if args.format == "bgstats" else log.export_bgstats_link(game_id)
            )
            text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    except ReplayError as error:
        fail(error.message, error_code=error.code)
        return 1
    finally:
        log.close()
    if args.output and args.output != "-":
        try:
            with open(args.output, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            fail(f"cannot write {args.output}: {error.strerror or error}")
            return 2
    else:
        sys.stdout.write(text)
    return 0


def _report_problems(error: Any) -> None:
    fail(error.message, error_code=error.code)
    for problem in error.details.get("problems", []):
        say(
            f"  {problem['position']}: {problem['message']}",
            level="error",
            prefix=False,
            position=problem["position"],
        )


def _import(args: argparse.Namespace) -> int:
    from replay.errors import ReplayError

    try:
        data = _read_json(args.file)
        max_events = _max_events(args)
    except (OSError, ValueError) as error:
        fail(f"cannot read {args.file}: {error}")
        return 2
    tokens = _token_file(args.tokens) if args.tokens else None
    if args.tokens and tokens is None:
        return 2
    log = open_log(_store(args))
    try:
        # As `POST /api/games/import` does: the game comes with an owner, or nobody could administer it.
        issued = log.import_log(data, keep_id=not args.new_id, max_events=max_events)
        title = str(data.get("setup", {}).get("title", "")) if isinstance(data, dict) else ""
        print(issued.game_id)  # standard output holds the id alone, for scripts: ID=$(heronlog import ...)
        own = data.get("game_id") if isinstance(data, dict) else None
        if not args.new_id and own is not None and str(own) != str(issued.game_id):
            # Not silent: importing the same file twice makes two games, and restore is the command that
            # finds a game already there.
            say(
                f"the id {own} is taken here: imported as a new game, {issued.game_id} "
                "(heronlog restore skips a game already there)",
                level="warning",
            )
        say(_hand_over_token(tokens, args.tokens, issued.game_id, issued.token, title), prefix=False)
    except ReplayError as error:
        _report_problems(error)
        return 1
    finally:
        log.close()
        if tokens is not None:
            tokens.close()
    return 0


def _token_file(path: str) -> TextIO | None:
    """``path`` opened to append owner tokens to, or None (said on standard error) when it cannot be.

    Owner tokens are secrets: the file is the user's alone (0600, also if it was there before). It is appended
    to, never truncated: a second restore or import must not wipe the tokens of the first."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.fchmod(descriptor, 0o600)
        return os.fdopen(descriptor, "a", encoding="utf-8")
    except OSError as error:
        fail(f"cannot write the tokens to {path}: {error}")
        return None


def _hand_over_token(tokens: TextIO | None, path: str | None, game_id: Any, token: str, title: str) -> str:
    """A new game's owner token, appended to the token file when there is one (each kept as soon as its game
    is written, so that an interrupted run loses none); the words that tell the user where it is, or the token
    itself when there is no file."""
    if tokens is None:
        return f"owner token {token}"
    tokens.write(f"{game_id}\t{token}\t{title}\n")
    tokens.flush()
    return f"owner token written to {path}"


def _check(args: argparse.Namespace) -> int:
    from replay.errors import ReplayError

    try:
        data = _read_json(args.file)
        max_events = _max_events(args)
    except (OSError, ValueError) as error:
        fail(f"cannot read {args.file}: {error}")
        return 2
    log = open_log(StoreConfig(kind="memory"))
    try:
        game = log.check_log(data, max_events=max_events)
    except ReplayError as error:
        _report_problems(error)
        return 1
    finally:
        log.close()
    print(f"ok: {len(game.line)} effective moves, {game.version} events, rules {game.rules_version}")
    if game.parent:
        # The one thing a file alone cannot say: import takes a branch only where its parent game is.
        print(f"a branch of game {game.parent['game_id']}: import it where that game is", file=sys.stderr)
    return 0


def _not_a_game_id(text: str) -> int:
    fail(f"{text!r} is not a game id")
    return 2


def _revalidate(args: argparse.Namespace) -> int:
    from replay.errors import ReplayError

    game_ids = []
    for text in args.game_ids:
        try:
            game_ids.append(uuid.UUID(text))
        except ValueError:
            return _not_a_game_id(text)
    log = open_log(_store(args))
    try:
        reports = [log.revalidate(game_id) for game_id in game_ids] or log.revalidate_all()
    except ReplayError as error:  # a game that is not there: said in a line, as export says it
        fail(error.message, error_code=error.code)
        return 1
    finally:
        log.close()
    failed = 0
    for report in reports:
        recorded = f" (recorded under rules {report['rules_version']})" if report.get("rules_version") else ""
        if report["ok"]:
            print(f"{report['game_id']}: all moves pass the current rules{recorded}{_draw_note(report)}")
        else:
            failed += 1
            print(f"{report['game_id']}: {_refusal(report)}{recorded}")
    return 1 if failed else 0


def _draw_note(report: dict[str, Any]) -> str:
    """What a seeded game's report says of its draw under the rules checked: that upgrade keeps it under its
    own rules, or that the move changes what its seed draws; nothing for a table game or rules that draw
    alike."""
    if report.get("draw_kept"):
        return f"; upgrade keeps it there: {report['draw_kept']}"
    if report.get("draw_change"):
        return f"; its draw changes: {report['draw_change']}"
    return ""


def _refusal(report: dict[str, Any]) -> str:
    """A report's refusal in words: where, which rule, why."""
    refusal = report["error"]
    rule = f" ({refusal['rule']})" if refusal.get("rule") else ""
    where = "" if report.get("version") is None else f"version {report['version']} "
    return f"{where}rejected{rule}: {refusal['message']}"


def _upgrade(args: argparse.Namespace) -> int:
    """Check stored games under the current rules (or ``--to``) and, with ``--apply``, move those that pass."""
    import domain
    from replay.errors import ReplayError

    game_ids = []
    for text in args.game_ids:
        try:
            game_ids.append(uuid.UUID(text))
        except ValueError:
            return _not_a_game_id(text)
    target = args.to or domain.RULES_VERSION
    log = open_log(_store(args))
    counts = {"current": 0, "refused": 0, "kept": 0, "would move": 0, "moved": 0}
    try:
        for game_id in game_ids or log.stored_game_ids():
            try:
                report = log.upgrade(game_id, to=target, apply=args.apply)
            except ReplayError as error:  # not there, a rules version this build lacks, or moved meanwhile
                fail(f"{game_id}: {error.message}", error_code=error.code)
                counts["refused"] += 1
                continue
            outcome = report["outcome"]
            counts[outcome] += 1
            if outcome == "current":
                continue
            recorded = f"rules {report['rules_version']}"
            if outcome == "refused":
                print(f"{game_id}: stays under {recorded}: {_refusal(report)}")
            elif outcome == "kept":
                print(f"{game_id}: stays under {recorded}: {report['draw_kept']}")
            elif outcome == "would move":
                print(
                    f"{game_id}: {recorded} -> {target}: every move passes (run with --apply to move it)"
                    f"{_draw_note(report)}"
                )
            else:
                print(
                    f"{game_id}: moved from {recorded} to {target} (event {report['version']}){_draw_note(report)}"
                )
    finally:
        log.close()
    done = "moved" if args.apply else "would move"
    kept = f"{counts['kept']} seeded kept under their rules' draw, " if counts["kept"] else ""
    print(
        f"{counts['moved'] if args.apply else counts['would move']} {done} to rules {target}, "
        f"{counts['refused']} refused (left as recorded), {kept}{counts['current']} already under it"
    )
    return 1 if counts["refused"] else 0


def _verify(args: argparse.Namespace) -> int:
    """Read every record, fold every stream, check every snapshot; exit 1 when anything is wrong."""
    from replay import verify

    store = _store(args)
    log = open_log(store)

    def problem(found: verify.Problem) -> None:
        print(found, flush=True)

    try:
        report = verify.verify(log, drop_bad_snapshots=args.drop_bad_snapshots, progress=problem)
    finally:
        log.close()
    unsealed = (
        f"; {report.unsealed} written before records carried a checksum (read, not proved intact)"
        if report.unsealed
        else ""
    )
    unplayable = (
        f"; {_count(report.unplayable, 'game')} under rules this build does not replay (heronlog upgrade)"
        if report.unplayable
        else ""
    )
    dropped = f"; {_count(report.dropped, 'bad snapshot')} dropped" if report.dropped else ""
    print(
        f"{store.describe()}: {report.records:,} records, {_count(report.streams, 'stream')} "
        f"({_count(report.games, 'game')}), {_count(report.snapshots, 'snapshot')}: "
        f"{_count(len(report.problems), 'problem')}{unsealed}{unplayable}{dropped}"
    )
    return 0 if report.ok else 1


def _players(args: argparse.Namespace) -> int:
    """Rebuild the players' projection from the log (the one in use answers meanwhile)."""
    from replay.players.rebuild import reader

    store = _store(args)
    log = open_log(store, CACHE_MB="0")  # each game is read once: nothing to keep warm
    started = time.monotonic()

    def progress(done: int) -> None:
        if done % 1000 == 0:
            say(f"{done:,} games read", games=done)

    try:
        games = log.players.rebuild(progress, reader(store, args.jobs) if args.jobs > 1 else None)
    finally:
        log.close()
    print(
        f"rebuilt the players of {store.describe()} from {_count(games, 'game')} in {time.monotonic() - started:.1f} s"
    )
    return 0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _backup(args: argparse.Namespace) -> int:
    from replay import backups
    from replay.errors import ReplayError

    store = _store(args)
    log = open_log(store)
    try:
        report = backups.backup(log, Path(args.directory), force=args.force, store=store.kind)
    except ReplayError as error:
        fail(error.message, error_code=error.code)
        return 2
    except OSError as error:
        fail(f"cannot write the backup: {error}")
        return 2
    finally:
        log.close()
    for failed in report.failed:
        print(f"heronlog: not backed up: {failed.game_id}: {failed.message}", file=sys.stderr)
    print(
        f"backed up {_count(len(report.games), 'game')} ({report.private} private, "
        f"{_count(report.forks, 'fork')}) from {store.describe()} to {report.directory}: "
        f"{report.bytes:,} bytes in {report.seconds:.1f} s"
        + (
            f"; {_count(len(report.failed), 'game')} damaged, not backed up (heronlog verify)"
            if report.failed
            else ""
        )
    )
    return 0 if report.ok else 1


def _restore(args: argparse.Namespace) -> int:
    from replay import backups
    from replay.errors import ReplayError

    directory = Path(args.directory)
    store = _store(args)
    tokens = _token_file(args.tokens) if args.tokens else None
    if args.tokens and tokens is None:
        return 2

    def progress(game: backups.Restored) -> None:
        label = f"{game.game_id} {game.title!r}" if game.title else game.game_id or game.position
        if game.outcome is backups.Outcome.RESTORED:
            assert game.token is not None  # a restored game always comes with its new owner's token
            words = _hand_over_token(tokens, args.tokens, game.game_id, game.token, game.title)
            print(f"restored {label}: {words}", flush=True)
        elif game.outcome is backups.Outcome.ALREADY_THERE:
            print(f"already there {label}", flush=True)
        else:
            say(
                f"{game.outcome} {label} ({game.position}, {game.file}): {game.message}",
                level="error",
                prefix=False,
            )
            for problem in game.problems:
                say(f"  {game.file} {problem['position']}: {problem['message']}", level="error", prefix=False)

    log = open_log(store)
    try:
        report = backups.restore(log, directory, progress=progress)
    except ReplayError as error:
        fail(error.message, error_code=error.code)
        return 2
    finally:
        log.close()
        if tokens is not None:
            tokens.close()
    counts = ", ".join(f"{outcome} {report.count(outcome)}" for outcome in backups.Outcome)
    print(
        f"{counts} of {_count(len(report.games), 'game')} from {directory} into {store.describe()} "
        f"in {report.seconds:.1f} s"
    )
    return 0 if report.ok else 1


def _worker(args: argparse.Namespace) -> int:
    """Take analysis jobs from the store's task queue until stopped (replay.analysis_queue)."""
    from replay.analysis_queue import work
    from replay.config import ConfigError

    try:
        return work(_store(args), _environ(args), workers=args.workers)
    except ConfigError as error:
        fail(str(error), error_code="invalid_configuration")
        return 2


def _demo(args: argparse.Namespace) -> int:
    from domain.demo import demo
    from domain.errors import DomainError

    try:
        expansions = ("matcha",) if args.matcha else ()
        print(demo(args.players, args.seed, args.solo, expansions), end="")
    except DomainError as error:
        fail(error.message, error_code=error.code)
        return 2
    return 0


def _store_options(command: argparse.ArgumentParser) -> None:
    """The options that choose the store, as `serve` reads it from the environment."""
    command.add_argument(
        "--store",
        choices=STORE_KINDS,
        help="event store (default: HERONLOG_STORE, else redis if REDIS_URL is set, else sqlite)",
    )
    command.add_argument(
        "--data",
        metavar="DIR",
        help="folder of the SQLite store, heronlog.sqlite (default: HERONLOG_DATA, else ./data)",
    )


def build_parser() -> argparse.ArgumentParser:
    from replay.health import package_version

    parser = argparse.ArgumentParser(
        prog="heronlog",
        description="Record, replay and study The White Castle.",
        epilog="heronlog's own messages go to standard error as JSON lines or as text (HERONLOG_LOG_FORMAT); "
        "'heronlog COMMAND --help' tells more of each command.",
    )
    parser.add_argument("--version", action="version", version=f"heronlog {package_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser("serve", help="serve the JSON API and the web pages")
    # Every option's default comes from its environment variable, read and checked when serve starts (a
    # HERONLOG_PORT that is no port is then one line, not a traceback from building this parser).
    serve.add_argument("--host", help="address to listen on (default: HERONLOG_HOST, else 127.0.0.1)")
    serve.add_argument("--port", help="port to listen on, 1 to 65535 (default: HERONLOG_PORT, else 8000)")
    serve.add_argument(
        "--store", choices=STORE_KINDS, help="event store (default: sqlite, or redis if REDIS_URL)"
    )
    serve.add_argument(
        "--data",
        metavar="DIR",
        help="folder of the SQLite store, heronlog.sqlite (default: HERONLOG_DATA, else ./data)",
    )
    serve.add_argument(
        "--workers",
        help="worker processes, 1 or more (default: HERONLOG_WORKERS, else 1; keep 1 on SQLite, whose rate "
        "limits are per process)",
    )
    serve.add_argument(
        "--connections",
        help="connections each worker holds at once (default: HERONLOG_CONNECTIONS, else 4096); more wait to be "
        "accepted",
    )
    serve.add_argument(
        "--concurrent-requests",
        help="requests each worker runs in the app at once (default: HERONLOG_CONCURRENT_REQUESTS, else 8); more "
        "wait their turn, first come, first served; 0: no limit",
    )
    serve.add_argument(
        "--trusted-proxies",
        help="proxies in front whose X-Forwarded-For names the client (default: HERONLOG_TRUSTED_PROXIES, else 0: "
        "the connection's own address); the rate limits count by that address",
    )
    serve.add_argument(
        "--reuse-port",
        choices=CHOICES["HERONLOG_REUSE_PORT"],
        help="auto (default): yes with several workers; yes: each worker listens on its own socket (SO_REUSEPORT) and "
        "the kernel spreads the connections by a hash; no: the workers share one socket",
    )
    serve.add_argument(
        "--pin-workers",
        choices=pinning.MODES,
        help="auto (default): keep each worker on a CPU of its own when there are as many workers as CPUs this "
        "process may run on; yes: always; no: never (the kernel moves them)",
    )
    serve.set_defaults(handler=_serve)

    export = commands.add_parser(
        "export",
        help="print one game in a format (its log, a text record, a BG Stats play, a BGG play), reading only",
        description="Print one game of the store. The store is opened read-only: nothing is created or "
        "written, so this runs beside a server or on a read-only copy.",
    )
    export.add_argument("game_id", help="the game's id (a UUID, as the API and the pages show it)")
    export.add_argument(
        "--format",
        choices=("json", "text", "bgstats", "bgstats-link", "bgg"),
        default="json",
        help="json (default): the full log, which import takes back; text: a readable record; bgstats: a BG "
        "Stats play file (.bgsplay); bgstats-link: BG Stats' create-play link of a finished game; bgg: a "
        "BoardGameGeek play record (XML)",
    )
    export.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of standard output")
    _store_options(export)
    export.set_defaults(handler=_export)

    import_ = commands.add_parser(
        "import",
        help="refold an exported log with the rules and store it",
        description="Check an export event by event with the rules and store it as a game; its id goes to "
        "standard output, its new owner token to standard error (or to --tokens FILE).",
    )
    import_.add_argument("file", help="an export (json), or - for standard input")
    import_.add_argument(
        "--new-id", action="store_true", help="give the game a new id even if its own is free"
    )
    import_.add_argument(
        "--tokens",
        metavar="FILE",
        help="append the game's new owner token to FILE (mode 0600) instead of printing it on standard error",
    )
    _store_options(import_)
    import_.add_argument("--max-events", type=int, metavar="N", help=MAX_EVENTS_HELP)
    import_.set_defaults(handler=_import)

    check = commands.add_parser(
        "check",
        help="validate an exported log without storing it",
        description="Refold an export with the rules in memory and report every problem with its position; "
        "no store is opened.",
    )
    check.add_argument("file", help="an export (json), or - for standard input")
    check.add_argument("--max-events", type=int, metavar="N", help=MAX_EVENTS_HELP)
    check.set_defaults(handler=_check)

    revalidate = commands.add_parser(
        "revalidate",
        help="dry-run stored games under the current rules",
        description="Replay stored games with the current rules and report the first move each would "
        "refuse; nothing is written. Exit status 1 when a game fails.",
    )
    revalidate.add_argument(
        "game_ids", nargs="*", metavar="GAME_ID", help="games to check (default: every game)"
    )
    _store_options(revalidate)
    revalidate.set_defaults(handler=_revalidate)

    upgrade = commands.add_parser(
        "upgrade",
        help="check stored games under the current rules and move those that pass (dry run first)",
        description="Check stored games under the current rules (or --to) with every check; with --apply, "
        "move those whose whole line of play passes with a RulesUpgraded event. A seeded game stays under its "
        "rules while this build replays them if the new ones would draw its chance from another generator. "
        "Exit status 1 when a game is refused.",
    )
    upgrade.add_argument("game_ids", nargs="*", help="games to check (default: every game)")
    upgrade.add_argument(
        "--to", metavar="VERSION", help="the rules version to move to (default: the current one)"
    )
    upgrade.add_argument(
        "--apply",
        action="store_true",
        help="move the games that pass (without it, only report what would happen)",
    )
    _store_options(upgrade)
    upgrade.set_defaults(handler=_upgrade)

    verify = commands.add_parser(
        "verify",
        help="check every stored event and snapshot and refold every game; exit 1 if anything is wrong",
        description="Read every stored record and check its checksum, fold every stream, check every snapshot "
        "against the events it summarises, and name each problem (stream, version, what). Exit status 1 when "
        "anything is wrong.",
    )
    verify.add_argument(
        "--drop-bad-snapshots",
        action="store_true",
        help="delete the snapshots found bad (games read from events)",
    )
    _store_options(verify)
    verify.set_defaults(handler=_verify)

    players = commands.add_parser(
        "players",
        help="rebuild the players (records, ratings, head to head) from the log",
        description="Rebuild the players' projection from every game of the store and its seats' links, beside "
        "the one in use (which answers meanwhile), then put it in use.",
    )
    players.add_argument("action", choices=["rebuild"], help="what to do: rebuild")
    players.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="processes that read the games (default: one per core; 1 reads them one after another)",
    )
    _store_options(players)
    players.set_defaults(handler=_players)

    backup = commands.add_parser(
        "backup",
        help="write every game of the store to a folder (one export each)",
        description="Write every game of the store, with a manifest and checksums, to a folder.",
    )
    backup.add_argument("directory", help="the backup's folder (created if missing)")
    backup.add_argument(
        "--force",
        action="store_true",
        help="write into a folder that is not empty and holds no earlier backup",
    )
    _store_options(backup)
    backup.set_defaults(handler=_backup)

    restore = commands.add_parser(
        "restore",
        help="import every game of a backup folder, keeping their ids",
        description="Import every game of a folder written by backup, keeping their ids; a game already "
        "there is skipped. Each restored game gets a new owner token.",
    )
    restore.add_argument("directory", help="a folder written by heronlog backup")
    restore.add_argument(
        "--tokens",
        metavar="FILE",
        help="append each restored game's new owner token to FILE (mode 0600) instead of printing it",
    )
    _store_options(restore)
    restore.set_defaults(handler=_restore)

    worker = commands.add_parser(
        "worker",
        help="evaluate the decisions of requested analyses, taken from the store's task queue",
        description="Run analysis workers: processes that take jobs from the task queue (HERONLOG_QUEUE_URL, "
        "by default the store's Redis) and evaluate each decision. Run one per machine, anywhere that reaches "
        "the store; stop with SIGTERM or Ctrl-C.",
    )
    worker.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes to run (default: HERONLOG_ANALYSIS_WORKERS, else one per CPU)",
    )
    _store_options(worker)
    worker.set_defaults(handler=_worker)

    demo = commands.add_parser(
        "demo",
        help="play a seeded game with random legal moves and print it",
        description="Play a seeded game with random legal moves and print its log and score sheet; no store "
        "is opened.",
    )
    demo.add_argument("--players", type=int, default=4, help="2 to 4 players (default 4)")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    demo.add_argument(
        "--solo",
        choices=["easy", "medium", "hard"],
        help="a solo game: one player against the automated rival of this difficulty (--matcha: the Tokugawa clan)",
    )
    demo.add_argument("--matcha", action="store_true", help="play with The White Castle: Matcha")
    demo.set_defaults(handler=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # serve logs JSON unless told otherwise; the other commands speak text to people unless told otherwise
    default = "json" if args.command == "serve" else "text"
    voice.format = "json" if os.environ.get("HERONLOG_LOG_FORMAT", default) == "json" else "text"
    for warning in unknown_variables(os.environ):
        say(warning, level="warning")
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except ConfigError as error:  # a setting (or the data folder it names) that cannot be used
        fail(str(error))
        return 2
    except sqlite3.Error as error:  # the file is no SQLite store, or cannot be opened as asked
        fail(f"the SQLite store cannot be used: {error}")
        return 2
    except Exception as error:
        # The store did not answer (Redis down, a file locked): one line, and the command may be run again.
        from replay.errors import store_unavailable

        if not store_unavailable(error):
            raise
        fail(f"the event store did not answer: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
