"""Reading the players' projection: the list of players, a player's record and rating, their games, and two players
head to head, each in a few reads of the views (:mod:`replay.views`).

What is kept counts public games only. A request that holds tokens of private games (``held``: their facts) sees
them added here, to its own answer only; without, nothing in an answer depends on a private game (ratings never
do: :mod:`replay.players.rating`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from replay.index import matches, terms_of, words_in
from replay.players import rating
from replay.players.facts import GameFacts
from replay.players.keys import META, SHIFT, Keys
from replay.players.projection import Projection, pid
from replay.players.record import LINES, parts, record_of, summed, versus_of

ORDERS = ("games", "wins", "rating")
HISTORY = 200
"""The most rated games a player's rating history shows (the latest)."""
VERSUS_SHOWN = 50
"""The most rivals a player's record lists (those played with most)."""
TOGETHER_SHOWN = 20
"""The most games a head-to-head answer lists (the latest finished ones)."""


@dataclass(frozen=True)
class Row:
    """A player as the list shows them."""

    player_id: str
    name: str
    listed: int
    games: int
    won: int
    rating: rating.Rating | None


def _name(text: str | None) -> str | None:
    return text.split("|", 1)[1] if text else None


def _rating(text: str | None) -> rating.Rating | None:
    return rating.Rating.parse(text) if text else None


