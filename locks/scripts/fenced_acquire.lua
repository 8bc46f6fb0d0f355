-- Fenced acquire: KEYS[1] lock key, KEYS[2] fence counter (same hash tag, no
-- TTL ever). ARGV[1] token, ARGV[2] TTL in ms. Takes the lock and issues the
-- next fencing token in one atomic step; returns the token, or, if the
-- lock is held, minus its PTTL, at least 1 (the time the holding has left, so that a
-- waiter can poll as it runs out; 0 if the key has no expiry). A failed acquisition leaves nothing behind: a lock key of
-- another type fails the GET (WRONGTYPE) before anything is written, and a
-- counter INCR cannot increment (WRONGTYPE, not an integer, overflow)
-- undoes the SET and returns INCR's error.
if redis.call('GET', KEYS[1]) then
  local left = redis.call('PTTL', KEYS[1])
  if left >= 0 then
    return -math.max(left, 1)
  end
  return 0
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local fence = redis.pcall('INCR', KEYS[2])
  if type(fence) == 'table' and fence.err then
    redis.call('DEL', KEYS[1])
  end
  return fence
end
return 0
