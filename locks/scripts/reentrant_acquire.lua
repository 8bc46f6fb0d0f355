-- Reentrant acquire: KEYS[1] is a hash {owner: count, '@'..entry: 1 for
-- each entry of the holding}. ARGV[1] owner, ARGV[2] TTL in ms, ARGV[3] this
-- acquisition's own entry id. If the lock is free or already held by this
-- owner, the entry is recorded, the owner's count incremented and the TTL
-- refreshed; returns the new count. The same entry twice (a request sent
-- again) counts once. Returns 0 if another owner holds it.
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
return 0
