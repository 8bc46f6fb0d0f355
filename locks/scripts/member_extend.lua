-- Owner-checked extension of one member. KEYS[1] the member set. ARGV[1]
-- token, ARGV[2] TTL ms, ARGV[3] member key prefix. Resets the member's TTL
-- and returns 1 if it still holds; 0 otherwise.
local key = ARGV[3] .. ARGV[1]
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 and redis.call('EXISTS', key) == 1 then
  redis.call('PEXPIRE', key, ARGV[2])
  keep(KEYS[1], ARGV[2])
  return 1
end
return 0
