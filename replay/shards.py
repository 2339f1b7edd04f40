"""Games spread over several applications ("shards"), each with its own notification log (DESIGN §4).

On Redis, an application's keys share one hash tag, so one application lives on one cluster node. A
:class:`ShardedLog` records games in ``HERONLOG_SHARDS`` applications named ``GameLog0``, ``GameLog1``...
(their keys ``{heronlog:GameLog0}:...``), so Redis Cluster spreads them over its masters; every API process
builds the same shards and so serves any game. A game's shard is a pure function of its id
(:func:`replay.store.shards.shard_index`), so nothing needs to be looked up.

The sharded log answers every method of :class:`~replay.application.GameLog`: the methods about one game are
routed to that game's shard; the others (new games, the list of games, imports) span the shards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID, uuid4

from replay.application import GameLog, GameSummary
from replay.store.shards import shard_classes, shard_index

PER_GAME = frozenset(
    {
        "get",
        "get_game",
        "as_it_stood",
        "state_at",
        "before_move",
        "state_on_line",
        "timeline",
        "locate",
        "events_of",
        "changes_since",
        "watch_for",
        "play",
        "undo",
        "redo",
        "amend",
        "abandon",
        "annotation_stream",
        "annotations",
        "annotate",
        "edit_annotation",
        "delete_annotation",
        "export",
        "export_text",
        "export_bgstats",
        "revalidate",
    }
)
"""GameLog methods whose first argument is a game id: they run on that game's shard."""


class ShardedLog:
    """One game log made of several applications (see the module docstring)."""

    def __init__(self, shards: Sequence[GameLog]) -> None:
        if not shards:
            raise ValueError("a sharded log needs at least one shard")
        self.shards = list(shards)

    @classmethod
    def build(cls, count: int, construct: Callable[[type[GameLog]], GameLog]) -> ShardedLog:
        """``count`` shards, each built by ``construct(shard_class)`` (a GameLog subclass named GameLogK)."""
        return cls([construct(shard_class) for shard_class in shard_classes(GameLog, count)])

    def shard_for(self, game_id: UUID) -> GameLog:
        return self.shards[shard_index(game_id, len(self.shards))]

    def __getattr__(self, name: str) -> Any:
        if name not in PER_GAME:
            raise AttributeError(name)

        def routed(game_id: UUID, *args: Any, **kwargs: Any) -> Any:
            return getattr(self.shard_for(game_id), name)(game_id, *args, **kwargs)

        routed.__name__ = name
        return routed

    def create_game(self, setup: Mapping[str, Any], *, catalog: Mapping[str, Any] | None = None) -> UUID:
        game_id = uuid4()
        return self.shard_for(game_id).create_game(setup, catalog=catalog, game_id=game_id)

    def fork(self, game_id: UUID, version: int) -> UUID:
        branch = uuid4()
        return self.shard_for(game_id).fork(game_id, version, into=self.shard_for(branch), branch=branch)

    def import_log(self, data: Any, *, keep_id: bool = True) -> UUID:
        game_id = self.shards[0].import_id(data, keep_id=False)
        if keep_id and isinstance(data, Mapping):
            try:
                wanted = UUID(str(data.get("game_id")))
            except ValueError:
                wanted = game_id
            game_id = self.shard_for(wanted).import_id(data, keep_id=True)
        return self.shard_for(game_id).import_log(data, game_id=game_id)

    def check_log(self, data: Any) -> Any:
        return self.shards[0].check_log(data)

    def list_games(
        self, *, search: str | None = None, include_private: bool = False, limit: int = 50, offset: int = 0
    ) -> list[GameSummary]:
        """Newest first across every shard."""
        return self.page_of_games(search=search, include_private=include_private, limit=limit, offset=offset)[
            0
        ]

    def page_of_games(
        self, *, search: str | None = None, include_private: bool = False, limit: int = 50, offset: int = 0
    ) -> tuple[list[GameSummary], int]:
        window = offset + limit
        pages = [
            shard.page_of_games(search=search, include_private=include_private, limit=window)
            for shard in self.shards
        ]
        merged = [summary for page, _ in pages for summary in page]
        merged.sort(key=lambda summary: summary.created_on, reverse=True)
        return merged[offset:window], sum(total for _, total in pages)

    def revalidate_all(self) -> list[dict[str, Any]]:
        return [report for shard in self.shards for report in shard.revalidate_all()]

    def iter_game_ids(self) -> Iterator[UUID]:
        for shard in self.shards:
            yield from shard.iter_game_ids()

    def close(self) -> None:
        for shard in self.shards:
            shard.close()
