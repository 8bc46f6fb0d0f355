-- Read lock. KEYS[1] writer (token, PX), KEYS[2] readers (SET of tokens),
-- KEYS[3] writer intent (token, PX). ARGV[1] reader token, ARGV[2] TTL ms,
-- ARGV[3] reader key prefix. Refused while a writer holds the lock (minus
-- the writer key's PTTL, at least 1: the time its holding has left) or a
-- waiting writer has announced its intent (0); otherwise the reader joins the
-- set with its own expiring key and 1 is returned. A writer or intent key
-- of another type than a string fails with WRONGTYPE before anything is
-- written (it would read as held for ever).
local bad = not_string(KEYS[1], 'lock key') or not_string(KEYS[3], 'intent key')
if bad then
  return bad
end
if redis.call('EXISTS', KEYS[1]) == 1 then
  local left = redis.call('PTTL', KEYS[1])
  if left >= 0 then
    return -math.max(left, 1)
  end
  return 0
end
if redis.call('EXISTS', KEYS[3]) == 1 then
  return 0
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SET', ARGV[3] .. ARGV[1], '1', 'PX', ARGV[2])
keep(KEYS[2], ARGV[2])
return 1
