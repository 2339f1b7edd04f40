"""``python -m api.server ARGS``: the ``heronlog`` command (api.server.launch)."""

import sys

from api.server.launch import main

sys.exit(main())
