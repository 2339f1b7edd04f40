"""The ``heronlog`` command's first step: ``serve`` makes the process cooperative before anything else loads.

``heronlog serve`` runs gunicorn's gevent workers (api.server.runtime), and gevent asks that the standard
library be patched (cooperative sockets, threads, locks) before other modules import it: a lock made at import
time before the patch would stay a real one, and a module that took ``ssl`` early keeps the uncooperative one. So
this module imports nothing of heronlog before it has patched, then hands over to :mod:`api.server.cli`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["serve"]:
        from gevent import monkey

        monkey.patch_all()
    from api.server import cli

    return cli.main(words)


if __name__ == "__main__":
    sys.exit(main())
