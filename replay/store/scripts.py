"""The Lua scripts that the Redis recorders run on the server.

Each makes all its checks before its first write (a failing script does not undo what it wrote), and names every
key it touches, so it runs unchanged on Redis Cluster.
"""

from __future__ import annotations

# Append stored events to an application's notification log (and optionally record a tracking position).
# KEYS: 1 the log hash, 2 the last-id counter, 3 the notices stream, 4 the tracking hash, 5.. one sorted set
#       per originator in the batch.
# ARGV: 1 upstream application name ('' when there is no tracking), 2 its notification id, 3 the number of
#       events, then four values per event: index of its sorted set in KEYS, version, description (for error
#       messages), record (topic, version, originator id, state: see recorders.pack_record).
# Returns the notification id of the first event (the others follow it without gaps), 0 for no events.
#
# An event is appended only right after the last version its stream holds (the stored head): a stream's
# first event has version 0 or 1, and each later one the head's version plus one. Checking only that the new
# version is free would let a writer that still believes an older head (a process whose cached game is ahead
# of a server that came back with older data) write a gap, after which the stream no longer folds.
_APPEND_BODY = """local log, counter, notices, tracking = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local upstream, position = ARGV[1], ARGV[2]
local count = tonumber(ARGV[3])
local heads = {}
for i = 0, count - 1 do
  local b = 4 + i * 4
  local k, version = ARGV[b], tonumber(ARGV[b + 1])
  local head = heads[k]
  if head == nil then
    local top = redis.call('ZRANGE', KEYS[tonumber(k)], '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1,
      'WITHSCORES')
    head = false
    if #top > 0 then head = tonumber(top[2]) end
  end
  if head == false then
    if version ~= 0 and version ~= 1 then
      return redis.error_reply('HLGAP version ' .. ARGV[b + 1] .. ' of ' .. ARGV[b + 2] ..
        ' would start an empty stream (its first version is 0 or 1)')
    end
  elseif version <= head then
    return redis.error_reply('HLCONFLICT version ' .. ARGV[b + 1] .. ' of ' .. ARGV[b + 2] .. ' is taken')
  elseif version ~= head + 1 then
    return redis.error_reply('HLGAP version ' .. ARGV[b + 1] .. ' of ' .. ARGV[b + 2] ..
      ' does not follow the stored head, version ' .. string.format('%d', head))
  end
  heads[k] = version
end
if upstream ~= '' then
  local last = redis.call('HGET', tracking, upstream)
  if last and tonumber(last) >= tonumber(position) then
    return redis.error_reply('HLTRACKING ' .. upstream .. ' is at ' .. last .. ', not below ' .. position)
  end
end
local n = tonumber(redis.call('GET', counter) or '0')
if count == 0 then
  redis.call('HSET', tracking, upstream, position)
  return 0
end
if redis.call('HEXISTS', log, n + 1) == 1 then
  return redis.error_reply('HLCORRUPT ' .. counter .. ' is behind ' .. log)
end
redis.call('XLEN', notices)
local first = n + 1
for i = 0, count - 1 do
  local b = 4 + i * 4
  n = n + 1
  redis.call('HSET', log, n, ARGV[b + 3])
  redis.call('ZADD', KEYS[tonumber(ARGV[b])], ARGV[b + 1], n)
end
redis.call('SET', counter, n)
redis.call('XADD', notices, 'MAXLEN', '~', 1000, '*', 'n', n)
if upstream ~= '' then redis.call('HSET', tracking, upstream, position) end
"""
APPEND_EVENTS = "#!lua\n" + _APPEND_BODY + "return first\n"

