-- Semaphore reading, read-only. KEYS[1] holders (SET of permit tokens),
-- KEYS[2] the semaphore's size. ARGV[1] permit key prefix. Returns {stored
-- N (0 if unset), permits held by live holdings}; expired holdings count
-- nothing (the next acquisition prunes them).
local used = 0
for _, m in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local k = redis.call('GET', ARGV[1] .. m)
  if k then used = used + tonumber(k) end
end
return {tonumber(redis.call('GET', KEYS[2]) or '0'), used}
