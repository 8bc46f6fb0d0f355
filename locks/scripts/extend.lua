-- Owner-checked extension: reset KEYS[1]'s TTL to ARGV[2] ms only if it holds
-- ARGV[1]. Returns 1 if extended, 0 otherwise.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
