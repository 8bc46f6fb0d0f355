-- Owner-checked TTL of one member (a reader, a semaphore permit). KEYS[1]
-- the member set, ARGV[1] token, ARGV[2] member key prefix. Returns the
-- PTTL in ms of the member's own key if the token is in the set; -2
-- otherwise, or when its key has expired.
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then
  return redis.call('PTTL', ARGV[2] .. ARGV[1])
end
return -2
