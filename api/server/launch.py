"""The ``heronlog`` command's first step: ``serve`` patches the standard library for gevent (cooperative sockets,
threads and locks) before anything of heronlog is imported, as gevent asks, then hands over to api.server.cli."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["serve"]:
        from gevent import monkey

        monkey.patch_all()
    try:
        from api.server import cli
    except ImportError as error:
        # HERONLOG_ENGINE names an engine that cannot load (domain.compiled.EngineUnavailable, which cannot be
        # imported here: importing the domain package is what failed): one line, no traceback.
        if not getattr(error, "bad_setting", False):
            raise
        print(f"heronlog: {error}", file=sys.stderr)
        return 2
    return cli.main(words)


if __name__ == "__main__":
    sys.exit(main())
