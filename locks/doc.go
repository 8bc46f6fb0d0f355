// Package locks implements Redis distributed-lock patterns behind one
// interface, Locker:
//
//   - Basic: SET key token NX PX ttl, owner-checked Lua release.
//   - Reentrant: a hash {owner: count}; the owner re-enters, TTL refreshed on
//     every re-entry and partial release.
//   - Watchdog: renewed every TTL/3 while held; the holder learns of loss.
//   - Redlock: N independent nodes, quorum N/2+1, parallel requests,
//     validity = TTL − elapsed − drift allowance.
//   - Service: reentrant + watchdog + retry with backoff + context + metrics.
//   - Fenced: SET NX PX and INCR of a never-expiring fence counter in one
//     script; keys share a hash tag so it works on Redis Cluster.
//
// # Seams
//
// The patterns talk to Redis only through Redis (redis.Scripter plus SetNX:
// *redis.Client and *redis.ClusterClient satisfy it) and observe or spend
// time only through clock.Clock, including the goroutines they start (the
// watchdog, Redlock's fan-out). Owner tokens and jitter come from Rand.
// The simulator supplies its own implementations of all three and runs this
// same code; a test (lint_test.go) fails if lock code escapes the seams.
//
// # Usage
//
//	l, err := locks.NewBasic(rdb, "orders:42", locks.Options{TTL: 10 * time.Second})
//	lease, err := l.Acquire(ctx)
//	if err != nil { ... } // errors.Is(err, locks.ErrNotAcquired)
//	defer l.Release(ctx, lease)
//	// ... work, checking lease.Err() before acting on the protected resource
//
// TTLs are milliseconds on the wire (PX, PEXPIRE). Options are validated at
// construction: an invalid one returns an *OptionError naming the field and
// its value.
package locks
