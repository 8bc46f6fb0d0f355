-- Semaphore resize. KEYS[1] the semaphore's size (its N, no TTL). ARGV[1]
-- the N the caller was built with, ARGV[2] the new N. Sets the size to the
-- new N (1) if it is unset or still the caller's; else returns -(stored N)
-- and changes nothing. Holdings stay as they are: grants follow the new N.
local size = redis.call('GET', KEYS[1])
if size and size ~= ARGV[1] then
  return -tonumber(size)
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
