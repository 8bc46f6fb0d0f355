-- Owner-checked TTL: KEYS[1]'s PTTL in ms if it holds ARGV[1] (the token);
-- -2 otherwise, as PTTL reports a missing key. A key of another type fails
-- the GET (WRONGTYPE).
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PTTL', KEYS[1])
end
return -2
