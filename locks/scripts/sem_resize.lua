-- Semaphore resize. KEYS[1] the semaphore's size (its N, no TTL). ARGV[1]
-- the N the caller was built with, ARGV[2] the new N. Sets the size to the
-- new N (1) if it is unset or still the caller's; else returns -(stored N)
-- and changes nothing (an error if that is not a positive integer).
-- Holdings stay as they are: grants follow the new N.
local size = redis.call('GET', KEYS[1])
if size and size ~= ARGV[1] then
  local n = tonumber(size)
  if not n or n < 1 or n % 1 ~= 0 then
    return redis.error_reply('ERR value is not an integer or out of range: semaphore size ' .. size)
  end
  return -n
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
