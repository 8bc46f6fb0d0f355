-- Shared by the reentrant acquisitions (reentrant_acquire.lua,
-- reentrant_fenced_acquire.lua), whose KEYS[1] is a hash {owner: count,
-- '@'..entry: 1 for each entry of the holding}.

-- drop_stale: prefix, if not empty, is the prefix of the acquiring value's
-- own entries (its instance id and '.'), sent when that value holds
-- nothing: any such entry still in the hash (and its count) is left from a
-- holding it let go of (a release that failed, or that a failover or crash
-- undid), so it is removed, and the key deleted if the owner counted
-- nothing else. The acquisition's own entry (own, a request sent again) is
-- kept.
local function drop_stale(key, owner, own, prefix)
  if (prefix or '') == '' or redis.call('HEXISTS', key, owner) == 0 then
    return
  end
  local kv = redis.call('HGETALL', key)
  local p, mine = '@' .. prefix, '@' .. own
  local stale = 0
  for i = 1, #kv, 2 do
    if kv[i] ~= mine and string.sub(kv[i], 1, #p) == p then
      redis.call('HDEL', key, kv[i])
      stale = stale + 1
    end
  end
  if stale > 0 and redis.call('HINCRBY', key, owner, -stale) <= 0 then
    redis.call('DEL', key)
  end
end

