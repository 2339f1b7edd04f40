"""The ``heronlog`` command line: ``serve`` runs the API under gunicorn (never Flask's debug server); ``demo``
plays a seeded game with random legal moves and prints it with its score sheet."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from replay.config import STORE_KINDS, ConfigError, StoreConfig


def _serve(args: argparse.Namespace) -> int:
    try:
        store = StoreConfig.from_environ(os.environ, kind=args.store)
    except ConfigError as error:
        print(f"heronlog: {error}", file=sys.stderr)
        return 2
    print(f"heronlog: events kept in {store.describe()}", flush=True)
    print(f"heronlog: serving on http://{args.host}:{args.port}", flush=True)

    from gunicorn.app.base import BaseApplication

    from api.app import create_app

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
            return self.factory()

    options = {
        "bind": f"{args.host}:{args.port}",
        "workers": args.workers,
        "threads": args.threads,
        "worker_class": "gthread",
        "timeout": 60,
        "accesslog": None,
    }
    Server(lambda: create_app({"STORE": store}), options).run()
    return 0


def _demo(args: argparse.Namespace) -> int:
    from domain.demo import demo
    from domain.errors import DomainError

    try:
        print(demo(args.players, args.seed), end="")
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
    serve.add_argument("--host", default=os.environ.get("HERONLOG_HOST", "127.0.0.1"))
    serve.add_argument("--port", type=int, default=int(os.environ.get("HERONLOG_PORT", "8000")))
    serve.add_argument(
        "--store", choices=STORE_KINDS, help="event store (default: sqlite, or redis if REDIS_URL)"
    )
    serve.add_argument("--workers", type=int, default=int(os.environ.get("HERONLOG_WORKERS", "1")))
    serve.add_argument("--threads", type=int, default=int(os.environ.get("HERONLOG_THREADS", "4")))
    serve.set_defaults(handler=_serve)
    demo = commands.add_parser("demo", help="play a seeded game with random legal moves and print it")
    demo.add_argument("--players", type=int, default=4, help="2 to 4 players (default 4)")
    demo.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    demo.set_defaults(handler=_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
