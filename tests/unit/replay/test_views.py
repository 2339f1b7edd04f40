"""The views of the memory and SQLite stores (replay.views): the cases every store's views pass alike."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from replay.config import StoreConfig, open_log
from replay.views import Views
from tests.views_cases import CASES


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.__name__)
def test_views(kind: str, case: Callable[[Views], None], tmp_path: Path) -> None:
    store = (
        StoreConfig(kind="sqlite", sqlite_path=tmp_path / "v.sqlite")
        if kind == "sqlite"
        else StoreConfig(kind="memory")
    )
    log = open_log(store)
    try:
        case(log.stores.all[0].views)
    finally:
        log.close()
