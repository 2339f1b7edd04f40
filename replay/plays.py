"""A game's result as the outcome loggers take it: BG Stats (a play file, and the one-play create-play link) and
BoardGameGeek's play log (XML), each in the shape its receiver reads (docs/api/exports.md).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote
from xml.etree import ElementTree

import domain
from replay.errors import ReplayError
from replay.game import Game
from replay.history import first_player
from replay.players.names import key_of

SOURCE_NAME = "heronlog"
"""Who sends the play. BG Stats remembers how a user matched games and people per (sourceName, source id): it
must never change, or every group matches everyone again."""

GAME_NAME = "The White Castle"
GAME_SOURCE_ID = "the-white-castle"
BGG_ID = 371942
"""BoardGameGeek's id of The White Castle, by which BG Stats and BGG recognise the game."""

MATCHA_NAME = "The White Castle: Matcha"
MATCHA_SOURCE_ID = "the-white-castle-matcha"

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
"""BG Stats' create-play link (a universal link: it opens the app on a phone that has it, else BG Stats' page)."""
CREATE_PLAY_APP_URL = "bgstats://app.bgstatsapp.com/createPlay.html"
"""The same link in the app's own scheme (opens the app directly; nothing when it is not installed)."""

NAMESPACE = uuid.UUID("6b1f4d2e-8f0e-5b6a-9c55-3f1d2a7b4c10")
"""The namespace of the file's uuids (uuid5): the same game and the same person get the same uuid in every
export, so BG Stats recognises a play it has already imported."""

DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


class GameUnfinished(ReplayError):
    """A shape that can only hold a finished game (BG Stats' create-play link) was asked of one that is not."""

    code = "game_unfinished"


# --- what every shape is made of -------------------------------------------------------------------------


People = Sequence[tuple[str, str | None]]
"""Each seat's player (a name: a seat linked to another player is theirs, :mod:`replay.players`) and the uuid BG
Stats knows them by, when an import of its file said so."""


def person_id(name: str) -> str:
    """A player's id across games: their key in this archive (names that look the same are one player)."""
    return key_of(name)


def people_of(game: Game, people: People | None) -> list[tuple[str, str]]:
    """Each seat's player's name and the stable reference the BG Stats file names them by: BG Stats' own
    uuid for them when known, else one made from who they are here (the same in every export)."""
    given = people or [(str(seat["name"]), None) for seat in game.setup["players"]]
    return [(name, reference or _uuid("player", person_id(name))) for name, reference in given]


class Outcome:
    """A game's result, read once: who played (people and the rival), their scores and ranks, when, how long,
    whether it is finished."""

    def __init__(self, game: Game) -> None:
        self.game = game
        state = game.state
        self.over = bool(domain.is_over(state))
        self.abandoned = game.abandoned is not None
        self.finished = self.over and not self.abandoned
        seats: Sequence[Mapping[str, Any]] = game.setup["players"]
        self.sheets = [sheet.to_dict() for sheet in domain.score(state)]
        self.seats = seats
        self.first = first_player(game)
        self.matcha = "matcha" in (game.setup.get("expansions") or ())
        self.solo = game.setup.get("solo")
        last_at = game.records[game.line[-1]].at if game.line else game.created_on
        self.started: datetime = game.created_on
        self.minutes = max(1, round((last_at - game.created_on).total_seconds() / 60))

    def automatic(self, seat: int) -> bool:
        return bool(self.seats[seat].get("automatic"))

    def people(self) -> list[int]:
        """The seats people played (the rival's left out)."""
        return [seat for seat in range(len(self.seats)) if not self.automatic(seat)]

    def winner(self, seat: int) -> bool:
        """Only a finished game has a winner: the seat ranked first."""
        return self.finished and self.sheets[seat]["rank"] == 1

    def why_unfinished(self) -> str:
        coords = domain.coordinates(self.game.state)
        where = f"round {coords.round}, turn {coords.turn}"
        if self.abandoned:
            assert self.game.abandoned is not None
            reason = self.game.abandoned.remark.strip()
            return f"Abandoned in {where}" + (f": {reason}" if reason else "") + "; not a finished game."
        return f"Unfinished: recorded up to {where}; not a finished game."

    def comments(self) -> str:
        lines = [f"Recorded with heronlog (game {self.game.id})."]
        if self.matcha:
            lines.append(f"Played with the expansion {MATCHA_NAME}.")
        if self.solo:
            rival = [seat for seat in range(len(self.seats)) if self.automatic(seat)]
            scores = ", ".join(f"{self.seats[seat]['name']} {self.sheets[seat]['total']}" for seat in rival)
            lines.append(f"Solo game against the {self.solo} rival ({scores}).")
        if not self.finished:
            lines.append(self.why_unfinished())
        return " ".join(lines)

    def board(self) -> str:
        return "Matcha" if self.matcha else ""


