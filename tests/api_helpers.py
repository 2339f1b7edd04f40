"""A small client of heronlog's JSON API, over Flask's test client or over real HTTP, for the API tests of
every tier: the same scenario code speaks to the in-process app and to a real ``heronlog serve``."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Transport = Callable[[str, str, Any, Mapping[str, str]], "Answer"]
NO_BODY = object()


@dataclass
class Answer:
    """One HTTP answer: status, headers (names lower-cased) and the body (JSON decoded when it is JSON)."""

    status: int
    headers: dict[str, str]
    body: Any
    raw: bytes = b""
    """The body as it was sent, byte for byte."""

    @property
    def etag(self) -> int:
        return int(self.headers["etag"].strip('"'))

    def error(self) -> tuple[int, str]:
        """(status, error_code) of an error answer, after checking that it is a problem document (RFC 9457)
        with heronlog's extension members."""
        assert self.headers.get("content-type", "").startswith("application/problem+json"), self.headers
        assert set(self.body) == {"type", "title", "status", "detail", "error_code", "rule", "details"}, (
            self.body
        )
        assert self.body["status"] == self.status
        assert self.body["type"] == "/api/problems/" + self.body["error_code"]
        return self.status, self.body["error_code"]


def flask_transport(client: Any) -> Transport:
    def send(method: str, path: str, body: Any, headers: Mapping[str, str]) -> Answer:
        kwargs: dict[str, Any] = {"headers": dict(headers)}
        if body is not NO_BODY:
            if isinstance(body, bytes | str):
                kwargs["data"] = body
            else:
                kwargs["json"] = body
        response = client.open(path, method=method, **kwargs)
        return _answer(response.status_code, dict(response.headers), response.get_data())

    return send


def http_transport(base_url: str, timeout: float = 30) -> Transport:
    def send(method: str, path: str, body: Any, headers: Mapping[str, str]) -> Answer:
        data = None
        sent = dict(headers)
        if body is not NO_BODY:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        request = urllib.request.Request(base_url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return _answer(response.status, dict(response.headers), response.read())
        except urllib.error.HTTPError as error:
            return _answer(error.code, dict(error.headers), error.read())

    return send


def _answer(status: int, headers: Mapping[str, str], raw: bytes) -> Answer:
    lowered = {name.lower(): value for name, value in headers.items()}
    body: Any = raw.decode("utf-8") if raw else None
    if raw and lowered.get("content-type", "").startswith(("application/json", "application/problem+json")):
        body = json.loads(raw)
    return Answer(status, lowered, body, raw)


class ApiClient:
    """Calls by name, with the headers heronlog's writes take (token, If-Match, Idempotency-Key)."""

    def __init__(self, transport: Transport) -> None:
        self.send = transport

    @staticmethod
    def headers(
        token: str | None = None, if_match: int | str | None = None, key: str | None = None
    ) -> dict[str, str]:
        headers = {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"' if isinstance(if_match, int) else if_match
        if key is not None:
            headers["Idempotency-Key"] = key
        return headers

    def get(self, path: str, token: str | None = None, **headers: str) -> Answer:
        return self.send("GET", path, NO_BODY, {**self.headers(token), **headers})

    def post(
        self,
        path: str,
        body: Any = NO_BODY,
        *,
        token: str | None = None,
        if_match: int | str | None = None,
        key: str | None = None,
    ) -> Answer:
        return self.send("POST", path, {} if body is NO_BODY else body, self.headers(token, if_match, key))

    def patch(self, path: str, body: Any, *, token: str | None = None) -> Answer:
        return self.send("PATCH", path, body, self.headers(token))

    def delete(self, path: str, *, token: str | None = None) -> Answer:
        return self.send("DELETE", path, NO_BODY, self.headers(token))

    # --- scenarios ---------------------------------------------------------------------------------------

    def create(self, players: Any = 4, **setup: Any) -> tuple[str, str, dict[str, Any]]:
        """A new game: (game id, owner token, game)."""
        answer = self.post("/api/games", {"players": players, **setup})
        assert answer.status == 201, answer.body
        game = answer.body["game"]
        return game["game_id"], answer.body["owner_token"], game

    def game(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        answer = self.get(f"/api/games/{game_id}", token)
        assert answer.status == 200, answer.body
        return dict(answer.body)

    def legal(self, game_id: str, token: str | None = None) -> Answer:
        answer = self.get(f"/api/games/{game_id}/legal-moves", token)
        assert answer.status == 200, answer.body
        return answer

    def play(self, game_id: str, move: Mapping[str, Any], token: str, version: int, **kw: Any) -> Answer:
        return self.post(f"/api/games/{game_id}/moves", dict(move), token=token, if_match=version, **kw)

    def play_random(
        self, game_id: str, token: str, rng: random.Random, limit: int = 100_000
    ) -> list[dict[str, Any]]:
        """Play random moves, each chosen from ``legal-moves`` and posted as-is, until the game ends (or
        ``limit`` moves); returns the moves played. Free moves (seal conversions) are taken now and then."""
        played: list[dict[str, Any]] = []
        carried: Any = None  # the legal moves the last answer carried: GET legal-moves must agree with them
        for _ in range(limit):
            listing = self.legal(game_id, token)
            if carried is not None:
                assert carried == listing.body, "a move's answer carried other legal moves than GET gives"
            if listing.body["over"]:
                break
            moves = listing.body["moves"]
            assert moves, f"no legal move at version {listing.etag} but the game is not over"
            answers = [move for move in moves if move.get("kind") != "convert"] or moves
            move = rng.choice(moves if rng.random() < 0.05 else answers)
            answer = self.play(game_id, move, token, listing.etag)
            assert answer.status == 201, (move, answer.body)
            assert answer.etag == listing.etag + 1
            carried = answer.body["legal_moves"]
            played.append(move)
        return played


def moves_after(api: ApiClient, game_id: str, *moves: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The legal moves once ``moves`` are played on from the game as the API shows it (its board and its
    catalog): lets a test build a batch, or find the move a later prompt will accept."""
    import domain

    board = dict(api.game(game_id)["state"])
    board["catalog"] = api.get(f"/api/games/{game_id}/catalog").body["catalog"]
    current = domain.state_from_dict(json.loads(json.dumps(board)))
    for move in moves:
        current = domain.apply(current, dict(move))
    return [dict(move) for move in domain.legal_moves(current)]
