-- Owner-checked release: delete KEYS[1] only if it holds ARGV[1] (the token).
-- Returns 1 if deleted, 0 if the key is absent or held by another token.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
