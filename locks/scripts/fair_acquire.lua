-- Fair acquire (one poll). KEYS[1] lock (token, PX), KEYS[2] queue (ZSET
-- token -> ticket), KEYS[3] ticket counter. ARGV[1] token, ARGV[2] lock TTL
-- ms, ARGV[3] waiter TTL ms, ARGV[4] waiter key prefix. KEYS[4], if given,
-- is a fence counter (no TTL ever) incremented with each grant.
--
-- Prunes vanished waiters; enqueues the caller with the next server-issued
-- ticket if it is not queued (enqueue and its expiry in this one step);
-- refreshes the caller's waiter key; grants the lock if it is free and the
-- caller is at the head. Returns 0 when granted (-fence with a fence
-- counter), else the caller's 1-based position in the queue. The counter
-- is incremented before the grant writes anything: one that cannot be
-- (WRONGTYPE, not an integer) fails the poll with INCR's error and no lock
-- key left. A lock key of another type than a string fails the poll with
-- WRONGTYPE before anything is written (it would read as held for ever).
local bad = not_string(KEYS[1], 'lock key')
if bad then
  return bad
end
prune_zset(KEYS[2], ARGV[4])
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
end
local waiter = ARGV[4] .. ARGV[1]
redis.call('SET', waiter, '1', 'PX', ARGV[3])
keep(KEYS[2], ARGV[3])
keep(KEYS[3], ARGV[3])
local head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
if head == ARGV[1] and redis.call('EXISTS', KEYS[1]) == 0 then
  local fence = 0
  if KEYS[4] then
    fence = redis.pcall('INCR', KEYS[4])
    if type(fence) == 'table' and fence.err then
      return fence
    end
  end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('DEL', waiter)
  return -fence
end
return redis.call('ZRANK', KEYS[2], ARGV[1]) + 1
