-- Reentrant acquire: KEYS[1] is a hash {owner: count, '@'..entry: 1 for
-- each entry of the holding}. ARGV[1] owner, ARGV[2] TTL in ms, ARGV[3] this
-- acquisition's own entry id. If the lock is free or already held by this
-- owner, the entry is recorded, the owner's count incremented and the TTL
-- refreshed; returns the new count. The same entry twice (a request sent
-- again) counts once. If another owner holds it, returns minus the key's
-- PTTL (the time the holding has left, so that a waiter can poll as it
-- runs out), or 0 if the key has no expiry.
-- ARGV[4], if not empty, is the prefix of the acquiring value's own entries
-- (its instance id and '.'), sent when that value holds nothing: its stale
-- entries are dropped first (drop_stale, lib_reentry.lua), and the lock is
-- free if the owner counted nothing else.
drop_stale(KEYS[1], ARGV[1], ARGV[3], ARGV[4])
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  local e = '@' .. ARGV[3]
  if redis.call('HEXISTS', KEYS[1], e) == 1 then
    return tonumber(redis.call('HGET', KEYS[1], ARGV[1]))
  end
  redis.call('HINCRBY', KEYS[1], e, 1)
  local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return n
end
local left = redis.call('PTTL', KEYS[1])
if left >= 0 then
  return -math.max(left, 1)
end
return 0
