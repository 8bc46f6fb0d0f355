-- Semaphore release, and a waiter giving up. KEYS[1] holders, KEYS[2]
-- waiters. ARGV[1] token, ARGV[2] permit key prefix, ARGV[3] waiter key
-- prefix, ARGV[4] wake list prefix, ARGV[5] wake list TTL ms. Removes the
-- token's permit and its waiter entry, then wakes the oldest live waiter:
-- one per freed permit (a permit that expired earlier freed one too, and
-- nobody was woken for it). Returns 1 if the permit was still held (its key
-- alive), 0 if not.
local key = ARGV[2] .. ARGV[1]
local held = redis.call('EXISTS', key)
redis.call('SREM', KEYS[1], ARGV[1])
redis.call('DEL', key)
wait_done(KEYS[2], ARGV[3], ARGV[1])
wake_first(KEYS[2], ARGV[3], ARGV[4], ARGV[5], 1)
return held
