"""Owner and seat tokens (replay/access.py): only hashes are stored, a game never exists without its owner,
and a seat's new token retires the old one."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

import domain
from replay.access import AccessGranted, AccessRevoked, Forbidden, InvalidSeat, hash_token, stream_id
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.exports import event_to_dict
from replay.services.exchange import Exchange


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def stored(log: GameLog, game_id: object) -> str:
    return json.dumps(
        [event_to_dict(e) for e in log.stores.all[0].events.get(stream_id(game_id))], default=str
    )  # type: ignore[arg-type]


def test_a_created_game_has_its_owner_from_its_first_moment_and_only_the_hash_is_stored(
    log: GameLog,
) -> None:
    issued = log.create_game({"players": ["Ann", "Bo"], "seed": 1})
    assert issued.grant.role == "owner" and issued.grant.actor == "owner"
    assert log.get_game(issued.game_id).version == 1
    text = stored(log, issued.game_id)
    assert issued.token not in text
    assert hashlib.sha256(issued.token.encode()).hexdigest() in text
    assert log.authenticate(issued.game_id, issued.token) == issued.grant


def test_a_token_works_for_its_own_game_only(log: GameLog) -> None:
    first = log.create_game({"players": 2})
    second = log.create_game({"players": 2})
    assert log.authenticate(first.game_id, second.token) is None
    assert log.authenticate(first.game_id, first.token + "x") is None
    assert log.authenticate(first.game_id, "") is None


def test_a_new_seat_token_retires_the_old_one_and_revoking_retires_it_too(log: GameLog) -> None:
    game = log.create_game({"players": 3})
    old = log.issue_seat_token(game.game_id, 1, by="owner")
    new = log.issue_seat_token(game.game_id, 1, by="owner")
    assert new.grant.actor == "seat:1"
    assert log.authenticate(game.game_id, old.token) is None
    assert log.authenticate(game.game_id, new.token) == new.grant
    assert log.revoke_seat(game.game_id, 1, by="owner") == 1
    assert log.authenticate(game.game_id, new.token) is None
    assert log.authenticate(game.game_id, game.token) is not None
    kinds = [type(e) for e in log.stores.all[0].events.get(stream_id(game.game_id))]
    assert kinds == [AccessGranted, AccessGranted, AccessRevoked, AccessGranted, AccessRevoked]


def test_a_seat_the_game_does_not_have_is_refused(log: GameLog) -> None:
    game = log.create_game({"players": 2})
    with pytest.raises(InvalidSeat):
        log.issue_seat_token(game.game_id, 2, by="owner")


def test_forks_and_imports_get_an_owner_of_their_own(log: GameLog) -> None:
    game = log.create_game({"players": 2, "seed": 4})
    fork = log.fork(game.game_id, 1)
    copy = log.import_log(log.export(game.game_id), keep_id=False)
    for issued in (fork, copy):
        assert issued.game_id != game.game_id
        assert log.authenticate(issued.game_id, issued.token) is not None
        assert log.authenticate(issued.game_id, game.token) is None
    assert hash_token(fork.token) != hash_token(copy.token)


def test_a_seat_token_issued_while_another_is_issued_for_that_seat_is_still_answered(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two owners' phones ask for seat 1 at once: the second request's grant revokes the first one's right
    # after it is written. The first request once re-read the grants to answer, and failed (KeyError: a 500).
    game = log.create_game({"players": 3})
    home = log.stores.of(game.game_id)
    save = home.save
    racing: list[Any] = []

    def save_then_race(*events: Any) -> Any:
        saved = save(*events)
        if not racing:
            racing.append(None)
            racing.append(log.issue_seat_token(game.game_id, 1, by="owner"))
        return saved

    monkeypatch.setattr(home, "save", save_then_race)
    first = log.issue_seat_token(game.game_id, 1, by="owner")
    second = racing[1]
    assert first.grant.actor == second.grant.actor == "seat:1"
    assert first.grant.id != second.grant.id
    assert log.authenticate(game.game_id, first.token) is None  # revoked by the later one, as it should be
    assert log.authenticate(game.game_id, second.token) == second.grant


def test_an_import_racing_another_for_the_same_id_takes_a_new_one(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two imports of one export at once both find its id free; the second to write then finds it taken (the
    store's IntegrityError), and its copy takes a new id instead of failing (it was a 500)."""
    game = log.create_game({"players": 2, "seed": 4})
    document = log.export(game.game_id)
    # as a racing import sees it: the id still free when it looked, taken by the time it writes
    monkeypatch.setattr(Exchange, "_free_id", lambda self, data: game.game_id)
    copy = log.import_log(document)
    assert copy.game_id != game.game_id
    assert log.authenticate(copy.game_id, copy.token) is not None
    assert log.authenticate(game.game_id, game.token) is not None


def test_the_game_log_itself_keeps_a_seat_token_to_its_seat_whoever_calls_it(log: GameLog) -> None:
    """The check is the services', not the API's: a worker or the command line handing the log a seat's grant
    gets the same refusals (and no grant at all acts as the owner)."""
    game_id = log.create_game({"players": ["Ann", "Bo"], "seed": 2}).game_id
    game = log.get(game_id)
    move = domain.legal_moves(game.state)[0]
    other = log.issue_seat_token(game_id, 1 - move["seat"], by="owner").grant
    with pytest.raises(Forbidden) as refused:
        log.play(game_id, move, expected_version=game.version, grant=other)
    assert refused.value.details["seats"] == [move["seat"]]
    played = log.play(game_id, move, expected_version=game.version)  # no grant: the owner's write
    with pytest.raises(Forbidden):
        log.undo(game_id, expected_version=played.game.version, grant=other)
    assert log.get(game_id).version == played.game.version


def test_only_the_owners_grant_abandons_or_hands_out_seat_tokens_whoever_calls_the_service(
    log: GameLog,
) -> None:
    """The owner's writes are decided by the services (a command or a worker meets the same check as the API):
    a seat's grant is refused and nothing is written; the owner's grant is taken."""
    game = log.create_game({"players": 3})
    seat = log.issue_seat_token(game.game_id, 1, by="owner")
    before = stored(log, game.game_id)
    with pytest.raises(Forbidden):
        log.tokens.issue_seat_token(game.game_id, 2, by=seat.grant.actor, grant=seat.grant)
    with pytest.raises(Forbidden):
        log.tokens.revoke_seat(game.game_id, 1, by=seat.grant.actor, grant=seat.grant)
    with pytest.raises(Forbidden):
        log.history.abandon(game.game_id, expected_version=1, grant=seat.grant)
    assert stored(log, game.game_id) == before and log.get_game(game.game_id).status != "abandoned"
    assert log.tokens.issue_seat_token(game.game_id, 2, by="owner", grant=game.grant).grant.actor == "seat:2"
    assert log.history.abandon(game.game_id, expected_version=1, grant=game.grant).game.status == "abandoned"
