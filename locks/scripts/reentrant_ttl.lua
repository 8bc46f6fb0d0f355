-- Owner-checked TTL of a reentrant holding: KEYS[1] the hash, ARGV[1] the
-- owner, ARGV[2] the acquisition's entry id. Returns the hash's PTTL in ms
-- if the entry and the owner are in it; -2 otherwise (the entry's holding
-- is over, or another owner holds the lock).
if redis.call('HEXISTS', KEYS[1], '@' .. ARGV[2]) == 1 and redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return redis.call('PTTL', KEYS[1])
end
return -2
