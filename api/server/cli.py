"""The ``heronlog`` command line.

``serve`` runs the API under gunicorn (never Flask's debug server); ``export``, ``import`` and ``check`` move
game logs in and out of the configured store (the same ``HERONLOG_STORE``/``REDIS_URL``/``HERONLOG_DATA``
settings as ``serve``); ``backup`` and ``restore`` do it for every game at once (replay.backups);
``revalidate`` dry-runs stored games under the current rules and ``upgrade`` moves those that pass to them;
``verify`` checks every stored record, snapshot and fold; ``demo`` plays a seeded game with random legal moves
and prints it with its score sheet.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from api.server import pinning
from api.server.collector import tune_worker_gc
from api.server.environment import server_setting
from replay.config import STORE_KINDS, ConfigError, StoreConfig, open_log

SERVE_CHOICES = (
    ("reuse_port", "HERONLOG_REUSE_PORT", ("yes", "no")),
    ("pin_workers", "HERONLOG_PIN_WORKERS", pinning.MODES),
)
"""serve's options with a fixed set of values, and the variable each takes its default from."""


def _serve(args: argparse.Namespace) -> int:
    for option, variable, choices in SERVE_CHOICES:  # argparse does not check a default from the environment
        value = getattr(args, option)
        if value not in choices:
            allowed = ", ".join(choices[:-1]) + " or " + choices[-1]
            print(f"heronlog: {variable} is {allowed}, not {value!r}", file=sys.stderr)
            return 2
    try:
        store = StoreConfig.from_environ(os.environ, kind=args.store)
    except ConfigError as error:
        print(f"heronlog: {error}", file=sys.stderr)
        return 2
    print(f"heronlog: events kept in {store.describe()}", flush=True)
    print(f"heronlog: serving on http://{args.host}:{args.port}", flush=True)

    from gunicorn.app.base import BaseApplication

    from api.app import create_app
    from api.server import observability, unread

    class Server(BaseApplication):  # type: ignore[misc]  # gunicorn ships no type hints
        """Gunicorn embedded: the app is built in each worker (after fork), never in the master."""

        def __init__(self, factory: Callable[[], Any], options: dict[str, Any]) -> None:
            self.factory = factory
            self.options = options
            super().__init__()

        def load_config(self) -> None:
            for key, value in self.options.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            # gunicorn closes a connection whose refused body it would have to read on: say so (api.server.unread)
            return unread.closing_when_unread(self.factory())

    options = {
        "bind": f"{args.host}:{args.port}",
        "workers": args.workers,
        "threads": args.threads,
        "worker_class": "gthread",
        "timeout": 60,
        "accesslog": None,
        # A keep-alive connection stays with the worker that accepted it. By default the workers share one
        # socket and take turns (api.server.balance): a worker holding more than one connection above the least
        # loaded stops accepting.
        # With SO_REUSEPORT each worker has a socket of its own and the kernel's hash spreads the connections
        # (19/31 of 50 was common); with one shared socket and no turns, the first worker to wake took nearly
        # every client of a burst.
        "reuse_port": args.reuse_port == "yes",
        "post_worker_init": tune_worker_gc,
    }
    from gunicorn.config import Config

    if "control_socket_disable" in Config().settings:
        # gunicorn 25.1+ opens a control socket in $HOME by default: two servers on one machine would share
        # it, and a read-only container has no $HOME to write to.
        options["control_socket_disable"] = True
    # JSON logs and the metrics folder shared by the workers (api.server.observability).
    with observability.serving(os.environ) as extra:
        # Snapshots are stored in the background: a write whose game is due one answers without waiting.
        app_config: dict[str, Any] = {"STORE": store, "SNAPSHOTS_IN_BACKGROUND": True}
        if "HERONLOG_STREAM_MAX_OPEN" not in os.environ:
            # Event streams may hold all but two of a worker's threads: moves and reads always find one.
            app_config["STREAM_MAX_OPEN"] = max(1, args.threads - 2)
        served = {**options, **extra}
        if args.reuse_port == "no":
            from api.server import balance

            balance.install(served)  # the balanced worker class, its hooks chained after the metrics' own
        try:
            pinning.install(served, args.pin_workers)  # each worker on a CPU of its own, when they fill them
        except ValueError as error:
            print(f"heronlog: {error}", file=sys.stderr)
            return 2
        Server(lambda: create_app(app_config), served).run()
    return 0


def _store(args: argparse.Namespace) -> StoreConfig:
    return StoreConfig.from_environ(os.environ, kind=getattr(args, "store", None))


