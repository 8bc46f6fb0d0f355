package locks

import (
	"context"
	"fmt"
)

// Semaphore lets at most N holders in at once. Each permit is owned (a
// token in a set, backed by its own key with a PX TTL): only its lease
// releases it, and a crashed holder's permit returns on its own when its
// TTL runs out (expired permits are pruned before every grant). Permits are
// renewable (Extend). It is not fair: waiters poll with the Retry policy's
// backoff and the first poll to find a free permit wins.
//
// Keys, for name n: {n}:permits and one {n}:p:<token> per permit, in one
// hash slot. Every client of one semaphore must use the same N.
type Semaphore struct {
	permits members
	c       config
	n       int
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
	sem := &Semaphore{c: s.c, n: n, m: o.Metrics}
	sem.permits = members{r: r, key: permits, prefix: prefix, c: &sem.c, m: o.Metrics}
	return sem, nil
}

// Permits is N, the most holders at once.
func (s *Semaphore) Permits() int { return s.n }

// Acquire takes a permit, polling while all N are taken.
func (s *Semaphore) Acquire(ctx context.Context) (*Lease, error) {
	token := s.c.Rand.Token()
	return waitLoop(ctx, &s.c, s.m,
		func() (*Lease, error) { return s.try(ctx, token) },
		func(ctx context.Context) { _, _ = s.permits.drop(ctx, token) })
}

func (s *Semaphore) try(ctx context.Context, token string) (*Lease, error) {
	ms := &s.permits
	start := s.c.Clock.Now()
	ok, err := runInt(ctx, ms.r, semAcquireScript, []string{ms.key}, token, s.c.ttlMS, s.n, ms.prefix)
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