class Reading:
    """Answers from the players' projection (see the module docstring)."""

    def __init__(self, projection: Projection) -> None:
        self.projection = projection

    def _read(self, reads: Sequence[Any], *, fresh: bool = True) -> tuple[Keys, list[Any]]:
        """The generation in use and the answers to ``reads`` (each a function of its keys), once the projection
        has taken every game listed and worked the ratings out (``fresh``; a request's later reads need not
        ask again)."""
        projection = self.projection
        for _ in range(4):
            keys = projection.keys()
            answers = projection.views.read(
                [("hmget", META, ["current"]), ("hgetall", keys.state), *reads_of(reads, keys)]
            )
            if not projection.checked(answers[0][0]):
                continue
            state = answers[1]
            if fresh and projection.behind(state):
                if state.get("dirty"):
                    projection.settle()
                projection.catch_up(state)
                continue
            return keys, answers[2:]
        return keys, answers[2:]

    # --- the list -------------------------------------------------------------------------------------------

    def page(
        self, *, order: str, search: str | None, offset: int, limit: int, held: Sequence[GameFacts]
    ) -> tuple[list[Row], int]:
        """A page of players (most games, most wins, or highest rating first; unrated players after the rated
        ones), those whose name has words that the search's words start; and how many there are."""
        terms = terms_of(search)
        private = summed(parts(facts, pid) for facts in held)
        if not terms and not private:
            _, (total, page) = self._read(
                [lambda k: ("zcard", k.by("games")), lambda k: ("zrange", k.by(order), offset, limit, True)]
            )
            if len(page) == limit or order != "rating" or offset + len(page) >= total:
                return self._rows([player for player, _ in page]), int(total)
            # the page reaches the unrated players, listed after the rated ones: worked out from every player
        counts, names, rated = self._every_player(terms) if not private else self._every_player(terms, held)
        for player, counters in private.items():
            mine = counts.setdefault(player, [0, 0, 0])
            mine[0] += counters["games"]
            mine[1] += counters["won"]
            mine[2] += counters["listed"]
        players = [player for player in counts if not terms or matches(_text(names.get(player, "")), terms)]
        for player in players:
            rated.setdefault(player, None)

        def sort_key(player: str) -> tuple[Any, ...]:
            games_of, won, listed = counts[player]
            if order == "rating":  # as the sorted sets order them: rated by rating, then the rest by games
                held_rating = rated[player]
                if held_rating is not None:
                    return (True, held_rating.ordinal, 0, 0, player)
                return (False, 0.0, games_of, listed, player)
            if order == "wins":
                return (won, listed, player)
            return (games_of, listed, player)

        players.sort(key=sort_key, reverse=True)
        chosen = players[offset : offset + limit]
        rows = [
            Row(
                player,
                names.get(player, ""),
                counts[player][2],
                counts[player][0],
                counts[player][1],
                rated[player],
            )
            for player in chosen
        ]
        return rows, len(players)

    def _every_player(
        self, terms: Sequence[str], held: Sequence[GameFacts] = ()
    ) -> tuple[dict[str, list[int]], dict[str, str], dict[str, rating.Rating | None]]:
        """Each player's finished games, wins and games listed, name and rating: of those whose name the search's
        terms match (when there are terms and no private games: only they are read), else of every player."""
        if terms and not held:
            _, (named,) = self._read([lambda k: ("hgetall", k.named)])
            names = {player: _name(text) or "" for player, text in named.items()}
            found = [player for player, name in names.items() if matches(_text(name), terms)]
            _, (held_ratings, *scores) = self._read(
                [
                    lambda k: ("hmget", k.ratings, found),
                    *(
                        lambda k, p=player, o=order: ("zscore", k.by(o), p)
                        for player in found
                        for order in ("games", "wins")
                    ),
                ],
                fresh=False,
            )
            counts: dict[str, list[int]] = {}
            for index, player in enumerate(found):
                games, wins = scores[2 * index], scores[2 * index + 1]
                if games is not None:  # a name left by a player whose games are all someone else's now
                    counts[player] = [int(games) // SHIFT, int(wins or 0) // SHIFT, int(games) % SHIFT]
            rated = {player: _rating(text) for player, text in zip(found, held_ratings, strict=True)}
            return counts, names, rated
        _, (games, wins, named, ratings) = self._read(
            [
                lambda k: ("zrange", k.by("games"), 0, 10**9, True),
                lambda k: ("zrange", k.by("wins"), 0, 10**9, True),
                lambda k: ("hgetall", k.named),
                lambda k: ("hgetall", k.ratings),
            ]
        )
        counts = {player: [int(score) // SHIFT, 0, int(score) % SHIFT] for player, score in games}
        for player, score in wins:
            if player in counts:
                counts[player][1] = int(score) // SHIFT
        names = {player: _name(text) or "" for player, text in named.items()}
        for facts in held:
            for seat in facts.people:
                names.setdefault(pid(seat.player), seat.player)
        return counts, names, {player: _rating(text) for player, text in ratings.items()}

    def _rows(self, players: list[str]) -> list[Row]:
        if not players:
            return []
        _, answers = self._read(
            [
                lambda k: ("hmget", k.named, players),
                lambda k: ("hmget", k.ratings, players),
                *(
                    lambda k, p=player: ("hmget", k.counters(p), ["listed", "games", "won"])
                    for player in players
                ),
            ],
            fresh=False,
        )
        named, ratings, *counters = answers
        return [
            Row(player, _name(name) or "", int(c[0] or 0), int(c[1] or 0), int(c[2] or 0), _rating(text))
            for player, name, text, c in zip(players, named, ratings, counters, strict=True)
        ]

    # --- one player -----------------------------------------------------------------------------------------

    def player(self, player: str, held: Sequence[GameFacts]) -> dict[str, Any] | None:
        """A player's record, rating (with its history) and rivals; None when there is no such player (or none
        this request may see)."""
        _, (counters, named, held_rating, best, history, club) = self._read(
            [
                lambda k: ("hgetall", k.counters(player)),
                lambda k: ("hmget", k.named, [player]),
                lambda k: ("hmget", k.ratings, [player]),
                lambda k: ("zrange", k.best(player), 0, 1, True),
                lambda k: ("zrange", k.rated_by(player), 0, HISTORY, True),
                lambda k: ("hgetall", k.club),
            ]
        )
        mine = Counter({name: int(value) for name, value in counters.items()})
        name = _name(named[0])
        best_score = (int(best[0][1]), best[0][0]) if best else None
        for facts in held:
            for seat in facts.people:
                if pid(seat.player) != player:
                    continue
                name = name or seat.player
                better = best_score is None or (seat.total or 0) > best_score[0]
                if facts.counted and not facts.solo and seat.total is not None and better:
                    best_score = (seat.total, UUID(facts.game_id).hex)
        mine.update(summed(parts(facts, pid) for facts in held).get(player, Counter()))
        if not mine.get("listed"):
            return None
        rivals = versus_of(mine)
        shown = sorted(rivals, key=lambda other: (-rivals[other]["games"], other))[:VERSUS_SHOWN]
        games = [game for game, _ in reversed(history)]
        _, (rival_names, afters) = self._read(
            [lambda k: ("hmget", k.named, shown), lambda k: ("hmget", k.after, games)], fresh=False
        )
        names = dict(zip(shown, (_name(text) for text in rival_names), strict=True))
        for facts in held:
            for seat in facts.people:
                if names.get(pid(seat.player)) is None:
                    names[pid(seat.player)] = seat.player
        club_counts = {key: int(value) for key, value in club.items()}
        club_games = club_counts.get("games", 0)
        record = record_of(mine, (best_score[0], str(UUID(best_score[1]))) if best_score else None)
        for line in record["lines"]:
            total = club_counts.get(f"line:{line['line']}", 0)
            line["club_mean"] = round(total / club_games, 2) if club_games else None
        now = _rating(held_rating[0])
        return {
            "player_id": player,
            "name": name or "",
            "record": record,
            "rating": now,
            "history": [
                {
                    "game_id": str(UUID(game)),
                    "finished": int(score),
                    "rating": rating.Rating.parse(mine_after),
                }
                for (game, score), after in zip(reversed(history), afters, strict=True)
                if after is not None and (mine_after := json.loads(after).get(player)) is not None
            ],
            "versus": [
                {"player_id": other, "name": names.get(other) or "", **_tied(rivals[other])}
                for other in shown
            ],
        }

    def games(
        self, player: str, *, offset: int, limit: int, held: Sequence[GameFacts]
    ) -> tuple[list[tuple[GameFacts, int]], int] | None:
        """A page of a player's games, newest first (each with the seat they sat in), and how many there are;
        None when there is no such player (or none this request may see)."""
        mine = [facts for facts in held if any(pid(seat.player) == player for seat in facts.people)]
        if not mine:
            _, (total, page) = self._read(
                [
                    lambda k: ("zcard", k.played(player)),
                    lambda k: ("zrange", k.played(player), offset, limit, True),
                ]
            )
            found = [game for game, _ in page]
        else:
            _, (total, page) = self._read(
                [
                    lambda k: ("zcard", k.played(player)),
                    lambda k: ("zrange", k.played(player), 0, offset + limit, True),
                ]
            )
            merged = sorted(
                [(score, game) for game, score in page] + [(f.played, UUID(f.game_id).hex) for f in mine],
                reverse=True,
            )
            found = [game for _, game in merged[offset : offset + limit]]
            total += len(mine)
        if not total:
            return None
        facts = {UUID(f.game_id).hex: f for f in mine}
        facts.update(
            {k.hex: v for k, v in self.projection.facts(UUID(g) for g in found if g not in facts).items()}
        )
        rows = []
        for game in found:
            if game in facts:
                seat = next(s.seat for s in facts[game].people if pid(s.player) == player)
                rows.append((facts[game], seat))
        return rows, int(total)

    def versus(self, player: str, other: str, held: Sequence[GameFacts]) -> dict[str, Any] | None:
        """Two players head to head: their finished games together, who finished ahead how often, and the latest
        of those games; None when either is no player this request may see."""
        _, (mine, theirs, names, together) = self._read(
            [
                lambda k: ("hgetall", k.counters(player)),
                lambda k: ("hmget", k.counters(other), ["listed"]),
                lambda k: ("hmget", k.named, [player, other]),
                lambda k: ("zinter", k.played(player), k.played(other), 0, 200),
            ]
        )
        counters = Counter({name: int(value) for name, value in mine.items()})
        private = summed(parts(facts, pid) for facts in held)
        counters.update(private.get(player, Counter()))
        listed_other = int(theirs[0] or 0) + private.get(other, Counter())["listed"]
        if not counters.get("listed") or not listed_other:
            return None
        shown = [name for name in (_name(names[0]), _name(names[1]))]
        games = {UUID(g): score for g, score in together}
        for facts in held:
            seated = {pid(seat.player) for seat in facts.people}
            if {player, other} <= seated:
                games[UUID(facts.game_id)] = float(facts.played)
                for seat in facts.people:
                    index = 0 if pid(seat.player) == player else 1 if pid(seat.player) == other else None
                    if index is not None and shown[index] is None:
                        shown[index] = seat.player
        kept = {**self.projection.facts(g for g in games if g not in {UUID(f.game_id) for f in held})}
        kept.update({UUID(f.game_id): f for f in held if UUID(f.game_id) in games})
        finished = sorted(
            (facts for facts in kept.values() if facts.counted and not facts.solo),
            key=lambda facts: facts.played,
            reverse=True,
        )[:TOGETHER_SHOWN]
        return {
            "player": {"player_id": player, "name": shown[0] or ""},
            "other": {"player_id": other, "name": shown[1] or ""},
            **_tied(versus_of(counters).get(other, {"games": 0, "ahead": 0, "behind": 0})),
            "games": finished,
        }


def _tied(versus: Mapping[str, int]) -> dict[str, int]:
    return {
        "games_together": versus["games"],
        "ahead": versus["ahead"],
        "behind": versus["behind"],
        "tied": versus["games"] - versus["ahead"] - versus["behind"],
    }


def _text(name: str) -> str:
    return "".join(" " + word for word in words_in(name))


def reads_of(reads: Sequence[Any], keys: Keys) -> list[Any]:
    return [read(keys) for read in reads]


__all__ = ["LINES", "ORDERS", "Reading", "Row"]
