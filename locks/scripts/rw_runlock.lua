-- Reader release, and a reader giving up. KEYS[1] readers, KEYS[2] writer
-- intent, KEYS[3] waiters. ARGV[1] token, ARGV[2] reader key prefix,
-- ARGV[3] waiter key prefix, ARGV[4] wake list prefix, ARGV[5] wake list
-- TTL ms. Removes the reader and its waiter entry; when no live reader is
-- left, wakes the writer whose intent stands or, with none, every waiter.
-- Returns 1 if the reader still held (its key alive), 0 if not.
local key = ARGV[2] .. ARGV[1]
local held = redis.call('EXISTS', key)
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('DEL', key)
wait_done(KEYS[3], ARGV[3], ARGV[1])
if prune_set(KEYS[1], ARGV[2]) == 0 then
  wake_rw(KEYS[2], KEYS[3], ARGV[3], ARGV[4], ARGV[5])
end
return held
