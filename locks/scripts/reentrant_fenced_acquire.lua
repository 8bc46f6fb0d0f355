-- Fenced reentrant acquire: KEYS[1] is the hash of reentrant_acquire.lua
-- plus a field '@' holding the holding's fencing token; KEYS[2] the fence
-- counter (same hash tag, no TTL ever). ARGV as in reentrant_acquire.lua.
-- A first acquisition (the hash free, or freed of stale entries) issues
-- the next fencing token (INCR of KEYS[2]) in the same atomic step as the
-- grant; a re-entry returns the holding's token. Returns {count, fence},
-- or, if another owner holds it, {-PTTL, 0}: minus the time the holding
-- has left ({0, 0} if the key has no expiry). A failed acquisition leaves no
-- grant behind: a lock key of another type fails HEXISTS before anything
-- is written, and a counter INCR cannot increment (WRONGTYPE, not an
-- integer, overflow) returns its error before the hash is written (stale
-- entries removed before it stay removed).
-- ARGV[4], if not empty, is the prefix of the acquiring value's own entries
-- (its instance id and '.'), sent when that value holds nothing: its stale
-- entries are dropped first (drop_stale, lib_reentry.lua), and the lock is
-- free if the owner counted nothing else.
drop_stale(KEYS[1], ARGV[1], ARGV[3], ARGV[4])
local free = redis.call('EXISTS', KEYS[1]) == 0
if not free and redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  local left = redis.call('PTTL', KEYS[1])
  if left >= 0 then
    return {-math.max(left, 1), 0}
  end
  return {0, 0}
end
local e = '@' .. ARGV[3]
if not free and redis.call('HEXISTS', KEYS[1], e) == 1 then
  return {tonumber(redis.call('HGET', KEYS[1], ARGV[1])), tonumber(redis.call('HGET', KEYS[1], '@'))}
end
local fence
if free then
  fence = redis.pcall('INCR', KEYS[2])
  if type(fence) == 'table' and fence.err then
    return fence
  end
  redis.call('HINCRBY', KEYS[1], '@', fence) -- a fresh hash: sets it
else
  fence = tonumber(redis.call('HGET', KEYS[1], '@'))
end
redis.call('HINCRBY', KEYS[1], e, 1)
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {n, fence}
