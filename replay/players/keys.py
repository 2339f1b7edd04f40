"""The names of the players' projection's hashes and sorted sets (:mod:`replay.views`), one set per generation: a
rebuild writes a new generation beside the one in use and then makes it the one in use."""

from __future__ import annotations

from dataclasses import dataclass

META = "players:meta"
"""The one hash outside every generation: ``current`` names the generation in use."""
SHIFT = 2**26
"""The sort scores put a count above the games listed: ``count * SHIFT + listed`` (exact while both stay below
2**26, some 67 million)."""


@dataclass(frozen=True)
class Keys:
    """The keys of one generation (its name is part of each)."""

    generation: str

    def _key(self, name: str) -> str:
        return f"players:{self.generation}:{name}"

    @property
    def games(self) -> str:
        """Hash: game (hex) -> its facts (JSON), private games too."""
        return self._key("games")

    @property
    def stamps(self) -> str:
        """Hash: game (hex) -> the versions its facts were read at (what a change is guarded by)."""
        return self._key("stamps")

    @property
    def named(self) -> str:
        """Hash: player id -> ``<played>|<name>``: the name of their latest public game."""
        return self._key("named")

    @property
    def club(self) -> str:
        """Hash: the counters of every player together (the club's means)."""
        return self._key("club")

    @property
    def state(self) -> str:
        """Hash: ``pos:<store>`` (the index position each store's games are projected up to), ``dirty`` (the
        order key from which ratings are to be worked out again), ``rated`` (the key they are worked out to),
        ``revision`` (of the rated games)."""
        return self._key("state")

    def by(self, order: str) -> str:
        """Sorted set of player ids: ``games``, ``wins`` (see :data:`SHIFT`) or ``rating`` (the ordinal)."""
        return self._key(f"by:{order}")

    def counters(self, player: str) -> str:
        """Hash: a player's counters (:mod:`replay.players.record`), public games only."""
        return self._key(f"c:{player}")

    def played(self, player: str) -> str:
        """Sorted set: a player's public games (hex) by date."""
        return self._key(f"g:{player}")

    def best(self, player: str) -> str:
        """Sorted set: a player's counted games (hex) by total score."""
        return self._key(f"best:{player}")

    @property
    def rated(self) -> str:
        """Sorted set: the rated games (hex) by when they finished: the order ratings are worked out in."""
        return self._key("rated")

    @property
    def entries(self) -> str:
        """Hash: rated game (hex) -> ranks and players (:func:`replay.players.rating.entry_of`)."""
        return self._key("entries")

    @property
    def after(self) -> str:
        """Hash: rated game (hex) -> its players' ratings after it (JSON)."""
        return self._key("after")

    @property
    def ratings(self) -> str:
        """Hash: player id -> their rating now."""
        return self._key("ratings")

    def rated_by(self, player: str) -> str:
        """Sorted set: a player's rated games (hex) by when they finished (their rating's history)."""
        return self._key(f"r:{player}")

    def of_player(self, player: str) -> list[str]:
        """Every key of one player."""
        return [self.counters(player), self.played(player), self.best(player), self.rated_by(player)]

    @property
    def shared(self) -> list[str]:
        """Every key that is not one player's."""
        return [
            self.games,
            self.stamps,
            self.named,
            self.club,
            self.state,
            self.by("games"),
            self.by("wins"),
            self.by("rating"),
            self.rated,
            self.entries,
            self.after,
            self.ratings,
        ]
