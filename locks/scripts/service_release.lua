-- Service release: reentrant_release.lua's KEYS[1] and ARGV[1..3], and the
-- same replies; KEYS[2] the starving waiters' queue, ARGV[4] their key
-- prefix, ARGV[5] the wake list prefix, ARGV[6] the wake list's TTL in ms.
-- The release that frees the lock wakes the first live starving waiter
-- (wake_head), the only one who may take it next.
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
if redis.call('EXISTS', KEYS[2]) == 1 then
  wake_head(KEYS[2], ARGV[4], ARGV[5], ARGV[6])
end
return 0
