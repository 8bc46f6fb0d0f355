-- Shared helpers, prepended to the scripts that keep a set of members each
-- backed by its own expiring key (prefix .. member). A member whose key has
-- expired has vanished: the scripts prune it before deciding anything.

-- keep makes key live at least ms more (never shortens its TTL).
local function keep(key, ms)
  if redis.call('PTTL', key) < tonumber(ms) then
    redis.call('PEXPIRE', key, ms)
  end
end

-- prune_set removes from the SET key every member whose key has expired and
-- returns how many are left.
local function prune_set(key, prefix)
  local live = 0
  for _, m in ipairs(redis.call('SMEMBERS', key)) do
    if redis.call('EXISTS', prefix .. m) == 1 then
      live = live + 1
    else
      redis.call('SREM', key, m)
    end
  end
  return live
end

-- prune_zset removes from the ZSET key every member whose key has expired
-- and returns how many are left.
local function prune_zset(key, prefix)
  local live = 0
  for _, m in ipairs(redis.call('ZRANGE', key, 0, -1)) do
    if redis.call('EXISTS', prefix .. m) == 1 then
      live = live + 1
    else
      redis.call('ZREM', key, m)
    end
  end
  return live
end

