-- Reentrant acquire: KEYS[1] is a hash {owner: count}. ARGV[1] owner,
-- ARGV[2] TTL in ms. If the lock is free or already held by this owner, the
-- owner's count is incremented and the TTL refreshed; returns the new count.
-- Returns 0 if another owner holds it.
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return n
end
return 0
