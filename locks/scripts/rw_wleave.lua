-- Writer leave: a writer that gives up. KEYS[1] writer, KEYS[2] writer
-- intent, KEYS[3] waiters. ARGV[1] token, ARGV[2] waiter key prefix,
-- ARGV[3] wake list prefix, ARGV[4] wake list TTL ms. Withdraws the
-- caller's intent and its waiter entry, releases a grant whose reply was
-- lost, and, if the lock is then free of writers, wakes its waiters (the
-- intent may have been all that held readers off). Returns 1.
if redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('DEL', KEYS[2])
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
wait_done(KEYS[3], ARGV[2], ARGV[1])
if redis.call('EXISTS', KEYS[1]) == 0 then
  wake_rw(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
end
return 1
