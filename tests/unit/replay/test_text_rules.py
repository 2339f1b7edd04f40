"""The text rules (replay.text), and the import of a game recorded before them: its names and its reason are
kept as the rules keep texts now, where the API of the time took them a little looser."""

from __future__ import annotations

import json
import random
import unicodedata

import pytest

from replay import text
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import InvalidSetup
from replay.text import InvalidText
from tests.replay_helpers import play_random


def test_checked_keeps_a_text_composed_and_trimmed_of_blanks_and_invisible_characters() -> None:
    decomposed = "\u200b Chloe\u0301 \ufeff"
    assert text.checked(decomposed, "a name", max_length=40) == "Chloé"
    assert text.checked("line one\r\nline two\rthree", "a note", max_length=99, multiline=True) == (
        "line one\nline two\nthree"
    )
    assert text.checked("  ", "a reason", max_length=9, allow_empty=True) == ""


@pytest.mark.parametrize("bad", ["\ud800", "\x1b[31m", "a\nb", "\u202eabc", "\x85", "\x00"])
def test_checked_refuses_what_no_one_line_text_may_hold(bad: str) -> None:
    with pytest.raises(InvalidText) as refused:
        text.checked(f"x{bad}y", "a name", max_length=40)
    assert refused.value.code == "invalid_request"
    assert "U+" in refused.value.message


def test_checked_counts_characters_after_trimming_and_names_the_field() -> None:
    with pytest.raises(InvalidSetup, match="the title has at most 3 characters"):
        text.checked("abcd", "the title", max_length=3, error=InvalidSetup)


def test_name_keys_fold_what_looks_the_same_and_nothing_else() -> None:
    alike = ["Ann", "ann", " ANN ", "Ann\u200b", "\u0410nn", "\uff21nn", "A\u00adnn"]
    assert {text.name_key(name) for name in alike} == {"ann"}
    assert text.name_key("Chloé") == text.name_key(unicodedata.normalize("NFD", "Chloé"))
    assert len({text.name_key(name) for name in ["Ann", "Anne", "Ánn", "Ольга", "Olga"]}) == 5


def test_printable_escapes_controls_and_bidirectional_marks_only() -> None:
    assert text.printable("Chloé 👩‍👩‍👧 ·") == "Chloé 👩‍👩‍👧 ·"
    assert text.printable("a\x1b[2Jb\u202ec\x07\u2028") == "a\\x1b[2Jb\\u202ec\\x07\\u2028"


def test_a_game_recorded_before_the_text_rules_imports_with_its_texts_kept_as_they_are_now() -> None:
    source: GameLog = open_log(StoreConfig(kind="memory"))
    game_id = source.create_game({"players": ["Ann", "Ben"], "seed": 4}).game_id
    list(play_random(source, game_id, 4, random.Random(4)))
    game = source.get(game_id)
    source.abandon(game_id, expected_version=game.version, actor="owner", reason="closing time")
    document = json.loads(json.dumps(source.export(game_id), default=str))
    # as the API of the time stored them: a name ending in a zero-width space, a decomposed accent, a reason
    # with blanks around it
    document["setup"]["players"][0]["name"] = "Ann\u200b"
    document["setup"]["players"][1]["name"] = "Bene\u0301"
    document["setup"]["title"] = "Ann\u200b vs Bene\u0301"
    document["events"][-1]["data"]["reason"] = "  closing time  "

    target = open_log(StoreConfig(kind="memory"))
    copy = target.import_log(document, keep_id=False).game_id

    imported = target.get(copy)
    assert [seat["name"] for seat in imported.setup["players"]] == ["Ann", "Bené"]
    assert imported.setup["title"] == "Ann\u200b vs Bené"  # composed; only its ends are trimmed
    assert imported.abandoned is not None and imported.abandoned.remark == "closing time"
