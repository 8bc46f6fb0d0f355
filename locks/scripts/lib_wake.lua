-- Prepended (after lib_members.lua) to the scripts that wake a fair lock's
-- waiters.

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
