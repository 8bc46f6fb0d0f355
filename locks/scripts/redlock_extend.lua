-- Redlock's owner-checked extension on one node: reset KEYS[1]'s TTL to
-- ARGV[2] ms if it holds ARGV[1]; if the key is gone (the node restarted
-- without its data, or it expired there), set it again to ARGV[1] for
-- ARGV[2] ms, so that a restarted node counts towards the extension's
-- quorum; leave another owner's key alone. Returns 1 if extended, 2 if
-- set again, 0 if another owner holds the key.
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if v == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
