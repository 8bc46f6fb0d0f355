-- Owner-checked multi-key release: deletes each of KEYS that holds ARGV[1]
-- (the token) and returns how many it deleted; a key that expired or
-- another owner took is left alone.
local n = 0
for _, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then
    n = n + redis.call('DEL', k)
  end
end
return n
