-- Prepended to the scripts that read a string key's presence as "held"
-- (EXISTS): a key of another type would read as held for ever.

-- not_string returns a WRONGTYPE error reply naming what (the lock key,
-- the intent key) if key holds another type than a string, else nil.
local function not_string(key, what)
  local t = redis.call('TYPE', key)
  if type(t) == 'table' then
    t = t.ok
  end
  if t ~= 'none' and t ~= 'string' then
    return redis.error_reply('WRONGTYPE the ' .. what .. ' ' .. key .. ' holds a ' .. t .. ', not a string')
  end
  return nil
end
