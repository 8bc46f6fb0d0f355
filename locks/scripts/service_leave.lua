-- Service leave: a starving waiter that gives up. KEYS[1] the lock's hash,
-- KEYS[2] the starving waiters' queue; ARGV[1] the waiter's token, ARGV[2]
-- their key prefix, ARGV[3] the wake list prefix, ARGV[4] the wake list's
-- TTL in ms. Removes the waiter and, if the lock is free, wakes the next
-- starving waiter (it may have been refused while this one was first).
-- Returns 1 if the waiter was queued, else 0.
local n = redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', ARGV[2] .. ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 0 then
  wake_head(KEYS[2], ARGV[2], ARGV[3], ARGV[4])
end
return n
