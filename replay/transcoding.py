"""A faster reader of the stored events' JSON, behind the eventsourcing library's own seam (``TRANSCODER_TOPIC``).

It reads the same bytes the library's transcoder reads, with msgspec; remove the setting and the library's reads
them.
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
