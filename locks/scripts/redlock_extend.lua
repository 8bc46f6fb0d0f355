-- Redlock's owner-checked extension on one node: reset KEYS[1]'s TTL to
-- ARGV[2] ms if it holds ARGV[1]. A missing key is not set again here:
-- the node may have lost it while another owner took, used and released
-- the lock on a majority, so only an extension that a majority granted
-- sets it again (with redlock_acquire, in a second step). Returns 1 if
-- extended, -1 if the key is gone, 0 if another owner holds it.
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if v == false then
  return -1
end
return 0
