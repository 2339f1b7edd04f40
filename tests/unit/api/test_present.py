"""The board the API answers with is exactly the engine's state as JSON, less the catalog (api.resources.present)."""

from __future__ import annotations

import json
import random

import pytest

import domain
from api.resources import present


@pytest.mark.parametrize(
    ("players", "solo"), [(4, None), (1, "hard")], ids=["four players", "solo against the rival"]
)
def test_board_equals_the_engine_state_as_json_without_its_catalog_all_through_a_game(
    players: int, solo: str | None
) -> None:
    rng = random.Random(11)
    state = domain.new_game(players, seed=11, solo=solo)
    checked = 0
    while not domain.is_over(state):
        expected = present.plain(domain.state_to_dict(state))
        del expected["catalog"]
        board = present.board(state)
        # Same data, same key order: clients diffing successive answers see no spurious change.
        assert json.dumps(board) == json.dumps(expected)
        state = domain.apply(state, rng.choice(domain.legal_moves(state)))
        checked += 1
    assert checked > 20


def test_a_record_the_move_did_not_replace_is_encoded_once_and_its_encoding_shared() -> None:
    rng = random.Random(5)
    state = domain.new_game(3, seed=5)
    for _ in range(12):
        state = domain.apply(state, rng.choice(domain.legal_moves(state)))
    before = present.board(state)
    assert present.board(state) is before  # the same state again: one look-up
    after_state = domain.apply(state, rng.choice(domain.legal_moves(state)))
    after = present.board(after_state)
    assert after is not before
    # The seats the move left alone are the same records in both states, so the same encodings.
    kept = [
        seat
        for seat, (old, new) in enumerate(zip(state.players, after_state.players, strict=True))
        if old is new
    ]
    assert kept
    for seat in kept:
        assert after["players"][seat] is before["players"][seat]


def test_the_memo_bound_changes_nothing_but_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(present, "MEMO_SIZE", 3)
    rng = random.Random(8)
    state = domain.new_game(2, seed=8)
    for _ in range(40):
        expected = present.plain(domain.state_to_dict(state))
        del expected["catalog"]
        assert json.dumps(present.board(state)) == json.dumps(expected)
        state = domain.apply(state, rng.choice(domain.legal_moves(state)))


def test_every_legal_move_has_a_choice_with_words_and_the_board_part_it_acts_on() -> None:
    from api.resources import words

    for setup in ({"players": 2}, {"players": 2, "expansions": ["matcha"]}, {"players": 1, "solo": "hard"}):
        count = setup.pop("players")
        rng = random.Random(3)
        state = domain.new_game(count, seed=3, **setup)  # type: ignore[arg-type]
        catalog = present.plain(state.catalog.to_dict())
        board = present.board(state)
        said = words.catalog_words(catalog, board, [player.name for player in state.players])
        seen_targets = set()
        while not domain.is_over(state):
            moves = present.plain(domain.legal_moves(state))
            choices = words.choices(state, moves)
            assert len(choices) == len(moves)
            # the listing hands the engine's typed moves over as they are: the same words as their JSON forms
            assert words.choices(state, domain.legal(state)) == choices
            for move, choice in zip(moves, choices, strict=True):
                assert choice["words"] and "_" not in choice["words"], (move, choice)
                if move["kind"] in ("take_die", "place_die", "warrior", "gardener", "daimyo_spot"):
                    assert choice["target"], move
                if choice["target"]:
                    seen_targets.add(choice["target"])
                    # every target is a part the page draws and names (a block, an action: inside a named part)
                    whole = (
                        ":".join(choice["target"].split(":")[:2]) if choice["target"].count(":") > 1 else ""
                    )
                    assert choice["target"] in said["parts"] or whole in said["parts"], choice["target"]
            state = domain.apply(state, rng.choice(domain.legal_moves(state)))
        assert any(target.startswith("bridge:") for target in seen_targets)
        assert any(target.startswith(("room:", "well:", "outside:")) for target in seen_targets)


def test_the_words_of_a_die_placed_say_what_it_gains_or_costs() -> None:
    state = domain.new_game(2, seed=5)
    while domain.prompt_of(state)["kind"] != "place_die":
        state = domain.apply(state, domain.legal_moves(state)[0])
    pending = present.prompt(state)
    moves = present.plain(domain.legal_moves(state))
    from api.resources import words

    said = words.choices(state, moves)
    well = next(c for m, c in zip(moves, said, strict=True) if m.get("space") == "well")
    assert well["target"] == "well:" and "gain" in well["words"]
    assert pending["hint"] == "Choose the space for the die."
