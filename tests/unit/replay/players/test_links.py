"""Who sat where: a game's owner links a seat to another player (an event of its own stream, beside the game's),
merges two players or splits one; each seat counts once, and the game's own log never changes."""

from __future__ import annotations

import random
from pathlib import Path
from uuid import UUID

import pytest

import domain
from replay.access import Forbidden, Grant
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import StaleVersion
from replay.players.links import SeatTaken
from replay.players.names import id_of
from replay.text import InvalidText
from tests.replay_helpers import pick


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def finished(log: GameLog, names: list[str], seed: int = 1, private: bool = False) -> tuple[UUID, Grant]:
    issued = log.create_game({"players": names, "seed": seed, "private": private})
    rng = random.Random(seed)
    game = log.get(issued.game_id)
    while not domain.is_over(game.state):
        game = log.play(game.id, pick(game.state, rng), expected_version=game.version, actor="owner").game
    grant = log.games.access(issued.game_id).match(issued.token)
    assert grant is not None
    return issued.game_id, grant


def games_of(log: GameLog, name: str) -> int:
    found = log.players.reading.player(id_of(name), ())
    return 0 if found is None else int(found["record"]["games"])


def test_a_seat_linked_to_a_new_name_counts_for_that_player_and_the_games_log_is_unchanged(
    log: GameLog,
) -> None:
    game_id, owner = finished(log, ["Aiko", "Ben"])
    events = log.events_of(game_id)
    log.players.link(log.get(game_id), owner, {0: "Aiko Tanaka"}, expected_version=0)
    assert (games_of(log, "Aiko"), games_of(log, "Aiko Tanaka"), games_of(log, "Ben")) == (0, 1, 1)
    assert log.events_of(game_id) == events
    log.players.link(log.get(game_id), owner, {0: "Aiko"}, expected_version=1)  # taken back
    assert (games_of(log, "Aiko"), games_of(log, "Aiko Tanaka")) == (1, 0)


def test_a_link_names_the_links_version_it_expects(log: GameLog) -> None:
    game_id, owner = finished(log, ["Aiko", "Ben"])
    log.players.link(log.get(game_id), owner, {0: "Aiko T"}, expected_version=0)
    with pytest.raises(StaleVersion):
        log.players.link(log.get(game_id), owner, {1: "Ben T"}, expected_version=0)


def test_one_player_cannot_sit_in_two_seats_of_a_game(log: GameLog) -> None:
    game_id, owner = finished(log, ["Aiko", "Ben"])
    with pytest.raises(SeatTaken):
        log.players.link(log.get(game_id), owner, {1: "aiko"}, expected_version=0)
    assert games_of(log, "Ben") == 1


def test_only_the_owner_links_and_only_plain_one_line_names(log: GameLog) -> None:
    game_id, owner = finished(log, ["Aiko", "Ben"])
    seat = log.issue_seat_token(game_id, 1, by="owner")
    seat_grant = log.games.access(game_id).match(seat.token)
    assert seat_grant is not None
    with pytest.raises(Forbidden):
        log.players.link(log.get(game_id), seat_grant, {1: "Ben T"}, expected_version=0)
    for name in ("Ben\u202eT", "Ben\x1b[31m", " ", "x" * 41):
        with pytest.raises(InvalidText):
            log.players.link(log.get(game_id), owner, {1: name}, expected_version=0)
    assert games_of(log, "Ben") == 1


def test_a_merge_moves_every_seat_the_request_owns_and_counts_the_rest_left(log: GameLog) -> None:
    first, owner_one = finished(log, ["Aiko", "Ben"], seed=1)
    second, owner_two = finished(log, ["Aikko", "Chie"], seed=2)
    third, _ = finished(log, ["Aikko", "Dai"], seed=3)  # owned by someone else
    owned = [(log.get(first), owner_one), (log.get(second), owner_two)]
    done = log.players.relink(id_of("Aikko"), "Aiko", owned)
    assert list(done.games) == [str(second)] and done.left == 1
    assert (games_of(log, "Aiko"), games_of(log, "Aikko")) == (2, 1)
    versus = log.players.reading.player(id_of("Aiko"), ())
    assert versus is not None and {rival["name"] for rival in versus["versus"]} == {"Ben", "Chie"}
    assert third  # its owner merges it


def test_a_split_moves_only_the_seats_named(log: GameLog) -> None:
    first, owner_one = finished(log, ["Ben", "Aiko"], seed=1)
    second, owner_two = finished(log, ["Ben", "Chie"], seed=2)
    owned = [(log.get(first), owner_one), (log.get(second), owner_two)]
    log.players.relink(id_of("Ben"), "Ben K", owned, only={second: {0}})
    assert (games_of(log, "Ben"), games_of(log, "Ben K")) == (1, 1)


def test_a_private_game_counts_only_for_a_request_holding_its_token(log: GameLog) -> None:
    finished(log, ["Aiko", "Ben"], seed=1)
    secret, owner = finished(log, ["Aiko", "Zed"], seed=2, private=True)
    assert log.players.reading.player(id_of("Zed"), ()) is None
    rows, total = log.players.reading.page(order="games", search=None, offset=0, limit=10, held=())
    assert {row.name for row in rows} == {"Aiko", "Ben"} and total == 2
    assert games_of(log, "Aiko") == 1
    held = log.players.held_of([(log.get(secret), owner)])
    seen = log.players.reading.player(id_of("Aiko"), held)
    assert seen is not None and seen["record"]["games"] == 2
    rows, total = log.players.reading.page(order="games", search=None, offset=0, limit=10, held=held)
    assert {row.name for row in rows} == {"Aiko", "Ben", "Zed"} and total == 3
    ratings = {row.name: row.rating for row in rows}
    assert ratings["Zed"] is None  # a private game moves no rating


def play_to_the_end(log: GameLog, game_id: UUID, seed: int) -> None:
    rng = random.Random(seed)
    game = log.get(game_id)
    while not domain.is_over(game.state):
        game = log.play(game.id, pick(game.state, rng), expected_version=game.version, actor="owner").game


def test_a_last_move_keeps_the_facts_from_those_held_in_one_change_without_reading_links_or_facts(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    issued = log.create_game({"players": ["Aiko", "Ben"], "seed": 3})
    reads: list[str] = []
    monkeypatch.setattr(log.players, "links", lambda game_id: reads.append("links"))
    monkeypatch.setattr(log.players.projection.views, "read", lambda *a: reads.append("facts"))
    play_to_the_end(log, issued.game_id, 3)
    monkeypatch.undo()
    assert reads == [], "kept from the facts held since the game's creation"
    assert (games_of(log, "Aiko"), games_of(log, "Ben")) == (1, 1)


def test_a_seat_linked_by_another_process_is_read_when_the_last_move_is_kept(tmp_path: Path) -> None:
    """The facts this process held are not the store's any more (another process linked a seat): the change
    guarded by their stamp is refused, and the facts are kept the ordinary way, with the links read."""
    config = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    first, other = open_log(config), open_log(config)
    issued = first.create_game({"players": ["Aiko", "Ben"], "seed": 4})
    grant = other.games.access(issued.game_id).match(issued.token)
    assert grant is not None
    other.players.link(other.get(issued.game_id), grant, {0: "Aiko Tanaka"}, expected_version=0)
    play_to_the_end(first, issued.game_id, 4)
    assert (games_of(first, "Aiko Tanaka"), games_of(first, "Aiko"), games_of(first, "Ben")) == (1, 0, 1)
    first.close()
    other.close()
