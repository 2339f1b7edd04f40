"""Rules 0.3.0 over HTTP: a move that seal conversions make affordable is listed with them (its `convert`), the
listing's `notes` say how it is paid (its `choices` words too), and posting it records the conversions and the
move as one (R-R02)."""

from __future__ import annotations

from tests.api_helpers import ApiClient


def test_a_move_listed_with_its_conversions_says_how_it_is_paid_and_records_as_one(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=5)
    for _ in range(120):
        listing = api.legal(game_id).body
        converted = [i for i, move in enumerate(listing["moves"]) if "convert" in move]
        if converted:
            break
        plain = [m for m in listing["moves"] if m["kind"] != "convert"]
        assert api.play(game_id, plain[0], token, listing["version"]).status == 201
    else:
        raise AssertionError("no move needed a seal converted")
    assert len(listing["notes"]) == len(listing["moves"])
    index = converted[0]
    move = listing["moves"][index]
    assert listing["notes"][index].startswith("pay ") and "seal" in listing["notes"][index]
    assert all(note == "" for i, note in enumerate(listing["notes"]) if i not in converted)
    # the board's words say it too (its button and its part's name): the move's words, then how it is paid
    choice = listing["choices"][index]
    assert choice["words"].endswith(f" — {listing['notes'][index]}"), choice
    assert not any(" — pay " in c["words"] for i, c in enumerate(listing["choices"]) if i not in converted)
    # the conversions themselves are one group, which the page keeps folded ("Convert seals…")
    groups = {
        c["group"]
        for m, c in zip(listing["moves"], listing["choices"], strict=True)
        if m["kind"] == "convert"
    }
    assert groups == {"Convert seals… (free, any time on your turn)"}
    answer = api.play(game_id, move, token, listing["version"])
    assert answer.status == 201, answer.body
    entry = api.get(f"/api/games/{game_id}/timeline").body["entries"][-1]
    assert " converts " in entry["description"] and entry["phase"] in ("setup", "turns", "end_of_round")
    exported = api.get(f"/api/games/{game_id}/export").body
    assert api.post("/api/games/import?new_id=1", exported).status == 201  # the log checks it again


def test_a_combined_move_with_more_conversions_than_needed_is_refused_with_r_r02(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=5)
    listing = api.legal(game_id).body
    move = {**listing["moves"][0], "convert": ["coin"]}  # a starting pair costs nothing
    answer = api.play(game_id, move, token, listing["version"])
    assert answer.error()[0] == 422
