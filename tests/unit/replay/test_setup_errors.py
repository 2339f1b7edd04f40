"""One ``InvalidSetup``: the game log's checks of a setup and the rules engine's refuse with the same class, so a
caller catches one class and the API answers one code (400 invalid_setup) whichever layer refused."""

from __future__ import annotations

import pytest

import domain
import replay
from replay.config import StoreConfig, open_log
from replay.decisions import normalise_setup


def test_the_game_log_and_the_engine_share_one_class() -> None:
    assert replay.InvalidSetup is domain.InvalidSetup


def test_a_setup_the_log_refuses_is_the_engines_invalid_setup_with_its_details() -> None:
    with pytest.raises(domain.InvalidSetup) as refused:
        normalise_setup({"players": ["Aiko", "Ben"], "mode": "dreamt"})
    assert refused.value.to_dict() == {
        "code": "invalid_setup",
        "rule": None,
        "message": refused.value.message,
        "details": {"mode": "dreamt"},
    }


def test_a_setup_the_engine_refuses_reaches_the_log_as_the_same_class() -> None:
    log = open_log(StoreConfig(kind="memory"))
    with pytest.raises(domain.InvalidSetup) as refused:
        log.create_game({"players": ["Aiko", "Ben"], "options": {"no_such_option": True}})
    assert refused.value.code == "invalid_setup"
