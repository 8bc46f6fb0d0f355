-- Owner-checked multi-key extension: if every one of KEYS holds ARGV[1]
-- (the token), resets each one's TTL to ARGV[2] ms and returns 1; returns
-- 0, changing nothing, if any does not.
for _, k in ipairs(KEYS) do
  if redis.call('GET', k) ~= ARGV[1] then
    return 0
  end
end
for _, k in ipairs(KEYS) do
  redis.call('PEXPIRE', k, ARGV[2])
end
return 1
