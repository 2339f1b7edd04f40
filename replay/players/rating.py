"""Ratings: openskill's Plackett-Luce model (docs/api/players.md), updated once per rated game in the
order the games finished.

A rated game is a finished public multiplayer game (not a branch, not solo): its people ranked as the rules rank
them (R-F09; a shared rank is a tie). The order is when each game's last move was recorded, then the game's id:
the same whatever order the games were stored or projected in, so the ratings are too. Each rating is a mean
``mu`` and an uncertainty ``sigma``; lists sort by openskill's ordinal ``mu - 3 sigma``, the rating a player
holds with near certainty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from replay.players.facts import GameFacts

MODEL = PlackettLuce()
"""The rating model (openskill's defaults: a new player starts at mu 25, sigma 25/3)."""


@dataclass(frozen=True)
class Rating:
    """A player's rating after some rated games."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The rating a player holds with near certainty (``mu - 3 sigma``): what lists sort by."""
        return self.mu - 3 * self.sigma

    def text(self) -> str:
        return f"{self.mu!r} {self.sigma!r} {self.games}"

    @classmethod
    def parse(cls, text: str) -> Rating:
        mu, sigma, games = text.split()
        return cls(float(mu), float(sigma), int(games))


def first() -> Rating:
    """The rating of a player before their first rated game."""
    fresh = MODEL.rating()
    return Rating(float(fresh.mu), float(fresh.sigma))


def rated(facts: GameFacts) -> bool:
    """Whether a game moves ratings (see the module docstring)."""
    return facts.counted and not facts.private and not facts.solo and len(facts.people) >= 2


def order_key(finished: int, game_id: str) -> str:
    """Where a rated game stands in the order ratings are updated in, as text that sorts in that order."""
    return f"{finished:020d}_{game_id}"


def entry_of(facts: GameFacts, player_id: Mapping[str, str]) -> str:
    """A rated game as the ratings read it: each person's rank and player id, in seat order."""
    return " ".join(f"{seat.rank} {player_id[seat.player]}" for seat in facts.people)


def parse_entry(text: str) -> list[tuple[int, str]]:
    words = text.split()
    return [(int(words[k]), words[k + 1]) for k in range(0, len(words), 2)]


def update(ratings: Mapping[str, Rating], entry: Sequence[tuple[int, str]]) -> dict[str, Rating]:
    """The ratings of one game's players after it (each player's before, :func:`first` when they have none)."""
    players = [player for _, player in entry]
    before = [ratings.get(player) or first() for player in players]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in before]
    after = MODEL.rate(teams, ranks=[float(rank) for rank, _ in entry])
    return {
        player: Rating(float(team[0].mu), float(team[0].sigma), was.games + 1)
        for player, team, was in zip(players, after, before, strict=True)
    }


def replay(
    entries: Iterable[tuple[str, Sequence[tuple[int, str]]]],
) -> tuple[dict[str, Rating], dict[str, dict[str, Rating]]]:
    """Every player's rating after ``entries`` (order key and entry, in order), and each game's ratings after it."""
    ratings: dict[str, Rating] = {}
    after: dict[str, dict[str, Rating]] = {}
    for key, entry in entries:
        changed = update(ratings, entry)
        ratings.update(changed)
        after[key] = changed
    return ratings, after
