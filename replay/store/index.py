"""The list of games of a Redis store (:mod:`replay.index`): sorted sets and hashes under the store's hash tag."""

from __future__ import annotations

import json
from collections.abc import Container, Sequence
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from replay import index as model
from replay.index import (
    Entry,
    Found,
    Plan,
    Query,
    Row,
    Summary,
    plan,
)
from replay.store.errors import RecordMissingError
from replay.store.recorders import stored_event

# Project index entries, and move the position up. Adding an entry again changes nothing (sets and hashes), so
# two processes catching up at once do no harm.
# KEYS: 1 position, 2 every, 3 public, 4 entries, 5 texts, 6 summaries, 7 words, 8 counts, 9.. word sets.
# ARGV: 1 position, 2 number of entries, then per entry: game, score, '1' if public, entry, text, summary
#       ('' for none, else '<version>|<json>'), summary's version, number of words, then per word: index of its
#       set in KEYS, the word.
ADD = """#!lua
local position, count = tonumber(ARGV[1]), tonumber(ARGV[2])
local i = 3
for _ = 1, count do
  local game, score, public, entry, text = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local summary, version, words = ARGV[i + 5], tonumber(ARGV[i + 6]), tonumber(ARGV[i + 7])
  redis.call('ZADD', KEYS[2], score, game)
  redis.call('HSET', KEYS[4], game, entry)
  if public == '1' then
    redis.call('ZADD', KEYS[3], score, game)
    redis.call('HSET', KEYS[5], game, text)
  end
  local j = i + 8
  for _ = 1, words do
    local set, word = KEYS[tonumber(ARGV[j])], ARGV[j + 1]
    redis.call('ZADD', KEYS[7], 0, word)
    if redis.call('ZADD', set, score, game) == 1 then
      redis.call('HINCRBY', KEYS[8], word, 1)
    end
    j = j + 2
  end
  if summary ~= '' then
    local held = redis.call('HGET', KEYS[6], game)
    if not held or tonumber(string.match(held, '^(%d+)|')) < version then
      redis.call('HSET', KEYS[6], game, summary)
    end
  end
  i = j
end
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if position > now then redis.call('SET', KEYS[1], position) end
return count
"""

