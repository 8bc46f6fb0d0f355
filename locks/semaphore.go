package locks

import (
	"context"
	"fmt"
	"time"
)

// Semaphore lets at most N holders in at once. Each permit is owned (a
// token in a set, backed by its own key with a PX TTL): only its lease
// releases it, and a crashed holder's permit returns on its own when its
// TTL runs out (expired permits are pruned before every grant). Permits are
// renewable (Extend). It is not fair: a refused waiter registers (with its
// own expiring entry) and blocks on its wake list between polls (see
// Blocker); each release wakes the oldest waiter, one per freed permit, but
// the first poll to find a free permit wins. A permit freed by expiry wakes
// nobody: waiters find it on their next poll, within one backoff. Behind a
// Redis without Blocker, waiters poll with the Retry policy's backoff.
//
// Keys, for name n: {n}:permits, {n}:waiters, {n}:wseq, one {n}:p:<token>
// per permit, one {n}:q:<token> per waiter and one {n}:wake:<token> per
// woken waiter (expiring), in one hash slot. Every client of one semaphore
// must use the same N.
type Semaphore struct {
	permits members
	c       config
	n       int
	name    string
	waitTTL time.Duration
	m       *Metrics
}

var (
	_ Locker   = (*Semaphore)(nil)
	_ Extender = (*Semaphore)(nil)
)

// SemaphoreKeys are the keys of the semaphore named name.
func SemaphoreKeys(name string) (permits, permitPrefix string) {
	t := "{" + name + "}"
	return t + ":permits", t + ":p:"
}

// waitKeys are the waiter registry of the lock named name: the ZSET of
// waiters, its ticket counter, and the prefix of each waiter's own key.
func waitKeys(name string) (waiters, seq, waiterPrefix string) {
	t := "{" + name + "}"
	return t + ":waiters", t + ":wseq", t + ":q:"
}

// NewSemaphore returns a semaphore named name with n permits (n ≥ 1).
func NewSemaphore(r Redis, name string, n int, o Options) (*Semaphore, error) {
	if n < 1 {
		return nil, &OptionError{"permits", n, "must be at least 1"}
	}
	if name == "" {
		return nil, &OptionError{"name", `""`, "must not be empty"}
	}
	if err := o.noOwner("Semaphore"); err != nil {
		return nil, err
	}
	permits, prefix := SemaphoreKeys(name)
	s, err := newSingle(r, permits, o)
	if err != nil {
		return nil, err
	}
	sem := &Semaphore{c: s.c, n: n, name: name, m: o.Metrics}
	sem.waitTTL = max(s.c.TTL, 3*s.c.Retry.MaxDelay).Truncate(time.Millisecond)
	waiters, _, wprefix := waitKeys(name)
	sem.permits = members{r: r, key: permits, prefix: prefix, c: &sem.c, m: o.Metrics,
		wake: &wakeRelease{semReleaseScript, []string{waiters}, []any{wprefix, WakePrefix(name), sem.c.wakeTTL()}}}
	return sem, nil
}

// Permits is N, the most holders at once.
func (s *Semaphore) Permits() int { return s.n }

// Acquire takes a permit, waiting while all N are taken.
func (s *Semaphore) Acquire(ctx context.Context) (*Lease, error) {
	token := s.c.Rand.Token()
	w := newWaker(s.permits.r, s.name, token, &s.c)
	return wokenLoop(ctx, &s.c, s.m, w.wait,
		func() (*Lease, error) { return s.try(ctx, token) },
		func(ctx context.Context) { _, _ = s.permits.drop(ctx, token) })
}

func (s *Semaphore) try(ctx context.Context, token string) (*Lease, error) {
	ms := &s.permits
	start := s.c.Clock.Now()
	waiters, seq, wprefix := waitKeys(s.name)
	ok, err := runInt(ctx, ms.r, semAcquireScript, []string{ms.key, waiters, seq},
		token, s.c.ttlMS, s.n, ms.prefix, wprefix, s.waitTTL.Milliseconds())
	if err != nil {
		return nil, wrap("acquire", ms.key, err)
	}
	if ok == 0 {
		return nil, wrap("acquire", ms.key, fmt.Errorf("%w: all %d permits taken", ErrNotAcquired, s.n))
	}
	return ms.granted(ctx, token, start)
}

// Release returns the lease's permit if it still holds it; ErrNotHeld
// otherwise (it expired, or the lease is not this semaphore's).
func (s *Semaphore) Release(ctx context.Context, l *Lease) error { return s.permits.release(ctx, l) }

// Extend resets the permit's TTL if the lease still holds it.
func (s *Semaphore) Extend(ctx context.Context, l *Lease) error {
	if l == nil {
		return wrap("extend", s.permits.key, fmt.Errorf("%w: nil lease", ErrNotHeld))
	}
	return s.permits.extend(ctx, l)
}
