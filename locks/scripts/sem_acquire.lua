-- Semaphore acquire. KEYS[1] holders (SET of permit tokens). ARGV[1] token,
-- ARGV[2] TTL ms, ARGV[3] permits N, ARGV[4] permit key prefix. Prunes
-- expired permits; grants (1) if fewer than N are live, giving the permit
-- its own expiring key; else 0.
if prune_set(KEYS[1], ARGV[4]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', ARGV[4] .. ARGV[1], '1', 'PX', ARGV[2])
keep(KEYS[1], ARGV[2])
return 1
