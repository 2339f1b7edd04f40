"""The views of a Redis store (:mod:`replay.views`): hashes and sorted sets under the store's hash tag, read in one
script per batch of reads and changed in one script per change (its guards checked in it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from replay.views import Change, Read

# A batch of reads. ARGV: per read its kind, the index of its key in KEYS and its arguments (hmget: the number of
# fields, then the fields; zrange: start, stop, '1' for descending; zscore: the member). One reply per read.
READ = """#!lua flags=no-writes
local out, i = {}, 1
while i <= #ARGV do
  local kind, key = ARGV[i], KEYS[tonumber(ARGV[i + 1])]
  if kind == 'hgetall' then
    out[#out + 1] = redis.call('HGETALL', key); i = i + 2
  elseif kind == 'hmget' then
    local n, got = tonumber(ARGV[i + 2]), {}
    for first = i + 3, i + 2 + n, 1000 do  -- a thousand at a time: unpack's stack is bounded
      local part = redis.call('HMGET', key, unpack(ARGV, first, math.min(i + 2 + n, first + 999)))
      for k = 1, #part do got[#got + 1] = part[k] end
    end
    out[#out + 1] = got
    i = i + 3 + n
  elseif kind == 'zrange' then
    if ARGV[i + 4] == '1' then
      out[#out + 1] = redis.call('ZRANGE', key, ARGV[i + 2], ARGV[i + 3], 'REV', 'WITHSCORES')
    else
      out[#out + 1] = redis.call('ZRANGE', key, ARGV[i + 2], ARGV[i + 3], 'WITHSCORES')
    end
    i = i + 5
  elseif kind == 'zfrom' then
    out[#out + 1] = redis.call('ZRANGE', key, ARGV[i + 2], '+inf', 'BYSCORE', 'LIMIT', 0, ARGV[i + 3], 'WITHSCORES')
    i = i + 4
  elseif kind == 'zinter' then
    local flat = redis.call('ZINTER', 2, key, KEYS[tonumber(ARGV[i + 2])], 'WEIGHTS', 1, 0, 'WITHSCORES')
    local page, first, count = {}, tonumber(ARGV[i + 3]), tonumber(ARGV[i + 4])
    local n = #flat / 2
    for r = n - first, math.max(1, n - first - count + 1), -1 do  -- descending: from the end
      page[#page + 1] = flat[2 * r - 1]; page[#page + 1] = flat[2 * r]
    end
    out[#out + 1] = page
    i = i + 5
  elseif kind == 'zscore' then
    out[#out + 1] = redis.call('ZSCORE', key, ARGV[i + 2]) or ''; i = i + 3
  else
    out[#out + 1] = redis.call('ZCARD', key); i = i + 2
  end
end
return out
"""

# A change. ARGV: the number of guards, then per guard: key index, field, '1' if a value is expected (else the
# field must be absent), the value; then per write: its kind, key index, field or member, value. Returns 1 when
# the guards held and the writes were made, else 0 (nothing written).
APPLY = """#!lua
local i = 2
for _ = 1, tonumber(ARGV[1]) do
  local held = redis.call('HGET', KEYS[tonumber(ARGV[i])], ARGV[i + 1])
  if ARGV[i + 2] == '1' then
    if held ~= ARGV[i + 3] then return 0 end
  elseif held then
    return 0
  end
  i = i + 4
end
while i <= #ARGV do
  local kind, key, name, value = ARGV[i], KEYS[tonumber(ARGV[i + 1])], ARGV[i + 2], ARGV[i + 3]
  if kind == 'hset' then redis.call('HSET', key, name, value)
  elseif kind == 'hdel' then redis.call('HDEL', key, name)
  elseif kind == 'hincr' then
    if redis.call('HINCRBY', key, name, value) == 0 then redis.call('HDEL', key, name) end
  elseif kind == 'hmin' then
    local held = redis.call('HGET', key, name)
    if not held or value < held then redis.call('HSET', key, name, value) end
  elseif kind == 'hmax' then
    local held = redis.call('HGET', key, name)
    if not held or value > held then redis.call('HSET', key, name, value) end
  elseif kind == 'zadd' then redis.call('ZADD', key, value, name)
  elseif kind == 'zrem' then redis.call('ZREM', key, name)
  elseif kind == 'zincr' then
    if tonumber(redis.call('ZINCRBY', key, value, name)) <= 0 then redis.call('ZREM', key, name) end
  elseif kind == 'del' then redis.call('DEL', key)
  end
  i = i + 4
end
return 1
"""


class RedisViews:
    """The views of one Redis store, under ``<tag>:view:`` (see the module docstring)."""

    def __init__(self, datastore: Any, tag: str) -> None:
        self._datastore = datastore
        self._prefix = f"{tag}:view:"

    def _index(self, keys: list[str], where: dict[str, int], key: str) -> int:
        found = where.get(key)
        if found is None:
            keys.append(self._prefix + key)
            found = where[key] = len(keys)
        return found

    def read(self, reads: Sequence[Read]) -> list[Any]:
        if not reads:
            return []
        keys: list[str] = []
        where: dict[str, int] = {}
        args: list[str | int] = []
        for read in reads:
            kind, index = read[0], self._index(keys, where, read[1])
            args += [kind, index]
            if kind == "hmget":
                args += [len(read[2]), *read[2]]
            elif kind == "zrange":
                start, count = int(read[2]), int(read[3])
                # ZRANGE 1 0 is empty (0 -1 would be the whole set)
                args += [start, start + count - 1, "1" if read[4] else "0"] if count > 0 else [1, 0, "0"]
            elif kind == "zfrom":
                args += [repr(float(read[2])), int(read[3])]
            elif kind == "zinter":
                args += [self._index(keys, where, read[2]), int(read[3]), int(read[4])]
            elif kind == "zscore":
                args.append(read[2])
        script = self._datastore.script(READ)
        replies = cast(list[Any], self._datastore.read(lambda: script(keys, args)))
        return [_decoded(read, reply) for read, reply in zip(reads, replies, strict=True)]

    def apply(self, change: Change) -> bool:
        keys: list[str] = []
        where: dict[str, int] = {}
        args: list[str | int | float] = [len(change.guards)]
        for key, name, expected in change.guards:
            args += [self._index(keys, where, key), name, "0" if expected is None else "1", expected or ""]
        for kind, key, name, value in change.ops:
            args += [kind, self._index(keys, where, key), name, value]
        if not keys:
            return True
        script = self._datastore.script(APPLY)
        return bool(self._datastore.write(lambda: script(keys, args)))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _decoded(read: Read, reply: Any) -> Any:
    kind = read[0]
    if kind == "hgetall":
        return {_text(reply[k]): _text(reply[k + 1]) for k in range(0, len(reply), 2)}
    if kind == "hmget":
        return [None if value is None or value is False else _text(value) for value in reply]
    if kind in ("zrange", "zfrom", "zinter"):
        return [(_text(reply[k]), float(reply[k + 1])) for k in range(0, len(reply), 2)]
    if kind == "zscore":
        return float(reply) if reply not in (b"", "", None) else None
    return int(reply)