# The same append, for a move decided on what this process holds (replay.one_trip): it first checks that the store
# holds each stream the move was decided on as the process does (its last version, and that event's time in its
# record), that the rate-limit window's count stays within its limit, and that the Idempotency-Key (if any) was not
# used for another kind of write; any of these failing is an HLSTALE error, before anything is written. After the
# append it counts the write and claims the key's use.
# KEYS and ARGV: those of APPEND_EVENTS, then more KEYS (the held streams' sorted sets that the batch does not name
# already, the window's counter, the key use) and, after the events' ARGV: the weight, the counter's lifetime, the
# limit (0: none), the counter's index in KEYS, the key use's index (0: no claim), the kind of write, the use's
# lifetime, the number of held streams, then three values per held stream: the index of its sorted set in KEYS, its
# last version, the text of that event's time.
# Returns the notification id of the first event and the window's count after this write.
_HELD_CHECKS = """local at = 4 + tonumber(ARGV[3]) * 4
local weight, lifetime, limit = tonumber(ARGV[at]), ARGV[at + 1], tonumber(ARGV[at + 2])
local window, use = KEYS[tonumber(ARGV[at + 3])], tonumber(ARGV[at + 4])
local kind, use_lifetime = ARGV[at + 5], ARGV[at + 6]
for h = 0, tonumber(ARGV[at + 7]) - 1 do
  local b = at + 8 + h * 3
  local set, held = KEYS[tonumber(ARGV[b])], tonumber(ARGV[b + 1])
  local top = redis.call('ZRANGE', set, '+inf', '-inf', 'BYSCORE', 'REV', 'LIMIT', 0, 1, 'WITHSCORES')
  if #top == 0 or tonumber(top[2]) ~= held then
    return redis.error_reply('HLSTALE ' .. set .. ' is not at version ' .. ARGV[b + 1])
  end
  local record = redis.call('HGET', KEYS[1], top[1])
  if not record or not string.find(record, ARGV[b + 2], 1, true) then
    return redis.error_reply('HLSTALE ' .. set .. ' holds another event at version ' .. ARGV[b + 1])
  end
end
if limit > 0 and tonumber(redis.call('GET', window) or '0') + weight > limit then
  return redis.error_reply('HLSTALE ' .. window .. ' is at its limit')
end
local used = false
if use > 0 then
  used = redis.call('GET', KEYS[use])
  if used and used ~= kind then
    return redis.error_reply('HLSTALE ' .. KEYS[use] .. ' was used for another kind of write')
  end
end
"""
_COUNT_AFTER = """local total = redis.call('INCRBY', window, weight)
redis.call('EXPIRE', window, lifetime)
if use > 0 and not used then redis.call('SET', KEYS[use], kind, 'EX', use_lifetime) end
return {first, total}
"""
COUNTED_APPEND_EVENTS = "#!lua\n" + _HELD_CHECKS + _APPEND_BODY + _COUNT_AFTER

# Append stored events to per-originator sorted sets that hold the events themselves (no notification log:
# the aggregate recorder, used for snapshots).
# KEYS: one sorted set per originator in the batch.
# ARGV: 1 the number of events, then three values per event: index of its sorted set in KEYS, version, member.
APPEND_AGGREGATE = """#!lua
local count = tonumber(ARGV[1])
local seen = {}
for i = 0, count - 1 do
  local b = 2 + i * 3
  local k, version = ARGV[b], ARGV[b + 1]
  local pair = k .. ' ' .. version
  if seen[pair] then
    local where = KEYS[tonumber(k)]
    return redis.error_reply('HLCONFLICT version ' .. version .. ' of ' .. where .. ' twice in one batch')
  end
  seen[pair] = true
  if redis.call('ZCOUNT', KEYS[tonumber(k)], version, version) > 0 then
    return redis.error_reply('HLCONFLICT version ' .. version .. ' of ' .. KEYS[tonumber(k)] .. ' is taken')
  end
end
for i = 0, count - 1 do
  local b = 2 + i * 3
  redis.call('ZADD', KEYS[tonumber(ARGV[b])], ARGV[b + 1], ARGV[b + 2])
end
return count
"""

