-- Probe, run once by a Locker whose acquisition is a plain SET NX (Basic,
-- Watchdog) before its first write: it fails with NOPERM when the
-- user may not run scripts (the release would then be refused: the lock
-- could be taken but never given back), and with WRONGTYPE when KEYS[1]
-- holds another type than a string (SET NX would read it as "taken"
-- forever). Returns 1.
local t = redis.call('TYPE', KEYS[1])
if type(t) == 'table' then
  t = t.ok
end
if t ~= 'none' and t ~= 'string' then
  return redis.error_reply('WRONGTYPE the lock key ' .. KEYS[1] .. ' holds a ' .. t .. ', not a string')
end
return 1
