"""The container's health check: exit 0 when the local `heronlog serve` answers `GET /readyz` with 200.

Standard library only, so it starts fast every 10 s; the port is the one `heronlog serve` listens on
(``HERONLOG_PORT``, default 8000). ``/readyz`` asks every store (shard) the way requests do, and answers 503
when none of them serves, so the container is reported unhealthy while Redis is down, and healthy again as soon
as it serves. With one shard of several down it answers 200 (``degraded``): the container still records the
other shards' games, and restarting it would mend nothing. (``/healthz`` is liveness only: the process answers.)
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

DEFAULT_PORT = "8000"


def main() -> int:
    port = os.environ.get("HERONLOG_PORT") or DEFAULT_PORT
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=3) as answer:
            return 0 if answer.status == 200 else 1
    except (OSError, ValueError) as error:  # HTTPError (503) is an OSError too
        print(f"heronlog unhealthy: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
