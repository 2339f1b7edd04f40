"""bench/move_parts.py: the parts of a move are each timed, and the floor it reports is their arithmetic. Real
Redis (the suite's), a few moves; no timing is asserted, only that every part was measured and added up."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.tools.benches import load_bench


@pytest.fixture(scope="module")
def parts_module() -> ModuleType:
    return load_bench("move_parts")


def test_every_part_of_a_move_is_timed_and_the_floor_adds_the_unskippable_ones(
    parts_module: ModuleType, redis_url: str
) -> None:
    measured = parts_module.measure(redis_url, moves=40, warm=5)
    assert measured.moves == 40
    for part in parts_module.PARTS:
        assert measured.cpu[part] > 0, part
    assert measured.requests["move"] > 0 and measured.requests["healthz"] > 0
    unskippable = sum(measured.ms(part) for part in parts_module.UNSKIPPABLE)
    assert measured.floor_ms == pytest.approx(unskippable)
    assert set(parts_module.UNSKIPPABLE) < set(parts_module.PARTS)


def test_the_report_puts_the_floor_beside_the_http_healthz_of_the_same_run(parts_module: ModuleType) -> None:
    parts = parts_module.Parts(moves=1000)
    for part, seconds in zip(parts_module.PARTS, (0.15, 0.1, 0.2, 0.2), strict=True):
        parts.cpu[part] = seconds
    parts.requests.update(move=1.0, healthz=0.2)
    lines = "\n".join(parts_module.report(parts, healthz_http_ms=0.25, move_http_ms=1.5))
    # deciding 0.1 + the append 0.2 + the answer 0.2 = 0.5 ms per move; with /healthz's 0.25: 0.75 ms, 3.0x
    assert "(0.500 ms) = 0.750 ms, 3.0× a `/healthz`" in lines
    assert "measured over HTTP: 1.500 ms, 6.0×" in lines
    assert "| the parts together | 0.650 ms | |" in lines
