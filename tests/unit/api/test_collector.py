"""api.server.collector: survivors of the middle generation are frozen (kept out of later walks), and a ring of
objects that became garbage after it was frozen is still freed, by the first full collection once one is due."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from api.server.collector import Freezer


class Node:
    other: Node | None = None


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def freezer() -> Iterator[tuple[Freezer, Clock]]:
    clock = Clock()
    installed = Freezer(every=600.0, clock=clock)
    gc.collect()
    gc.callbacks.append(installed)
    try:
        yield installed, clock
    finally:
        gc.callbacks.remove(installed)
        gc.unfreeze()
        gc.collect()


def ring() -> Node:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return first


def test_the_survivors_of_a_middle_collection_are_frozen(freezer: tuple[Freezer, Clock]) -> None:
    kept = [Node() for _ in range(100)]
    before = gc.get_freeze_count()
    gc.collect(1)
    assert gc.get_freeze_count() >= before + len(kept)


def test_a_young_collection_freezes_nothing(freezer: tuple[Freezer, Clock]) -> None:
    before = gc.get_freeze_count()
    gc.collect(0)
    assert gc.get_freeze_count() == before


def test_a_ring_dropped_after_freezing_waits_for_the_next_due_full_collection(
    freezer: tuple[Freezer, Clock],
) -> None:
    installed, clock = freezer
    held = ring()
    alive = weakref.ref(held)
    gc.collect(1)  # the ring is in use: frozen with the other survivors
    del held  # from here on only the ring itself refers to its nodes
    gc.collect()  # a full collection before it is due walks only what is not frozen
    assert alive() is not None, "a frozen ring is left alone until a full walk is due"
    clock.now = 600.0
    gc.collect()
    assert alive() is None, "the due full collection walked the frozen objects too"
    assert installed.full_walks == 1
    clock.now = 601.0
    gc.collect()
    assert installed.full_walks == 1, "the next full walk is ten minutes later"
