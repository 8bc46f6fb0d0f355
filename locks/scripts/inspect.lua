-- Inspect a lock without changing it. ARGV[1] kind, ARGV[2] member key
-- prefix (fair waiters, rwlock readers, semaphore permits).
-- KEYS by kind: basic/reentrant {key}; fenced {lock, fence}; fair {lock,
-- queue}; rwlock {writer, readers, intent}; semaphore {holders}.
-- Returns {queue, fence, then per holder: token, PTTL ms, count, read (0/1)};
-- a member's count is the number its key holds (a semaphore holding's
-- permits), 1 if none.
local kind, prefix = ARGV[1], ARGV[2]
local out = {0, 0}
local function holder(token, pttl, count, read)
  table.insert(out, token); table.insert(out, pttl)
  table.insert(out, count); table.insert(out, read)
end
local function single(key)
  local t = redis.call('GET', key)
  if t then holder(t, redis.call('PTTL', key), 1, 0) end
end
local function members(key, read)
  for _, m in ipairs(redis.call('SMEMBERS', key)) do
    local p = redis.call('PTTL', prefix .. m)
    if p > 0 then holder(m, p, tonumber(redis.call('GET', prefix .. m)) or 1, read) end
  end
end
if kind == 'basic' then
  single(KEYS[1])
elseif kind == 'reentrant' then
  local h = redis.call('HGETALL', KEYS[1])
  for i = 1, #h, 2 do
    if string.sub(h[i], 1, 1) ~= '@' then -- '@' fields are the holding's entries
      holder(h[i], redis.call('PTTL', KEYS[1]), tonumber(h[i + 1]), 0)
    end
  end
elseif kind == 'fenced' then
  single(KEYS[1])
  out[2] = tonumber(redis.call('GET', KEYS[2]) or '0')
elseif kind == 'fair' then
  single(KEYS[1])
  for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
    if redis.call('EXISTS', prefix .. m) == 1 then out[1] = out[1] + 1 end
  end
elseif kind == 'rwlock' then
  single(KEYS[1])
  members(KEYS[2], 1)
  out[1] = redis.call('EXISTS', KEYS[3])
elseif kind == 'semaphore' then
  members(KEYS[1], 0)
else
  return redis.error_reply('unknown kind ' .. tostring(kind))
end
return out
