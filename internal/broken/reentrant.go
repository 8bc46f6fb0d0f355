package broken

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/locksim/locksim/locks"
)

// The reentrant variants: reentrant-nocount and service-seconds.

// ReentrantNoCount is the pitfall "reentrant-nocount": re-entry without a
// count. The owner may take the lock again while holding it (the key holds
// the owner id; SET NX, or a TTL refresh when the key is already ours), but
// nothing counts the entries, and every release is an owner-checked DEL.
//
// So the first release — the innermost section's — frees the lock while
// the outer section still runs and still holds a valid lease; another
// client acquires at once and two holders run side by side. The correct
// Reentrant keeps {owner: count} and frees the lock at count zero.
//
// The seed article shows the other face of the same mistake: a nested
// SET NX with no re-entry at all, so the owner deadlocks on its own lock.
// That face is a liveness failure (the Basic lock used re-entrantly); this
// variant keeps the re-entry the code path expects and shows the safety
// failure, which the Mutex claim of Reentrant can catch.
type ReentrantNoCount struct {
	r     locks.Redis
	b     conf
	owner string
	hs    holdings
}

var _ locks.Locker = (*ReentrantNoCount)(nil)

// NewReentrantNoCount returns the reentrant-nocount variant on key, owned
// by o.Owner (or a fresh owner token).
func NewReentrantNoCount(r locks.Redis, key string, o locks.Options) (*ReentrantNoCount, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	b, err := newConf(key, o)
	if err != nil {
		return nil, err
	}
	owner := o.Owner
	if owner == "" {
		owner = b.Rand().Token()
	}
	return &ReentrantNoCount{r: r, b: b, owner: owner}, nil
}

// Owner is the owner id written into the key.
func (re *ReentrantNoCount) Owner() string { return re.owner }

// Acquire takes the lock, or re-enters it if this owner holds it. Every
// lease reports Count 1: there is no count.
func (re *ReentrantNoCount) Acquire(ctx context.Context) (*locks.Lease, error) {
	return re.b.Retry(ctx, func() (*locks.Lease, error) {
		start := re.b.Clock().Now()
		n, err := runInt(ctx, re.r, reenterScript, []string{re.b.key}, re.owner, re.b.TTLms())
		if err != nil {
			return nil, keyErr("acquire", re.b.key, err)
		}
		if n == 0 || re.b.Validity(re.b.Clock().Since(start)) <= 0 {
			return nil, keyErr("acquire", re.b.key, locks.ErrNotAcquired)
		}
		l, g := locks.NewLease(re.b.Clock(), re.b.key, re.owner, 0, 1, start, re.b.Validity(0))
		re.hs.add(l, g, nil)
		return l, nil
	})
}

// Release deletes the key if this owner holds it — on the first release,
// however many entries are still open: the pitfall.
func (re *ReentrantNoCount) Release(ctx context.Context, l *locks.Lease) error {
	n, err := runInt(ctx, re.r, releaseScript, []string{re.b.key}, re.owner)
	return re.hs.released(l, re.b.key, n, err)
}

// ServiceSeconds is the pitfall "service-seconds": the seed's lock service
// (a reentrant hash {owner: count}, a watchdog, retries) sending its TTL as
// int(timeout.Seconds()) to EXPIRE. The TTL is truncated to whole seconds,
// so a sub-second TTL becomes EXPIRE 0, which deletes the key at once: the
// client holds a lease it believes valid for its TTL while the key does
// not exist, and any other client acquires. A TTL of 1.5s lives 1s. The
// renewal cadence is truncated to whole seconds too (at least one second,
// where the seed's ticker would panic on zero), so a renewal every "TTL/3"
// can come after the truncated TTL has run out.
//
// The correct Service sends milliseconds (PEXPIRE) and renews every TTL/3.
// Metrics are not kept.
type ServiceSeconds struct {
	r     locks.Redis
	b     conf
	owner string
	secs  int64         // the truncated TTL sent to EXPIRE: the pitfall
	every time.Duration // the truncated renewal interval

	mu  sync.Mutex // guards cur; never held across a Redis call
	cur *group
}

// group is one continuous holding: the leases of its entries and the stop
// function of its watchdog.
type group struct {
	leases map[*locks.Lease]*locks.Holding
	stop   func()
}

var _ locks.Locker = (*ServiceSeconds)(nil)

// NewServiceSeconds returns the service-seconds variant on key owned by
// o.Owner (or a fresh owner token). As with the Service, zero
// Retry.Attempts retries until the context is done.
func NewServiceSeconds(r locks.Redis, key string, o locks.Options) (*ServiceSeconds, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	if o.Retry.Attempts == 0 {
		o.Retry.Attempts = -1
	}
	b, err := newRenewingConf(key, o)
	if err != nil {
		return nil, err
	}
	every := max(time.Duration(int(b.RenewEvery().Seconds()))*time.Second, time.Second)
	s := &ServiceSeconds{r: r, b: b, owner: o.Owner, secs: int64(int(b.TTL().Seconds())), every: every}
	if s.owner == "" {
		s.owner = b.Rand().Token()
	}
	return s, nil
}

