"""A game's result for the outcome loggers (replay.plays), held against fixtures taken from the apps and files
that BG Stats and BoardGameGeek read (tests/unit/replay/fixtures/plays.json names each source)."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.etree import ElementTree

import pytest

import domain
from replay import plays
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from tests.replay_helpers import play_random

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "plays.json").read_text(encoding="utf-8"))
DATE = r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$"


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def finished(log: GameLog, seed: int = 19, **setup: Any) -> uuid.UUID:
    game_id = log.create_game({"players": ["Aiko", "Ben"], "seed": seed, **setup}).game_id
    list(play_random(log, game_id, 5000, random.Random(seed)))
    assert domain.is_over(log.get(game_id).state)
    return game_id


def same_shape(ours: Any, theirs: Any, where: str = "") -> None:
    """Every key of ``theirs`` is in ``ours`` with a value of the same JSON type (lists: their first entries)."""
    if isinstance(theirs, Mapping):
        assert isinstance(ours, Mapping), where
        for key, value in theirs.items():
            if key == "about":
                continue
            assert key in ours, f"{where}.{key} is missing"
            same_shape(ours[key], value, f"{where}.{key}")
    elif isinstance(theirs, list):
        assert isinstance(ours, list), where
        if theirs and ours:
            same_shape(ours[0], theirs[0], f"{where}[0]")
    elif isinstance(theirs, bool):
        assert isinstance(ours, bool), (where, ours)
    elif isinstance(theirs, int):
        assert isinstance(ours, int) and not isinstance(ours, bool), (where, ours)
    else:
        assert isinstance(ours, type(theirs)), (where, ours, theirs)


# --- the BG Stats file --------------------------------------------------------------------------------------


def test_the_bgstats_file_has_the_shape_of_bg_stats_own_export_with_integer_ids(log: GameLog) -> None:
    file = log.export_bgstats(finished(log), me=1, location="Club")
    same_shape(file, FIXTURES["bgstats_file"])
    play = file["plays"][0]
    players = {player["id"] for player in file["players"]}
    assert all(isinstance(ref, int) for ref in players)
    assert {score["playerRefId"] for score in play["playerScores"]} == players
    assert play["gameRefId"] in {game["id"] for game in file["games"]}
    assert play["locationRefId"] in {location["id"] for location in file["locations"]}
    assert file["userInfo"]["meRefId"] == file["players"][1]["id"]  # seat 1's player imports the file
    assert file["locations"][0]["name"] == "Club"
    assert all(isinstance(score["score"], str) for score in play["playerScores"])
    assert sum(score["winner"] for score in play["playerScores"]) == 1 and not play["ignored"]


def test_the_file_names_its_importer_and_its_location_only_when_asked(log: GameLog) -> None:
    """Without `me` the file names nobody as the app's owner (BG Stats would count seat 1's statistics as the
    importer's); without `location` it creates none in the importer's app. A seat no person plays is refused."""
    game_id = finished(log)
    file = log.export_bgstats(game_id)
    assert file["userInfo"] == {} and file["locations"] == [] and "locationRefId" not in file["plays"][0]
    assert log.export_bgstats(game_id, me=0)["userInfo"] == {"meRefId": file["players"][0]["id"]}
    with pytest.raises(plays.NotAPlayer):
        log.export_bgstats(game_id, me=2)
    rival = finished(log, seed=3, players=["Aiko"], solo="easy")
    with pytest.raises(plays.NotAPlayer):
        log.export_bgstats(rival, me=1)


def test_the_file_says_a_matcha_game_is_an_expansion_play(log: GameLog) -> None:
    file = log.export_bgstats(finished(log, seed=5, expansions=["matcha"]))
    [expansion] = file["plays"][0]["expansionPlays"]
    game = {entry["id"]: entry for entry in file["games"]}[expansion["gameRefId"]]
    assert game["name"] == plays.MATCHA_NAME and game["isExpansion"] == 1 and game["isBaseGame"] == 0
    assert file["games"][0]["bggId"] == plays.BGG_ID and file["games"][0]["isExpansion"] == 0


def test_the_file_marks_the_solo_rival_as_no_person(log: GameLog) -> None:
    game_id = finished(log, seed=3, players=["Aiko"], solo="easy")
    file = log.export_bgstats(game_id)
    npc = {player["name"]: json.loads(player["metaData"])["isNpc"] for player in file["players"]}
    assert npc == {"Aiko": 0, "Rival": 1}


def test_an_unfinished_game_is_left_out_of_the_statistics_with_no_winner(log: GameLog) -> None:
    game_id = log.create_game({"players": ["Aiko", "Ben"], "seed": 4}).game_id
    list(play_random(log, game_id, 12, random.Random(4)))
    play = log.export_bgstats(game_id)["plays"][0]
    assert play["ignored"] is True
    assert not any(score["winner"] for score in play["playerScores"])
    assert {score["rank"] for score in play["playerScores"]} == {0}
    assert "Unfinished" in play["comments"]


def test_an_abandoned_game_is_not_a_won_play_either(log: GameLog) -> None:
    game_id = log.create_game({"players": ["Aiko", "Ben"], "seed": 4}).game_id
    list(play_random(log, game_id, 12, random.Random(4)))
    log.abandon(game_id, expected_version=log.get(game_id).version, actor="owner", reason="the cat")
    play = log.export_bgstats(game_id)["plays"][0]
    assert play["ignored"] is True and not any(score["winner"] for score in play["playerScores"])
    assert "Abandoned" in play["comments"] and "the cat" in play["comments"]


def test_a_play_exported_twice_keeps_its_uuids(log: GameLog) -> None:
    game_id = finished(log)
    assert log.export_bgstats(game_id) == log.export_bgstats(game_id)


# --- the create-play link -----------------------------------------------------------------------------------


def test_the_link_carries_one_play_in_the_shape_apps_send(log: GameLog) -> None:
    game_id = finished(log)
    answer = log.export_bgstats_link(game_id)
    play = answer["play"]
    same_shape(play, FIXTURES["bgstats_link"])
    known = FIXTURES["bgstats_link_fields"]
    assert set(play) <= set(known["play"])
    assert set(play["game"]) <= set(known["game"])
    assert all(set(player) <= set(known["player"]) for player in play["players"])
    assert play["sourcePlayId"] == str(game_id)
    assert play["playDate"] == log.get(game_id).created_on.strftime("%Y-%m-%d %H:%M:%S")
    # every boolean is sent, false ones too (BG Stats' Android app refuses a link without them)
    for player in play["players"]:
        assert isinstance(player["winner"], bool) and isinstance(player["startPlayer"], bool)
    assert play["game"]["highestWins"] is True and play["game"]["noPoints"] is False
    assert isinstance(play["game"]["bggId"], int)


def test_the_link_is_the_documented_create_play_link_with_the_play_as_its_data(log: GameLog) -> None:
    answer = log.export_bgstats_link(finished(log))
    for key, scheme in (("url", "https"), ("app_url", "bgstats")):
        parts = urlsplit(answer[key])
        assert (parts.scheme, parts.netloc, parts.path) == (scheme, "app.bgstatsapp.com", "/createPlay.html")
        assert json.loads(parse_qs(parts.query)["data"][0]) == answer["play"]


def test_a_player_keeps_one_source_id_across_games_whatever_their_seat(log: GameLog) -> None:
    first = log.export_bgstats_link(finished(log, seed=19))["play"]
    second_id = log.create_game({"players": [" ben ", "Aiko"], "seed": 21}).game_id
    list(play_random(log, second_id, 5000, random.Random(21)))
    second = log.export_bgstats_link(second_id)["play"]
    ids = {player["name"].strip(): player["sourcePlayerId"] for player in first["players"]}
    again = {player["name"].strip(): player["sourcePlayerId"] for player in second["players"]}
    assert ids == {"Aiko": "aiko", "Ben": "ben"}
    assert again == {"ben": "ben", "Aiko": "aiko"}


def test_the_link_refuses_an_unfinished_or_abandoned_game(log: GameLog) -> None:
    game_id = log.create_game({"players": ["Aiko", "Ben"], "seed": 4}).game_id
    list(play_random(log, game_id, 12, random.Random(4)))
    with pytest.raises(plays.GameUnfinished) as caught:
        log.export_bgstats_link(game_id)
    assert caught.value.code == "game_unfinished" and caught.value.details["over"] is False
    log.abandon(game_id, expected_version=log.get(game_id).version, actor="owner")
    with pytest.raises(plays.GameUnfinished):
        log.export_bgstats_link(game_id)


def test_in_the_link_only_the_person_plays_a_solo_game(log: GameLog) -> None:
    game_id = finished(log, seed=3, players=["Aiko"], solo="easy")
    play = log.export_bgstats_link(game_id)["play"]
    assert [player["name"] for player in play["players"]] == ["Aiko"]
    sheets = {sheet.name: sheet.to_dict() for sheet in domain.score(log.get(game_id).state)}
    assert play["players"][0]["winner"] is (sheets["Aiko"]["rank"] == 1)
    assert "rival" in play["comments"] and str(sheets["Rival"]["total"]) in play["comments"]


def test_the_link_says_matcha_where_the_format_lets_it(log: GameLog) -> None:
    play = log.export_bgstats_link(finished(log, seed=5, expansions=["matcha"]))["play"]
    assert play["board"] == "Matcha" and plays.MATCHA_NAME in play["comments"]
    assert play["game"]["name"] == plays.GAME_NAME


# --- BoardGameGeek ------------------------------------------------------------------------------------------


def test_the_bgg_record_has_the_attributes_of_bgg_play_log(log: GameLog) -> None:
    root = ElementTree.fromstring(log.export_bgg(finished(log)))
    expected = FIXTURES["bgg_play"]
    assert root.tag == "plays" and set(expected["plays"]) <= set(root.attrib)
    [play] = root.findall("play")
    assert set(expected["play"]) <= set(play.attrib)
    item = play.find("item")
    assert item is not None and set(expected["item"]) <= set(item.attrib)
    assert item.attrib["objectid"] == str(plays.BGG_ID)
    subtype = play.find("item/subtypes/subtype")
    assert subtype is not None and subtype.attrib == expected["subtype"]
    players = play.findall("players/player")
    assert players and all(set(expected["player"]) <= set(player.attrib) for player in players)
    assert sorted(player.attrib["startposition"] for player in players) == ["1", "2"]
    assert [player.attrib["win"] for player in players].count("1") == 1
    assert play.attrib["incomplete"] == "0"


def test_an_unfinished_game_is_an_incomplete_bgg_play_without_a_winner(log: GameLog) -> None:
    game_id = log.create_game({"players": ["Aiko", "Ben"], "seed": 4}).game_id
    list(play_random(log, game_id, 12, random.Random(4)))
    play = ElementTree.fromstring(log.export_bgg(game_id)).find("play")
    assert play is not None
    assert (play.attrib["incomplete"], play.attrib["nowinstats"]) == ("1", "1")
    assert {player.attrib["win"] for player in play.findall("players/player")} == {"0"}
