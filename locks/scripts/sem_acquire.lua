-- Semaphore acquire. KEYS[1] holders (SET of permit tokens), KEYS[2] the
-- semaphore's size (its N as a string, no TTL). ARGV[1] token, ARGV[2] TTL
-- ms, ARGV[3] the client's N, ARGV[4] permit key prefix, ARGV[5] permits
-- wanted (1..N). The first acquisition stores N; a client whose N differs
-- from the stored one gets -(stored N) and changes nothing else (a stored
-- N that is not a positive integer, written by hand, is an error). Otherwise
-- prunes expired holdings (each holding's key holds its permit count) and
-- grants (1) if the permits wanted fit beside the live ones, giving the
-- holding its own expiring key; else 0.
local size = redis.call('GET', KEYS[2])
if not size then
  redis.call('SET', KEYS[2], ARGV[3])
elseif size ~= ARGV[3] then
  local n = tonumber(size)
  if not n or n < 1 or n % 1 ~= 0 then
    return redis.error_reply('ERR value is not an integer or out of range: semaphore size ' .. size)
  end
  return -n
end
local used = 0
for _, m in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local k = redis.call('GET', ARGV[4] .. m)
  if k then
    used = used + tonumber(k)
  else
    redis.call('SREM', KEYS[1], m)
  end
end
if used + tonumber(ARGV[5]) > tonumber(ARGV[3]) then
  return 0
end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', ARGV[4] .. ARGV[1], ARGV[5], 'PX', ARGV[2])
keep(KEYS[1], ARGV[2])
return 1