# Keep a game's summary unless one of a later version is kept. KEYS: 1 summaries. ARGV: game, version, summary.
NOTE = """#!lua
local held = redis.call('HGET', KEYS[1], ARGV[1])
if held and tonumber(string.match(held, '^(%d+)|')) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""

# The indexed words each term starts, with their counts. KEYS: 1 words, 2 counts, 3 position, 4 the index
# stream's sequence. ARGV: 1 most, 2.. terms. Returns the position and the index stream's last version (a
# projection behind its stream must catch up before its words say anything), then, per term: how many words
# follow, then word and count of each.
EXPAND = """#!lua flags=no-writes
local last = redis.call('ZRANGE', KEYS[4], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
local out = {redis.call('GET', KEYS[3]) or '0', last[2] or '0'}
for i = 2, #ARGV do
  local words = redis.call('ZRANGE', KEYS[1], '[' .. ARGV[i], '(' .. ARGV[i] .. '\\255', 'BYLEX', 'LIMIT', 0, ARGV[1])
  out[#out + 1] = #words
  if #words > 0 then
    local counts = redis.call('HMGET', KEYS[2], unpack(words))
    for j = 1, #words do
      out[#out + 1] = words[j]
      out[#out + 1] = counts[j] or '0'
    end
  end
end
return out
"""

# One store's part of a page. KEYS: 1 position, 2 the index stream's sequence, 3 entries, 4 summaries, 5 texts,
# 6 the source set (direct, scan), then the sets of the driver's words (intersect: every word's; gather), then
# each filter's sets.
# ARGV: 1 mode (direct, intersect, gather, scan), 2 direction (top, after, before), 3 cursor score, 4 cursor game,
#       5 offset, 6 limit, 7 scan cap, 8 number of driver's sets, 9 number of filters, then per filter: the
#       number of its sets (0: checked against each game's text) and its term.
# Returns: position, the index stream's last version, total, 1 if the total is exact, then per row: game,
# score, entry, summary (false when none).
PAGE = """#!lua flags=no-writes
local mode, direction = ARGV[1], ARGV[2]
local cs, cg = tonumber(ARGV[3]), ARGV[4]
local offset, limit, cap = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local ndriver, nfilters = tonumber(ARGV[8]), tonumber(ARGV[9])
local filters, k, a = {}, 7 + ndriver, 10
for i = 1, nfilters do
  local sets = {}
  for j = 1, tonumber(ARGV[a]) do sets[j] = KEYS[k]; k = k + 1 end
  filters[i] = {sets, ' ' .. ARGV[a + 1]}
  a = a + 2
end

local function chunked(command, key, list)  -- HMGET or ZMSCORE of a long list, a thousand at a time
  local out = {}
  for first = 1, #list, 1000 do
    local part = redis.call(command, key, unpack(list, first, math.min(#list, first + 999)))
    for i = 1, #part do out[#out + 1] = part[i] end
  end
  return out
end

local function kept(M, S)  -- the games (M, their scores S) that pass every filter, as {score, game} items
  local keep = {}
  for i = 1, #M do keep[i] = true end
  local texts
  for _, f in ipairs(filters) do
    if #f[1] > 0 then
      local hit = {}
      for _, set in ipairs(f[1]) do
        local scores = chunked('ZMSCORE', set, M)
        for i = 1, #M do if scores[i] then hit[i] = true end end
      end
      for i = 1, #M do if not hit[i] then keep[i] = false end end
    else
      texts = texts or chunked('HMGET', KEYS[5], M)
      for i = 1, #M do
        if keep[i] and not string.find(texts[i] or '', f[2], 1, true) then keep[i] = false end
      end
    end
  end
  local items = {}
  for i = 1, #M do if keep[i] then items[#items + 1] = {tonumber(S[i]), M[i]} end end
  return items
end

local function newer(a, b) return a[1] > b[1] or (a[1] == b[1] and a[2] > b[2]) end

local function slice(items)  -- items newest first; the page by the cursor or the offset
  local cursor, out = {cs, cg}, {}
  if direction == 'before' then
    local n = 0
    while n < #items and newer(items[n + 1], cursor) do n = n + 1 end
    local last = n - offset
    for i = math.max(1, last - limit + 1), last do out[#out + 1] = items[i] end
    return out
  end
  local first = 1
  if direction == 'after' then
    while first <= #items and not newer(cursor, items[first]) do first = first + 1 end
  end
  first = first + offset
  for i = first, math.min(#items, first + limit - 1) do out[#out + 1] = items[i] end
  return out
end

local function rank(source, strict)  -- how many members come before the cursor (newer than it, or equal)
  local r = redis.call('ZCOUNT', source, '(' .. ARGV[3], '+inf')
  for _, g in ipairs(redis.call('ZRANGE', source, ARGV[3], ARGV[3], 'BYSCORE')) do
    if g > cg or (not strict and g == cg) then r = r + 1 end
  end
  return r
end

local function split(flat, M, S, seen)
  for i = 1, #flat, 2 do
    if not (seen and seen[flat[i]]) then
      if seen then seen[flat[i]] = true end
      M[#M + 1] = flat[i]; S[#S + 1] = flat[i + 1]
    end
  end
end

local page, total, exact = {}, 0, 1
if mode == 'direct' then
  local source = KEYS[6]
  total = redis.call('ZCARD', source)
  local first, last
  if direction == 'before' then
    last = rank(source, true) - 1 - offset
    first = math.max(0, last - limit + 1)
  else
    first = (direction == 'after' and rank(source, false) or 0) + offset
    last = first + limit - 1
  end
  if last >= first then
    local M, S = {}, {}
    split(redis.call('ZRANGE', source, first, last, 'REV', 'WITHSCORES'), M, S)
    for i = 1, #M do page[i] = {tonumber(S[i]), M[i]} end
  end
elseif mode == 'scan' then
  -- the source's newest `cap` games (ranks 0 .. cap - 1), from the cursor on, until the page is full
  local source, need, found, exhausted, step = KEYS[6], offset + limit, {}, false, 500
  local capped = redis.call('ZCARD', source) > cap
  if direction == 'before' then
    local r = math.min(rank(source, true), cap) - 1  -- the nearest newer game, going up
    while #found < need do
      if r < 0 then exhausted = true; break end
      local lo = math.max(0, r - step + 1)
      local flat = redis.call('ZRANGE', source, lo, r, 'REV', 'WITHSCORES')
      local M, S = {}, {}
      for i = #flat - 1, 1, -2 do M[#M + 1] = flat[i]; S[#S + 1] = flat[i + 1] end
      for _, item in ipairs(kept(M, S)) do found[#found + 1] = item end
      if lo == 0 then exhausted = true; break end
      r = lo - 1
    end
  else
    local r = direction == 'after' and rank(source, false) or 0
    while #found < need do
      local hi = math.min(cap - 1, r + step - 1)
      if r > hi then exhausted = true; break end
      local M, S = {}, {}
      split(redis.call('ZRANGE', source, r, hi, 'REV', 'WITHSCORES'), M, S)
      for _, item in ipairs(kept(M, S)) do found[#found + 1] = item end
      if #M < step then exhausted = true; break end
      r = hi + 1
    end
  end
  for i = offset + 1, math.min(#found, need) do page[#page + 1] = found[i] end
  if direction == 'before' then
    local reversed = {}
    for i = #page, 1, -1 do reversed[#reversed + 1] = page[i] end
    page = reversed
  end
  total = exhausted and #found or need
  exact = (exhausted and direction == 'top' and not capped) and 1 or 0
else
  local items
  if mode == 'intersect' then
    -- the sets' intersection, worked out by the server (in ascending order of time, then id)
    local call = {'ZINTER', ndriver}
    for i = 7, 6 + ndriver do call[#call + 1] = KEYS[i] end
    call[#call + 1] = 'AGGREGATE'; call[#call + 1] = 'MAX'; call[#call + 1] = 'WITHSCORES'
    local flat = redis.call(unpack(call))
    items = {}
    for i = #flat - 1, 1, -2 do items[#items + 1] = {tonumber(flat[i + 1]), flat[i]} end
  else
    local M, S = {}, {}
    local seen = {}
    for i = 7, 6 + ndriver do split(redis.call('ZRANGE', KEYS[i], 0, -1, 'WITHSCORES'), M, S, seen) end
    items = kept(M, S)
    table.sort(items, newer)
  end
  total = #items
  page = slice(items)
end

local last = redis.call('ZRANGE', KEYS[2], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
local out = {redis.call('GET', KEYS[1]) or '0', last[2] or '0', total, exact}
if #page > 0 then
  local games = {}
  for i = 1, #page do games[i] = page[i][2] end
  local entries, summaries = chunked('HMGET', KEYS[3], games), chunked('HMGET', KEYS[4], games)
  for i = 1, #page do
    out[#out + 1] = page[i][2]
    out[#out + 1] = string.format('%d', page[i][1])
    out[#out + 1] = entries[i]
    out[#out + 1] = summaries[i]
  end
end
return out
"""

# The last version of each stream, and whether the log holds its first record (version 1): the list says a game
# whose first record is gone is damaged without reading the game, at no extra round trip (every key is under the
# store's hash tag, so this runs on one Redis Cluster node too). KEYS: 1 the log, 2.. the streams' sequences.
# ARGV: per stream, '1' to return its first record too (tens of kilobytes: only for games the caller has not
# checked yet). Returns, per stream, its last version ('0': none), 1 or 0 (first record held or not), and the
# record when asked (else false).
VERSIONS = """#!lua flags=no-writes
local out = {}
for i = 2, #KEYS do
  local last = redis.call('ZRANGE', KEYS[i], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
  out[#out + 1] = last[2] or '0'
  local first = redis.call('ZRANGE', KEYS[i], 1, 1, 'BYSCORE', 'LIMIT', 0, 1)[1]
  local held = first and redis.call('HEXISTS', KEYS[1], first) or 0
  out[#out + 1] = held
  out[#out + 1] = (held == 1 and ARGV[i - 1] == '1') and redis.call('HGET', KEYS[1], first) or false
end
return out
"""


class RedisListing:
    """The list of games of one Redis store (see the module docstring). ``recorder`` is the store's
    application recorder (its datastore, hash tag and stream keys); ``index_stream`` its index stream's id."""

    def __init__(self, recorder: Any, index_stream: UUID) -> None:
        self._recorder = recorder
        self._datastore = recorder.datastore
        base = f"{recorder.tag}:view:games"
        self.keys = {
            name: f"{base}:{name}"
            for name in ("position", "every", "public", "entries", "texts", "summaries", "words", "counts")
        }
        self._word_prefix = f"{base}:word:"
        self._index_sequence = recorder.stream_key(index_stream)

    def word_key(self, word: str) -> str:
        return self._word_prefix + word

    def position(self) -> int:
        client = self._datastore.client
        value = self._datastore.read(lambda: client.get(self.keys["position"]))
        return int(cast(bytes, value)) if value else 0

    def add(self, entries: Sequence[tuple[Entry, Summary | None]], position: int) -> None:
        names = self.keys
        keys = [names[name] for name in ("position", "every", "public", "entries", "texts", "summaries")]
        keys += [names["words"], names["counts"]]
        where: dict[str, int] = {}
        args: list[str | int] = [position, len(entries)]
        for entry, summary in entries:
            key = entry.key
            words = entry.words if not entry.private else ()
            args += [
                key.game,
                key.created,
                "0" if entry.private else "1",
                json.dumps(entry.to_dict()),
                entry.text,
                "" if summary is None else _summary_text(summary),
                0 if summary is None else summary.version,
                len(words),
            ]
            for word in words:
                set_key = self.word_key(word)
                args += [where.setdefault(set_key, len(keys) + len(where) + 1), word]
        keys += list(where)
        script = self._datastore.script(ADD)
        self._datastore.write(lambda: script(keys, args))

    def keep_summary(self, game_id: UUID, summary: Summary) -> None:
        script = self._datastore.script(NOTE)
        args = [game_id.hex, summary.version, _summary_text(summary)]
        self._datastore.write(lambda: script([self.keys["summaries"]], args))

    def expand(self, terms: tuple[str, ...]) -> tuple[tuple[int, int], list[list[tuple[str, int]]]]:
        """Where the projection stands (its position, the index stream's last version), and each term's indexed
        words with their counts."""
        script = self._datastore.script(EXPAND)
        keys = [self.keys["words"], self.keys["counts"], self.keys["position"], self._index_sequence]
        reply = cast(list[Any], self._datastore.read(lambda: script(keys, [model.EXPANSION_MAX + 1, *terms])))
        plans: list[list[tuple[str, int]]] = []
        position = 2
        for _ in terms:
            count = int(reply[position])
            items = reply[position + 1 : position + 1 + 2 * count]
            plans.append([(items[k].decode(), int(items[k + 1])) for k in range(0, len(items), 2)])
            position += 1 + 2 * count
        return (int(reply[0]), int(reply[1])), plans

    def page(self, query: Query, checked: Container[str] = ()) -> Found:
        expanded: list[list[tuple[str, int]]] = []
        position = stream = 0
        if query.terms:
            (position, stream), expanded = self.expand(query.terms)
            if stream > position:  # the words may lack the newest games: catch up first
                return Found([], 0, True, position, stream)
        chosen: Plan = plan(query, lambda _: expanded)
        if chosen.mode == "empty":
            return Found([], 0, True, position, stream)
        names = self.keys
        source = names["every" if query.include_private and chosen.source is None else "public"]
        if chosen.source is not None:
            source = self.word_key(chosen.source)
        keys = [
            names["position"],
            self._index_sequence,
            names["entries"],
            names["summaries"],
            names["texts"],
            source,
            *(self.word_key(word) for word in chosen.words),
        ]
        checks: list[str | int] = []
        for term, words in chosen.filters:
            keys += [self.word_key(word) for word in words or ()]
            checks += [len(words or ()), term]
        cursor = query.before if query.before is not None else query.after
        direction = "before" if query.before is not None else "after" if query.after is not None else "top"
        args: list[str | int] = [
            chosen.mode,
            direction,
            cursor.created if cursor else 0,
            cursor.game if cursor else "",
            query.offset,
            query.limit,
            model.SEARCH_CAP,  # read when called: a test may lower it
            len(chosen.words),
            len(chosen.filters),
            *checks,
        ]
        script = self._datastore.script(PAGE)
        reply = cast(list[Any], self._datastore.read(lambda: script(keys, args)))
        position, stream, total, exact = (int(value) for value in reply[:4])
        flat = reply[4:]
        games = [flat[k].decode() for k in range(0, len(flat), 4)]
        versions = self._versions(games, checked)
        rows = [
            Row(Entry.from_dict(json.loads(flat[k + 2])), _summary_from(flat[k + 3]), *versions[k // 4])
            for k in range(0, len(flat), 4)
        ]
        return Found(rows, total, bool(exact), position, stream)

    def _versions(
        self, games: Sequence[str], checked: Container[str]
    ) -> list[tuple[int | None, bool, StoredEvent | None]]:
        """Each game's last version (None: none), whether the log holds its first record, and that record for
        the games not ``checked`` (None: not asked for), in one round trip."""
        if not games:
            return []
        script = self._datastore.script(VERSIONS)
        ids = [UUID(game) for game in games]
        keys = [self._recorder.log_key, *(self._recorder.stream_key(game_id) for game_id in ids)]
        args = ["0" if game in checked else "1" for game in games]
        reply = cast(list[Any], self._datastore.read(lambda: script(keys, args)))
        return [
            (int(reply[3 * n]) or None, int(reply[3 * n + 1]) == 1, _first(game_id, reply[3 * n + 2]))
            for n, game_id in enumerate(ids)
        ]


def _first(game_id: UUID, record: bytes | None) -> StoredEvent | None:
    """A game's first record as the log holds it; bytes that are not a record at all are given version 0, so
    that the check of a first record (:func:`replay.stored_records.starts_whole`) fails them."""
    if not record:
        return None
    try:
        return stored_event(game_id, record)
    except (RecordMissingError, ValueError):
        return StoredEvent(originator_id=game_id, originator_version=0, topic="", state=b"")


def _summary_text(summary: Summary) -> str:
    return f"{summary.version}|{json.dumps(summary.to_dict())}"


def _summary_from(value: bytes | None) -> Summary | None:
    if not value:
        return None
    return Summary.from_dict(json.loads(value.split(b"|", 1)[1]))
