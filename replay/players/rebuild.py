"""Reading every game's facts for a rebuild in several processes (``heronlog players rebuild --jobs``): each
opens the store on its own and reads a share of the games, as the sequential rebuild reads them all. The seam of
the rebuild's speed: the plain path (:meth:`replay.services.players.Players.facts_of`, one game after another) is
the one the pool's workers run."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any
from uuid import UUID

from replay.config import StoreConfig, open_log
from replay.players.facts import GameFacts

CHUNK = 100
"""Games a worker reads per task."""

_opened: Any = None


def _open(config: StoreConfig) -> None:
    global _opened  # noqa: PLW0603  # one game log per worker process, opened once
    _opened = open_log(config, CACHE_MB="0")


def _read(games: Sequence[str]) -> list[str]:
    found = (_opened.players.facts_of(UUID(game)) for game in games)
    return [facts.to_json() for facts in found if facts is not None]


def reader(config: StoreConfig, jobs: int) -> Callable[[Sequence[UUID]], Iterator[GameFacts]]:
    """Reads games' facts in ``jobs`` processes, each on its own connection to the store of ``config``."""

    def read(games: Sequence[UUID]) -> Iterator[GameFacts]:
        chunks = [
            [str(game) for game in games[start : start + CHUNK]] for start in range(0, len(games), CHUNK)
        ]
        with ProcessPoolExecutor(max_workers=jobs, initializer=_open, initargs=(config,)) as pool:
            for texts in pool.map(_read, chunks):
                yield from (GameFacts.from_json(text) for text in texts)

    return read
