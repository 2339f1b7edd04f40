"""How the benches time one call: the median wall time of repeated calls, after a few calls that warm it up."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_seconds(call: Callable[[], object], repeat: int, warm: int = 0) -> float:
    """The median wall time of ``repeat`` calls, after ``warm`` calls left out (scripts loaded, caches filled)."""
    for _ in range(warm):
        call()
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def median_ms(call: Callable[[], object], repeat: int, warm: int = 0) -> float:
    return median_seconds(call, repeat, warm) * 1000


def median_us(call: Callable[[], object], repeat: int, warm: int = 0) -> float:
    return median_seconds(call, repeat, warm) * 1e6
