"""What the long fault scenarios of ``make faults`` share: players recording games over real HTTP against
``heronlog serve`` (retrying as a phone does), the accounting of what was acknowledged and what the log holds
afterwards, and the table of figures each scenario adds to (``test-output/faults.md``, copied into
docs/operations/failures.md by hand after a run)."""

from __future__ import annotations

import http.client
import random
import threading
import time
import urllib.error
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.api_helpers import Answer, ApiClient, http_transport

FIGURES = "faults.md"
HEADER = (
    "| fault | store | games | acknowledged | acknowledged, then lost | lost where allowed | answers 500 | "
    "games unreadable | recovery s | notes |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n"
)


@dataclass
class Ack:
    """A move the API answered 201 for: its version, its Idempotency-Key, when the answer came and when the
    request it answers was sent (a write applied just before a fault may be answered well after it)."""

    version: int
    key: str
    at: float
    sent: float


@dataclass
class Player:
    """One client recording one game, retrying every unanswered or 503 write with the same If-Match and
    Idempotency-Key; a 412 (the game moved, or the store came back with older data) reloads and goes on. A
    201 for another version than the one after its If-Match is a stale write accepted: counted, never allowed."""

    url: str
    game_id: str
    token: str
    seed: int
    acks: list[Ack] = field(default_factory=list)
    errors_500: int = 0
    refused_503: int = 0
    stale_412: int = 0
    stale_accepted: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    first_ack_after: dict[float, float] = field(default_factory=dict)

    def run(self, stop: threading.Event, pause: float = 0.01) -> None:
        api = ApiClient(http_transport(self.url, timeout=10))
        rng = random.Random(self.seed)
        while not stop.is_set():
            listing = self.call(api.get, f"/api/games/{self.game_id}/legal-moves")
            if listing is None or listing.status != 200:
                self.count(listing)
                time.sleep(0.05)
                continue
            moves = listing.body["moves"]
            if not moves:  # the game is over: take the last move back and go on
                self.call(
                    api.post, f"/api/games/{self.game_id}/undo", {}, token=self.token, if_match=listing.etag
                )
                continue
            move, key = rng.choice(moves), uuid.uuid4().hex
            while not stop.is_set():
                sent = time.monotonic()
                answer = self.call(api.play, self.game_id, move, self.token, listing.etag, key=key)
                if answer is not None and answer.status == 201:
                    self.acknowledged(answer, listing.etag, key, sent)
                    break
                self.count(answer)
                if answer is not None and answer.status not in (500, 503):
                    break  # 412 (moved on, or rolled back): read the game again
                time.sleep(0.05)
            time.sleep(pause)

    def acknowledged(self, answer: Answer, expected: int, key: str, sent: float) -> None:
        """A 201 for a write sent with ``If-Match: expected``: its version must be the next one."""
        [version] = answer.body["versions"]
        self.acks.append(Ack(version, key, time.monotonic(), sent))
        if version != expected + 1:
            self.stale_accepted.append(f"{self.game_id}: a write on version {expected} recorded as {version}")

    def count(self, answer: Answer | None) -> None:
        if answer is None or answer.status == 503:
            self.refused_503 += 1
        elif answer.status == 500:
            self.errors_500 += 1
            self.failures.append(f"{answer.body}")
        elif answer.status == 412 and answer.body.get("error_code") == "stale_version":
            self.stale_412 += 1

    @staticmethod
    def call(send: Any, *args: Any, **kwargs: Any) -> Answer | None:
        try:
            return send(*args, **kwargs)  # type: ignore[no-any-return]
        except (OSError, http.client.HTTPException, urllib.error.URLError):
            return None


def start_players(
    url: str, count: int, seed: int
) -> tuple[list[Player], list[threading.Thread], threading.Event]:
    api = ApiClient(http_transport(url, timeout=30))
    players = []
    for index in range(count):
        game_id, token, _ = api.create(2, seed=seed + index)
        players.append(Player(url, game_id, token, seed + index))
    stop = threading.Event()
    threads = [threading.Thread(target=player.run, args=(stop,), daemon=True) for player in players]
    for thread in threads:
        thread.start()
    return players, threads, stop


def stop_players(threads: list[threading.Thread], stop: threading.Event) -> None:
    stop.set()
    for thread in threads:
        thread.join(timeout=30)


@dataclass
class Outcome:
    """What the log holds of what was acknowledged, game by game."""

    acknowledged: int = 0
    lost: int = 0
    lost_allowed: int = 0
    unreadable: int = 0
    errors_500: int = 0
    lost_keys: list[str] = field(default_factory=list)


def account(
    url: str,
    players: list[Player],
    may_lose: tuple[float, float] | None = None,
    answered_by: float | None = None,
) -> Outcome:
    """Compare each player's acknowledgements with its game's exported log: an acknowledged move is kept when
    the event at its version carries its Idempotency-Key. ``may_lose``: the window (monotonic times) whose
    writes the scenario's promise allows to lose: those answered after it began whose request was sent before
    it ended (a write sent after it cannot have been applied within it, however late its answer came), and,
    with ``answered_by``, answered before then (the store came back: a write applied before the fault was
    answered long before that)."""
    api = ApiClient(http_transport(url, timeout=60))
    outcome = Outcome()
    for player in players:
        outcome.errors_500 += player.errors_500
        read = api.get(f"/api/games/{player.game_id}")
        exported = api.get(f"/api/games/{player.game_id}/export")
        if read.status != 200 or exported.status != 200:
            outcome.unreadable += 1
            continue
        keys = {event["version"]: event["data"].get("idempotency_key") for event in exported.body["events"]}
        for ack in player.acks:
            outcome.acknowledged += 1
            if keys.get(ack.version) == ack.key:
                continue
            if (
                may_lose is not None
                and may_lose[0] <= ack.at
                and ack.sent <= may_lose[1]
                and (answered_by is None or ack.at <= answered_by)
            ):
                outcome.lost_allowed += 1
            else:
                outcome.lost += 1
                outcome.lost_keys.append(
                    f"{player.game_id} v{ack.version} sent at {ack.sent:.3f}, acknowledged at {ack.at:.3f}"
                    + (f" (the window: {may_lose[0]:.3f} to {may_lose[1]:.3f})" if may_lose else "")
                )
    return outcome


def recovery(players: list[Player], since: float) -> float:
    """Seconds from ``since`` to the first acknowledgement after it (any game)."""
    after = [ack.at for player in players for ack in player.acks if ack.at > since]
    return (min(after) - since) if after else float("nan")


def write_figures(folder: str, row: str) -> None:
    path = Path(folder) / FIGURES
    if not path.exists():
        path.write_text(HEADER)
    with path.open("a") as table:
        table.write(row + "\n")