# Read one page of an originator's events from the notification log.
# KEYS: 1 the originator's sorted set (version -> notification id), 2 the log hash.
# ARGV: 1 lowest score, 2 highest score (ZRANGE BYSCORE syntax), 3 '1' for descending order, 4 the most
#       events to return (the caller reads a long stream page by page: RECORDS_PER_PAGE).
# Returns the events' records, in order (false where the index names a record the log does not hold).
#
# Lua's unpack() takes at most a few thousand values, so the records are fetched in slices of 500 ids:
# one HMGET of every id of a stream failed with "too many results to unpack" at 8,000 events.
SELECT_EVENTS = """#!lua flags=no-writes
local seq, log = KEYS[1], KEYS[2]
local low, high, desc, limit = ARGV[1], ARGV[2], ARGV[3] == '1', ARGV[4]
local ids
if desc then ids = redis.call('ZRANGE', seq, high, low, 'BYSCORE', 'REV', 'LIMIT', 0, limit)
else ids = redis.call('ZRANGE', seq, low, high, 'BYSCORE', 'LIMIT', 0, limit) end
local out = {}
for i = 1, #ids, 500 do
  local records = redis.call('HMGET', log, unpack(ids, i, math.min(i + 499, #ids)))
  for j = 1, #records do out[#out + 1] = records[j] end
end
return out
"""

# Read the events of several originators after a version of each, in one round trip (a write reads the game
# and its access stream: both live under the application's hash tag).
# KEYS: 1 the log hash, then each originator's sorted set. ARGV: 1 the most events to return per originator,
# then the lowest score of each, in the same order.
# Returns, for each originator in turn, how many records follow (-1, and none, when it has more than the
# most: the caller reads that one page by page), then its records in order.
_NEW_EVENTS = """local log = KEYS[{log}]
local most = tonumber(ARGV[{most}])
for i = {log} + 1, #KEYS do
  local ids = redis.call('ZRANGE', KEYS[i], ARGV[i + {shift}], '+inf', 'BYSCORE', 'LIMIT', 0, most + 1)
  if #ids > most then
    out[#out + 1] = -1
  else
    out[#out + 1] = #ids
    for j = 1, #ids, 500 do
      local records = redis.call('HMGET', log, unpack(ids, j, math.min(j + 499, #ids)))
      for r = 1, #records do out[#out + 1] = records[r] end
    end
  end
end
return out
"""
SELECT_NEW_EVENTS = "#!lua flags=no-writes\nlocal out = {}\n" + _NEW_EVENTS.format(log=1, most=1, shift=0)

# The same read, after counting a write in a rate-limit window (replay.ephemeral): the write guard's count and
# the write's read of its game in one round trip (api.resources.write_guard). The counter lives under the same
# hash tag as the game.
# KEYS: 1 the window's counter, 2 the log hash, then each originator's sorted set. ARGV: 1 the weight to add,
# 2 the counter's lifetime in seconds, 3 the most events per originator, then the lowest score of each.
# Returns the counter's new value, then what SELECT_NEW_EVENTS returns.
COUNT_AND_SELECT_NEW_EVENTS = (
    "#!lua\nlocal out = {redis.call('INCRBY', KEYS[1], ARGV[1])}\nredis.call('EXPIRE', KEYS[1], ARGV[2])\n"
    + _NEW_EVENTS.format(log=2, most=3, shift=1)
)

# The same, claiming an Idempotency-Key's use for a kind of write as well (replay.idempotency.key_use): kept
# unless a use is kept already, and the use kept is returned.
# KEYS: 1 the window's counter, 2 the key use, 3 the log hash, then each originator's sorted set. ARGV: 1 the
# weight, 2 the counter's lifetime, 3 the kind of write, 4 the use's lifetime, 5 the most events per originator,
# then the lowest score of each. Returns the counter's new value, the use kept, then what SELECT_NEW_EVENTS does.
COUNT_CLAIM_AND_SELECT_NEW_EVENTS = (
    "#!lua\nlocal out = {redis.call('INCRBY', KEYS[1], ARGV[1])}\nredis.call('EXPIRE', KEYS[1], ARGV[2])\n"
    "local used = redis.call('GET', KEYS[2])\n"
    "if not used then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]); used = ARGV[3] end\n"
    "out[2] = used\n" + _NEW_EVENTS.format(log=3, most=5, shift=2)
)

