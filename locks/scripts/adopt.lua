-- Adoption of a handed-off holding. KEYS[1] the lock key, KEYS[2] (if
-- given) its fence counter. ARGV[1] the holding's token (the key's whole
-- value), ARGV[2] TTL ms.
--
-- Only while KEYS[1] holds ARGV[1]: its TTL is set to ARGV[2] and the reply
-- is the holding's fencing token (the counter, which no grant moves while
-- the key is held), or 1 without a counter. 0 if the key holds another
-- value or none, and -1 if the counter is missing or not a positive
-- integer; neither writes anything.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local fence = 1
if #KEYS > 1 then
  fence = tonumber(redis.call('GET', KEYS[2]) or '')
  if not fence or fence < 1 then
    return -1
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return fence
