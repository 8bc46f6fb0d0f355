package broken

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
	"github.com/locksim/locksim/pattern"
)

// SeedFair is the seed article's fair lock (RedisFairLock), ported
// faithfully over the seams, with its two mistakes:
//
//   - The queue is a ZSET scored by the client's wall clock (its Clock.Now
//     when it arrives), so the order is the clients' clocks' order, not the
//     arrival order: a client whose clock runs ahead queues behind clients
//     that came after it, one whose clock runs behind jumps the queue.
//   - Enqueue is not atomic with any expiry: ZADD, then a separate EXPIRE of
//     the whole queue (2 × TTL, the seed's wait_timeout × 2), which every
//     arrival pushes back. A waiter that vanishes without its ZREM (a crash,
//     or a crash between the ZADD and the EXPIRE, which leaves the queue
//     with no TTL at all) stays at the head, and nobody behind it is ever
//     granted while others keep arriving.
//
// The correct pattern is locks.Fair; tests in this package run the same
// scenarios against both.
type SeedFair struct {
	b           conf
	r           locks.Redis
	lock, queue string
	hs          holdings
}

var _ locks.Locker = (*SeedFair)(nil)

// The seed's scripts: the enqueue and its expiry as two separate calls,
// and the poll that grants the head of the queue.
var (
	seedZAddScript   = redis.NewScript(`return redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])`)
	seedExpireScript = redis.NewScript(`return redis.call('PEXPIRE', KEYS[1], ARGV[1])`)
	seedZRemScript   = redis.NewScript(`return redis.call('ZREM', KEYS[1], ARGV[1])`)
	seedFairScript   = redis.NewScript(`
local first = redis.call('ZRANGE', KEYS[2], 0, 0)
if first[1] == ARGV[1] then
  if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    redis.call('ZREM', KEYS[2], ARGV[1])
    return 1
  end
end
return 0
`)
)

// SeedFairKeys are the seed's keys for the fair lock named name.
func SeedFairKeys(name string) (lock, queue string) {
	return "fair_lock:" + name, "fair_lock_queue:" + name
}

// NewSeedFair returns the seed's fair lock named name.
func NewSeedFair(r locks.Redis, name string, o locks.Options) (*SeedFair, error) {
	b, err := newConf(name, o)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	lock, queue := SeedFairKeys(name)
	return &SeedFair{b: b, r: r, lock: lock, queue: queue}, nil
}

// Acquire stamps the waiter with its own wall clock, enqueues it (ZADD),
// sets the queue's expiry in a second call, then polls until it is first
// in the queue and the lock is free.
func (f *SeedFair) Acquire(ctx context.Context) (*locks.Lease, error) {
	token := f.b.Rand().Token()
	stamp := float64(f.b.Clock().Now().UnixMicro()) / 1e6
	if err := seedZAddScript.Run(ctx, f.r, []string{f.queue}, stamp, token).Err(); err != nil {
		return nil, keyErr("acquire", f.lock, err)
	}
	if err := seedExpireScript.Run(ctx, f.r, []string{f.queue}, (2 * f.b.TTL()).Milliseconds()).Err(); err != nil {
		return nil, keyErr("acquire", f.lock, err)
	}
	l, err := f.b.Retry(ctx, func() (*locks.Lease, error) { return f.poll(ctx, token) })
	if err != nil {
		_ = seedZRemScript.Run(context.WithoutCancel(ctx), f.r, []string{f.queue}, token).Err()
	}
	return l, err
}

func (f *SeedFair) poll(ctx context.Context, token string) (*locks.Lease, error) {
	start := f.b.Clock().Now()
	n, err := seedFairScript.Run(ctx, f.r, []string{f.lock, f.queue}, token, f.b.TTLms()).Int64()
	if err != nil {
		return nil, keyErr("acquire", f.lock, err)
	}
	if n == 0 {
		return nil, keyErr("acquire", f.lock, fmt.Errorf("%w: not first in the queue, or the lock is held", locks.ErrNotAcquired))
	}
	l, g := lockkit.NewLease(lockkit.LeaseSpec{Clock: f.b.Clock(), Key: f.lock, Token: token, Fence: 0, Count: 1, Start: start, Valid: f.b.Validity(0)})
	f.hs.add(l, g)
	return l, nil
}

// Release deletes the lock if it still holds the lease's token (the seed's
// release is owner-checked).
func (f *SeedFair) Release(ctx context.Context, l *locks.Lease) error {
	if l == nil {
		return keyErr("release", f.lock, fmt.Errorf("%w: nil lease", locks.ErrNotHeld))
	}
	n, err := releaseScript.Run(ctx, f.r, []string{f.lock}, l.Token).Int64()
	return f.hs.released(l, f.lock, n, err)
}

// seedFairVariant is the seed's fair lock, kept to prove the checks catch
// it. It carries the Claims of the correct pattern it imitates, and its
// FIFO mark.
func seedFairVariant() pattern.Pattern {
	return pattern.Pattern{Name: "fair-clock-queue", Nodes: 1, Broken: true, Claims: pattern.Claims{Mutex: true}, FIFO: true,
		Pitfall: "queue ordered by client wall clocks (skew reorders it) and enqueued without an atomic expiry (an abandoned waiter blocks the queue)",
		Summary: "the seed's fair lock: ZADD queue {token: client time}, EXPIRE in a second call, grant to the head",
		New:     pattern.NoRenewal(pattern.Single(NewSeedFair))}
}
