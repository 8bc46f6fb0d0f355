-- Redlock's acquisition on one node: KEYS[1] lock key, ARGV[1] token,
-- ARGV[2] TTL in ms. SET NX PX run as a script, so that one round trip
-- both takes the lock and proves the lock can be given back: a user who
-- may not run scripts (and could never release) is refused with NOPERM
-- before anything is written, and a lock key of another type fails the
-- GET with WRONGTYPE instead of reading as "taken" forever. Returns 1 if
-- ARGV[1] holds the lock now, 0 if another token holds it. A key that
-- already holds ARGV[1] is this attempt's own request sent again after
-- its first send ran (a token is made per attempt): a grant, so that a
-- failed attempt gives it back there too.
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  return 1
end
if v ~= false then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
