"""What every integration test shares: its garbage is collected when it ends.

A client left open (a Redis connection, a cluster node's pool) is found by the garbage collector whenever it next
runs; with warnings as errors that failed the run at its very end, blaming no test. Collecting after each test
makes the test that left it fail, at its teardown, every time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _garbage_collected_when_done() -> Iterator[None]:
    yield
    gc.collect()
