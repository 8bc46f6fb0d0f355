// Package lockstest is the conformance suite every lock pattern of package
// locks runs, in the manner of testing/slogtest: Run checks, one subtest per
// property, what the Locker contract and the pattern's capabilities promise:
//
//   - mutual exclusion between independent clients, and acquisition after
//     release;
//   - owner-checked release: a lease that lost the lock gets ErrNotHeld and
//     leaves the new holder's key alone;
//   - leases honoured only by their issuer, once: a foreign (another key,
//     another client), hand-built, zero, nil, altered, released or stale
//     lease gets ErrNotHeld without a panic and ends no other lease;
//   - expiry after the TTL, and an expired lease that knows it (Done is
//     closed by then, Err is ErrLockLost) and cannot release;
//   - re-entry counting and TTL refresh (Caps.Reentrant);
//   - renewal while held, its end on Release (no goroutine left), the
//     holder told of a refused renewal, and a TTL cut behind the holder's
//     back restored by its next renewal, or a loss if the key expired
//     first (Caps.Watchdog);
//   - quorum with a minority of nodes down, ErrUnavailable (not ErrQuorum)
//     with a majority down (Caps.Redlock);
//   - strictly increasing fencing tokens and a counter that never expires
//     (Caps.Fenced);
//   - the server-side TTL of a held lease, owner-checked, and ErrNotHeld
//     once another client took the lock (Caps.TTL);
//   - Extend (Caps.Extender), context cancellation and deadlines, and
//     option validation naming the field and value (a TTL that leaves no
//     validity, a typed-nil client included).
//
// # Backends and time
//
// The same suite runs over embedded miniredis servers (StartMiniredis) and
// over real redis-server processes (StartRedisServers). A Backend says how
// time moves: over miniredis, lockers run on a ManualClock and Advance moves
// it together with the servers' TTLs (FastForward), waiting at each step for
// the watchdogs it wakes to finish their renewal, so nothing waits in real
// time; over redis-server, time is real, the TTL is short (1s) and
// Advance sleeps. Properties never assert speed: real-time waits only bound
// how long the suite waits for something that must happen.
//
// # Usage
//
//	func TestConformance(t *testing.T) {
//		b := lockstest.StartMiniredis(t, 1)
//		lockstest.Run(t, lockstest.Env{
//			Backend: b,
//			New: func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
//				return locks.NewBasic(nodes[0], key, o)
//			},
//			Caps: lockstest.Caps{Extender: true},
//		})
//	}
package lockstest