# --- BG Stats: the play file -----------------------------------------------------------------------------


def _uuid(*parts: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "\n".join(parts))).upper()


class NotAPlayer(ReplayError):
    """The seat named as the file's owner (``me``) is not one a person plays in the game."""

    code = "invalid_seat"


def bgstats_file(
    game: Game, people: People | None = None, *, me: int | None = None, location: str | None = None
) -> dict[str, Any]:
    """The game as a BG Stats play file (the shape of BG Stats' own export of one play: integer ids), each
    seat named by its player (``people``, :data:`People`).

    ``me`` is the seat (from 0) of the person who imports the file: BG Stats counts that player's statistics as
    the app owner's (``userInfo.meRefId``); without it the file names nobody. ``location`` names where the game
    was played; without it the play has none (BG Stats creates every location a file names)."""
    outcome = Outcome(game)
    if me is not None and me not in outcome.people():
        raise NotAPlayer(
            f"me names the seat of the person importing the file: one of {outcome.people()}, seats from 0 "
            "(the solo rival is nobody's)",
            seat=me,
            seats=outcome.people(),
        )
    named = people_of(game, people)
    date = outcome.started.strftime(DATE_FORMAT)
    games = [
        {
            "id": 1,
            "uuid": _uuid("game", GAME_SOURCE_ID),
            "name": GAME_NAME,
            "bggName": GAME_NAME,
            "bggId": BGG_ID,
            "bggYear": 2023,
            "highestWins": True,
            "noPoints": False,
            "cooperative": False,
            "usesTeams": False,
            "isBaseGame": 1,
            "isExpansion": 0,
            "modificationDate": date,
        }
    ]
    expansion_plays: list[dict[str, Any]] = []
    if outcome.matcha:
        # BG Stats links an expansion by its own game entry; BGG's id of the expansion is not checked here, so it
        # is left 0 (BG Stats' "not linked to BGG") and the entry is matched by name.
        games.append(
            {
                "id": 2,
                "uuid": _uuid("game", MATCHA_SOURCE_ID),
                "name": MATCHA_NAME,
                "bggName": MATCHA_NAME,
                "bggId": 0,
                "bggYear": 2024,
                "highestWins": True,
                "noPoints": False,
                "cooperative": False,
                "usesTeams": False,
                "isBaseGame": 0,
                "isExpansion": 1,
                "modificationDate": date,
            }
        )
        expansion_plays.append({"gameRefId": 2, "bggId": 0})
    players = [
        {
            "id": seat + 1,
            "uuid": named[seat][1],
            "name": named[seat][0],
            "isAnonymous": False,
            "bggUsername": "",
            "metaData": json.dumps({"isNpc": 1 if outcome.automatic(seat) else 0}),
            "modificationDate": date,
        }
        for seat in range(len(outcome.seats))
    ]
    scores = [
        {
            "playerRefId": seat + 1,
            "score": str(sheet["total"]),
            "winner": outcome.winner(seat),
            "rank": sheet["rank"] if outcome.finished else 0,
            "seatOrder": seat + 1,
            "startPlayer": seat == outcome.first,
            "newPlayer": False,
            "role": "",
        }
        for seat, sheet in enumerate(outcome.sheets)
    ]
    play = {
        "uuid": _uuid("play", str(game.id)),
        "playDate": date,
        "entryDate": date,
        "modificationDate": date,
        "durationMin": outcome.minutes,
        "ignored": not outcome.finished,
        "manualWinner": False,
        "usesTeams": False,
        "rounds": 0,
        "board": outcome.board(),
        "comments": outcome.comments(),
        **({"locationRefId": 1} if location else {}),
        "gameRefId": 1,
        "importPlayId": 0,
        "bggId": 0,
        "scoringSetting": 0,
        "rating": 0,
        "playerScores": scores,
        "expansionPlays": expansion_plays,
    }
    return {
        "about": f"A play of {GAME_NAME} recorded with heronlog, in the shape of a BG Stats play export.",
        "games": games,
        "players": players,
        "locations": [
            {
                "id": 1,
                "uuid": _uuid("location", person_id(location)),
                "name": location,
                "modificationDate": date,
            }
        ]
        if location
        else [],
        "plays": [play],
        "userInfo": {} if me is None else {"meRefId": me + 1},
    }


