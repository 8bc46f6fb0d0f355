-- Reentrant extension (watchdog renewal): reset the TTL of KEYS[1] to
-- ARGV[2] ms if owner ARGV[1] holds it. Returns 1 if extended, 0 otherwise.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