def _read_json(path: str) -> Any:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def _export(args: argparse.Namespace) -> int:
    from replay import exports
    from replay.errors import ReplayError

    log = open_log(_store(args))
    try:
        game_id = uuid.UUID(args.game_id)
        if args.format == "json":
            text = exports.json_text(log.export(game_id))
        elif args.format == "text":
            text = log.export_text(game_id)
        else:
            text = json.dumps(log.export_bgstats(game_id), indent=2, ensure_ascii=False) + "\n"
    except ValueError:
        return _not_a_game_id(args.game_id)
    except ReplayError as error:
        print(f"heronlog: {error.message}", file=sys.stderr)
        return 1
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


def _report_problems(error: Any) -> None:
    print(f"heronlog: {error.message}", file=sys.stderr)
    for problem in error.details.get("problems", []):
        print(f"  {problem['position']}: {problem['message']}", file=sys.stderr)


def _import(args: argparse.Namespace) -> int:
    from replay.errors import ReplayError

    try:
        data = _read_json(args.file)
    except (OSError, ValueError) as error:
        print(f"heronlog: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    tokens = _token_file(args.tokens) if args.tokens else None
    if args.tokens and tokens is None:
        return 2
    log = open_log(_store(args))
    try:
        # As `POST /api/games/import` does: the game comes with an owner, or nobody could administer it.
        issued = log.import_log(data, keep_id=not args.new_id)
        title = str(data.get("setup", {}).get("title", "")) if isinstance(data, dict) else ""
        print(issued.game_id)  # standard output holds the id alone, for scripts: ID=$(heronlog import ...)
        own = data.get("game_id") if isinstance(data, dict) else None
        if not args.new_id and own is not None and str(own) != str(issued.game_id):
            # Not silent: importing the same file twice makes two games, and restore is the command that
            # finds a game already there.
            print(
                f"heronlog: the id {own} is taken here: imported as a new game, {issued.game_id} "
                "(heronlog restore skips a game already there)",
                file=sys.stderr,
            )
        print(_hand_over_token(tokens, args.tokens, issued.game_id, issued.token, title), file=sys.stderr)
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
        print(f"heronlog: cannot write the tokens to {path}: {error}", file=sys.stderr)
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
    except (OSError, ValueError) as error:
        print(f"heronlog: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    log = open_log(StoreConfig(kind="memory"))
    try:
        game = log.check_log(data)
    except ReplayError as error:
        _report_problems(error)
        return 1
    print(f"ok: {len(game.line)} effective moves, {game.version} events, rules {game.rules_version}")
    return 0


def _not_a_game_id(text: str) -> int:
    print(f"heronlog: {text!r} is not a game id", file=sys.stderr)
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
        print(f"heronlog: {error.message}", file=sys.stderr)
        return 1
    finally:
        log.close()
    failed = 0
    for report in reports:
        recorded = f" (recorded under rules {report['rules_version']})" if report.get("rules_version") else ""
        if report["ok"]:
            print(f"{report['game_id']}: all moves pass the current rules{recorded}")
        else:
            failed += 1
            print(f"{report['game_id']}: {_refusal(report)}{recorded}")
    return 1 if failed else 0


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
    counts = {"current": 0, "refused": 0, "would move": 0, "moved": 0}
    try:
        for game_id in game_ids or log.stored_game_ids():
            try:
                report = log.upgrade(game_id, to=target, apply=args.apply)
            except ReplayError as error:  # not there, a rules version this build lacks, or moved meanwhile
                print(f"heronlog: {game_id}: {error.message}", file=sys.stderr)
                counts["refused"] += 1
                continue
            outcome = report["outcome"]
            counts[outcome] += 1
            if outcome == "current":
                continue
            recorded = f"rules {report['rules_version']}"
            if outcome == "refused":
                print(f"{game_id}: stays under {recorded}: {_refusal(report)}")
            elif outcome == "would move":
                print(f"{game_id}: {recorded} -> {target}: every move passes (run with --apply to move it)")
            else:
                print(f"{game_id}: moved from {recorded} to {target} (event {report['version']})")
    finally:
        log.close()
    done = "moved" if args.apply else "would move"
    print(
        f"{counts['moved'] if args.apply else counts['would move']} {done} to rules {target}, "
        f"{counts['refused']} refused (left as recorded), {counts['current']} already under it"
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
        print(f"heronlog: {error.message}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"heronlog: cannot write the backup: {error}", file=sys.stderr)
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
            print(f"{game.outcome} {label} ({game.position}, {game.file}): {game.message}", file=sys.stderr)
            for problem in game.problems:
                print(f"  {game.file} {problem['position']}: {problem['message']}", file=sys.stderr)

    log = open_log(store)
    try:
        report = backups.restore(log, directory, progress=progress)
    except ReplayError as error:
        print(f"heronlog: {error.message}", file=sys.stderr)
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


def _demo(args: argparse.Namespace) -> int:
    from domain.demo import demo
    from domain.errors import DomainError

    try:
        expansions = ("matcha",) if args.matcha else ()
        print(demo(args.players, args.seed, args.solo, expansions), end="")
    except DomainError as error:
        print(f"heronlog: {error.message}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="heronlog", description="Record, replay and study The White Castle."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the JSON API and the web pages")
    serve.add_argument(
        "--host",
        default=server_setting(os.environ, "HERONLOG_HOST"),
        help="address to listen on (default: HERONLOG_HOST, else 127.0.0.1)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=int(server_setting(os.environ, "HERONLOG_PORT")),
        help="port to listen on (default: HERONLOG_PORT, else 8000)",
    )
    serve.add_argument(
        "--store", choices=STORE_KINDS, help="event store (default: sqlite, or redis if REDIS_URL)"
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=int(server_setting(os.environ, "HERONLOG_WORKERS")),
        help="worker processes (default 1; keep 1 on SQLite, whose rate limits and idempotency cache are per process)",
    )
    serve.add_argument(
        "--reuse-port",
        choices=("yes", "no"),
        default=server_setting(os.environ, "HERONLOG_REUSE_PORT"),
        help="no (default): the workers share one socket and take turns accepting connections, so that each "
        "holds about as many; yes: each worker listens on its own socket (SO_REUSEPORT) and the kernel spreads "
        "the connections by a hash",
    )
    serve.add_argument(
        "--pin-workers",
        choices=pinning.MODES,
        default=server_setting(os.environ, "HERONLOG_PIN_WORKERS"),
        help="auto (default): keep each worker on a CPU of its own when there are as many workers as CPUs this "
        "process may run on; yes: always; no: never (the kernel moves them)",
    )
    serve.add_argument(
        "--threads",
        type=int,
        default=int(server_setting(os.environ, "HERONLOG_THREADS")),
        help="threads per worker (default 8); each open event stream holds one",
    )
    serve.set_defaults(handler=_serve)

    export = commands.add_parser("export", help="print a game's log (json), text record or BG Stats play")
    export.add_argument("game_id")
    export.add_argument("--format", choices=("json", "text", "bgstats"), default="json")
    export.add_argument("--output", "-o", help="write to this file instead of standard output")
    export.add_argument("--store", choices=STORE_KINDS)
    export.set_defaults(handler=_export)

    import_ = commands.add_parser("import", help="refold an exported log with the rules and store it")
    import_.add_argument("file", help="an export (json), or - for standard input")
    import_.add_argument(
        "--new-id", action="store_true", help="give the game a new id even if its own is free"
    )
    import_.add_argument(
        "--tokens",
        metavar="FILE",
        help="append the game's new owner token to FILE (mode 0600) instead of printing it on standard error",
    )
    import_.add_argument("--store", choices=STORE_KINDS)
    import_.set_defaults(handler=_import)

    check = commands.add_parser("check", help="validate an exported log without storing it")
    check.add_argument("file", help="an export (json), or - for standard input")
    check.set_defaults(handler=_check)

    revalidate = commands.add_parser("revalidate", help="dry-run stored games under the current rules")
    revalidate.add_argument("game_ids", nargs="*", help="games to check (default: every game)")
    revalidate.add_argument("--store", choices=STORE_KINDS)
    revalidate.set_defaults(handler=_revalidate)

    upgrade = commands.add_parser(
        "upgrade", help="check stored games under the current rules and move those that pass (dry run first)"
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
    upgrade.add_argument("--store", choices=STORE_KINDS)
    upgrade.set_defaults(handler=_upgrade)

    verify = commands.add_parser(
        "verify",
        help="check every stored event and snapshot and refold every game; exit 1 if anything is wrong",
    )
    verify.add_argument(
        "--drop-bad-snapshots",
        action="store_true",
        help="delete the snapshots found bad (games read from events)",
    )
    verify.add_argument("--store", choices=STORE_KINDS)
    verify.set_defaults(handler=_verify)

    backup = commands.add_parser("backup", help="write every game of the store to a folder (one export each)")
    backup.add_argument("directory", help="the backup's folder (created if missing)")
    backup.add_argument(
        "--force",
        action="store_true",
        help="write into a folder that is not empty and holds no earlier backup",
    )
    backup.add_argument("--store", choices=STORE_KINDS)
    backup.set_defaults(handler=_backup)

    restore = commands.add_parser("restore", help="import every game of a backup folder, keeping their ids")
    restore.add_argument("directory", help="a folder written by heronlog backup")
    restore.add_argument(
        "--tokens",
        metavar="FILE",
        help="append each restored game's new owner token to FILE (mode 0600) instead of printing it",
    )
    restore.add_argument("--store", choices=STORE_KINDS)
    restore.set_defaults(handler=_restore)

    demo = commands.add_parser("demo", help="play a seeded game with random legal moves and print it")
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
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
