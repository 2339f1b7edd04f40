"""States as JSON (`state_to_dict` / `state_from_dict`), the pending prompt (`prompt_of`) and the
coordinates."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import domain
from domain.vocabulary import Phase

from .helpers import assert_round_trips_through_json, random_playout, standard


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_state_of_a_game_round_trips_through_json(players: int) -> None:
    rng = random.Random(players)
    state = domain.new_game(players, seed=players, draw=False)
    while True:
        data = assert_round_trips_through_json(state)
        # Without its catalog: the same dictionary less that key, in the same order.
        apart = domain.state_to_dict(state, catalog=False)
        assert list(apart) == [key for key in data if key != "catalog"]
        assert json.loads(json.dumps(apart)) == {
            key: value for key, value in data.items() if key != "catalog"
        }
        if domain.is_over(state):
            break
        state = domain.apply(state, rng.choice(domain.legal_moves(state)), draw=False)
        if state.mode.value == "seeded":
            state = domain.resolve_chance(state).state if rng.random() < 0.5 else state


def test_the_state_dict_names_things_as_the_rulebook_does() -> None:
    data = domain.state_to_dict(standard())
    assert set(data) >= {
        "players",
        "board",
        "stack",
        "round",
        "phase",
        "turn_order",
        "seed",
        "chance",
        "catalog",
    }
    assert set(data["board"]) >= {"bridges", "rooms", "daimyo", "gate", "outside", "well", "yards", "gardens"}
    assert data["stack"][-1] == {"frame": "take_die", "seat": 0}
    assert data["board"]["rooms"][0]["tiles"] == ["coral", "white", "black"]
    assert data["catalog"] == domain.catalog_of(standard())


def test_a_broken_dict_is_refused() -> None:
    data = domain.state_to_dict(standard())
    del data["board"]
    with pytest.raises(domain.InvalidSetup):
        domain.state_from_dict(data)


def test_prompt_of_names_the_kind_the_seat_and_the_context() -> None:
    state = standard()
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": 0}
    state = domain.apply(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"})
    assert domain.prompt_of(state) == {
        "kind": "place_die",
        "seat": 0,
        "die": {"colour": "coral", "value": 1, "end": "left"},
    }


def test_coordinates_through_a_game() -> None:
    state = domain.new_game(3, seed=2)
    assert domain.coordinates(state).to_dict() == {
        "round": 1,
        "turn": 0,
        "seat": domain.prompt_of(state)["seat"],
        "phase": "setup",
    }
    seen = set()
    rng = random.Random(0)
    while not domain.is_over(state):
        coords = domain.coordinates(state)
        if coords.phase is Phase.TURNS:
            assert 1 <= coords.turn <= 3 and coords.seat == state.turn_order[state.turn_index % 3]
        seen.add((coords.round, coords.turn, coords.phase))
        state = domain.apply(state, rng.choice(domain.legal_moves(state)))
    assert domain.coordinates(state) == domain.Coordinates(3, 3, None, Phase.OVER)
    assert {(r, t) for r, t, p in seen if p is Phase.TURNS} == {(r, t) for r in (1, 2, 3) for t in (1, 2, 3)}


def test_a_finished_game_round_trips_too() -> None:
    state, _ = random_playout(2, seed=9)
    assert domain.state_from_dict(json.loads(json.dumps(domain.state_to_dict(state)))) == state


def test_the_fast_replace_keeps_records_frozen_and_checks_field_names() -> None:
    import dataclasses

    from domain.state import replace

    state = standard()
    changed = replace(state, round=2)
    assert changed.round == 2 and changed.players is state.players and state.round == 1
    assert changed == dataclasses.replace(state, round=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.round = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        replace(state, no_such_field=1)


def test_an_actions_prompt_lists_its_entries_with_cost_and_text() -> None:
    from .helpers import play, with_player

    state = with_player(standard(steward_2="S12"), 0, seals=1, lantern=())
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "steward_2"},
    )
    prompt = domain.prompt_of(state)
    assert prompt["kind"] == "actions" and prompt["title"] == "castle:steward_2" and not prompt["mandatory"]
    assert prompt["options"] == [
        {"id": "middle", "cost": {}, "icons": ["seal:1", "cp:1"], "text": "1 seal + 1 CP", "used": False},
        {
            "id": "bottom",
            "cost": {"seal": 1},
            "icons": ["gardener"],
            "text": "pay 1 seal: a Gardener action",
            "used": False,
        },
    ]


@pytest.mark.parametrize(
    ("path", "wrong"),
    [
        (("round",), "1"),  # a text for a whole number
        (("phase",), "no such phase"),  # no member of the enum
        (("stack", -1, "frame"), "no_such_frame"),  # a frame of no kind
        (("board", "bridges", 0, "colour"), "purple"),  # a die colour of neither enum
        (("board", "bridges"), [{"colour": "coral"}]),  # a record without its fields
        (("turn_order",), 3),  # a number for a list
    ],
)
def test_a_value_of_the_wrong_type_is_refused_wherever_it_sits(path: tuple[Any, ...], wrong: Any) -> None:
    data = json.loads(json.dumps(domain.state_to_dict(standard())))
    *within, last = path
    holder = data
    for key in within:
        holder = holder[key]
    holder[last] = wrong
    with pytest.raises(domain.InvalidSetup):
        domain.state_from_dict(data)


def test_catalogs_equal_as_numbers_but_not_as_json_stay_apart() -> None:
    """A catalog read back is the one its JSON says: 1.0 and true are not 1, though Python holds them equal."""
    data = json.loads(json.dumps(domain.state_to_dict(standard())))
    section = next(key for key, value in data["catalog"].items() if isinstance(value, dict) and value)
    data["catalog"][section]["a note"] = 1
    first = domain.state_from_dict(data)
    for other in (1.0, True):
        data["catalog"][section]["a note"] = other
        again = domain.state_from_dict(json.loads(json.dumps(data)))
        assert again.catalog != first.catalog
        kept = domain.state_to_dict(again)["catalog"][section]["a note"]
        assert type(kept) is type(other)
    assert domain.state_from_dict(json.loads(json.dumps(domain.state_to_dict(first)))) == first