# Read notifications (of some topics, or of every topic when none is given), scanning at most a bounded number
# of log entries per call so that a rare topic never blocks the server for long; the caller continues from the
# returned position. An id the log does not hold (a record deleted or lost: the log's ids are given out without
# gaps, so it is damage) is passed over: one missing record must not hide every later one.
# KEYS: 1 the log hash, 2 the last-id counter. ARGV: 1 first notification id to scan, 2 last id to scan (the
# scan also stops at the last id given out, the counter's), 3 limit, 4 topics...
# Returns the last scanned id, then id and record of each match.
SELECT_NOTIFICATIONS = """#!lua flags=no-writes
local log = KEYS[1]
local first, last, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
last = math.min(last, tonumber(redis.call('GET', KEYS[2]) or '0'))
local every = #ARGV < 4
local wanted = {}
for i = 4, #ARGV do wanted[ARGV[i]] = true end
local out = {first - 1}
local found = 0
local id = first
while id <= last do
  local upto = math.min(last, id + 199)
  local ids = {}
  for j = id, upto do ids[#ids + 1] = j end
  local records = redis.call('HMGET', log, unpack(ids))
  for j = 1, #ids do
    local record = records[j]
    out[1] = ids[j]
    if record and (every or wanted[string.sub(record, 1, string.find(record, '\\n', 1, true) - 1)]) then
      out[#out + 1] = ids[j]
      out[#out + 1] = record
      found = found + 1
      if found == limit then return out end
    end
  end
  id = upto + 1
end
return out
"""

# What an append left behind, for deciding the outcome of an append whose reply was lost.
# KEYS: 1 the log hash, 2 the tracking hash, 3.. one sorted set per originator.
# ARGV: 1 upstream application name or '', 2 the number of events, then two values per event: index of its
#       sorted set in KEYS, version.
# Returns the recorded tracking position ('' if none), then notification id and record per event ('' for
# both when the version is not recorded).
PROBE_EVENTS = """#!lua flags=no-writes
local log, tracking = KEYS[1], KEYS[2]
local out = {''}
if ARGV[1] ~= '' then out[1] = redis.call('HGET', tracking, ARGV[1]) or '' end
for i = 0, tonumber(ARGV[2]) - 1 do
  local b = 3 + i * 2
  local version = ARGV[b + 1]
  local ids = redis.call('ZRANGE', KEYS[tonumber(ARGV[b])], version, version, 'BYSCORE', 'LIMIT', 0, 1)
  if #ids == 0 then
    out[#out + 1] = ''; out[#out + 1] = ''
  else
    out[#out + 1] = ids[1]; out[#out + 1] = redis.call('HGET', log, ids[1])
  end
end
return out
"""

# Record a tracking position, and run a view's commands in the same atomic step.
# KEYS: 1 the tracking hash, 2.. the view's keys. ARGV: 1 upstream application name, 2 notification id,
# 3 number of commands, then per command: its name, index of its key in KEYS, number of arguments, arguments.
INSERT_TRACKING = """#!lua
local tracking, upstream, position = KEYS[1], ARGV[1], ARGV[2]
local last = redis.call('HGET', tracking, upstream)
if last and tonumber(last) >= tonumber(position) then
  return redis.error_reply('HLTRACKING ' .. upstream .. ' is at ' .. last .. ', not below ' .. position)
end
local i = 4
for _ = 1, tonumber(ARGV[3]) do
  local name, k, nargs = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  redis.call(name, KEYS[k], unpack(ARGV, i + 3, i + 2 + nargs))
  i = i + 3 + nargs
end
redis.call('HSET', tracking, upstream, position)
return 1
"""
