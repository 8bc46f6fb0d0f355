package broken

import (
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// The seed's fair and read-write locks, kept to prove the checks catch
// them. Each carries the Claims of the correct pattern it imitates.
func init() {
	pattern.Register(pattern.Pattern{Name: "fair-clock-queue", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true},
		Pitfall: "queue ordered by client wall clocks (skew reorders it) and enqueued without an atomic expiry (an abandoned waiter blocks the queue)",
		Summary: "the seed's fair lock: ZADD queue {token: client time}, EXPIRE in a second call, grant to the head",
		New: pattern.Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			return NewSeedFair(r, k, o)
		})})
	pattern.Register(pattern.Pattern{Name: "rwlock-shared-count", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true}, Shared: true,
		Pitfall: "readers share one counter with no owner (any client can release a read, letting a writer in beside a reader) and nothing holds readers off for a waiting writer (writers starve)",
		Summary: "the seed's read-write lock, clients alternating write/read like rwlock",
		New: pattern.Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			rw, err := NewSeedRW(r, k, o)
			if err != nil {
				return nil, err
			}
			return pattern.Alternating(rw.Writer(), rw.Reader()), nil
		})})
}
