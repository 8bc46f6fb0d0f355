-- Read lock. KEYS[1] writer (token, PX), KEYS[2] readers (SET of tokens),
-- KEYS[3] writer intent (token, PX), KEYS[4] waiters (ZSET), KEYS[5] their
-- ticket counter. ARGV[1] reader token, ARGV[2] TTL ms, ARGV[3] reader key
-- prefix, ARGV[4] waiter key prefix, ARGV[5] waiter TTL ms. Refused (0,
-- the reader registered as a waiter) while a writer holds the lock or a
-- waiting writer has announced its intent; otherwise the reader joins the
-- set with its own expiring key and 1 is returned.
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[3]) == 1 then
  wait_join(KEYS[4], KEYS[5], ARGV[4], ARGV[1], ARGV[5])
  return 0
end
wait_done(KEYS[4], ARGV[4], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('SET', ARGV[3] .. ARGV[1], '1', 'PX', ARGV[2])
keep(KEYS[2], ARGV[2])
return 1
