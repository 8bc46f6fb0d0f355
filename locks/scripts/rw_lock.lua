-- Write lock (one poll). KEYS[1] writer, KEYS[2] readers, KEYS[3] writer
-- intent. ARGV[1] writer token, ARGV[2] TTL ms, ARGV[3] intent TTL ms,
-- ARGV[4] reader key prefix.
--
-- While no writer holds the lock, the first waiting writer announces its
-- intent (refreshed on every poll, expiring on its own if the writer
-- vanishes); new readers are refused while it stands, so the readers
-- holding drain and the writer is not starved. Granted (1) when the lock
-- has no writer and no live reader and the intent is the caller's; else 0,
-- or, while a writer holds it, minus the writer key's PTTL (at least 1:
-- the time its holding has left, so that a waiter can poll as it runs out).
-- A writer or intent key of another type than a string fails the poll with
-- WRONGTYPE before anything is written (it would read as held for ever).
local bad = not_string(KEYS[1], 'lock key') or not_string(KEYS[3], 'intent key')
if bad then
  return bad
end
local readers = prune_set(KEYS[2], ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 1 then
  local left = redis.call('PTTL', KEYS[1])
  if left >= 0 then
    return -math.max(left, 1)
  end
  return 0
end
local intent = redis.call('GET', KEYS[3])
if not intent then
  redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[3])
  intent = ARGV[1]
elseif intent == ARGV[1] then
  redis.call('PEXPIRE', KEYS[3], ARGV[3])
end
if intent ~= ARGV[1] or readers > 0 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[3])
return 1
