-- Reentrant release: ARGV[1] owner, ARGV[2] TTL in ms. Returns -1 if the
-- owner does not hold the lock; otherwise decrements its count and returns
-- what is left, refreshing the TTL on a partial release and deleting the key
-- on the last one.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return -1
end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return n
end
redis.call('DEL', KEYS[1])
return 0
