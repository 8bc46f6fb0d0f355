-- Multi-key acquire: KEYS the lock keys (one node, one slot on Cluster),
-- ARGV[1] token, ARGV[2] TTL in ms. Sets every key to the token with the
-- TTL only if none of them exists, in one step: all or none. Returns 0 when
-- granted, else the 1-based index of the first key found held (nothing is
-- written). A key of another type than a string fails with WRONGTYPE,
-- before anything is written.
for i, k in ipairs(KEYS) do
  local t = redis.call('TYPE', k)
  if type(t) == 'table' then
    t = t.ok
  end
  if t ~= 'none' then
    if t ~= 'string' then
      return redis.error_reply('WRONGTYPE the lock key ' .. k .. ' holds a ' .. t .. ', not a string')
    end
    return i
  end
end
for _, k in ipairs(KEYS) do
  redis.call('SET', k, ARGV[1], 'PX', ARGV[2])
end
return 0
