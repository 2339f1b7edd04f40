"""The setup layout as a resource: GET /api/games/{id}/layout, and POST /api/games laid out from one (a table
game, every entry checked by the rules, errors per field with the rule number)."""

from __future__ import annotations

import copy
from typing import Any

from tests.api_helpers import ApiClient

NAMES = ["Aiko", "Ben", "Chie", "Dai"]


def seeded_layout(api: ApiClient, seed: int = 11, **setup: Any) -> tuple[str, dict[str, Any]]:
    game_id, _, _ = api.create(NAMES, seed=seed, **setup)
    answer = api.get(f"/api/games/{game_id}/layout")
    assert answer.status == 200, answer.body
    assert answer.body["complete"] is True and answer.body["version"] == 1
    return game_id, answer.body["layout"]


def board_of(api: ApiClient, game_id: str) -> dict[str, Any]:
    """The board without what only the mode, seed and chance counter tell apart."""
    state = dict(api.game(game_id)["state"])
    for name in ("mode", "seed", "chance"):
        state.pop(name, None)
    return state


def test_get_layout_answers_every_section_of_a_seeded_games_setup(api: ApiClient) -> None:
    _, layout = seeded_layout(api)
    assert set(layout) == {
        "castle",
        "daimyo",
        "die_tiles",
        "well",
        "gardens",
        "yards",
        "dice",
        "stack",
        "offer",
    }
    assert len(layout["castle"]) == 5 and len(layout["offer"]) == 5
    assert sorted(layout["stack"]) == [0, 1, 2, 3]
    assert all(len(values) == 5 for values in layout["dice"].values())


def test_a_seeded_games_layout_given_to_a_table_game_yields_the_same_board(api: ApiClient) -> None:
    seeded, layout = seeded_layout(api, seed=23)
    answer = api.post("/api/games", {"players": NAMES, "mode": "table", "layout": layout})
    assert answer.status == 201, answer.body
    table = answer.body["game"]
    assert table["mode"] == "table" and table["version"] == 1
    assert table["prompt"]["kind"] == "choose_start"  # only the players' own starting choices are left
    assert all(move["kind"] == "choose_start" for move in answer.body["legal_moves"]["moves"])
    assert board_of(api, table["game_id"]) == board_of(api, seeded)
    assert api.get(f"/api/games/{table['game_id']}/layout").body["layout"] == layout


def test_a_layout_is_for_table_mode_only(api: ApiClient) -> None:
    _, layout = seeded_layout(api)
    answer = api.post("/api/games", {"players": NAMES, "mode": "seeded", "layout": layout})
    assert answer.error() == (400, "invalid_setup")


def test_layout_errors_come_per_field_with_the_rule_and_nothing_is_created(api: ApiClient) -> None:
    _, layout = seeded_layout(api)
    wrong = copy.deepcopy(layout)
    wrong["castle"]["steward_2"] = "D4"
    wrong["dice"]["coral"] = [1, 2, 3]
    before = api.get("/api/games").body["total"]
    answer = api.post("/api/games", {"players": NAMES, "mode": "table", "layout": wrong})
    assert answer.error() == (422, "invalid_layout")
    assert answer.body["rule"] == "R-S03"
    assert answer.body["details"]["field"] == "castle.steward_2"
    problems = {item["field"]: item["rule"] for item in answer.body["details"]["errors"]}
    assert problems == {"castle.steward_2": "R-S03", "dice.coral": "R-S07"}
    assert api.get("/api/games").body["total"] == before


def test_a_one_colour_room_is_refused_under_r_s05(api: ApiClient) -> None:
    _, layout = seeded_layout(api)
    layout["die_tiles"]["steward_1"] = ["white", "white", "white"]
    answer = api.post("/api/games", {"players": NAMES, "mode": "table", "layout": layout})
    assert answer.error() == (422, "invalid_layout")
    assert (answer.body["rule"], answer.body["details"]["field"]) == ("R-S05", "die_tiles.steward_1")


def test_missing_entries_are_problems_unless_the_rest_is_drawn(api: ApiClient) -> None:
    partial = {"dice": {"coral": [6, 1, 2, 2, 5], "black": [1, 1, 1, 1, 1], "white": [3, 4, 5, 6, 6]}}
    refused = api.post("/api/games", {"players": NAMES, "mode": "table", "layout": partial})
    assert refused.error() == (422, "invalid_layout")
    assert refused.body["details"]["field"] == "castle.steward_1"
    drawn = api.post(
        "/api/games", {"players": NAMES, "mode": "table", "layout": partial, "draw_rest": True, "seed": 5}
    )
    assert drawn.status == 201, drawn.body
    game = drawn.body["game"]
    assert game["seed"] == 5 and game["prompt"]["kind"] == "choose_start"
    laid = api.get(f"/api/games/{game['game_id']}/layout").body["layout"]
    assert laid["dice"]["coral"] == [1, 2, 2, 5, 6]  # laid ascending (R-S07)


def test_drawing_the_rest_with_no_seed_decides_one_and_keeps_it(api: ApiClient) -> None:
    answer = api.post("/api/games", {"players": NAMES, "mode": "table", "layout": {}, "draw_rest": True})
    assert answer.status == 201
    assert isinstance(answer.body["game"]["seed"], int)


