package locks

import (
	"context"
	"fmt"
	"sync/atomic"
)

// Semaphore lets at most N permits be held at once. Acquire takes one;
// AcquireN takes several in one atomic step (all or none). Each holding is
// owned (a token in a set, backed by its own key with a PX TTL that holds
// its permit count): only its lease releases it, all its permits at once,
// and a crashed holder's permits return on their own when its TTL runs out
// (expired holdings are pruned before every grant). Holdings are renewable
// (Extend). It is not fair: waiters poll with the Retry policy's backoff
// and the first poll to find enough free permits wins, so an AcquireN of
// many permits can wait behind a stream of smaller acquisitions.
//
// N is the semaphore's, not each client's: the first acquisition stores it
// in Redis, and every acquisition checks the client's N against it, so a
// client built with another N gets a *PermitsError (ErrPermitsMismatch,
// permanent: never retried) and never a permit. Resize is the one way to
// change it.
//
// Keys, for name n: {n}:permits, {n}:size (N, never expires) and one
// {n}:p:<token> per holding, in one hash slot.
type Semaphore struct {
	permits members
	c       config
	n       atomic.Int64 // this client's N (Resize changes it)
	name    string
	size    string // the key that stores N
	m       *Metrics
}

var (
	_ Locker   = (*Semaphore)(nil)
	_ Extender = (*Semaphore)(nil)
)

// SemaphoreKeys are the keys of the semaphore named name: the set of its
// holdings and the prefix of each holding's own key (its N is stored at
// SemaphoreSizeKey(name)).
func SemaphoreKeys(name string) (permits, permitPrefix string) {
	t := "{" + name + "}"
	return t + ":permits", t + ":p:"
}

// NewSemaphore returns a semaphore named name with n permits (n ≥ 1). It
// sends nothing: its first acquisition stores n for the semaphore if no N
// is stored yet, and fails with ErrPermitsMismatch if another is.
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
	sem := &Semaphore{c: s.c, name: name, size: SemaphoreSizeKey(name), m: o.Metrics}
	sem.n.Store(int64(n))
	sem.permits = members{r: r, key: permits, prefix: prefix, c: &sem.c, m: o.Metrics}
	return sem, nil
}

// Permits is this client's N, the most permits held at once (the stored N
// must agree with it; see Resize).
func (s *Semaphore) Permits() int { return int(s.n.Load()) }

// Acquire takes one permit, polling while all N are taken.
func (s *Semaphore) Acquire(ctx context.Context) (*Lease, error) { return s.AcquireN(ctx, 1) }

// AcquireN takes k permits at once (1 ≤ k ≤ N), polling until k are free
// together: the grant is atomic, all k or none, and never holds some while
// it waits for the rest. The lease holds the k permits (its Count is k);
// Release gives them all back at once, Extend renews them together. A k
// outside 1..N is refused with an *OptionError and sends nothing.
func (s *Semaphore) AcquireN(ctx context.Context, k int) (*Lease, error) {
	if n := s.Permits(); k < 1 || k > n {
		return nil, &OptionError{"permits wanted", k, fmt.Sprintf("must be between 1 and N (%d)", n)}
	}
	token := s.c.Rand.Token()
	return waitLoop(ctx, &s.c, s.m,
		func() (*Lease, error) { return s.try(ctx, token, k) },
		func(ctx context.Context) { _, _ = s.permits.drop(ctx, token) })
}

func (s *Semaphore) try(ctx context.Context, token string, k int) (*Lease, error) {
	ms, n := &s.permits, s.Permits()
	start := s.c.Clock.Now()
	ok, err := runInt(ctx, ms.r, semAcquireScript, []string{ms.key, s.size}, token, s.c.ttlMS, n, ms.prefix, k)
	switch {
	case err != nil:
		return nil, wrap("acquire", ms.key, err)
	case ok < 0:
		return nil, wrap("acquire", ms.key, s.mismatch(n, -ok))
	case ok > 1:
		return nil, wrap("acquire", ms.key, fmt.Errorf("%w: sem_acquire replied %d", ErrPermanent, ok))
	case ok == 0 && k == 1:
		return nil, wrap("acquire", ms.key, fmt.Errorf("%w: all %d permits taken", ErrNotAcquired, n))
	case ok == 0:
		return nil, wrap("acquire", ms.key, fmt.Errorf("%w: fewer than %d of %d permits free", ErrNotAcquired, k, n))
	}
	l, err := ms.granted(ctx, token, start)
	if l != nil {
		l.Count = k
	}
	return l, err
}

// Release returns all the lease's permits at once if it still holds them;
// ErrNotHeld otherwise (they expired, the lease is not this semaphore's, or
// it never held them), and then nothing is returned.
func (s *Semaphore) Release(ctx context.Context, l *Lease) error { return s.permits.release(ctx, l) }

// Extend resets the TTL of the lease's permits if it still holds them.
func (s *Semaphore) Extend(ctx context.Context, l *Lease) error {
	if l == nil {
		return wrap("extend", s.permits.key, fmt.Errorf("%w: nil lease", ErrNotHeld))
	}
	return s.permits.extend(ctx, l)
}
