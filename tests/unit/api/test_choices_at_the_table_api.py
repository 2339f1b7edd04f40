"""The legal moves' words at moments that puzzled a first-time player: a castle card's block offered among others
(an action beside a die tile, a light-background action) names the card and room it comes from and is lit where it
lies; the Courtier action's hint says what each step does and where to tap; a round's roll says how its form is
typed; seal conversions are offered (``offered``) only where they can serve the player whose turn it is."""

from __future__ import annotations

import random
from typing import Any

import domain
from domain.prompts import Menu
from domain.vocabulary import Phase, space_text
from tests.api_helpers import ApiClient

NAMES = ["Aiko", "Ben", "Chie"]


def played_until(api: ApiClient, seed: int, stop: Any) -> tuple[str, dict[str, Any]]:
    """A seeded game played at random (the same moves through the engine and the API) until `stop(state)`:
    the game's id and its legal moves then."""
    state = domain.new_game(NAMES, seed=seed)
    game_id, token, game = api.create(NAMES, seed=seed)
    version = game["version"]
    rng = random.Random(seed)
    for _ in range(400):
        if stop(state):
            return game_id, dict(api.legal(game_id).body)
        moves = domain.legal_moves(state)
        move = rng.choice([m for m in moves if m["kind"] != "convert"] or moves)
        answer = api.play(game_id, move, token, version)
        assert answer.status == 201, answer.body
        version = answer.etag
        state = domain.apply(state, move)
    raise AssertionError("never reached")


def among_others(state: Any) -> bool:
    frame = state.stack[-1] if state.stack else None
    return (
        isinstance(frame, Menu)
        and (frame.title == "light" or frame.title.startswith("tile:"))
        and len(frame.options) > 1
    )


def test_a_block_offered_among_other_cards_names_its_card_and_is_lit_where_it_lies(api: ApiClient) -> None:
    game_id, legal = played_until(api, 8, among_others)
    rooms = {room["id"]: room["card"] for room in api.game(game_id)["state"]["board"]["rooms"]}
    chosen = [
        (move, choice)
        for move, choice in zip(legal["moves"], legal["choices"], strict=True)
        if move["kind"] == "choose"
    ]
    assert len(chosen) > 1
    for move, choice in chosen:
        room, _, rows = move["option"].partition(":")
        assert (
            f"({space_text(room)}'s card {rooms[room]}, {rows.replace('+', ' and ')} block)"
            in choice["words"]
        ), choice
        assert choice["target"] == f"room:{move['option']}"


def test_the_courtier_actions_hint_says_what_each_step_does_and_where_to_tap(api: ApiClient) -> None:
    _, legal = played_until(api, 5, lambda s: domain.prompt_of(s)["kind"] == "courtier")
    hint = legal["prompt"]["hint"]
    assert "Audience sends your next courtier to the Gate (2 coins: tap the Gate)" in hint
    assert "Ascent moves one courtier up a floor (2 pearl, or 5 for two floors" in hint


def test_seal_conversions_are_offered_only_where_they_can_serve_the_player_to_play(api: ApiClient) -> None:
    def converting(state: Any, kind: str) -> bool:
        return domain.prompt_of(state)["kind"] == kind and any(
            move["kind"] == "convert" for move in domain.legal_moves(state)
        )

    _, placing = played_until(api, 3, lambda s: s.phase is Phase.TURNS and converting(s, "place_die"))
    offered = [
        c["offered"]
        for m, c in zip(placing["moves"], placing["choices"], strict=True)
        if m["kind"] == "convert"
    ]
    assert offered and all(offered)
    _, taking = played_until(api, 3, lambda s: converting(s, "take_die"))
    kept = [c for m, c in zip(taking["moves"], taking["choices"], strict=True) if m["kind"] == "convert"]
    assert kept and not any(c["offered"] for c in kept)
    plain = [c for m, c in zip(taking["moves"], taking["choices"], strict=True) if m["kind"] != "convert"]
    assert all("offered" not in c for c in plain)  # only conversions carry it
