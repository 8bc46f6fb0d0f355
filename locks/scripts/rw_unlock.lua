-- Writer release. KEYS[1] writer, KEYS[2] writer intent, KEYS[3] waiters.
-- ARGV[1] token, ARGV[2] waiter key prefix, ARGV[3] wake list prefix,
-- ARGV[4] wake list TTL ms. Owner-checked: deletes the writer only if it
-- holds ARGV[1], then wakes the writer whose intent stands or, with none,
-- every waiter. Returns 1 if released, 0 if not held.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
wake_rw(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4])
return 1
