-- Break-glass release (ForceRelease): delete KEYS whoever holds them, with
-- no owner check. Returns how many of them existed.
return redis.call('DEL', unpack(KEYS))
