-- Semaphore acquire. KEYS[1] holders (SET of permit tokens), KEYS[2]
-- waiters (ZSET token -> ticket), KEYS[3] ticket counter. ARGV[1] token,
-- ARGV[2] TTL ms, ARGV[3] permits N, ARGV[4] permit key prefix, ARGV[5]
-- waiter key prefix, ARGV[6] waiter TTL ms. Prunes expired permits; grants
-- (1) if fewer than N are live, giving the permit its own expiring key and
-- taking the caller off the waiters; else registers the caller as a waiter
-- (a release wakes the oldest) and returns 0.
if prune_set(KEYS[1], ARGV[4]) >= tonumber(ARGV[3]) then
  wait_join(KEYS[2], KEYS[3], ARGV[5], ARGV[1], ARGV[6])
  return 0
end
wait_done(KEYS[2], ARGV[5], ARGV[1])
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', ARGV[4] .. ARGV[1], '1', 'PX', ARGV[2])
keep(KEYS[1], ARGV[2])
return 1
