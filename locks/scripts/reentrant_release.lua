-- Reentrant release: ARGV[1] owner, ARGV[2] TTL in ms, ARGV[3] the entry id
-- the acquisition recorded. Returns -1 if that entry is not in the hash (it
-- was released already, or belongs to a holding that is over); otherwise
-- removes it, decrements the owner's count and returns what is left,
-- refreshing the TTL on a partial release and deleting the key on the last
-- one.
local e = '@' .. ARGV[3]
if redis.call('HEXISTS', KEYS[1], e) == 0 then
  return -1
end
redis.call('HDEL', KEYS[1], e)
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return n
end
redis.call('DEL', KEYS[1])
return 0
