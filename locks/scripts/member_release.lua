-- Owner-checked release of one member (a reader, a semaphore permit).
-- KEYS[1] the member set. ARGV[1] token, ARGV[2] member key prefix. Removes
-- the member; returns 1 if it was still held (its key alive), 0 if not.
local key = ARGV[2] .. ARGV[1]
local held = redis.call('EXISTS', key)
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('DEL', key)
return held