// Owner is the owner id written into the hash.
func (s *ServiceSeconds) Owner() string { return s.owner }

// Acquire takes or re-enters the lock; a first acquisition starts the
// watchdog.
func (s *ServiceSeconds) Acquire(ctx context.Context) (*locks.Lease, error) {
	return s.b.Retry(ctx, func() (*locks.Lease, error) {
		start := s.b.Clock().Now()
		n, err := runInt(ctx, s.r, secondsAcquireScript, []string{s.b.key}, s.owner, s.secs)
		if err != nil {
			return nil, keyErr("acquire", s.b.key, err)
		}
		if n == 0 || s.b.Validity(s.b.Clock().Since(start)) <= 0 {
			return nil, keyErr("acquire", s.b.key, locks.ErrNotAcquired)
		}
		// The client believes its lease lasts the TTL it asked for.
		l, g := locks.NewLease(s.b.Clock(), s.b.key, s.owner, 0, int(n), start, s.b.Validity(0))
		s.entered(n, start, l, g)
		return l, nil
	})
}

// entered adds the new entry to the current holding, or starts a new
// holding (and its watchdog) when the server granted a first entry.
func (s *ServiceSeconds) entered(n int64, start time.Time, l *locks.Lease, g *locks.Holding) {
	s.mu.Lock()
	old := s.cur
	fresh := n == 1 || old == nil
	if fresh {
		ctx, stop := s.b.Clock().WithCancel(context.Background())
		g := &group{leases: map[*locks.Lease]*locks.Holding{}, stop: stop}
		s.cur = g
		s.b.Clock().Go(func() { s.watch(ctx, g) })
	}
	s.cur.leases[l] = g
	cur := s.cur
	s.mu.Unlock()
	if fresh && old != nil {
		s.finish(old, locks.ErrLockLost)
	}
	if !fresh {
		s.renewed(cur, start)
	}
}

// watch renews the holding every s.every with EXPIRE s.secs until it ends.
func (s *ServiceSeconds) watch(ctx context.Context, cur *group) {
	for {
		if s.b.Clock().Sleep(ctx, s.every) != nil {
			return
		}
		start := s.b.Clock().Now()
		rctx, cancel := s.b.Clock().WithTimeout(ctx, s.every)
		n, err := runInt(rctx, s.r, secondsRenewScript, []string{s.b.key}, s.owner, s.secs)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil && n == 1:
			s.renewed(cur, start)
		case err == nil:
			s.finish(cur, fmt.Errorf("%w: renewal refused", locks.ErrLockLost))
			return
		}
	}
}

// Release drops one entry; the last one stops the watchdog and frees the
// lock.
func (s *ServiceSeconds) Release(ctx context.Context, l *locks.Lease) error {
	n, err := runInt(ctx, s.r, secondsReleaseScript, []string{s.b.key}, s.owner, s.secs)
	if err != nil {
		return keyErr("release", s.b.key, err)
	}
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	switch {
	case n < 0:
		if cur != nil {
			s.finish(cur, locks.ErrLockLost)
		}
		return keyErr("release", s.b.key, locks.ErrNotHeld)
	case n == 0 && cur != nil:
		s.finish(cur, locks.ErrReleased)
	case cur != nil:
		s.drop(cur, l)
	}
	return nil
}

func (s *ServiceSeconds) renewed(cur *group, start time.Time) {
	s.mu.Lock()
	gs := make([]*locks.Holding, 0, len(cur.leases))
	for _, g := range cur.leases {
		gs = append(gs, g)
	}
	s.mu.Unlock()
	for _, g := range gs {
		g.Renewed(start, s.b.Validity(0))
	}
}

// drop ends one released entry of a holding that goes on.
func (s *ServiceSeconds) drop(cur *group, l *locks.Lease) {
	s.mu.Lock()
	g, ok := cur.leases[l]
	delete(cur.leases, l)
	s.mu.Unlock()
	if ok {
		g.End(locks.ErrReleased)
	}
}

// finish ends a whole holding with err and stops its watchdog.
func (s *ServiceSeconds) finish(cur *group, err error) {
	s.mu.Lock()
	gs := cur.leases
	cur.leases = map[*locks.Lease]*locks.Holding{}
	if s.cur == cur {
		s.cur = nil
	}
	s.mu.Unlock()
	cur.stop()
	for _, g := range gs {
		g.End(err)
	}
}
