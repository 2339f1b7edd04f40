"""Fixtures of the API's tests on Redis that count the commands a request sends."""

from __future__ import annotations

import pytest

from replay import snapshots


@pytest.fixture
def no_snapshot_due(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's snapshot versions fall at a phase drawn from its random id, so one write in fifty would also
    store a snapshot (one more script) and a count of a request's commands would fail by chance: the phase is
    set past every version these tests reach, and the commands counted are the request's alone, every run."""
    monkeypatch.setattr(snapshots, "snapshot_phase", lambda game_id: snapshots.SNAPSHOT_EVERY - 1)
