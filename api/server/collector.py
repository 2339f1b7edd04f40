"""The garbage collector's settings in a ``heronlog serve`` worker: short pauses, and all of them rare.

A worker freezes what is alive once its app is loaded, collects the young objects every 10,000 net allocations
instead of 700, and freezes the survivors of middle-generation collections, so the full walk that once paused
every thread of a worker for 30 to 110 ms comes rarely.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

FULL_EVERY_SECONDS = 600.0
"""How often a full collection also walks the frozen objects (frees rings that became garbage after freezing)."""

YOUNG_THRESHOLD = 10_000
"""Net allocations between two collections of the youngest generation (CPython's default is 700)."""


class Freezer:
    """A ``gc.callbacks`` entry: freeze the survivors of each collection of the middle generation (or of a
    full one), and unfreeze everything before a full collection once ``every`` seconds have passed."""

    def __init__(
        self, every: float = FULL_EVERY_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._every = every
        self._clock = clock
        self._due = clock() + every
        self.full_walks = 0
        """How many full collections walked the frozen objects too (for tests and curious operators)."""

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        generation = info["generation"]
        if phase == "start":
            if generation == 2 and self._clock() >= self._due:
                # Unfrozen now, before the collection begins: this one collection walks them all.
                gc.unfreeze()
                self._due = self._clock() + self._every
                self.full_walks += 1
        elif generation >= 1:
            gc.freeze()


def tune_worker_gc(_worker: Any = None, *, freezer: Freezer | None = None) -> Freezer:
    """Apply this module's settings to the current process (idempotent: the freezer is installed once).
    gunicorn calls it with the worker (its hooks take exactly one positional argument)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, 10, 10)
    installed = next((callback for callback in gc.callbacks if isinstance(callback, Freezer)), None)
    if installed is not None:
        return installed
    chosen = freezer if freezer is not None else Freezer()
    gc.callbacks.append(chosen)
    return chosen
