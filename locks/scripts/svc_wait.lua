-- Service waiter registration, after an attempt found the lock taken.
-- KEYS[1] the lock, KEYS[2] waiters (ZSET), KEYS[3] their ticket counter.
-- ARGV[1] waiter token, ARGV[2] waiter key prefix, ARGV[3] waiter TTL ms.
-- Returns 0 if the lock is free by now (it was released between the
-- attempt and this call: try again at once), else registers the waiter (a
-- release wakes the oldest) and returns 1.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
wait_join(KEYS[2], KEYS[3], ARGV[2], ARGV[1], ARGV[3])
return 1
