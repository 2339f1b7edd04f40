"""A price a game's catalog sets is the one every answer says: a Matcha game imported with a catalog of its own
whose Geisha action costs 3 coins to enter (R-M07) says 3 in the prompt's hint, in the move's button, in the
log line of the move played and in ``/catalog``, and charges 3."""

from __future__ import annotations

from tests.api_helpers import ApiClient

PART_A = "Part A: a geisha to the Tea Garden entrance (3 coins)"


def test_a_catalogs_own_entrance_cost_is_said_by_the_hint_the_button_the_log_and_the_catalog(
    api: ApiClient,
) -> None:
    game_id, token, _ = api.create(3, seed=32, expansions=["matcha"])
    document = api.get(f"/api/games/{game_id}/export", token).body
    document["catalog"]["matcha"]["geisha_action"]["entrance_cost"] = {"coin": 3}
    document["setup"]["catalog_override"] = True
    imported = api.post("/api/games/import?new_id=1", document)
    assert imported.status == 201, imported.body
    copy_id, owner = imported.body["game"]["game_id"], imported.body["owner_token"]
    catalog = api.get(f"/api/games/{copy_id}/catalog").body["catalog"]
    assert catalog["matcha"]["geisha_action"]["entrance_cost"] == {"coin": 3}

    hints: set[str] = set()
    for _ in range(400):
        listing = api.legal(copy_id, owner).body
        moves, choices, prompt = listing["moves"], listing["choices"], listing["prompt"]
        if prompt["kind"] == "geisha" and not prompt["context"].get("free_step"):
            hints.add(prompt["hint"])
        sent = [i for i, move in enumerate(moves) if move["kind"] == "send_geisha" and "convert" not in move]
        if sent:
            assert choices[sent[0]]["words"] == PART_A
            seat = moves[sent[0]]["seat"]
            coins = api.game(copy_id)["state"]["players"][seat]["coins"]
            answer = api.play(copy_id, moves[sent[0]], owner, listing["version"])
            assert answer.status == 201, answer.body
            assert answer.body["game"]["state"]["players"][seat]["coins"] == coins - 3
            break
        tea_room = [m for m in moves if str(m.get("space", "")).startswith("tea_room")]
        geisha = [m for m in moves if m["kind"] == "advance_geisha"]
        move = (tea_room or geisha or [m for m in moves if m["kind"] != "convert"] or moves)[0]
        assert api.play(copy_id, move, owner, listing["version"]).status == 201
    else:
        raise AssertionError("no Part A was offered in 400 moves")
    assert hints and all(
        hint.startswith("Part A: your leftmost geisha to the entrance (3 coins).") for hint in hints
    )
    timeline = api.get(f"/api/games/{copy_id}/timeline").body["entries"]
    assert "sends a geisha to the Tea Garden entrance for 3 coins" in timeline[-1]["description"]
