-- Service wake-up, after a release that freed the lock. KEYS[1] the lock,
-- KEYS[2] waiters. ARGV[1] waiter key prefix, ARGV[2] wake list prefix,
-- ARGV[3] wake list TTL ms. If the lock is still free, wakes the oldest
-- live waiter. Returns how many were woken.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
return wake_first(KEYS[2], ARGV[1], ARGV[2], ARGV[3], 1)
