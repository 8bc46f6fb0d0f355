package locks

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Reentrant is a lock that its owner may take again while holding it. The
// key is a hash {owner: count}; each Acquire by the same owner increments
// the count and each Release decrements it, and the TTL is refreshed on
// every re-entry and every partial release. The lock is free when the count
// reaches zero.
//
// Go has no thread identity: the owner is the Reentrant value (its Owner
// option, or a fresh token). Share one value between the code paths that
// must re-enter; give each independent client its own.
type Reentrant struct {
	r     Redis
	key   string
	c     config
	owner string

	mu  sync.Mutex // guards cur; never held across a Redis call
	cur *hold
}

var (
	_ Locker   = (*Reentrant)(nil)
	_ Extender = (*Reentrant)(nil)
)

// NewReentrant returns a reentrant lock on key owned by o.Owner (or a fresh
// owner token).
func NewReentrant(r Redis, key string, o Options) (*Reentrant, error) {
	s, err := newSingle(r, key, o)
	if err != nil {
		return nil, err
	}
	owner := s.c.Owner
	if owner == "" {
		owner = s.c.Rand.Token()
	}
	return &Reentrant{r: r, key: key, c: s.c, owner: owner}, nil
}

// Owner is the owner id written into the hash.
func (re *Reentrant) Owner() string { return re.owner }

// Acquire takes the lock, or re-enters it if this owner holds it.
func (re *Reentrant) Acquire(ctx context.Context) (*Lease, error) {
	return re.c.retry(ctx, func() (*Lease, error) {
		l, _, err := re.try(ctx)
		return l, err
	})
}

// try makes one attempt; fresh reports whether a new holding began (as
// opposed to a re-entry).
func (re *Reentrant) try(ctx context.Context) (l *Lease, fresh bool, err error) {
	start := re.c.Clock.Now()
	n, err := runInt(ctx, re.r, reentrantAcquireScript, []string{re.key}, re.owner, re.c.ttlMS)
	if err != nil {
		return nil, false, wrap("acquire", re.key, err)
	}
	if n == 0 {
		return nil, false, wrap("acquire", re.key, ErrNotAcquired)
	}
	if re.c.validity(re.c.Clock.Since(start)) <= 0 {
		// Too late to rely on; undo this entry.
		_, _ = runInt(context.WithoutCancel(ctx), re.r, reentrantReleaseScript, []string{re.key}, re.owner, re.c.ttlMS)
		return nil, false, wrap("acquire", re.key, fmt.Errorf("%w: granted after its validity ran out", ErrNotAcquired))
	}
	h, fresh := re.entered(n, start)
	return &Lease{Key: re.key, Token: re.owner, Count: int(n), h: h}, fresh, nil
}

// entered records the holding after a grant with count n, sent at start.
// It reports whether a new holding began.
func (re *Reentrant) entered(n int64, start time.Time) (*hold, bool) {
	re.mu.Lock()
	defer re.mu.Unlock()
	if n == 1 || re.cur == nil || re.cur.ended() {
		if re.cur != nil {
			re.cur.end(ErrLockLost) // the server no longer knew our old holding
		}
		re.cur = newHold(re.c.Clock, start, re.c.validity(0))
		return re.cur, true
	}
	re.cur.extend(start, re.c.validity(0))
	return re.cur, false
}

// Release drops one level of holding; the last one frees the lock.
func (re *Reentrant) Release(ctx context.Context, l *Lease) error {
	if l == nil {
		return wrap("release", re.key, fmt.Errorf("%w: nil lease", ErrNotHeld))
	}
	// The count is the owner's, not the lease's: a release through an
	// older lease (already released, or from an earlier holding) takes an
	// entry of the current holding. When the server says the owner holds
	// nothing any more, the holding current when the call began is over too.
	re.mu.Lock()
	before := re.cur
	re.mu.Unlock()
	start := re.c.Clock.Now()
	n, err := runInt(ctx, re.r, reentrantReleaseScript, []string{re.key}, l.Token, re.c.ttlMS)
	if err != nil {
		return wrap("release", re.key, err)
	}
	switch {
	case n < 0:
		re.finish(l.h, ErrLockLost)
		re.finish(before, ErrLockLost)
		return wrap("release", re.key, ErrNotHeld)
	case n == 0:
		re.finish(l.h, ErrReleased)
		re.finish(before, ErrReleased)
	default:
		l.h.extend(start, re.c.validity(0))
	}
	return nil
}

func (re *Reentrant) finish(h *hold, err error) {
	if h == nil {
		return
	}
	h.end(err)
	re.mu.Lock()
	if re.cur == h {
		re.cur = nil
	}
	re.mu.Unlock()
}

// Extend refreshes the TTL if this owner still holds the lock.
func (re *Reentrant) Extend(ctx context.Context, l *Lease) error {
	if err := l.Err(); err != nil {
		return wrap("extend", re.key, fmt.Errorf("%w: %w", ErrNotHeld, err))
	}
	ok, err := re.extend(ctx, l)
	if err != nil {
		return wrap("extend", re.key, err)
	}
	if !ok {
		re.finish(l.h, ErrLockLost)
		return wrap("extend", re.key, ErrNotHeld)
	}
	return nil
}

func (re *Reentrant) extend(ctx context.Context, l *Lease) (bool, error) {
	start := re.c.Clock.Now()
	n, err := runInt(ctx, re.r, reentrantExtendScript, []string{re.key}, l.Token, re.c.ttlMS)
	if err != nil || n == 0 {
		return false, err
	}
	l.h.extend(start, re.c.validity(0))
	return true, nil
}
