-- Acquire with a caller-chosen token: KEYS[1] lock key, ARGV[1] token,
-- ARGV[2] TTL in ms. Takes the lock if it is free, or takes it back if it
-- already holds ARGV[1] (the same owner, restarted), setting the TTL.
-- Returns 1 if ARGV[1] holds the lock now, 0 if another token holds it. A
-- lock key of another type fails the GET (WRONGTYPE) before anything is
-- written.
local v = redis.call('GET', KEYS[1])
if v == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
