package broken

import (
	"github.com/locksim/locksim/locks/scripts"
	"github.com/redis/go-redis/v9"
)

// releaseScript is the correct owner-checked release of package locks,
// which the seed ports use where their mistakes are elsewhere.
var releaseScript = redis.NewScript(scripts.All()["release"])

// delSource is the basic-del pitfall: DEL with no owner check.
const delSource = `return redis.call('DEL', KEYS[1])`

// noCountReleaseSource is the reentrant-nocount pitfall, in place of the
// reentrant release (same keys, arguments and reply): if the
// acquisition's entry is in the hash, the whole key is deleted, whatever
// the owner's count, and the count the correct release would leave is
// returned. ARGV[1] owner, ARGV[2] TTL ms, ARGV[3] entry.
const noCountReleaseSource = `
local e = '@' .. ARGV[3]
if redis.call('HEXISTS', KEYS[1], e) == 0 then
  return -1
end
local n = tonumber(redis.call('HGET', KEYS[1], ARGV[1])) - 1
redis.call('DEL', KEYS[1])
return n
`

// volatileFenceSource is the fenced-volatile pitfall: the fence counter is
// given the lock's TTL, so it disappears when nobody holds the lock for a
// TTL and the next token is 1 again. ARGV[1] token, ARGV[2] TTL ms.
const volatileFenceSource = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local n = redis.call('INCR', KEYS[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
  return n
end
return 0
`

// retakeSource is the renewal of watchdog-zombie-renewal: it extends the
// key if it is ours and takes it again if it is gone (meant to heal a
// lapse between renewals). ARGV[1] token, ARGV[2] TTL ms; 1 renewed, 0
// another owner holds the key.
const retakeSource = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not v then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`
