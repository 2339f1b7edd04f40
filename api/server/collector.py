"""The garbage collector's settings in a ``heronlog serve`` worker: short pauses, and all of them rare.

CPython frees almost every object the moment its last reference goes (games, states, answers: none of them
hold cycles); the cycle collector only looks for rings of objects that refer to each other. Left to its
defaults, it runs often on the young objects, and from time to time walks every object the worker holds: the
start-up objects (modules, schemas, the catalog) and every game kept folded in memory, with each state of its
line. Under load that full walk took 30 to 110 ms, measured with ``gc.callbacks``, in every worker at about
the same moment, and every thread of a worker waits for it: the slowest moves of a run were those.

So a worker (:func:`tune_worker_gc`, gunicorn's ``post_worker_init``):

* freezes what is alive once its application is loaded (``gc.freeze``: kept out of every later walk);
* collects the young objects every 10,000 net allocations instead of 700;
* after each collection of the middle generation, freezes its survivors too (:class:`Freezer`): objects that
  have lived through two collections are long-lived here (folded games, cached grants), and the collector
  would otherwise walk them again and again;
* and, every ``FULL_EVERY_SECONDS``, unfreezes everything just before a full collection starts, so that a
  ring that became garbage after it was frozen is freed then (the one long pause, once in ten minutes).

Nothing else changes: objects are freed as before, and rings of garbage still are, at the latest at the next
full collection.
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
