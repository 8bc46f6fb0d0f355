-- Owner-checked multi-key TTL: if every one of KEYS holds ARGV[1] (the
-- token), returns the shortest PTTL in ms among them (-1 if none expires);
-- -2 if any does not hold it.
local least = -1
for _, k in ipairs(KEYS) do
  if redis.call('GET', k) ~= ARGV[1] then
    return -2
  end
  local ms = redis.call('PTTL', k)
  if ms >= 0 and (least < 0 or ms < least) then
    least = ms
  end
end
return least
