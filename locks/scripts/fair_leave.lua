-- Fair leave: a waiter that gives up (cancelled, timed out, out of
-- attempts). KEYS[1] lock, KEYS[2] queue. ARGV[1] token, ARGV[2] waiter key
-- prefix. Dequeues the token and, if a grant whose reply was lost left the
-- lock with this token, releases it. Returns 1.
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', ARGV[2] .. ARGV[1])
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 1
