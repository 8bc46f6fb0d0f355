-- Fair release. KEYS[1] lock, KEYS[2] queue. ARGV[1] token, ARGV[2] waiter
-- key prefix, ARGV[3] wake list prefix, ARGV[4] wake list TTL ms.
--
-- Owner-checked: deletes the lock only if it holds ARGV[1], then wakes the
-- head of the queue (only the head: the others could not take it). Returns
-- 1 if released, 0 if the lock is absent or held by another token.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
wake_head(KEYS[2], ARGV[2], ARGV[3], ARGV[4])
return 1
