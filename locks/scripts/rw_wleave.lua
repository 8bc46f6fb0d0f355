-- Writer leave: a writer that gives up. KEYS[1] writer, KEYS[2] writer
-- intent. ARGV[1] token. Withdraws the caller's intent and releases a grant
-- whose reply was lost. Returns 1.
if redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('DEL', KEYS[2])
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
end
return 1
