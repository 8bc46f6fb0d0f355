-- A writer's read lock, and downgrade. KEYS[1] writer, KEYS[2] readers.
-- ARGV[1] writer token, ARGV[2] reader token, ARGV[3] TTL ms, ARGV[4] reader
-- key prefix, ARGV[5] "1" to downgrade (the write holding ends in the same
-- step), else "0".
--
-- Granted (1) only while the writer key holds the caller's write token: the
-- reader joins the set with its own expiring key, as rw_rlock's readers do,
-- without waiting for the writer (itself) or for a writer's intent, which
-- cannot stand while a writer holds. With ARGV[5] = "1" the writer key is
-- then deleted, so the caller goes from write to read holding with no
-- moment in which it holds neither. Refused (0), writing nothing, if the
-- writer key holds another token or none.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('SET', ARGV[4] .. ARGV[2], '1', 'PX', ARGV[3])
keep(KEYS[2], ARGV[3])
if ARGV[5] == '1' then
  redis.call('DEL', KEYS[1])
end
return 1
