-- Prepended (after lib_members.lua) to Service's acquisition scripts: the
-- priority of its starving waiters.

-- starve_turn decides whether the caller may go on to the acquisition
-- that follows. queue is a ZSET of starving waiters (token -> arrival
-- number), each live while its own key prefix .. token exists (it expires
-- ttl ms after the waiter's last attempt, so a waiter that vanished stops
-- counting by then). me is the caller's token if it is starving, else ''.
-- A starving caller is queued (if it is not) and its key refreshed. While
-- a starving waiter is queued, only the first one may take the lock anew:
-- anyone else is refused (false), except an owner already in the hash (a
-- re-entry is never refused: the holder must be able to go on and
-- release). A starving caller that is about to be granted (the hash free,
-- or its owner in it) leaves the queue in this same step.
local function starve_turn(hash, owner, queue, prefix, me, ttl)
  if me == '' and redis.call('EXISTS', queue) == 0 then
    return true
  end
  prune_zset(queue, prefix)
  if me ~= '' then
    if not redis.call('ZSCORE', queue, me) then
      local last = redis.call('ZRANGE', queue, -1, -1, 'WITHSCORES')
      local n = 1
      if last[2] then
        n = tonumber(last[2]) + 1
      end
      redis.call('ZADD', queue, n, me)
    end
    redis.call('SET', prefix .. me, '1', 'PX', ttl)
    keep(queue, ttl)
  end
  local head = redis.call('ZRANGE', queue, 0, 0)[1]
  if not head then
    return true
  end
  local reentry = redis.call('HEXISTS', hash, owner) == 1
  if head ~= me and not reentry then
    return false
  end
  if me ~= '' and (reentry or redis.call('EXISTS', hash) == 0) then
    redis.call('ZREM', queue, me)
    redis.call('DEL', prefix .. me)
  end
  return true
end