# --- BG Stats: the create-play link ------------------------------------------------------------------------


def bgstats_link_play(game: Game, people: People | None = None) -> dict[str, Any]:
    """The one-play JSON of BG Stats' create-play link; :class:`GameUnfinished` for a game that is not
    finished (the link has no way to say so, and a play it makes has a winner)."""
    outcome = Outcome(game)
    named = people_of(game, people)
    if not outcome.finished:
        raise GameUnfinished(
            "only a finished game can be sent to BG Stats as a play: "
            + outcome.why_unfinished()
            + " (the BG Stats file export marks it as left out of the statistics)",
            over=outcome.over,
            abandoned=outcome.abandoned,
        )
    players = [
        {
            "name": named[seat][0],
            # the player's key: what earlier links sent, so BG Stats keeps the matches its user made
            "sourcePlayerId": person_id(named[seat][0]),
            "score": outcome.sheets[seat]["total"],
            "rank": outcome.sheets[seat]["rank"],
            "winner": outcome.winner(seat),
            "startPlayer": seat == outcome.first,
            "role": "",
        }
        for seat in outcome.people()
    ]
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(game.id),
        "playDate": outcome.started.strftime(DATE_FORMAT),
        "durationMin": outcome.minutes,
        "board": outcome.board(),
        "comments": outcome.comments(),
        "game": {
            "name": GAME_NAME,
            "sourceGameId": GAME_SOURCE_ID,
            "bggId": BGG_ID,
            "highestWins": True,
            "noPoints": False,
        },
        "players": players,
    }


def create_play_links(play: Mapping[str, Any]) -> dict[str, str]:
    """The create-play link of a play (``url``, https) and the same in the app's scheme (``app_url``)."""
    data = quote(json.dumps(play, ensure_ascii=False, separators=(",", ":")), safe="")
    return {"url": f"{CREATE_PLAY_URL}?data={data}", "app_url": f"{CREATE_PLAY_APP_URL}?data={data}"}


def bgstats_link(game: Game, people: People | None = None) -> dict[str, Any]:
    """What ``export?format=bgstats-link`` answers: the links and the play they carry."""
    play = bgstats_link_play(game, people)
    return {**create_play_links(play), "play": play}


# --- BoardGameGeek: the play log -------------------------------------------------------------------------


def bgg_play_xml(game: Game) -> str:
    """The game as BoardGameGeek's play log holds a play (its XML API's ``<plays>`` with one ``<play>``)."""
    outcome = Outcome(game)
    plays = ElementTree.Element("plays", {"total": "1", "page": "1"})
    play = ElementTree.SubElement(
        plays,
        "play",
        {
            "date": outcome.started.strftime("%Y-%m-%d"),
            "quantity": "1",
            "length": str(outcome.minutes),
            "incomplete": "0" if outcome.finished else "1",
            "nowinstats": "0" if outcome.finished else "1",
            "location": "",
        },
    )
    item = ElementTree.SubElement(
        play, "item", {"name": GAME_NAME, "objecttype": "thing", "objectid": str(BGG_ID)}
    )
    subtypes = ElementTree.SubElement(item, "subtypes")
    ElementTree.SubElement(subtypes, "subtype", {"value": "boardgame"})
    ElementTree.SubElement(play, "comments").text = outcome.comments()
    players = ElementTree.SubElement(play, "players")
    order = outcome.people()
    if outcome.first in order:  # start positions count from the first player, as people count them
        start = order.index(outcome.first)
        order = order[start:] + order[:start]
    for seat in outcome.people():
        ElementTree.SubElement(
            players,
            "player",
            {
                "username": "",
                "userid": "0",
                "name": str(outcome.seats[seat]["name"]),
                "startposition": str(order.index(seat) + 1),
                "color": str(outcome.seats[seat].get("colour", "")),
                "score": str(outcome.sheets[seat]["total"]),
                "new": "0",
                "rating": "0",
                "win": "1" if outcome.winner(seat) else "0",
            },
        )
    ElementTree.indent(plays)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(plays, encoding="unicode") + "\n"
