-- Fenced acquire: KEYS[1] lock key, KEYS[2] fence counter (same hash tag, no
-- TTL ever). ARGV[1] token, ARGV[2] TTL in ms. Takes the lock and issues the
-- next fencing token in one atomic step; returns the token, or 0 if the lock
-- is held.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return 0
