-- Fair leave: a waiter that gives up (cancelled, timed out, out of
-- attempts). KEYS[1] lock, KEYS[2] queue. ARGV[1] token, ARGV[2] waiter key
-- prefix, ARGV[3] wake list prefix, ARGV[4] wake list TTL ms. Dequeues the
-- token and, if a grant whose reply was lost left the lock with this token,
-- releases it. If the lock is then free, the new head of the queue is woken
-- (the leaver may have been the head). Deletes the leaver's own wake list.
-- Returns 1.
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', ARGV[2] .. ARGV[1])
redis.call('DEL', ARGV[3] .. ARGV[1])
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  wake_head(KEYS[2], ARGV[2], ARGV[3], ARGV[4])
end
return 1
