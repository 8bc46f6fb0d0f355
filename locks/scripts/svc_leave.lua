-- Service waiter leaving (granted, or given up). KEYS[1] waiters. ARGV[1]
-- waiter token, ARGV[2] waiter key prefix, ARGV[3] wake list prefix. Drops
-- its entry, its key and its wake list. Returns 1.
wait_done(KEYS[1], ARGV[2], ARGV[1])
redis.call('DEL', ARGV[3] .. ARGV[1])
return 1
