"""A faster reader of the stored events' JSON, behind the eventsourcing library's own seam (``TRANSCODER_TOPIC``,
set in :class:`replay.stores.GameStore`'s environment; remove it and the library's transcoder reads the same
bytes).

:class:`FastJSONTranscoder` writes exactly what the library's ``JSONTranscoder`` writes, and reads it with msgspec
instead of the standard library's ``json`` with an ``object_hook``: a long game is read whole for an export,
``changes?since=0`` or a cold read (about 20,000 events for the longest), and decoding each event was most of
that time. The values the library encodes as ``{"_type_": name, "_data_": ...}`` (times, UUIDs, decimals) are
revived by the library's own transcodings, inner ones first, as its ``object_hook`` does. A record msgspec cannot
read (JSON's non-standard ``NaN``, which the standard library writes for a float NaN) is read by the library's
decoder. A unit test holds both readers equal on every event type.
"""

from __future__ import annotations

from typing import Any

import msgspec
from eventsourcing.persistence import JSONTranscoder

_DECODER = msgspec.json.Decoder()


class FastJSONTranscoder(JSONTranscoder):
    """The library's JSON transcoder, reading with msgspec (see the module docstring)."""

    def decode(self, data: bytes) -> Any:
        try:
            value = _DECODER.decode(data)
        except msgspec.DecodeError:
            return super().decode(data)
        typed = data.count(b'"_type_"')
        if typed == 0 or not isinstance(value, dict | list):
            return value
        if typed == 1 and isinstance(value, dict):
            # The usual event: one typed value, its time, at the top (looking it up beats walking every dict).
            stamp = value.get("timestamp")
            if isinstance(stamp, dict) and len(stamp) == 2 and "_type_" in stamp:
                value["timestamp"] = self._decode_obj(stamp)
                return value
        return self._revive(value)

    def _revive(self, value: Any) -> Any:
        """``value`` with every ``{"_type_", "_data_"}`` object decoded by its transcoding (changed in place:
        the containers are msgspec's fresh ones)."""
        if isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, dict | list):
                    value[key] = self._revive(item)
            return self._decode_obj(value) if len(value) == 2 else value
        for index, item in enumerate(value):
            if isinstance(item, dict | list):
                value[index] = self._revive(item)
        return value
