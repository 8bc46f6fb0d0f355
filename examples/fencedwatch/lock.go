// Package fencedwatch is a lock locksim does not ship, written the way a
// team would write its own: a fenced lock (SET NX PX and INCR of a
// never-expiring counter in one script) whose holder a watchdog loop keeps
// renewing while it holds. It is built only from locksim's public seams —
// locks.Redis for every Redis call, clock.Clock for every wait and for the
// watchdog's goroutine, locks.Rand for tokens, lockkit.NewLease for the
// lease — so the simulator can run it unchanged, and fencedwatch_test.go
// gates it with locksimtest.
//
// ClockFenced is its deliberately broken twin: it takes the fencing token
// from the client's wall clock instead of the counter, a pitfall the
// harness must catch.
package fencedwatch

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockkit"
	"github.com/locksim/locksim/locks/scripts"
)

// The scripts: package scripts publishes the patterns' own, which this
// lock reuses for its acquire, renewal and release.
var (
	acquireScript = redis.NewScript(scripts.Source("fenced_acquire"))
	extendScript  = redis.NewScript(scripts.Source("extend"))
	releaseScript = redis.NewScript(scripts.Source("release"))
)

// Lock is a fenced, watchdog-renewed lock on one Redis node.
type Lock struct {
	r          locks.Redis
	lockKey    string
	fenceKey   string
	ttl        time.Duration
	renewEvery time.Duration
	clk        clock.Clock
	rnd        locks.Rand
	fence      func(ctx context.Context, token string) (int64, error) // the acquire step

	mu   sync.Mutex
	held map[*locks.Lease]*holding
}

// holding is the control side of one lease: its Holding and the stop of
// its watchdog.
type holding struct {
	g    *lockkit.Holding
	stop context.CancelFunc
}

// New returns a lock named name over r; its keys are {name}:lock and
// {name}:fence. o.TTL is required; o.RenewEvery defaults to TTL/3.
func New(r locks.Redis, name string, o locks.Options) (*Lock, error) {
	if name == "" {
		return nil, &locks.OptionError{Field: "name", Value: `""`, Rule: "must not be empty"}
	}
	if o.TTL < time.Millisecond {
		return nil, &locks.OptionError{Field: "TTL", Value: o.TTL, Rule: "must be at least 1ms"}
	}
	l := &Lock{r: r, lockKey: "{" + name + "}:lock", fenceKey: "{" + name + "}:fence",
		ttl: o.TTL.Truncate(time.Millisecond), renewEvery: o.RenewEvery, clk: o.Clock, rnd: o.Rand,
		held: map[*locks.Lease]*holding{}}
	if l.renewEvery == 0 {
		l.renewEvery = l.ttl / 3
	}
	if l.renewEvery <= 0 || l.renewEvery >= l.ttl {
		return nil, &locks.OptionError{Field: "RenewEvery", Value: l.renewEvery, Rule: fmt.Sprintf("must be positive and less than TTL (%v)", l.ttl)}
	}
	if l.clk == nil {
		l.clk = clock.Real{}
	}
	if l.rnd == nil {
		l.rnd = locks.CryptoRand{}
	}
	l.fence = l.counterFence
	return l, nil
}

// counterFence takes the lock and the next token of the counter in one
// script; 0 or less means the lock is held (minus its PTTL, when it has
// one).
func (l *Lock) counterFence(ctx context.Context, token string) (int64, error) {
	return acquireScript.Run(ctx, l.r, []string{l.lockKey, l.fenceKey}, token, l.ttl.Milliseconds()).Int64()
}

// Acquire makes one attempt: the lease carries the new fencing token, and
// a watchdog renews it every RenewEvery until Release or a loss.
func (l *Lock) Acquire(ctx context.Context) (*locks.Lease, error) {
	token := l.rnd.Token()
	start := l.clk.Now()
	fence, err := l.fence(ctx, token)
	if err != nil {
		return nil, fmt.Errorf("fencedwatch: acquire %s: %w", l.lockKey, err)
	}
	if fence <= 0 {
		return nil, fmt.Errorf("fencedwatch: acquire %s: %w", l.lockKey, locks.ErrNotAcquired)
	}
	lease, g := lockkit.NewLease(lockkit.LeaseSpec{Clock: l.clk, Key: l.lockKey, Token: token,
		Fence: fence, Count: 1, Start: start, Valid: l.validity(l.clk.Since(start))})
	wctx, stop := l.clk.WithCancel(context.Background())
	l.mu.Lock()
	l.held[lease] = &holding{g: g, stop: stop}
	l.mu.Unlock()
	l.clk.Go(func() { l.watch(wctx, lease) })
	return lease, nil
}

// validity is what a grant obtained after elapsed leaves the holder.
func (l *Lock) validity(elapsed time.Duration) time.Duration {
	return l.ttl - elapsed - l.ttl/100 - 2*time.Millisecond
}

// watch renews lease every renewEvery until ctx ends (Release), the lock
// is refused (lost) or the lease's validity runs out between failures.
func (l *Lock) watch(ctx context.Context, lease *locks.Lease) {
	for l.clk.Sleep(ctx, l.renewEvery) == nil {
		start := l.clk.Now()
		n, err := extendScript.Run(ctx, l.r, []string{l.lockKey}, lease.Token, l.ttl.Milliseconds()).Int64()
		switch {
		case err == nil && n == 1:
			l.renewed(lease, start, l.validity(l.clk.Since(start)))
		case err == nil:
			l.end(lease, fmt.Errorf("%w: renewal refused", locks.ErrLockLost))
			return
		case lease.Err() != nil:
			l.end(lease, lease.Err())
			return
		}
	}
}

func (l *Lock) renewed(lease *locks.Lease, start time.Time, valid time.Duration) {
	l.mu.Lock()
	h := l.held[lease]
	l.mu.Unlock()
	if h != nil {
		h.g.Renewed(start, valid)
	}
}

// end stops lease's watchdog and ends its holding with err.
func (l *Lock) end(lease *locks.Lease, err error) bool {
	l.mu.Lock()
	h := l.held[lease]
	delete(l.held, lease)
	l.mu.Unlock()
	if h == nil {
		return false
	}
	h.stop()
	h.g.End(err)
	return true
}

// Release stops the watchdog and deletes the lock key if it still holds
// the lease's token; a lease this Lock did not issue gets ErrNotHeld.
func (l *Lock) Release(ctx context.Context, lease *locks.Lease) error {
	l.mu.Lock()
	_, ours := l.held[lease]
	l.mu.Unlock()
	if !ours {
		return fmt.Errorf("fencedwatch: release %s: %w", l.lockKey, locks.ErrNotHeld)
	}
	n, err := releaseScript.Run(ctx, l.r, []string{l.lockKey}, lease.Token).Int64()
	switch {
	case err != nil:
		return fmt.Errorf("fencedwatch: release %s: %w", l.lockKey, err)
	case n == 0:
		l.end(lease, locks.ErrLockLost)
		return fmt.Errorf("fencedwatch: release %s: %w", l.lockKey, locks.ErrNotHeld)
	}
	l.end(lease, locks.ErrReleased)
	return nil
}
