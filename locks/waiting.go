package locks

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// This file holds what the fair lock, the read-write lock and the semaphore
// share: an acquisition loop that counts into Metrics and cleans up after
// itself when it gives up, and the owned, expiring members (readers,
// permits) kept in a set whose entries each have their own key.

// waitLoop polls try under c's retry policy (bounded exponential backoff
// with jitter, through the Clock). When it gives up — attempts spent,
// context done, or an error — it calls leave, so that what the attempts
// left in Redis (a queued waiter, a writer's intent, a grant whose reply was
// lost) does not outlive the caller's interest.
func waitLoop(ctx context.Context, c *config, m *Metrics, try func() (*Lease, error), leave func(context.Context)) (*Lease, error) {
	return wokenLoop(ctx, c, m, c.Clock.Sleep, try, leave)
}

// wokenLoop is waitLoop spending each backoff in wait (a waker's, which
// returns early when the waiter is woken).
func wokenLoop(ctx context.Context, c *config, m *Metrics, wait func(context.Context, time.Duration) error, try func() (*Lease, error), leave func(context.Context)) (*Lease, error) {
	begin := c.Clock.Now()
	l, err := c.retryWith(ctx, func() (*Lease, error) {
		m.attempted()
		return try()
	}, wait)
	if err != nil {
		lctx, cancel := c.Clock.WithTimeout(context.WithoutCancel(ctx), c.TTL)
		leave(lctx)
		cancel()
		m.failed()
		return nil, err
	}
	m.acquired()
	m.waited(c.Clock.Since(begin))
	return l, nil
}

// lease turns a grant for a request sent at start into a lease, or reports
// that the reply came too late to leave any validity.
func (c *config) lease(by any, key, token string, start time.Time) (*Lease, bool) {
	if c.validity(c.Clock.Since(start)) <= 0 {
		return nil, false
	}
	return issued(by, key, token, 0, 1, newHold(c.Clock, start, c.validity(0))), true
}

var errLate = fmt.Errorf("%w: granted after its validity ran out", ErrNotAcquired)

// members is a set of owned holders (readers, permits): the SET at key holds
// their tokens and prefix+token is each one's own expiring key.
type members struct {
	r      Redis
	key    string
	prefix string
	c      *config
	m      *Metrics
}

// drop removes token's membership; it reports whether it was still held.
func (ms *members) drop(ctx context.Context, token string) (bool, error) {
	n, err := runInt(ctx, ms.r, memberReleaseScript, []string{ms.key}, token, ms.prefix)
	return n == 1, err
}

// release is the owner-checked release of l's membership.
func (ms *members) release(ctx context.Context, l *Lease) error {
	if err := verifyRelease(l, ms, ms.key); err != nil {
		return wrap("release", ms.key, err)
	}
	held, err := ms.drop(ctx, l.id.token)
	if err != nil {
		return wrap("release", ms.key, err)
	}
	if !held {
		ms.m.lost()
		l.h.end(ErrLockLost)
		return wrap("release", ms.key, ErrNotHeld)
	}
	ms.m.released()
	l.spend()
	l.h.end(ErrReleased)
	return nil
}

// extend resets the TTL of l's membership if it still holds.
func (ms *members) extend(ctx context.Context, l *Lease) error {
	if err := verify(l, ms, ms.key); err != nil {
		return wrap("extend", ms.key, err)
	}
	start := ms.c.Clock.Now()
	n, err := runInt(ctx, ms.r, memberExtendScript, []string{ms.key}, l.id.token, ms.c.ttlMS, ms.prefix)
	if err != nil {
		return wrap("extend", ms.key, err)
	}
	if n == 0 {
		ms.m.lost()
		l.h.end(ErrLockLost)
		return wrap("extend", ms.key, ErrNotHeld)
	}
	ms.m.renewed()
	l.h.extend(start, ms.c.validity(0))
	return nil
}

// granted makes the lease for a membership granted to a request sent at
// start, or gives the membership back if no validity is left.
func (ms *members) granted(ctx context.Context, token string, start time.Time) (*Lease, error) {
	if l, ok := ms.c.lease(ms, ms.key, token, start); ok {
		return l, nil
	}
	_, _ = ms.drop(context.WithoutCancel(ctx), token)
	return nil, wrap("acquire", ms.key, errLate)
}

// ownedRelease is the owner-checked release of a single-key holding (the
// fair lock, the writer), counted into m.
func ownedRelease(ctx context.Context, s *single, m *Metrics, l *Lease) error {
	if err := verifyRelease(l, s, s.key); err != nil {
		return wrap("release", s.key, err)
	}
	err := s.release(ctx, l)
	switch {
	case err == nil:
		m.released()
	case errors.Is(err, ErrNotHeld):
		m.lost()
	}
	return err
}

// ownedExtend is the owner-checked extension of a single-key holding,
// counted into m.
func ownedExtend(ctx context.Context, s *single, m *Metrics, l *Lease) error {
	return ownedExtendTo(ctx, s, m, l, s.c.TTL)
}

// ownedExtendTo is ownedExtend to another TTL, checked first: a ttl that
// leaves no validity after its drift allowance is refused with an
// *OptionError and touches nothing.
func ownedExtendTo(ctx context.Context, s *single, m *Metrics, l *Lease, ttl time.Duration) error {
	ttl, err := s.c.extendTTL(ttl)
	if err != nil {
		return wrap("extend", s.key, err)
	}
	if err := verify(l, s, s.key); err != nil {
		return wrap("extend", s.key, err)
	}
	err = s.extendOrLose(ctx, l, ttl)
	switch {
	case err == nil:
		m.renewed()
	case errors.Is(err, ErrNotHeld):
		m.lost()
	}
	return err
}
