package broken

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
	"github.com/locksim/locksim/pattern"
)

// SeedRW is the seed article's read-write lock (RedisReadWriteLock),
// ported faithfully over the seams (TTLs in milliseconds, so that only its
// own mistakes show), with its two mistakes:
//
//   - Readers share one counter (a hash field "readers") with no owner:
//     RUnlock decrements it whoever calls, so any client can release a
//     read it does not hold — a stray or repeated RUnlock drops the count
//     to zero while another reader still reads, and a writer gets in.
//     A crashed reader's count is never given back either: the hash lives
//     on while other readers keep refreshing its TTL.
//   - Nothing holds new readers off while a writer waits: a writer is
//     granted only at an instant with no reader at all, so a stream of
//     overlapping readers starves it.
//
// The correct pattern is locks.RWLock; tests in this package run the same
// scenarios against both.
type SeedRW struct {
	b             conf
	r             locks.Redis
	read, write   string
	hsRead, hsWri holdings
}

var _ locks.RWLocker = (*SeedRW)(nil)

// The seed's scripts.
var (
	seedRLockScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('HINCRBY', KEYS[1], 'readers', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`)
	seedRUnlockScript = redis.NewScript(`
local count = redis.call('HINCRBY', KEYS[1], 'readers', -1)
if count <= 0 then
  redis.call('DEL', KEYS[1])
end
return 1
`)
	seedWriteCheckScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 and redis.call('HGET', KEYS[1], 'readers') ~= '0' then
  redis.call('DEL', KEYS[2])
  return 0
end
return 1
`)
)

// SeedRWKeys are the seed's keys for the read-write lock named name.
func SeedRWKeys(name string) (read, write string) {
	return "rw_lock:" + name + ":read", "rw_lock:" + name + ":write"
}

// NewSeedRW returns the seed's read-write lock named name.
func NewSeedRW(r locks.Redis, name string, o locks.Options) (*SeedRW, error) {
	b, err := newConf(name, o)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	read, write := SeedRWKeys(name)
	return &SeedRW{b: b, r: r, read: read, write: write}, nil
}

// RLock increments the shared reader count unless a writer holds the lock.
func (rw *SeedRW) RLock(ctx context.Context) (*locks.Lease, error) {
	return rw.b.Retry(ctx, func() (*locks.Lease, error) {
		token := rw.b.Rand().Token()
		start := rw.b.Clock().Now()
		n, err := seedRLockScript.Run(ctx, rw.r, []string{rw.read, rw.write}, token, rw.b.TTLms()).Int64()
		if err != nil {
			return nil, keyErr("acquire", rw.read, err)
		}
		if n == 0 {
			return nil, keyErr("acquire", rw.read, fmt.Errorf("%w: a writer holds it", locks.ErrNotAcquired))
		}
		l, g := lockkit.NewLease(lockkit.LeaseSpec{Clock: rw.b.Clock(), Key: rw.read, Token: token, Fence: 0, Count: 1, Start: start, Valid: rw.b.Validity(0)})
		l.Shared = true
		rw.hsRead.add(l, g)
		return l, nil
	})
}

// RUnlock decrements the shared count, whatever the lease: it never
// fails for want of ownership.
func (rw *SeedRW) RUnlock(ctx context.Context, l *locks.Lease) error {
	err := seedRUnlockScript.Run(ctx, rw.r, []string{rw.read}).Err()
	if err != nil {
		return keyErr("release", rw.read, err)
	}
	rw.hsRead.end(l, locks.ErrReleased)
	return nil
}

// Lock takes the write key (SET NX PX), then, in a second call, gives it
// back if any reader is counted.
func (rw *SeedRW) Lock(ctx context.Context) (*locks.Lease, error) {
	return rw.b.Retry(ctx, func() (*locks.Lease, error) { return rw.tryWrite(ctx) })
}

func (rw *SeedRW) tryWrite(ctx context.Context) (*locks.Lease, error) {
	token := rw.b.Rand().Token()
	start := rw.b.Clock().Now()
	ok, err := rw.r.SetNX(ctx, rw.write, token, rw.b.TTL()).Result()
	if err != nil {
		return nil, keyErr("acquire", rw.write, err)
	}
	if !ok {
		return nil, keyErr("acquire", rw.write, locks.ErrNotAcquired)
	}
	n, err := seedWriteCheckScript.Run(ctx, rw.r, []string{rw.read, rw.write}, token).Int64()
	if err != nil {
		return nil, keyErr("acquire", rw.write, err)
	}
	if n == 0 {
		return nil, keyErr("acquire", rw.write, fmt.Errorf("%w: readers hold it", locks.ErrNotAcquired))
	}
	l, g := lockkit.NewLease(lockkit.LeaseSpec{Clock: rw.b.Clock(), Key: rw.write, Token: token, Fence: 0, Count: 1, Start: start, Valid: rw.b.Validity(0)})
	rw.hsWri.add(l, g)
	return l, nil
}

// Unlock deletes the write key if it still holds the lease's token.
func (rw *SeedRW) Unlock(ctx context.Context, l *locks.Lease) error {
	if l == nil {
		return keyErr("release", rw.write, fmt.Errorf("%w: nil lease", locks.ErrNotHeld))
	}
	n, err := releaseScript.Run(ctx, rw.r, []string{rw.write}, l.Token).Int64()
	return rw.hsWri.released(l, rw.write, n, err)
}

// Reader returns a Locker whose Acquire is RLock and Release RUnlock.
func (rw *SeedRW) Reader() locks.Locker { return seedRWSide{rw, true} }

// Writer returns a Locker whose Acquire is Lock and Release Unlock.
func (rw *SeedRW) Writer() locks.Locker { return seedRWSide{rw, false} }

type seedRWSide struct {
	rw   *SeedRW
	read bool
}

func (s seedRWSide) Acquire(ctx context.Context) (*locks.Lease, error) {
	if s.read {
		return s.rw.RLock(ctx)
	}
	return s.rw.Lock(ctx)
}

func (s seedRWSide) Release(ctx context.Context, l *locks.Lease) error {
	if s.read {
		return s.rw.RUnlock(ctx, l)
	}
	return s.rw.Unlock(ctx, l)
}

// seedRWVariant is the seed's read-write lock, kept to prove the checks
// catch it. It carries the Claims of the correct pattern it imitates.
func seedRWVariant() pattern.Pattern {
	return pattern.Pattern{Name: "rwlock-shared-count", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true}, Shared: true,
		Pitfall: "readers share one counter with no owner (any client can release a read, letting a writer in beside a reader) and nothing holds readers off for a waiting writer (writers starve)",
		Summary: "the seed's read-write lock, clients alternating write/read like rwlock",
		New: pattern.NoRenewal(pattern.Single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
			rw, err := NewSeedRW(r, k, o)
			if err != nil {
				return nil, err
			}
			return pattern.Alternating(rw.Writer(), rw.Reader()), nil
		}))}
}