def test_a_laid_out_game_exports_imports_and_forks_to_the_same_board(api: ApiClient) -> None:
    _, layout = seeded_layout(api, seed=31)
    created = api.post("/api/games", {"players": NAMES, "mode": "table", "layout": layout}).body
    game_id, token = created["game"]["game_id"], created["owner_token"]
    seat = created["game"]["prompt"]["seat"]
    move = next(m for m in created["legal_moves"]["moves"] if m["seat"] == seat)
    assert api.play(game_id, move, token, 1).status == 201
    exported = api.get(f"/api/games/{game_id}/export").body
    assert exported["opening"] and all(entry["seat"] is None for entry in exported["opening"])
    imported = api.post("/api/games/import?new_id=1", exported)
    assert imported.status == 201, imported.body
    copy_id = imported.body["game"]["game_id"]
    assert board_of(api, copy_id) == board_of(api, game_id)
    assert api.get(f"/api/games/{copy_id}/export").body["opening"] == exported["opening"]
    fork = api.post(f"/api/games/{game_id}/forks", {"version": 1})
    assert fork.status == 201, fork.body
    assert api.get(f"/api/games/{fork.body['game']['game_id']}/layout").body["layout"] == layout


def test_a_table_game_entered_deal_by_deal_answers_its_layout_so_far(api: ApiClient) -> None:
    created = api.post("/api/games", {"players": NAMES[:2], "mode": "table"}).body
    game_id, token = created["game"]["game_id"], created["owner_token"]
    assert api.get(f"/api/games/{game_id}/layout").body == {
        "game_id": game_id,
        "version": 1,
        "complete": False,
        "layout": {},
    }
    move = created["legal_moves"]["moves"][0]
    api.play(game_id, move, token, 1)
    answer = api.get(f"/api/games/{game_id}/layout").body
    assert answer["complete"] is False and answer["layout"] == {"castle": {"steward_1": move["card"]}}


def test_the_layout_of_an_unknown_game_is_404(api: ApiClient) -> None:
    answer = api.get("/api/games/00000000-0000-4000-8000-000000000000/layout")
    assert answer.error() == (404, "game_not_found")


def test_the_layout_form_lists_every_field_with_words_and_the_cards_by_what_is_printed_on_them(
    api: ApiClient,
) -> None:
    answer = api.get("/api/games/layout-form?players=4")
    assert answer.status == 200, answer.body
    form = answer.body
    names = [field["field"] for section in form["sections"] for field in section["fields"]]
    assert names[:4] == [
        "dice.coral",
        "dice.black",
        "dice.white",
        "stack",
    ]  # what a table rolls and draws first
    assert names[4:9] == [
        f"castle.{room}" for room in ("steward_1", "steward_2", "steward_3", "diplomat_1", "diplomat_2")
    ]
    assert {"daimyo", "die_tiles.steward_1", "well.0", "gardens.coral_plant", "yards.yard_1.blue"} <= set(
        names
    )
    assert {"dice.coral", "stack", "offer.4.action"} <= set(names)
    steward = {item["id"]: item["words"] for item in form["pools"]["steward"]}
    assert steward["S2"].startswith("S2: top (dark): pay 1 seal → a Courtier action")
    assert form["first_game"]["castle"]["steward_1"]


def test_the_layout_form_follows_the_game_two_players_solo_and_matcha(api: ApiClient) -> None:
    two = api.get("/api/games/layout-form?players=2").body
    assert "S1" not in {item["id"] for item in two["pools"]["steward"]}  # ♦: out at 2 players (R-S02)
    solo = api.get("/api/games/layout-form?players=1&solo=easy").body
    assert "stack" not in [section["id"] for section in solo["sections"]]
    matcha = api.get("/api/games/layout-form?players=3&expansions=matcha").body
    fields = [field["field"] for section in matcha["sections"] for field in section["fields"]]
    assert {"dice.green", "matcha.pond.0", "matcha.platform", "offer.0.token"} <= set(fields)
    assert api.get("/api/games/layout-form?players=1").error() == (400, "invalid_setup")
    assert api.get("/api/games/layout-form?players=9").error() == (400, "invalid_request")


def test_the_layout_choices_leave_out_what_other_fields_hold(api: ApiClient) -> None:
    layout = '{"castle": {"steward_1": "S4"}, "die_tiles": {"diplomat_1": ["black", null]}}'
    answer = api.get(f"/api/games/layout-choices?players=3&layout={layout}")
    assert answer.status == 200, answer.body
    fields, tiles = answer.body["fields"], answer.body["tiles"]
    assert "S4" in fields["castle.steward_1"] and "S4" not in fields["castle.steward_2"]
    assert tiles["diplomat_1"][1] == ["coral", "white"]  # R-S05: never a room of one colour
    assert set(api.get("/api/games/layout-choices?players=2").body["fields"]) >= {
        "castle.steward_1",
        "offer.2.action",
    }


def test_layout_choices_refuse_a_layout_that_is_no_json_object_with_a_clear_error(api: ApiClient) -> None:
    assert api.get("/api/games/layout-choices?players=3&layout=nope").error() == (400, "invalid_request")
    deep = "[" * 900 + "]" * 900
    assert api.get(f"/api/games/layout-choices?players=3&layout={deep}").error() == (400, "invalid_request")
    nested = '{"castle": {"steward_1": {"a": {"b": {"c": "S4"}}}}}'
    assert api.get(f"/api/games/layout-choices?players=3&layout={nested}").error() == (400, "invalid_request")
    assert api.get("/api/games/layout-choices?players=3&layout=[1]").error() == (422, "invalid_layout")
    assert api.get("/api/games/layout-choices?players=1").error() == (400, "invalid_setup")
