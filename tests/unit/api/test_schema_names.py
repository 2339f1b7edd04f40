"""The OpenAPI document's schema names stay distinct once a generator folds their case and punctuation
(openapi-python-client writes ``BgStatsFile`` and ``BGStatsFile`` to one file: a client would not build)."""

from __future__ import annotations

import re
from collections import defaultdict

from tests.api_helpers import ApiClient


def test_no_two_schema_names_differ_only_in_case_or_punctuation(api: ApiClient) -> None:
    names = api.get("/api/openapi.json").body["components"]["schemas"]
    folded: dict[str, list[str]] = defaultdict(list)
    for name in names:
        folded[re.sub(r"[^a-z0-9]", "", name.lower())].append(name)
    assert [same for same in folded.values() if len(same) > 1] == []
