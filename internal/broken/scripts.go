package broken

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// The correct scripts of package locks, reused wherever a variant's pitfall
// is elsewhere, so that the variant differs by its pitfall alone.
var (
	releaseScript       = redis.NewScript(locks.Scripts()["release"])
	extendScript        = redis.NewScript(locks.Scripts()["extend"])
	fencedAcquireScript = redis.NewScript(locks.Scripts()["fenced_acquire"])
)

// delScript is the basic-del pitfall: DEL with no owner check.
var delScript = redis.NewScript(`return redis.call('DEL', KEYS[1])`)

// reenterScript is the reentrant-nocount pitfall: the owner may take the
// lock again, but nothing counts how often. ARGV[1] owner, ARGV[2] TTL ms.
var reenterScript = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
`)

// volatileFenceScript is the fenced-volatile pitfall: the fence counter is
// given the lock's TTL, so it disappears when nobody holds the lock for a
// TTL and the next token is 1 again. ARGV[1] token, ARGV[2] TTL ms.
var volatileFenceScript = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local n = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return n
end
return 0
`)

// The service-seconds scripts: the seed's lock service, a hash {owner:
// count}, with its TTL argument in whole seconds (EXPIRE, not PEXPIRE).
// EXPIRE with 0 deletes the key.
var (
	secondsAcquireScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  local n = redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return n
end
return 0
`)
	secondsReleaseScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
  return -1
end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n > 0 then
  redis.call('EXPIRE', KEYS[1], ARGV[2])
  return n
end
redis.call('DEL', KEYS[1])
return 0
`)
	secondsRenewScript = redis.NewScript(`
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  return redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return 0
`)
)

func runInt(ctx context.Context, r locks.Redis, s *redis.Script, keys []string, args ...any) (int64, error) {
	return s.Run(ctx, r, keys, args...).Int64()
}
