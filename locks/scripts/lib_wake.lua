-- Prepended (after lib_members.lua) to the scripts that register waiters
-- or wake them: each waiter blocks on its own wake list, wake .. token.

-- wake_head wakes the head of the fair queue. Arguments: the queue (ZSET
-- token -> ticket), the waiter key prefix, the wake list prefix and
-- the wake list's TTL in ms. Vanished waiters are pruned first, so the push
-- goes to a live waiter; the push is an RPUSH to that waiter's own list with
-- an expiry, so nothing is left behind if it never reads it. Returns 1 if a
-- waiter was woken, 0 if the queue is empty.
local function wake_head(queue, prefix, wake, ttl)
  prune_zset(queue, prefix)
  local head = redis.call('ZRANGE', queue, 0, 0)[1]
  if not head then
    return 0
  end
  redis.call('RPUSH', wake .. head, '1')
  redis.call('PEXPIRE', wake .. head, ttl)
  return 1
end

-- push wakes the waiter token: an RPUSH to its wake list, with an expiry.
local function push(wake, token, ttl)
  redis.call('RPUSH', wake .. token, '1')
  redis.call('PEXPIRE', wake .. token, ttl)
end

-- wait_join registers token in the waiters ZSET (token -> ticket from the
-- counter seq, so the oldest waiter is first) with a liveness key
-- prefix .. token that expires ttl ms after its last refusal: a waiter that
-- vanishes drops out when it expires.
local function wait_join(waiters, seq, prefix, token, ttl)
  if not redis.call('ZSCORE', waiters, token) then
    redis.call('ZADD', waiters, redis.call('INCR', seq), token)
  end
  redis.call('SET', prefix .. token, '1', 'PX', ttl)
  keep(waiters, ttl)
  keep(seq, ttl)
end

-- wait_done removes token from the waiters (granted, or given up).
local function wait_done(waiters, prefix, token)
  redis.call('ZREM', waiters, token)
  redis.call('DEL', prefix .. token)
end

-- wake_first wakes the n oldest live waiters (every one if n <= 0) and
-- takes them off the waiters: one refused again joins anew. Returns how
-- many were woken.
local function wake_first(waiters, prefix, wake, ttl, n)
  prune_zset(waiters, prefix)
  local last = -1
  if n > 0 then
    last = n - 1
  end
  local woken = redis.call('ZRANGE', waiters, 0, last)
  for _, w in ipairs(woken) do
    wait_done(waiters, prefix, w)
    push(wake, w, ttl)
  end
  return #woken
end

-- wake_rw wakes the waiters of a read-write lock that was just freed (the
-- writer released, the last reader left, a waiting writer gave up): the
-- writer whose intent stands, alone (readers are refused while it does),
-- or, with no intent, every live waiter. Returns how many were woken.
local function wake_rw(intent, waiters, prefix, wake, ttl)
  local w = redis.call('GET', intent)
  if w then
    wait_done(waiters, prefix, w)
    push(wake, w, ttl)
    return 1
  end
  return wake_first(waiters, prefix, wake, ttl, 0)
end
